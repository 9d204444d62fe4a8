// Folders by path, end to end (built CLI against the emulator): one bundle
// with nested folders (names with `/`, unicode and trailing spaces) creates
// the same tree in two fresh deployments, then plans empty in both; export
// writes paths and plans empty; two concurrent applies converge on one tree
// by the race rule; a move is a plan line and its 403 names both accesses;
// two folders of one name: the lower id, with a warning naming both.
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { requests, type SeedFolder, type SeedState } from '../../src/emulator/index.js';
import { defaultSeed } from '../../src/emulator/seed.js';
import { reportsIn, workbooksIn } from './helpers/bundles.js';
import type { Emulator } from './helpers/index.js';
import { e2eSuite, emulatorEnv, runCli, target, tempDir, withEmulator, writeFiles } from './helpers/index.js';

e2eSuite();

const PID = (i: number) => `fold${String(i).padStart(8, '0')}`;

/** Workbooks and reports in nested folders, one at the root, one with `folder: /`. */
export function folderBundle(): Record<string, string> {
  return {
    'workbooks/sales.yaml': 'kind: Workbook\nslug: sales\nname: Sales\nfolder: Finance/Revenue\n',
    'workbooks/ops.yaml': 'kind: Workbook\nslug: ops\nname: Ops\nfolder: "Équipe ☃/Q1 \\\\/ Q2 "\n',
    'workbooks/root.yaml': 'kind: Workbook\nslug: root-wb\nname: Root\nfolder: /\n',
    'reports/r0.yaml': `kind: Report\npublicId: ${PID(0)}\nname: R0\nworkbookId: { $workbook: sales }\nfolder: Finance/Revenue/Deep/Deeper\n`,
    'reports/r1.yaml': `kind: Report\npublicId: ${PID(1)}\nname: R1\nfolder: Finance\n`,
    'reports/r2.yaml': `kind: Report\npublicId: ${PID(2)}\nname: R2\nfolder: "Équipe ☃/Q1 \\\\/ Q2 "\n`,
  };
}

/** Folder paths (names from the root, joined by ` > `) with the ids they have. */
function tree(emu: Emulator, dep: number): Map<string, number[]> {
  const folders = (emu.snapshot().folders ?? []).filter((f) => f.deploymentId === dep);
  const byId = new Map(folders.map((f) => [f.id, f]));
  const pathOf = (f: SeedFolder): string => {
    const names: string[] = [];
    for (let c: SeedFolder | undefined = f; c; c = c.parentId == null ? undefined : byId.get(c.parentId))
      names.unshift(c.name);
    return names.join(' > ');
  };
  const out = new Map<string, number[]>();
  for (const f of folders) out.set(pathOf(f), [...(out.get(pathOf(f)) ?? []), f.id]);
  return out;
}

const EXPECTED_TREE = [
  'Finance',
  'Finance > Revenue',
  'Finance > Revenue > Deep',
  'Finance > Revenue > Deep > Deeper',
  'Équipe ☃',
  'Équipe ☃ > Q1 / Q2 ',
];

function folderOf(emu: Emulator, dep: number, id: number | null | undefined): string {
  if (id == null) return '/';
  for (const [path, ids] of tree(emu, dep)) if (ids.includes(id)) return path;
  return `? ${id}`;
}

describe('folders by path', () => {
  test('one bundle, two fresh deployments: the same tree in each (different ids), then both plan empty; export writes paths and plans empty', async () => {
    const dir = writeFiles(folderBundle());
    // Two emulators (publicIds are unique per account); the second issues other folder ids.
    const second: SeedState = { ...defaultSeed(), counters: { folder: 500 } };
    await withEmulator({}, (emu) =>
      withEmulator({ seed: second }, async (emu2) => {
        const trees: Map<string, number[]>[] = [];
        const emus = [emu, emu2];
        for (const e of [0, 1]) {
          const emu = emus[e]!;
          const dep = 1;
          const plan = await runCli(['plan', '--dir', dir, ...target(emu, dep)], { env: emulatorEnv });
          expect(plan.code, plan.stderr).toBe(0);
          expect(plan.stdout).toContain('+ folder/Finance/Revenue will be created');
          expect(plan.stdout).toContain('+ folder/Équipe ☃/Q1 \\/ Q2  will be created');
          const apply = await runCli(['apply', '--auto-approve', '--dir', dir, ...target(emu, dep)], {
            env: emulatorEnv,
          });
          expect(apply.code, apply.stderr).toBe(0);
          const again = await runCli(['plan', '--detailed-exitcode', '--dir', dir, ...target(emu, dep)], {
            env: emulatorEnv,
          });
          expect(again.code, again.stdout).toBe(0);
          trees.push(tree(emu, dep));
          const wbs = workbooksIn(emu, dep);
          expect(folderOf(emu, dep, wbs.find((w) => w.slug === 'sales')!.folderId)).toBe('Finance > Revenue');
          expect(folderOf(emu, dep, wbs.find((w) => w.slug === 'ops')!.folderId)).toBe('Équipe ☃ > Q1 / Q2 ');
          expect(wbs.find((w) => w.slug === 'root-wb')!.folderId).toBeNull();
          const reps = reportsIn(emu, dep);
          expect(folderOf(emu, dep, reps.find((r) => r.publicId === PID(0))!.folderId)).toBe(
            'Finance > Revenue > Deep > Deeper',
          );
          expect(folderOf(emu, dep, reps.find((r) => r.publicId === PID(1))!.folderId)).toBe('Finance');
        }
        expect([...trees[0]!.keys()].sort()).toEqual(EXPECTED_TREE);
        expect([...trees[1]!.keys()].sort()).toEqual(EXPECTED_TREE);
        for (const path of EXPECTED_TREE) {
          expect(trees[0]!.get(path)).toHaveLength(1);
          expect(trees[1]!.get(path)).toHaveLength(1);
          expect(trees[0]!.get(path)![0]).not.toBe(trees[1]!.get(path)![0]);
        }
        // One create per folder.
        expect(requests(emu2.log, 'POST', '/api/v1/deployments/1/folders')).toHaveLength(EXPECTED_TREE.length);

        // Export: paths, never ids; export -> plan is empty.
        const out = tempDir();
        const exp = await runCli(['export', '--out', out, ...target(emu, 1)], { env: emulatorEnv });
        expect(exp.code, exp.stderr).toBe(0);
        const texts = ['workbooks', 'reports'].flatMap((d) =>
          readdirSync(join(out, d)).map((f) => readFileSync(join(out, d, f), 'utf8')),
        );
        expect(texts.join('\n')).not.toMatch(/folderId/);
        expect(texts.join('\n')).toContain('folder: Finance/Revenue/Deep/Deeper');
        expect(texts.join('\n')).toContain('folder: "Équipe ☃/Q1 \\\\/ Q2 "');
        const planExport = await runCli(['plan', '--detailed-exitcode', '--dir', out, ...target(emu, 1)], {
          env: emulatorEnv,
        });
        expect(planExport.code, planExport.stdout + planExport.stderr).toBe(0);
      }),
    );
  });

  test('two concurrent applies to one deployment converge on one tree: the loser of each race deletes its own empty copy', async () => {
    const dir = writeFiles(folderBundle());
    // Slow answers until both runs have read the folders: both plan every folder as a create and really race.
    await withEmulator({ latencyMs: 1_500, randomSeed: 7 }, async (emu) => {
      const args = ['apply', '--auto-approve', '--dir', dir, ...target(emu)];
      let settled = false;
      const pending = Promise.all([0, 1].map(() => runCli(args, { env: emulatorEnv, timeoutMs: 120_000 }))).finally(
        () => (settled = true),
      );
      while (!settled && requests(emu.log, 'GET', '/api/v1/deployments/1/folders').length < 2)
        await new Promise((r) => setTimeout(r, 20));
      emu.setLatency({ min: 1, max: 10 });
      const runs = await pending;
      for (const r of runs) expect(r.code, r.stdout + r.stderr).toBe(0);
      const t = tree(emu, 1);
      expect([...t.keys()].sort()).toEqual(EXPECTED_TREE);
      for (const ids of t.values()) expect(ids).toHaveLength(1);
      // Both runs created the root folders; each loser deleted its copy (a higher id) and used the winner's.
      const created = requests(emu.log, 'POST', '/api/v1/deployments/1/folders').filter((e) => e.status === 200);
      const deleted = emu.log.filter((e) => e.method === 'DELETE' && e.path.includes('/folders/') && e.status === 200);
      expect(created.length).toBeGreaterThan(EXPECTED_TREE.length);
      expect(deleted).toHaveLength(created.length - EXPECTED_TREE.length);
      for (const d of deleted) {
        const id = Number(d.path.split('/').pop());
        expect([...t.values()].flat()).not.toContain(id);
      }
      const plan = await runCli(['plan', '--detailed-exitcode', '--dir', dir, ...target(emu)], { env: emulatorEnv });
      expect(plan.code, plan.stdout).toBe(0);
    });
  });

  test('two folders of one name under one parent: the lower id is used, and the plan warns naming both', async () => {
    const seed: SeedState = {
      ...defaultSeed(),
      folders: [
        { id: 21, deploymentId: 1, name: 'Dup', parentId: null },
        { id: 20, deploymentId: 1, name: 'Dup', parentId: null },
      ],
    };
    const dir = writeFiles({ 'workbooks/w.yaml': 'kind: Workbook\nslug: w\nname: W\nfolder: Dup\n' });
    await withEmulator({ seed }, async (emu) => {
      const plan = await runCli(['plan', '--dir', dir, ...target(emu)], { env: emulatorEnv });
      expect(plan.code, plan.stderr).toBe(0);
      expect(plan.stdout).toMatch(
        /warning 2 folders named "Dup" under \/ \(ids 20, 21\): `Dup` is the lower id, 20; `Dup\[2\]` names the other/,
      );
      expect(plan.stdout).not.toContain('folder/Dup will be created');
      const apply = await runCli(['apply', '--auto-approve', '--dir', dir, ...target(emu)], { env: emulatorEnv });
      expect(apply.code, apply.stderr).toBe(0);
      expect(workbooksIn(emu).find((w) => w.slug === 'w')!.folderId).toBe(20);
      expect(requests(emu.log, 'POST', '/api/v1/deployments/1/folders')).toHaveLength(0);
    });
  });

  test('moving a workbook is a plan line; a 403 there names manage access to the workbook and edit access to the destination', async () => {
    const seed: SeedState = {
      ...defaultSeed(),
      folders: [
        { id: 30, deploymentId: 1, name: 'A', parentId: null },
        { id: 31, deploymentId: 1, name: 'B', parentId: null },
      ],
      // The creator may edit the workbook (and see both folders) but not manage it, nor edit B.
      grants: [
        { userId: 2, resourceType: 'workbook', resourceId: 100, level: 'edit' },
        { userId: 2, resourceType: 'folder', resourceId: 30, level: 'view' },
        { userId: 2, resourceType: 'folder', resourceId: 31, level: 'view' },
      ],
      workbooks: [{ id: 100, deploymentId: 1, name: 'W', slug: 'w', folderId: 30, userId: 1 }],
    };
    const dir = writeFiles({ 'workbooks/w.yaml': 'kind: Workbook\nslug: w\nname: W\nfolder: B\n' });
    await withEmulator({ seed }, async (emu) => {
      const env = { WSC_TOKEN: 'creator-token' };
      const plan = await runCli(['plan', '--dir', dir, ...target(emu)], { env });
      expect(plan.code, plan.stderr).toBe(0);
      expect(plan.stdout).toContain('folder: "A" → "B"');
      const apply = await runCli(['apply', '--auto-approve', '--dir', dir, ...target(emu)], { env });
      expect(apply.code).toBe(1);
      const text = apply.stdout + apply.stderr;
      expect(text).toMatch(
        /Moving workbook\/w from folder A to folder B was refused \(403\): it needs manage access to the workbook and edit access to the destination folder B/,
      );
      expect(workbooksIn(emu).find((w) => w.slug === 'w')!.folderId).toBe(30);
    });
  });
});

describe.each(['all', 'root-only'] as const)(
  'workbook listing %s: workbooks in folders are found',
  (workbookListing) => {
    test('apply, plan empty, export finds the foldered workbooks, export -> plan empty', async () => {
      const dir = writeFiles(folderBundle());
      await withEmulator({ workbookListing }, async (emu) => {
        const apply = await runCli(['apply', '--auto-approve', '--dir', dir, ...target(emu)], { env: emulatorEnv });
        expect(apply.code, apply.stderr).toBe(0);
        // Under root-only, the list without folderId shows only the root workbook.
        const rootList = (await (
          await fetch(`${emu.url}/api/v1/deployments/1/workbooks`, { headers: { authorization: 'Bearer dev-token' } })
        ).json()) as { items: { slug: string }[] };
        expect(rootList.items.map((w) => w.slug).sort()).toEqual(
          workbookListing === 'all' ? ['ops', 'root-wb', 'sales'] : ['root-wb'],
        );
        emu.clearLog();
        const plan = await runCli(['plan', '--detailed-exitcode', '--dir', dir, ...target(emu)], { env: emulatorEnv });
        expect(plan.code, plan.stdout).toBe(0);
        expect(workbooksIn(emu)).toHaveLength(3);
        // Per-folder listings only when the root listing leaves foldered workbooks out.
        const perFolder = requests(emu.log, 'GET', '/api/v1/deployments/1/workbooks').filter(
          (e) => e.query['folderId'] !== undefined,
        );
        if (workbookListing === 'all') expect(perFolder).toHaveLength(0);
        else expect(perFolder.length).toBe(EXPECTED_TREE.length);

        const out = tempDir();
        const exp = await runCli(['export', '--out', out, ...target(emu)], { env: emulatorEnv });
        expect(exp.code, exp.stderr).toBe(0);
        expect(readdirSync(join(out, 'workbooks')).sort()).toEqual(['ops.yaml', 'root-wb.yaml', 'sales.yaml']);
        const planExport = await runCli(['plan', '--detailed-exitcode', '--dir', out, ...target(emu)], {
          env: emulatorEnv,
        });
        expect(planExport.code, planExport.stdout + planExport.stderr).toBe(0);

        // wsc doctor tells which listing the server has.
        const doctor = await runCli(['doctor', '--dir', dir, ...target(emu)], { env: emulatorEnv });
        expect(doctor.code, doctor.stdout).toBe(0);
        expect(doctor.stdout).toContain(
          workbookListing === 'all'
            ? '✓ workbook listing: GET /workbooks lists the workbooks in folders too'
            : '✓ workbook listing: GET /workbooks lists the root level only',
        );
      });
    });
  },
);
