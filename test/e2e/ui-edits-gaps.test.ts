// Issue 38, the gaps closed after it (the built CLI against the emulator as a
// real server): `plan --detailed-exitcode` exits 2 when apply would write only
// ownership records (apply sends them), a dashboard draft reverted under
// `uiEdits: revert` marks each widget line edited outside wsc, and `wsc drift`
// lists a difference that shows only as a publish and words a field the
// record does not cover yet as not applied, never as "changed in the bundle".
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test, vi } from 'vitest';
import { writes } from '../../src/emulator/index.js';
import { api, pid, reportsIn, workbooksIn, writeBundle } from './helpers/bundles.js';
import {
  cleanupTemp,
  copyFixture,
  emulatorEnv,
  ensureBuilt,
  runCli,
  target,
  withEmulator,
  type Emulator,
} from './helpers/index.js';
import { editFile } from '../helpers/edit-file.js';

vi.setConfig({ testTimeout: 120_000 });
beforeAll(ensureBuilt, 180_000);
afterAll(cleanupTemp);

const DEP = '/api/v1/deployments/1';
const ADDR = `report/${pid(1)}`;
const MRR = `kind: Report\npublicId: ${pid(1)}\nname: mrr\ntitle: Monthly recurring revenue\nsqlQuery: select 1\n`;
const yaml = (extra = '', bundle = 'bundle: team-a\n') =>
  `${bundle}environments:\n  test:\n    deploymentId: 1\n${extra}`;

async function cli(args: string[], dir: string, emu: Emulator) {
  return runCli([...args, '--dir', dir, ...target(emu)], { env: emulatorEnv });
}

describe('plan --detailed-exitcode: 0 only when apply would send nothing', () => {
  test('ownership records alone to write (bundle: set on a deployment applied without it): exit 2, said so, and apply sends them', async () => {
    await withEmulator({}, async (emu) => {
      const dir = writeBundle({ wscYaml: yaml('', ''), files: { 'reports/mrr.yaml': MRR } });
      expect((await cli(['apply', '--auto-approve'], dir, emu)).code).toBe(0);
      writeFileSync(join(dir, 'wsc.yaml'), yaml());
      emu.clearLog();

      const p = await cli(['plan', '--detailed-exitcode'], dir, emu);
      expect(p.code, p.stdout).toBe(2);
      expect(p.stdout).not.toContain('No changes');
      expect(p.stdout).toContain(`= ${ADDR} will be recorded as this bundle's (ownership record only)`);
      expect(p.stdout).toContain('Plan: 1 ownership record to write, no content to change.');
      const md = await cli(['plan', '--output', 'markdown', '--detailed-exitcode'], dir, emu);
      expect(md.code).toBe(2);
      expect(md.stdout).toContain('**Plan: 1 ownership record to write, no content to change.**');
      expect(md.stdout).toContain('| ownership record | 1 |');
      expect(md.stdout).not.toContain('No changes');
      const json = JSON.parse((await cli(['plan', '--output', 'json'], dir, emu)).stdout) as { hasChanges: boolean };
      expect(json.hasChanges).toBe(true);
      expect(writes(emu.log)).toEqual([]);

      const a = await cli(['apply', '--auto-approve'], dir, emu);
      expect(a.code, a.stdout + a.stderr).toBe(0);
      expect(writes(emu.log)).toHaveLength(1);
      const after = await cli(['plan', '--detailed-exitcode'], dir, emu);
      expect(after.code, after.stdout).toBe(0);
      expect(after.stdout).toContain('No changes. The deployment matches the bundle.');
    });
  });
});

describe('uiEdits: revert marks each dashboard part it writes back', () => {
  test('a widget moved and the title changed in the UI: their lines say (edited outside wsc), human and markdown; a widget the bundle moved does not', async () => {
    await withEmulator({}, async (emu) => {
      const dir = writeBundle({ workbook: true, dashboard: true, reports: 3, wscYaml: yaml('    uiEdits: revert\n') });
      expect((await cli(['apply', '--auto-approve'], dir, emu)).code).toBe(0);
      const wb = workbooksIn(emu)[0]!;
      type Draft = {
        title: string;
        widgets: { id: string; position: { x: number; y: number; w: number; h: number } }[];
      };
      const draft = (wb.meta as { dashboardDraft: Draft }).dashboardDraft;
      const edited: Draft = {
        ...draft,
        title: 'Sales (UI)',
        widgets: draft.widgets.map((w) => (w.id === 'w1' ? { ...w, position: { ...w.position, x: 6, y: 0 } } : w)),
      };
      const put = await api(emu, 'PUT', `${DEP}/workbooks/${wb.id}`, { meta: { ...wb.meta, dashboardDraft: edited } });
      expect(put.status).toBe(200);
      // the bundle moves w2 itself: an update, not an edit outside wsc
      const file = join(dir, 'workbooks/sales.yaml');
      editFile(file, 'position: { x: 0, y: 8, w: 6, h: 4 }', 'position: { x: 6, y: 8, w: 6, h: 4 }');

      const p = await cli(['plan', '--detailed-exitcode', '--no-color'], dir, emu);
      expect(p.code, p.stdout).toBe(2);
      const lines = p.stdout.split('\n');
      const line = (re: RegExp) => lines.find((l) => re.test(l)) ?? '';
      expect(line(/~ widget w1 .*moved 6,0 → 0,4/)).toContain('(edited outside wsc)');
      expect(line(/~ title: "Sales \(UI\)" → "Sales"/)).toContain('(edited outside wsc)');
      expect(line(/~ widget w2 .*moved 0,8 → 6,8/)).not.toContain('edited outside wsc');

      const md = (await cli(['plan', '--output', 'markdown', '--no-compact'], dir, emu)).stdout;
      const mdLines = md.split('\n');
      const after = (re: RegExp) => mdLines.find((l) => re.test(l)) ?? '';
      expect(after(/^\+ widget w1 .*at 0,4/)).toContain('(edited outside wsc)');
      expect(after(/^\+ title: &quot;Sales&quot;|^\+ title: "Sales"/)).toContain('(edited outside wsc)');
      expect(after(/^\+ widget w2 .*at 6,8/)).not.toContain('edited outside wsc');
      expect(after(/^- widget w1 /)).not.toContain('edited outside wsc');
    });
  });
});

/** The published two-report bundle applied; its dashboard draft with w1 moved to 6,0 (not sent: the test does). */
async function appliedThenW1Moved(emu: Emulator) {
  const dir = writeBundle({ workbook: true, dashboard: true, reports: 2, publish: true, wscYaml: yaml() });
  expect((await cli(['apply', '--auto-approve'], dir, emu)).code).toBe(0);
  const wb = workbooksIn(emu)[0]!;
  type Draft = { widgets: { id: string; position: { x: number; y: number; w: number; h: number } }[] };
  const draft = (wb.meta as { dashboardDraft: Draft }).dashboardDraft;
  const moved = {
    ...draft,
    widgets: draft.widgets.map((w) => (w.id === 'w1' ? { ...w, position: { ...w.position, x: 6, y: 0 } } : w)),
  };
  return { dir, wb, moved };
}

describe('wsc drift says what differs, truthfully', () => {
  test('a published dashboard that differs from the draft the bundle publishes is listed (it shows only as a publish)', async () => {
    await withEmulator({}, async (emu) => {
      const { dir, wb, moved: config } = await appliedThenW1Moved(emu);
      // published from the UI with w1 moved; the draft is left as the bundle wrote it
      const pub = await api(emu, 'POST', `${DEP}/workbooks/${wb.id}/publish`, { workbookId: wb.id, config });
      expect(pub.status).toBe(200);
      emu.clearLog();

      const plan = await cli(['plan', '--detailed-exitcode'], dir, emu);
      expect(plan.code, plan.stdout).toBe(2);
      expect(plan.stdout).toContain('↑ workbook/sales will be published');
      const d = await cli(['drift', '--detailed-exitcode'], dir, emu);
      expect(d.code, d.stdout).toBe(2);
      expect(d.stdout).not.toContain('No drift');
      expect(d.stdout).toContain(
        'workbook/sales dashboardPublished widget w1 position: { x: 6, y: 0, w: 6, h: 4 } → { x: 0, y: 4, w: 6, h: 4 }',
      );
      // who published it is recorded nowhere: never "changed in the bundle"; the line is w1's own, as the plan's
      expect(d.stdout).toContain(
        '(workbooks/sales.yaml:13:9): not applied yet (no ownership record says who changed it)',
      );
      expect(readFileSync(join(dir, 'workbooks/sales.yaml'), 'utf8').split('\n')[12]!.slice(8)).toBe('id: w1');
      expect(d.stdout).not.toContain('changed in the bundle');
      const j = JSON.parse((await cli(['drift', '--output', 'json'], dir, emu)).stdout) as {
        drift: { address: string; field: string; apply: string }[];
      };
      expect(j.drift.map((e) => [e.address, e.field, e.apply])).toEqual([
        ['workbook/sales', 'dashboardPublished widget w1', 'revert'],
      ]);
      expect(writes(emu.log)).toEqual([]);
      // apply publishes the bundle's draft again; then nothing differs
      expect((await cli(['apply', '--auto-approve'], dir, emu)).code).toBe(0);
      expect((await cli(['drift', '--detailed-exitcode'], dir, emu)).code).toBe(0);
    });
  });

  test("a draft part kept as edited outside wsc is not called a difference of the published dashboard, which still is the bundle's", async () => {
    await withEmulator({}, async (emu) => {
      const { dir, wb, moved } = await appliedThenW1Moved(emu);
      const put = await api(emu, 'PUT', `${DEP}/workbooks/${wb.id}`, { meta: { ...wb.meta, dashboardDraft: moved } });
      expect(put.status).toBe(200);
      // apply would publish the kept draft; the published one is still the bundle's: one difference, the draft's
      const j = JSON.parse((await cli(['drift', '--output', 'json'], dir, emu)).stdout) as {
        drift: { field: string; changed: string; apply: string }[];
      };
      expect(j.drift.map((e) => [e.field, e.changed, e.apply])).toEqual([
        ['meta.dashboardDraft widget w1', 'outside', 'keep'],
      ]);
    });
  });

  test("a dashboard part points where the plan points: a widget's changed member, a title at its line", async () => {
    await withEmulator({}, async (emu) => {
      const dir = copyFixture('example');
      expect((await cli(['apply', '--auto-approve'], dir, emu)).code).toBe(0);
      editFile(join(dir, 'workbooks/revenue-overview.yaml'), 'visualization: table', 'visualization: bar');
      editFile(join(dir, 'workbooks/revenue-overview.yaml'), '    title: Revenue overview', '    title: Revenue');
      const plan = await cli(['plan', '--no-compact'], dir, emu);
      const at = (re: RegExp) => re.exec(plan.stdout)?.[1]?.split(':').slice(1).map(Number);
      const widget = at(/widget top-accounts .*config\.visualization: "table" → "bar" {2}\((\S+)\)/);
      const title = at(/~ title: "Revenue overview" → "Revenue" {2}\((\S+)\)/);
      expect(widget).toHaveLength(2);
      expect(title).toHaveLength(2);
      const j = JSON.parse((await cli(['drift', '--output', 'json'], dir, emu)).stdout) as {
        drift: { field: string; line?: number; col?: number }[];
      };
      const where = (field: string) => j.drift.filter((e) => e.field === field).map((e) => [e.line, e.col]);
      expect(where('meta.dashboardDraft widget top-accounts')).toEqual([widget]);
      expect(where('meta.dashboardDraft title')).toEqual([title]);
    });
  });

  test('a field the bundle manages newly (no record of it yet) is "not applied yet", never "changed in the bundle"', async () => {
    await withEmulator({}, async (emu) => {
      const dir = writeBundle({ wscYaml: yaml(), files: { 'reports/mrr.yaml': MRR } });
      expect((await cli(['apply', '--auto-approve'], dir, emu)).code).toBe(0);
      const r = reportsIn(emu).find((x) => x.publicId === pid(1))!;
      // set in the UI while the bundle did not manage it, then managed by the bundle with another value;
      // the title, which the record covers, changed only in the bundle, for contrast
      const meta = { ...(r.meta as object), chart: 'line' };
      expect((await api(emu, 'PUT', `${DEP}/reports/${r.id}`, { meta })).status).toBe(200);
      writeFileSync(
        join(dir, 'reports/mrr.yaml'),
        `${MRR.replace('title: Monthly recurring revenue', 'title: MRR')}meta:\n  chart: bar\n`,
      );

      const d = await cli(['drift'], dir, emu);
      expect(d.code, d.stderr).toBe(0);
      const line = (field: string) => d.stdout.split('\n').find((l) => l.includes(`${ADDR} ${field}:`)) ?? '';
      expect(line('meta.chart')).toContain('"line" → "bar"');
      expect(line('meta.chart')).toContain('not applied yet');
      expect(line('meta.chart')).not.toContain('changed in the bundle');
      expect(line('title')).toContain('changed in the bundle, not applied yet');
      const j = JSON.parse((await cli(['drift', '--output', 'json'], dir, emu)).stdout) as {
        drift: { field: string; changed: string }[];
      };
      expect(j.drift.map((e) => [e.field, e.changed])).toEqual([
        ['title', 'bundle'],
        ['meta.chart', 'unknown'],
      ]);
      const md = (await cli(['drift', '--output', 'markdown'], dir, emu)).stdout;
      const row = md.split('\n').find((l) => l.includes('<code>meta.chart</code>')) ?? '';
      expect(row).not.toContain('the bundle (not applied)');
      expect(row).toContain('not applied yet');
    });
  });
});
