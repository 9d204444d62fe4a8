// One widget-identity rule (issue 38, item 7; src/core/widget-identity.ts),
// followed end to end through plan, apply, the ownership record's three-way
// decision and export: a widget is known by its id; an id renamed in the UI
// (`grain-ui` → `grain`) is a change outside wsc like any other, kept and
// said, never reverted without a word; `__proto__` is an id like any other
// and survives the merge; a draft whose widgets cannot be told apart (an
// empty or repeated id, as a UI may leave) is one value everywhere, and
// export names such a widget so that the printed way forward works. The
// emulator is a real server.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { writes } from '../../src/emulator/index.js';
import { api, namedExample, workbooksIn } from './helpers/bundles.js';
import { e2eSuite, type Emulator, runCli, target, tempDir, withEmulator } from './helpers/index.js';

e2eSuite();

const OVERVIEW = 'workbooks/revenue-overview.yaml';
const ADDRESS = 'workbook/revenue-overview';

const cli = (args: string[], dir: string, emu: Emulator) =>
  runCli([...args, '--dir', dir, '--env', 'local', ...target(emu)], { env: { WSC_TOKEN: 'dev-token' } });

function edit(dir: string, from: string, to: string): void {
  const text = readFileSync(join(dir, OVERVIEW), 'utf8');
  expect(text).toContain(from);
  writeFileSync(join(dir, OVERVIEW), text.replace(from, to));
}

type Widget = Record<string, any>;

/** The live draft's widgets. */
const liveWidgets = (emu: Emulator): Widget[] =>
  (workbooksIn(emu).find((w) => w.slug === 'revenue-overview')!.meta as Record<string, any>)['dashboardDraft'].widgets;

/** The live draft changed as the UI changes it (the upsert merges `meta`: the record stays). */
async function uiDraft(emu: Emulator, change: (widgets: Widget[]) => void): Promise<void> {
  const w = workbooksIn(emu).find((x) => x.slug === 'revenue-overview')!;
  const draft = structuredClone((w.meta as Record<string, any>)['dashboardDraft']);
  change(draft.widgets);
  const put = await api(emu, 'PUT', '/api/v1/deployments/1/workbooks/by-slug/revenue-overview', {
    meta: { dashboardDraft: draft },
  });
  expect(put.status).toBe(200);
}

interface PlanJson {
  changes: {
    address: string;
    actions: string[];
    fields: { path: string; dashboard?: { widgets: { widget: string; change: string }[] } }[];
    kept?: string[];
    uiEdits?: string[];
  }[];
}
const planJson = async (dir: string, emu: Emulator) =>
  JSON.parse((await cli(['plan', '--output', 'json'], dir, emu)).stdout) as PlanJson;
const overview = (p: PlanJson) => p.changes.find((c) => c.address === ADDRESS)!;
/** The draft's field changes (publishing the draft aside). */
const draftFields = (p: PlanJson) => overview(p).fields.filter((f) => f.path === 'meta.dashboardDraft');

/** fixtures/example, named, with the TIME_GRAIN widget's id as given. */
function bundleWithGrain(id: string): string {
  const dir = namedExample();
  edit(dir, '      - id: grain\n', `      - id: ${JSON.stringify(id)}\n`);
  return dir;
}

describe('a widget id renamed in the UI is a change outside wsc like any other', () => {
  test('the bundle did not touch it: kept and said, never reverted; export takes it into the file', async () => {
    const dir = bundleWithGrain('grain-ui');
    await withEmulator({}, async (emu) => {
      expect((await cli(['apply', '--auto-approve'], dir, emu)).code).toBe(0);
      await uiDraft(emu, (ws) => void (ws.find((w) => w['id'] === 'grain-ui')!['id'] = 'grain'));

      const p = await planJson(dir, emu);
      expect(draftFields(p)).toEqual([]);
      expect(overview(p).kept).toEqual(['meta.dashboardDraft widget grain', 'meta.dashboardDraft widget grain-ui']);
      // `wsc drift` sees it too (the field's hash leaves ids out; the rule compares them).
      const drift = await cli(['drift', '--detailed-exitcode'], dir, emu);
      expect(drift.code, drift.stdout + drift.stderr).toBe(2);
      expect(drift.stdout).toContain('meta.dashboardDraft widget grain');
      const applied = await cli(['apply', '--auto-approve'], dir, emu);
      expect(applied.code, applied.stdout + applied.stderr).toBe(0);
      // Said: the rename is drift, listed field by field.
      expect(applied.stdout).toContain('2 fields differ from the bundle, kept as edited outside wsc.');
      expect(applied.stdout).toMatch(/meta\.dashboardDraft widget grain: .* → \(none\) .*: kept, edited outside wsc/);
      expect(liveWidgets(emu).map((w) => w['id'])).toContain('grain');
      expect(liveWidgets(emu).map((w) => w['id'])).not.toContain('grain-ui');

      const r = await cli(['export', '--only', ADDRESS, '--into', dir], dir, emu);
      expect(r.code, r.stderr).toBe(0);
      const text = readFileSync(join(dir, OVERVIEW), 'utf8');
      expect(text).toContain('      - id: grain\n');
      expect(text).not.toContain('grain-ui');
      const after = await planJson(dir, emu);
      expect(draftFields(after)).toEqual([]);
      expect(overview(after).kept).toBeUndefined();
    });
  });

  test('the bundle changed another widget: both changes stand after one apply', async () => {
    const dir = bundleWithGrain('grain-ui');
    await withEmulator({}, async (emu) => {
      expect((await cli(['apply', '--auto-approve'], dir, emu)).code).toBe(0);
      await uiDraft(emu, (ws) => void (ws.find((w) => w['id'] === 'grain-ui')!['id'] = 'grain'));
      edit(dir, 'visualization: line', 'visualization: area');
      const applied = await cli(['apply', '--auto-approve'], dir, emu);
      expect(applied.code, applied.stdout + applied.stderr).toBe(0);
      const ids = liveWidgets(emu).map((w) => w['id']);
      expect(ids).toContain('grain');
      expect(ids).not.toContain('grain-ui');
      expect(liveWidgets(emu).find((w) => w['id'] === 'mrr-trend')!['config']['visualization']).toBe('area');
    });
  });
});

describe('`__proto__` and `constructor` are ids like any other', () => {
  test.each(['__proto__', 'constructor'])(
    '`%s` survives a merge of a UI edit and a bundle change; the plan after says truthfully that nothing differs',
    async (id) => {
      const dir = bundleWithGrain(id);
      await withEmulator({}, async (emu) => {
        expect((await cli(['apply', '--auto-approve'], dir, emu)).code).toBe(0);
        expect(liveWidgets(emu).map((w) => w['id'])).toContain(id);
        await uiDraft(emu, (ws) => void (ws.find((w) => w['id'] === 'nrr-kpi')!['position']['h'] = 6));
        edit(dir, 'visualization: line', 'visualization: area');
        const applied = await cli(['apply', '--auto-approve'], dir, emu);
        expect(applied.code, applied.stdout + applied.stderr).toBe(0);
        const live = liveWidgets(emu);
        expect(live.map((w) => w['id'])).toEqual([
          'header',
          'region-filter',
          id,
          'mrr-trend',
          'nrr-kpi',
          'arr-by-region',
          'divider-accounts',
          'top-accounts',
        ]);
        expect(live.find((w) => w['id'] === 'nrr-kpi')!['position']['h']).toBe(6);
        // The UI now moves that widget: the plan keeps it, and export takes it into its own lines.
        await uiDraft(emu, (ws) => void (ws.find((w) => w['id'] === id)!['position']['x'] = 5));
        const p = await planJson(dir, emu);
        expect(draftFields(p)).toEqual([]);
        expect(overview(p).kept).toContain(`meta.dashboardDraft widget ${id}`);
        const r = await cli(['export', '--into', dir], dir, emu);
        expect(r.code, r.stderr).toBe(0);
        expect(r.stdout).toContain(`meta.dashboardDraft.widgets[${id}]`);
        expect(readFileSync(join(dir, OVERVIEW), 'utf8')).toContain(
          `      - id: ${JSON.stringify(id)}\n        type: TIME_GRAIN\n` +
            '        position: { x: 5, y: 2, w: 3, h: 2 }',
        );
      });
    },
  );
});

describe('a draft whose widgets cannot be told apart by id is one value everywhere', () => {
  test.each([
    ['an empty id', (ws: Widget[]) => ws.push({ id: '', type: 'DIVIDER', position: { x: 0, y: 30, w: 12, h: 1 } })],
    [
      'a repeated id',
      (ws: Widget[]) => ws.push({ id: 'nrr-kpi', type: 'DIVIDER', position: { x: 0, y: 30, w: 12, h: 1 } }),
    ],
  ])(
    '%s made in the UI: plan and ownership agree (whole draft); the printed way forward names the widget and converges',
    async (_, change) => {
      const dir = namedExample();
      await withEmulator({}, async (emu) => {
        expect((await cli(['apply', '--auto-approve'], dir, emu)).code).toBe(0);
        await uiDraft(emu, change);
        // Only the UI changed it: kept whole, said so, nothing written.
        const kept = await planJson(dir, emu);
        expect(draftFields(kept)).toEqual([]);
        expect(overview(kept).kept).toEqual(['meta.dashboardDraft']);
        // A fresh export names the widget, and says so.
        const out = join(tempDir(), 'out');
        const fresh = await runCli(['export', '--out', out, ...target(emu)], { env: { WSC_TOKEN: 'dev-token' } });
        expect(fresh.code, fresh.stderr).toBe(0);
        expect(fresh.stderr).toContain('does not tell it apart; written as `widget-9`, which the next apply gives it');
        expect(readFileSync(join(out, OVERVIEW), 'utf8')).toContain('- id: widget-9\n');
        expect((await runCli(['validate', '--dir', out])).code).toBe(0);

        // The bundle changes a widget too: blocked on the whole draft, and the diff is not matched by id either.
        edit(dir, 'visualization: line', 'visualization: area');
        const blocked = await planJson(dir, emu);
        expect(overview(blocked).actions).toEqual(['blocked']);
        expect(overview(blocked).uiEdits).toEqual(['meta.dashboardDraft']);
        expect(draftFields(blocked).map((f) => f.dashboard)).toEqual([undefined]);
        const apply = await cli(['apply', '--auto-approve'], dir, emu);
        expect(apply.code).toBe(5);
        const printed = /`wsc (export --only [^`]+)`/.exec(apply.stdout)![1]!.split(' ');

        // As printed: the bundle, its environment and the deployment are in it.
        const r = await runCli(printed, { env: { WSC_TOKEN: 'dev-token' } });
        expect(r.code, r.stderr).toBe(0);
        expect(r.stdout).toContain('meta.dashboardDraft.widgets[widget-9]');
        const v = await cli(['validate'], dir, emu);
        expect(v.code, v.stdout).toBe(0);
        emu.clearLog();
        const next = await cli(['apply', '--auto-approve'], dir, emu);
        expect(next.code, next.stdout + next.stderr).toBe(0);
        expect(writes(emu.log).length).toBeGreaterThan(0);
        const ids = liveWidgets(emu).map((w) => w['id']);
        expect(ids.at(-1)).toBe('widget-9');
        expect(new Set(ids).size).toBe(ids.length);
        const after = await planJson(dir, emu);
        expect(after.changes.filter((c) => c.fields.length > 0 || c.kept !== undefined)).toEqual([]);
      });
    },
  );
});
