// Issue 38, end to end (the built CLI against the emulator as a real server):
// drift is never hidden (plan, apply, JSON, markdown), `--overwrite-ui-edits`
// and `uiEdits: revert` write the bundle's value over an edit made outside
// wsc, `uiEdits: block` and a conflict exit 5 from `plan --detailed-exitcode`,
// a saved plan keeps its policy, and `wsc drift` reads and compares only.
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { writes } from '../../src/emulator/index.js';
import { api, pid, reportsIn, workbooksIn, writeBundle } from './helpers/bundles.js';
import { e2eSuite, type Emulator, emulatorEnv, runCli, target, tempDir, withEmulator } from './helpers/index.js';

e2eSuite();

const ADDR = `report/${pid(1)}`;
const MRR = `kind: Report\npublicId: ${pid(1)}\nname: mrr\ntitle: Monthly recurring revenue\nsqlQuery: select 1\n`;
const named = (extra = '') => `bundle: team-a\nenvironments:\n  test:\n    deploymentId: 1\n${extra}`;

async function cli(args: string[], dir: string, emu: Emulator) {
  return runCli([...args, '--dir', dir, ...target(emu)], { env: emulatorEnv });
}

/** The bundle applied, then the report's title edited as the UI would (meta, with the record, untouched). */
async function appliedThenEdited(emu: Emulator, extra = ''): Promise<{ dir: string; id: number }> {
  const dir = writeBundle({ wscYaml: named(extra), files: { 'reports/mrr.yaml': MRR } });
  expect((await cli(['apply', '--auto-approve'], dir, emu)).code).toBe(0);
  const r = reportsIn(emu).find((x) => x.publicId === pid(1))!;
  expect((await api(emu, 'PUT', `/api/v1/deployments/1/reports/${r.id}`, { title: 'Edited in the UI' })).status).toBe(
    200,
  );
  emu.clearLog();
  return { dir, id: r.id };
}

const titleOf = (emu: Emulator, id: number) => reportsIn(emu).find((r) => r.id === id)!.title;
const DRIFT_LINE = `${ADDR} title: "Edited in the UI" → "Monthly recurring revenue"  (reports/mrr.yaml:4:1)`;

describe('drift is never hidden', () => {
  test('a kept UI edit: plan, markdown, JSON and a no-op apply name the field, live → bundle, file:line:col; nothing is written', async () => {
    await withEmulator({}, async (emu) => {
      const { dir, id } = await appliedThenEdited(emu);
      const p = await cli(['plan', '--detailed-exitcode'], dir, emu);
      expect(p.code).toBe(0);
      expect(p.stdout).not.toContain('matches the bundle');
      expect(p.stdout).toContain('No changes to make. 1 field differs from the bundle, kept as edited outside wsc.');
      expect(p.stdout).toContain(`${DRIFT_LINE}: kept, edited outside wsc`);

      const json = JSON.parse((await cli(['plan', '--output', 'json'], dir, emu)).stdout) as Record<string, unknown>;
      expect(json['uiEdits']).toBe('keep');
      expect(json['drift']).toEqual([
        {
          address: ADDR,
          field: 'title',
          live: 'Edited in the UI',
          bundle: 'Monthly recurring revenue',
          changed: 'outside',
          apply: 'keep',
          file: 'reports/mrr.yaml',
          line: 4,
          col: 1,
        },
      ]);
      const md = (await cli(['plan', '--output', 'markdown'], dir, emu)).stdout;
      expect(md).toContain('No changes to make. 1 field differs from the bundle, kept as edited outside wsc.');
      expect(md).toContain('title: &quot;Edited in the UI&quot; → &quot;Monthly recurring revenue&quot;');

      const a = await cli(['apply', '--auto-approve'], dir, emu);
      expect(a.code).toBe(0);
      expect(a.stdout).toContain('No changes to make. 1 field differs from the bundle, kept as edited outside wsc.');
      expect(a.stdout).toContain(`${DRIFT_LINE}: kept, edited outside wsc`);
      const aj = JSON.parse((await cli(['apply', '--auto-approve', '--output', 'json'], dir, emu)).stdout) as {
        drift: unknown[];
      };
      expect(aj.drift).toHaveLength(1);
      expect(writes(emu.log)).toEqual([]);
      expect(titleOf(emu, id)).toBe('Edited in the UI');

      // the printed way to end it, followed literally: the file takes the live value, and nothing differs
      const take = await runCli(['export', '--only', ADDR, '--into', dir, ...target(emu)], { env: emulatorEnv });
      expect(take.code).toBe(0);
      // what is left is the record learning the file's new value: apply sends it, so the plan says so (exit 2)
      const recordOnly = await cli(['plan', '--detailed-exitcode'], dir, emu);
      expect(recordOnly.code).toBe(2);
      expect(recordOnly.stdout).toContain('Plan: 1 ownership record to write, no content to change.');
      expect(recordOnly.stdout).not.toContain('differs from the bundle');
      emu.clearLog();
      expect((await cli(['apply', '--auto-approve'], dir, emu)).code).toBe(0);
      expect(writes(emu.log)).toHaveLength(1);
      expect(titleOf(emu, id)).toBe('Edited in the UI');
      const after = await cli(['plan', '--detailed-exitcode'], dir, emu);
      expect(after.code).toBe(0);
      expect(after.stdout).toContain('No changes. The deployment matches the bundle.');
    });
  });
});

describe('Git wins when you say so', () => {
  test('--overwrite-ui-edits (all) and --overwrite-ui-edits ADDR write the bundle back; the next plan matches', async () => {
    await withEmulator({}, async (emu) => {
      const { dir, id } = await appliedThenEdited(emu);
      const all = await cli(['apply', '--auto-approve', '--overwrite-ui-edits'], dir, emu);
      expect(all.code).toBe(0);
      expect(all.stdout).toContain(
        'title: "Edited in the UI" → "Monthly recurring revenue" (edited outside wsc)  (reports/mrr.yaml:4:1)',
      );
      expect(writes(emu.log)).toHaveLength(1);
      expect(titleOf(emu, id)).toBe('Monthly recurring revenue');
      const clean = await cli(['plan', '--detailed-exitcode'], dir, emu);
      expect(clean.code).toBe(0);
      expect(clean.stdout).toContain('No changes. The deployment matches the bundle.');

      await api(emu, 'PUT', `/api/v1/deployments/1/reports/${id}`, { title: 'Edited in the UI' });
      emu.clearLog();
      const one = await cli(['apply', '--auto-approve', '--overwrite-ui-edits', ADDR], dir, emu);
      expect(one.code).toBe(0);
      expect(writes(emu.log)).toHaveLength(1);
      expect(titleOf(emu, id)).toBe('Monthly recurring revenue');
    });
  });

  test('uiEdits: revert in wsc.yaml reverts on every apply; --ui-edits keep for one run keeps', async () => {
    await withEmulator({}, async (emu) => {
      const { dir, id } = await appliedThenEdited(emu, '    uiEdits: revert\n');
      const p = await cli(['plan', '--detailed-exitcode'], dir, emu);
      expect(p.code).toBe(2);
      expect(p.stdout).toContain(`~ ${ADDR} will be updated`);
      expect(p.stdout).toContain('title: "Edited in the UI" → "Monthly recurring revenue" (edited outside wsc)');
      expect(p.stdout).toContain(`${DRIFT_LINE}: edited outside wsc; apply writes the bundle's value`);

      const kept = await cli(['apply', '--auto-approve', '--ui-edits', 'keep'], dir, emu);
      expect(kept.code).toBe(0);
      expect(writes(emu.log)).toEqual([]);
      expect(titleOf(emu, id)).toBe('Edited in the UI');

      expect((await cli(['apply', '--auto-approve'], dir, emu)).code).toBe(0);
      expect(titleOf(emu, id)).toBe('Monthly recurring revenue');
      // every apply: edited again, reverted again
      await api(emu, 'PUT', `/api/v1/deployments/1/reports/${id}`, { title: 'Again' });
      expect((await cli(['apply', '--auto-approve'], dir, emu)).code).toBe(0);
      expect(titleOf(emu, id)).toBe('Monthly recurring revenue');
    });
  });

  test('uiEdits: block (or --ui-edits block) blocks the resource: plan --detailed-exitcode and apply exit 5, nothing written', async () => {
    await withEmulator({}, async (emu) => {
      const { dir, id } = await appliedThenEdited(emu, '    uiEdits: block\n');
      const p = await cli(['plan', '--detailed-exitcode'], dir, emu);
      expect(p.code).toBe(5);
      expect(p.stdout).toContain('! changed outside wsc since the last apply (uiEdits: block): title');
      const a = await cli(['apply', '--auto-approve'], dir, emu);
      expect(a.code).toBe(5);
      expect(writes(emu.log)).toEqual([]);
      expect(titleOf(emu, id)).toBe('Edited in the UI');
      // the printed way forward, followed literally
      expect(a.stdout).toContain(`wsc apply --overwrite-ui-edits ${ADDR}`);
      expect((await cli(['apply', '--auto-approve', '--overwrite-ui-edits', ADDR], dir, emu)).code).toBe(0);
      expect(titleOf(emu, id)).toBe('Monthly recurring revenue');
    });
  });

  test('a conflict (both sides changed the field): plan --detailed-exitcode exits 5, as apply does', async () => {
    await withEmulator({}, async (emu) => {
      const { dir } = await appliedThenEdited(emu);
      writeFileSync(join(dir, 'reports/mrr.yaml'), MRR.replace('Monthly recurring revenue', 'MRR'));
      const p = await cli(['plan', '--detailed-exitcode'], dir, emu);
      expect(p.code).toBe(5);
      expect(p.stdout).toContain('1 blocked by a UI edit');
      expect(p.stdout).toContain(
        `${ADDR} title: "Edited in the UI" → "MRR"  (reports/mrr.yaml:4:1): edited outside wsc and changed in the bundle; blocked`,
      );
      expect((await cli(['apply', '--auto-approve'], dir, emu)).code).toBe(5);
      // revert for one run resolves it the bundle's way
      const r = await cli(['plan', '--detailed-exitcode', '--ui-edits', 'revert'], dir, emu);
      expect(r.code).toBe(2);
    });
  });

  test('a saved plan records its policy and is applied with it; --ui-edits cannot change it', async () => {
    await withEmulator({}, async (emu) => {
      const { dir, id } = await appliedThenEdited(emu);
      const file = join(tempDir(), 'plan.json');
      expect((await cli(['plan', '--ui-edits', 'revert', '--out', file], dir, emu)).code).toBe(0);
      const refused = await cli(['apply', file, '--ui-edits', 'keep'], dir, emu);
      expect(refused.code).toBe(3);
      expect(refused.stderr).toContain('[ui_edits_with_plan]');
      expect(writes(emu.log)).toEqual([]);
      expect((await cli(['apply', file], dir, emu)).code).toBe(0);
      expect(titleOf(emu, id)).toBe('Monthly recurring revenue');
    });
  });

  test('a widget moved in the UI is drift of that widget; revert moves it back', async () => {
    await withEmulator({}, async (emu) => {
      const dir = writeBundle({ workbook: true, dashboard: true, reports: 2, wscYaml: named() });
      expect((await cli(['apply', '--auto-approve'], dir, emu)).code).toBe(0);
      const wb = workbooksIn(emu)[0]!;
      const draft = (wb.meta as { dashboardDraft: { widgets: { id: string; position: object }[] } }).dashboardDraft;
      const moved = {
        ...draft,
        widgets: draft.widgets.map((w) => (w.id === 'w1' ? { ...w, position: { x: 6, y: 0, w: 6, h: 4 } } : w)),
      };
      const put = await api(emu, 'PUT', `/api/v1/deployments/1/workbooks/${wb.id}`, {
        meta: { ...wb.meta, dashboardDraft: moved },
      });
      expect(put.status).toBe(200);
      const json = JSON.parse((await cli(['plan', '--output', 'json'], dir, emu)).stdout) as {
        drift: { field: string; apply: string; line?: number }[];
      };
      expect(json.drift.map((d) => [d.field, d.apply])).toEqual([['meta.dashboardDraft widget w1', 'keep']]);
      expect(json.drift[0]!.line).toBe(13);
      expect((await cli(['apply', '--auto-approve', '--ui-edits', 'revert'], dir, emu)).code).toBe(0);
      const back = workbooksIn(emu)[0]!.meta as typeof wb.meta & { dashboardDraft: typeof draft };
      expect(back.dashboardDraft.widgets.find((w) => w.id === 'w1')!.position).toEqual({ x: 0, y: 4, w: 6, h: 4 });
    });
  });
});

describe('preview agrees with the plan', () => {
  test('--against env: a widget moved in the UI and kept is marked kept, not moved; under revert it is the move apply makes', async () => {
    await withEmulator({}, async (emu) => {
      const yaml = (extra: string) =>
        `bundle: team-a\nenvironments:\n  live:\n    baseUrl: ${emu.url}\n    deploymentId: 1\n${extra}`;
      const dir = writeBundle({ workbook: true, dashboard: true, reports: 2, wscYaml: yaml('') });
      const run = (args: string[]) => runCli([...args, '--dir', dir], { env: emulatorEnv });
      expect((await run(['apply', '--auto-approve'])).code).toBe(0);
      const wb = workbooksIn(emu)[0]!;
      const draft = (wb.meta as { dashboardDraft: { widgets: { id: string; position: object }[] } }).dashboardDraft;
      const moved = {
        ...draft,
        widgets: draft.widgets.map((w) => (w.id === 'w1' ? { ...w, position: { x: 6, y: 0, w: 6, h: 4 } } : w)),
      };
      expect(
        (
          await api(emu, 'PUT', `/api/v1/deployments/1/workbooks/${wb.id}`, {
            meta: { ...wb.meta, dashboardDraft: moved },
          })
        ).status,
      ).toBe(200);
      const change = (svg: string, id: string) =>
        new RegExp(`<g data-id="${id}" data-change="([a-z ]+)"`).exec(svg)?.[1];

      const kept = tempDir('wsc-pictures-');
      const k = await run(['preview', '--out', kept, '--against', 'env:live']);
      expect(k.code, k.stderr).toBe(0);
      const svg = readFileSync(join(kept, 'sales.lg.svg'), 'utf8');
      expect(change(svg, 'w1')).toBe('kept');
      expect(svg).toContain('kept, edited outside wsc');
      expect(svg).toContain('data-was="w1"');
      expect(change(svg, 'w0')).toBeUndefined();
      // and the plan says the same: nothing to change, w1 kept
      expect((await run(['plan', '--detailed-exitcode'])).stdout).toContain('meta.dashboardDraft widget w1 position');

      writeFileSync(join(dir, 'wsc.yaml'), yaml('    uiEdits: revert\n'));
      const reverted = tempDir('wsc-pictures-');
      expect((await run(['preview', '--out', reverted, '--against', 'env:live'])).code).toBe(0);
      expect(change(readFileSync(join(reverted, 'sales.lg.svg'), 'utf8'), 'w1')).toBe('moved');
      expect((await run(['plan', '--detailed-exitcode'])).code).toBe(2);
    });
  });
});

describe('wsc drift', () => {
  test('a report the bundle no longer holds: the `wsc apply --prune` printed deletes it, followed as printed', async () => {
    await withEmulator({}, async (emu) => {
      const other = `kind: Report\npublicId: ${pid(2)}\nname: other\nsqlQuery: select 2\n`;
      const dir = writeBundle({ wscYaml: named(), files: { 'reports/mrr.yaml': MRR, 'reports/other.yaml': other } });
      expect((await cli(['apply', '--auto-approve'], dir, emu)).code).toBe(0);
      rmSync(join(dir, 'reports/other.yaml'));
      const d = await cli(['drift'], dir, emu);
      expect(d.stdout).toContain(`report/${pid(2)} "other": in the deployment, no longer in the bundle`);
      const printed = /`wsc (apply [^`]+)` makes what only the bundle changed, deletes included\./.exec(d.stdout);
      expect(printed, d.stdout).not.toBeNull();
      expect(printed![1]).toBe(`apply --prune --dir ${dir} ${target(emu).join(' ')}`);
      expect((await runCli([...printed![1]!.split(' '), '--auto-approve'], { env: emulatorEnv })).code).toBe(0);
      expect(reportsIn(emu).map((r) => r.publicId)).toEqual([pid(1)]);
      expect((await cli(['drift', '--detailed-exitcode'], dir, emu)).code).toBe(0);
    });
  });

  test('lists what differs (UI edit and unapplied bundle change), in human, JSON and markdown; --detailed-exitcode 2, then 0 after a revert; never writes', async () => {
    await withEmulator({}, async (emu) => {
      const { dir } = await appliedThenEdited(emu);
      writeFileSync(
        join(dir, 'reports/other.yaml'),
        `kind: Report\npublicId: ${pid(2)}\nname: other\nsqlQuery: select 2\n`,
      );
      const d = await cli(['drift', '--detailed-exitcode'], dir, emu);
      expect(d.code).toBe(2);
      expect(d.stdout).toContain('Drift: 2 differences between deployment 1 (environment test) and the bundle');
      expect(d.stdout).toContain(`${DRIFT_LINE}: kept, edited outside wsc`);
      expect(d.stdout).toContain(
        `report/${pid(2)}: in the bundle, not in the deployment  (reports/other.yaml:2:1): apply creates it`,
      );
      const j = JSON.parse((await cli(['drift', '--output', 'json'], dir, emu)).stdout) as {
        hasDrift: boolean;
        drift: { address: string; field: string; changed: string }[];
      };
      expect(j.hasDrift).toBe(true);
      expect(j.drift.map((e) => [e.address, e.field, e.changed])).toEqual([
        [ADDR, 'title', 'outside'],
        [`report/${pid(2)}`, '(resource)', 'unknown'],
      ]);
      const md = (await cli(['drift', '--output', 'markdown'], dir, emu)).stdout;
      expect(md).toContain('### wsc drift: <code>test</code> (deployment 1)');
      expect(md).toContain('| <code>report/rep000000001</code> | <code>title</code> |');
      expect(writes(emu.log)).toEqual([]);
      // The ways forward, as the markdown's, on a terminal too: the report missing from the deployment has no
      // live values to take (apply creates it); the edited one has both ways.
      const at = ['--dir', dir, ...target(emu)].join(' ');
      const ways = d.stdout.split('\n').filter((l) => l.includes('`wsc '));
      expect(ways).toEqual([
        `${ADDR}: \`wsc export --only ${ADDR} --into ${dir} ${target(emu).join(' ')}\` takes the live values into ` +
          `its file; \`wsc apply --overwrite-ui-edits ${ADDR} ${at}\` writes the bundle's.`,
        `\`wsc apply ${at}\` makes what only the bundle changed.`,
      ]);
      expect(md).not.toContain(`wsc export --only report/${pid(2)}`);
      // Followed (not on a terminal: confirmed by the flag), the apply creates the report and keeps the edit.
      const apply = /`wsc (apply [^`]+)` makes/.exec(d.stdout)![1]!.split(' ');
      expect((await runCli([...apply, '--auto-approve'], { env: emulatorEnv })).code).toBe(0);
      expect(reportsIn(emu).map((r) => r.publicId)).toContain(pid(2));
      expect((await cli(['drift', '--output', 'json'], dir, emu)).stdout).not.toContain(pid(2));

      expect((await cli(['apply', '--auto-approve', '--ui-edits', 'revert'], dir, emu)).code).toBe(0);
      const none = await cli(['drift', '--detailed-exitcode'], dir, emu);
      expect(none.code).toBe(0);
      expect(none.stdout).toContain('No drift: deployment 1 (environment test) matches the bundle.');
    });
  });
});
