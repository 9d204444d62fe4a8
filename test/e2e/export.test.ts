// `wsc export` end to end: the BUILT CLI against the emulator on a free
// loopback port, over a seeded deployment (60 reports, 12 legacy reports
// sharing a placeholder, 10 workbooks in nested folders with dashboards, and
// reports with hostile names; more of each than --concurrency, one page of
// each list: paging is pagination.test.ts's, size large-bundle's and the
// benchmark's):
//   (a) export, then plan on the same deployment: only the adoptions;
//   (b) export, then apply there: adopts the legacy reports, creates nothing,
//       and the next plan is empty;
//   (c) export, apply to the empty deployment 2 (per-deployment publicIds),
//       export that: the same files but for per-deployment values;
//   (d) two exports are byte-identical;
//   (e) every file validates against the schemas it names;
//   (f) hostile names stay inside DIR and do not collide.
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { Ajv } from 'ajv';
import { parse } from 'yaml';
import { afterAll, describe, expect, test } from 'vitest';
import { generateSeed, type Emulator, type SeedState } from '../../src/emulator/index.js';
import { derivePublicId } from '../../src/core/publicid.js';
import { cleanupTemp, emulatorEnv, runCli, target, tempDir, withEmulator } from './helpers/index.js';
import { tree } from '../helpers/tree.js';

afterAll(cleanupTemp);

const LEGACY = 12;
const HOSTILE = [
  '../../etc/x',
  'a/b',
  'a\\b',
  'CON',
  'Crème brûlée ☕',
  'Report',
  'report',
  '.hidden',
  'x'.repeat(200),
];
/** Folder ids of deployment 2 are these of deployment 1 plus this. */
const FOLDER_SHIFT = 100;

function seed(): SeedState {
  const s = generateSeed({ reports: 60, workbooks: 10, legacyReports: LEGACY, folders: 7, withDashboards: true });
  // Deployment 2 gets the same folder tree (other ids): folders are not managed by wsc.
  for (const f of [...(s.folders ?? [])]) {
    s.folders!.push({
      ...f,
      id: f.id + FOLDER_SHIFT,
      deploymentId: 2,
      parentId: f.parentId == null ? null : f.parentId + FOLDER_SHIFT,
    });
  }
  HOSTILE.forEach((name, i) => {
    s.reports!.push({
      id: 5000 + i,
      deploymentId: 1,
      publicId: `hostile${String(i).padStart(5, '0')}`,
      name,
      workbookId: 100,
      sqlQuery: `select '${'$'}{x}' -- ${i}`,
    });
  });
  s.userAttributes = [
    { id: 1, name: 'region', type: 'string', displayName: 'Region', defaultValue: 'EU' },
    { id: 2, name: 'Team/Name', type: 'string', description: 'hostile name' },
  ];
  return s;
}

function bundleOnly(t: Record<string, string>): Record<string, string> {
  return Object.fromEntries(Object.entries(t).filter(([k]) => /^(workbooks|reports|user-attributes)\//.test(k)));
}

async function exportTo(emu: Emulator, dir: string, deployment = 1, extra: string[] = []) {
  const r = await runCli(['export', '--out', dir, ...target(emu, deployment), ...extra], {
    env: emulatorEnv,
    cwd: tempDir(),
  });
  expect(r.stderr).not.toMatch(/\n\s+at /);
  expect(r.code, r.stderr).toBe(0);
  return r;
}

// Several CLI runs per test over an 81-report deployment: more than the default timeout on a busy 2-core machine.
describe('wsc export (e2e)', { timeout: 120_000 }, () => {
  test('(a) plan after export shows only the adoptions; (b) apply adopts and creates nothing, then plan is empty and a re-export only loses the adopt blocks; (d) deterministic; (e) schemas', async () => {
    await withEmulator({ seed: seed() }, async (emu) => {
      const dir = tempDir();
      const r = await exportTo(emu, dir, 1, ['--output', 'json']);
      const summary = JSON.parse(r.stdout);
      expect(summary.files).toEqual({ workbooks: 10, reports: 60 + LEGACY + HOSTILE.length, userAttributes: 2 });
      expect(summary.adoptions).toHaveLength(LEGACY);
      expect(summary.derivedSlugs).toEqual([]);
      expect(summary.configWritten).toBe(true);
      expect(emu.log.filter((e) => e.method !== 'GET')).toEqual([]);

      const files = tree(dir);
      // The token is never written; wsc.yaml names the variable.
      for (const text of Object.values(files)) expect(text).not.toContain('dev-token');
      expect(parse(files['wsc.yaml']!)).toEqual({
        defaultEnvironment: 'default',
        environments: { default: { baseUrl: emu.url, deploymentId: 1, token: '${env.WSC_TOKEN}', publicIds: 'as-is' } },
      });
      // Widget report ids became references; legacy reports carry adopt blocks.
      const wb1 = parse(files['workbooks/workbook-1.yaml']!);
      expect(wb1.meta.dashboardDraft.widgets[0].config.reportId).toEqual({
        $report: expect.stringMatching(/^[0-9A-Za-z]{12}$/),
      });
      expect(Object.values(files).filter((t) => /^adopt:/m.test(t))).toHaveLength(LEGACY);

      // (e) every file starts with its schema line and validates against that schema (ajv, as an editor would).
      const ajv = new Ajv({ allErrors: true, strict: false });
      for (const [rel, text] of Object.entries(files)) {
        if (rel.startsWith('schemas/') || rel === '.gitignore') continue;
        const m = /^# yaml-language-server: \$schema=(\S+)\n/.exec(text);
        expect(m, rel).not.toBeNull();
        const schemaFile = resolve(dirname(join(dir, rel)), m![1]!);
        expect(schemaFile.startsWith(join(dir, 'schemas/'))).toBe(true);
        const validate =
          ajv.getSchema(schemaFile) ??
          (ajv.addSchema(JSON.parse(readFileSync(schemaFile, 'utf8')), schemaFile), ajv.getSchema(schemaFile)!);
        expect(validate(parse(text)), `${rel}: ${JSON.stringify(validate.errors)}`).toBe(true);
      }

      // (d) a second export of the same state is byte-identical.
      const again = tempDir();
      await exportTo(emu, again);
      expect(tree(again)).toEqual(files);

      // (a) plan on the same deployment: every legacy report to adopt, nothing else.
      const plan = await runCli(['plan', '--dir', dir, '--output', 'json', '--detailed-exitcode'], {
        env: emulatorEnv,
      });
      expect(plan.code, plan.stderr).toBe(2);
      const p = JSON.parse(plan.stdout);
      expect(p.summary).toMatchObject({ create: 0, update: 0, adopt: LEGACY, publish: 0 });
      expect(p.summary.unmanaged).toEqual({ workbooks: 0, reports: 0, userAttributes: 0 });

      // (b) apply there: the legacy reports get their publicIds; nothing is created.
      emu.clearLog();
      const apply = await runCli(['apply', '--dir', dir, '--auto-approve'], { env: emulatorEnv });
      expect(apply.code, apply.stderr).toBe(0);
      // The deployment token the semantic check mints is no write of content.
      const writes = emu.log.filter((e) => e.method !== 'GET' && !e.path.endsWith('/token'));
      expect(writes.filter((e) => e.method === 'POST')).toEqual([]);
      expect(writes.map((e) => `${e.method} ${e.path}`).sort()).toEqual(
        summary.adoptions.map((a: { reportId: number }) => `PUT /api/v1/deployments/1/reports/${a.reportId}`).sort(),
      );
      for (const w of writes) expect(Object.keys(w.requestBody as object)).toEqual(['publicId']);

      const after = await runCli(['plan', '--dir', dir, '--detailed-exitcode'], { env: emulatorEnv });
      expect(after.code, after.stdout + after.stderr).toBe(0);

      // Exported again: the same files, but the adopted reports need no adopt block any more.
      const third = tempDir();
      await exportTo(emu, third);
      const withoutAdopt = Object.fromEntries(
        Object.entries(bundleOnly(files)).map(([k, t]) => [k, t.replace(/^adopt:.*\n( {2}.*\n)*/m, '')]),
      );
      expect(bundleOnly(tree(third))).toEqual(withoutAdopt);
    });
  });

  test('(c) apply to the empty deployment 2 with per-deployment publicIds, export it: the same files but for per-deployment values', async () => {
    await withEmulator({ seed: seed() }, async (emu) => {
      const one = tempDir();
      await exportTo(emu, one);
      const files1 = tree(one);

      // Folders are named by path: deployment 2 has the same tree under other ids, and the files need no change.
      const foldered = Object.entries(files1).filter(
        ([rel, text]) => /^(workbooks|reports)\//.test(rel) && /^folder: /m.test(text),
      );
      expect(foldered.length).toBeGreaterThan(1);
      expect(Object.values(files1).join('\n')).not.toMatch(/^folderId:/m);
      writeFileSync(
        join(one, 'wsc.yaml'),
        `${files1['wsc.yaml']}  two:\n    baseUrl: ${emu.url}\n    deploymentId: 2\n    token: \${env.WSC_TOKEN}\n    publicIds: per-deployment\n`,
      );

      const apply = await runCli(['apply', '--dir', one, '--env', 'two', '--auto-approve', '--output', 'json'], {
        env: emulatorEnv,
      });
      expect(apply.code, apply.stderr).toBe(0);
      const plan2 = await runCli(['plan', '--dir', one, '--env', 'two', '--detailed-exitcode'], { env: emulatorEnv });
      expect(plan2.code, plan2.stdout + plan2.stderr).toBe(0);

      const two = tempDir();
      const r = await runCli(['export', '--out', two, '--dir', one, '--env', 'two', '--output', 'json'], {
        env: emulatorEnv,
        cwd: tempDir(),
      });
      expect(r.code, r.stderr).toBe(0);
      const s2 = JSON.parse(r.stdout);
      expect(s2.adoptions).toEqual([]);
      expect(s2.warnings.map((w: { code: string }) => w.code)).toContain('per-deployment-ids');
      const files2 = tree(two);

      // Per-deployment values: publicIds (derived in 2), the adopt blocks (of 1), file names of
      // reports whose names collide (suffixed by a hash of the publicId), wsc.yaml.
      const logical = new Map<string, string>();
      for (const [rel, text] of Object.entries(files1)) {
        if (!rel.startsWith('reports/')) continue;
        const pid = parse(text).publicId as string;
        logical.set(derivePublicId(pid, 2), pid);
      }
      const normalize = (t: Record<string, string>, dep: 1 | 2) => {
        const out: Record<string, string> = {};
        for (const [rel, text] of Object.entries(bundleOnly(t))) {
          let x = text.replace(/^adopt:.*\n( {2}.*\n)*/m, '');
          if (dep === 2) x = x.replace(/\b[0-9A-Za-z]{12}\b/g, (id) => logical.get(id) ?? id);
          const doc = parse(x);
          const key = doc.kind === 'Report' ? `report/${doc.publicId}` : rel;
          out[key] = x;
        }
        return out;
      };
      expect(normalize(files2, 2)).toEqual(normalize(files1, 1));
      // Names that do not collide keep their file names across deployments.
      expect(Object.keys(files2)).toContain('reports/report-00001.yaml');
      expect(
        Object.keys(files2)
          .filter((k) => k.startsWith('workbooks/'))
          .sort(),
      ).toEqual(
        Object.keys(files1)
          .filter((k) => k.startsWith('workbooks/'))
          .sort(),
      );
      expect(parse(files2['wsc.yaml']!).environments.two).toEqual({
        baseUrl: emu.url,
        deploymentId: 2,
        token: '${env.WSC_TOKEN}',
        publicIds: 'as-is',
      });
    });
  });

  test('(a) without legacy reports, plan right after export has no changes at all (exit 0 with --detailed-exitcode)', async () => {
    const s = generateSeed({ reports: 40, workbooks: 4, folders: 4, withDashboards: true });
    await withEmulator({ seed: s }, async (emu) => {
      const dir = tempDir();
      const r = await exportTo(emu, dir);
      expect(r.stdout).toMatch(
        /^Exported deployment 1 to .*: 4 workbooks, 40 reports, 0 user attributes \(44 files\)\.$/m,
      );
      expect(r.stdout).not.toMatch(/adopt/);
      const plan = await runCli(['plan', '--dir', dir, '--detailed-exitcode'], { env: emulatorEnv });
      expect(plan.code, plan.stdout + plan.stderr).toBe(0);
      expect(plan.stdout).toMatch(/No changes/);
    });
  });

  test('(f) hostile names stay inside DIR and do not collide, even case-insensitively', async () => {
    await withEmulator({ seed: seed() }, async (emu) => {
      const parent = tempDir();
      const dir = join(parent, 'out');
      await exportTo(emu, dir);
      // Nothing next to DIR, nothing above it.
      expect(readdirSync(parent)).toEqual(['out']);
      const files = Object.keys(tree(dir));
      const lower = new Set(files.map((f) => f.toLowerCase()));
      expect(lower.size).toBe(files.length);
      for (const f of files)
        expect(f).toMatch(
          /^(wsc\.yaml|\.gitignore|schemas\/[a-z-]+\.schema\.json|(workbooks|reports|user-attributes)\/[a-z0-9_][a-z0-9_.-]*\.yaml)$/,
        );
      const names = new Map<string, string>();
      for (const f of files.filter((x) => x.startsWith('reports/')))
        names.set(parse(readFileSync(join(dir, f), 'utf8')).name, f);
      expect(names.get('../../etc/x')).toBe('reports/etc-x.yaml');
      expect(names.get('CON')).toBe('reports/_con.yaml');
      expect(names.get('.hidden')).toBe('reports/hidden.yaml');
      expect(names.get('Report')).toMatch(/^reports\/report\.[0-9a-f]{8}\.yaml$/);
      expect(names.get('report')).toMatch(/^reports\/report\.[0-9a-f]{8}\.yaml$/);
      expect(names.get('a/b')).toMatch(/^reports\/a-b\.[0-9a-f]{8}\.yaml$/);
      expect(names.get('a\\b')).toMatch(/^reports\/a-b\.[0-9a-f]{8}\.yaml$/);
      expect(names.get('x'.repeat(200))).toMatch(/^reports\/x{60}\.[0-9a-f]{8}\.yaml$/);
      expect(names.get('Crème brûlée ☕')).toBe('reports/creme-brulee.yaml');
      expect(files).toContain('user-attributes/team-name.yaml');
      expect(existsSync(join(parent, 'etc'))).toBe(false);
    });
  });

  test('--workbook: that workbook and its reports only; an unknown slug fails with exit 1 and writes nothing; a slugless workbook is explained', async () => {
    const s = seed();
    s.workbooks!.push({ id: 900, deploymentId: 1, name: 'Ops Board', slug: null, meta: {} });
    s.reports!.push({ id: 9000, deploymentId: 1, publicId: 'opsReport001', name: 'Ops report', workbookId: 900 });
    await withEmulator({ seed: s }, async (emu) => {
      const dir = tempDir();
      const r = await exportTo(emu, dir, 1, ['--workbook', 'Workbook-3']);
      expect(r.stdout).toMatch(/^Exported deployment 1 to .*: 1 workbook, \d+ reports, 0 user attributes/);
      const files = Object.keys(tree(dir));
      expect(files.filter((f) => f.startsWith('workbooks/'))).toEqual(['workbooks/workbook-3.yaml']);
      for (const f of files.filter((x) => x.startsWith('reports/'))) {
        expect(parse(readFileSync(join(dir, f), 'utf8')).workbookId).toEqual({ $workbook: 'workbook-3' });
      }

      const bad = tempDir();
      const u = await runCli(['export', '--out', bad, ...target(emu), '--workbook', 'nope'], {
        env: emulatorEnv,
        cwd: tempDir(),
      });
      expect(u.code).toBe(1);
      expect(u.stderr).toContain('deployment 1 has no workbook with slug "nope"');
      expect(Object.keys(tree(bad)).filter((f) => !f.startsWith('schemas/'))).toEqual([]);

      const all = tempDir();
      const a = await exportTo(emu, all);
      expect(a.stdout).toContain('1 workbook had no slug; export derived one from the name, with an adopt block.');
      expect(a.stdout).toContain(
        'workbooks/ops-board.yaml: "Ops Board" (workbook 900) → slug ops-board (1 report in it)',
      );
      expect(parse(readFileSync(join(all, 'workbooks/ops-board.yaml'), 'utf8')).adopt).toEqual({
        deploymentId: 1,
        id: 900,
      });
      expect(parse(readFileSync(join(all, 'reports/ops-report.yaml'), 'utf8')).workbookId).toEqual({
        $workbook: 'ops-board',
      });
    });
  });

  test('an output directory with a link pointing outside is refused before anything is read (exit 3)', async () => {
    await withEmulator({ seed: seed() }, async (emu) => {
      const dir = tempDir();
      const outside = tempDir();
      const { symlinkSync } = await import('node:fs');
      symlinkSync(outside, join(dir, 'reports'));
      const r = await runCli(['export', '--out', dir, ...target(emu)], { env: emulatorEnv, cwd: tempDir() });
      expect(r.code).toBe(3);
      expect(r.stderr).toMatch(/symbolic link/);
      expect(emu.log).toEqual([]);
      expect(readdirSync(outside)).toEqual([]);
    });
  });
});
