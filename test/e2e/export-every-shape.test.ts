// What export once lost or could not write, one test each, against the
// emulator's --ui-made deployment (and small seeds of their own): members the
// description does not name, a report without publicId, published
// dashboards, twin folder names, a slug no bundle can hold, key order and
// integers beyond 2^53, both names of the sheets source.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'yaml';
import { afterAll, describe, expect, test } from 'vitest';
import { defaultSeed, uiMadeSeed, type SeedState } from '../../src/emulator/index.js';
import { cleanupTemp, emulatorEnv, runCli, target, tempDir, withEmulator, writeFiles } from './helpers/index.js';
import type { Emulator } from '../../src/emulator/index.js';

afterAll(cleanupTemp);

const read = (dir: string, file: string) => parse(readFileSync(join(dir, file), 'utf8')) as Record<string, any>;

async function exported(emu: Emulator) {
  const out = tempDir();
  const r = await runCli(['export', '--out', out, ...target(emu)], { env: emulatorEnv, cwd: tempDir() });
  expect(r.code, r.stderr).toBe(0);
  return { out, ...r };
}

const planJson = async (dir: string, emu: Emulator) => {
  const r = await runCli(['plan', '--dir', dir, ...target(emu), '--output', 'json'], { env: emulatorEnv });
  expect(r.code, r.stderr).toBe(0);
  return JSON.parse(r.stdout) as {
    changes: { address: string; actions: string[]; fields: { path: string }[] }[];
    summary: Record<string, number>;
  };
};
/** A resource of the bundle the JSON plan does not list is unchanged (it lists only what changes). */
const actionsOf = (plan: Awaited<ReturnType<typeof planJson>>, address: string) =>
  plan.changes.find((c) => c.address === address)?.actions ?? ['noop'];

describe('export keeps every shape the API allows', () => {
  test('unknown members of a draft, layout, widget and pivotItems, and a jsonQuery that is not JSON, are kept', async () => {
    await withEmulator({ seed: uiMadeSeed() }, async (emu) => {
      const { out, stderr } = await exported(emu);
      const draft = read(out, 'workbooks/finance-board.yaml').meta.dashboardDraft;
      expect(draft.filterBar).toEqual({ sticky: true });
      expect(draft.layout).toEqual({ rowHeight: 40, compactType: 'vertical' });
      expect(draft.widgets[0].someNewMember).toEqual({ since: '0.20' });
      const raw = read(out, 'reports/raw-query.yaml');
      expect(raw.pivotItems.showGrandTotals).toBe(true);
      expect(raw.jsonQuery).toBe('measures=orders.count; dimensions=orders.status');
      expect(stderr).not.toMatch(/not exported/);

      // validate names each one, and accepts the bundle.
      const v = await runCli(['validate', '--dir', out]);
      expect(v.code, v.stdout + v.stderr).toBe(0);
      for (const m of ['dashboardDraft.filterBar', 'layout.compactType', 'widgets[0].someNewMember', 'showGrandTotals'])
        expect(v.stdout + v.stderr).toContain(`${m}\` is not a member this wsc knows`);
      expect(v.stdout + v.stderr).toContain('`jsonQuery` is not valid JSON');

      // Managed, and equal to the live values: the plan leaves them alone.
      const plan = await planJson(out, emu);
      expect(actionsOf(plan, 'workbook/finance-board')).toEqual(['noop']);
      expect(actionsOf(plan, `report/${raw.publicId}`)).toEqual(['noop']);

      // A change beside them sends them back unchanged (the upsert merges meta per key: the draft whole).
      const file = join(out, 'workbooks/finance-board.yaml');
      writeFiles(
        { 'workbooks/finance-board.yaml': readFileSync(file, 'utf8').replace('rowHeight: 40', 'rowHeight: 48') },
        out,
      );
      emu.clearLog();
      const apply = await runCli(['apply', '--dir', out, ...target(emu), '--auto-approve'], { env: emulatorEnv });
      expect(apply.code, apply.stdout + apply.stderr).toBe(0);
      const stored = emu.snapshot().workbooks!.find((w) => w.id === 502)!.meta!['dashboardDraft'] as Record<
        string,
        any
      >;
      expect(stored.layout).toEqual({ rowHeight: 48, compactType: 'vertical' });
      expect(stored.filterBar).toEqual({ sticky: true });
      expect(stored.widgets[0].someNewMember).toEqual({ since: '0.20' });
    });
  }, 120_000);

  test('a report without publicId gets a minted one and an adopt block; plan shows the adopt; apply adopts it', async () => {
    await withEmulator({ seed: uiMadeSeed() }, async (emu) => {
      const { out, stdout } = await exported(emu);
      const margin = read(out, 'reports/margin.yaml');
      expect(margin.publicId).toMatch(/^[0-9A-Za-z]{12}$/);
      expect(margin.adopt).toEqual({ deploymentId: 1, id: 605 });
      expect(stdout).toContain(`reports/margin.yaml: report 605 → ${margin.publicId} (it had no publicId)`);
      // The dashboard charts it by reference, not by a bare id.
      const widget = read(out, 'workbooks/finance-board.yaml').meta.dashboardDraft.widgets[0];
      expect(widget.config.reportId).toEqual({ $report: margin.publicId });

      expect(actionsOf(await planJson(out, emu), `report/${margin.publicId}`)).toEqual(['adopt']);
      emu.clearLog();
      const apply = await runCli(['apply', '--dir', out, ...target(emu), '--auto-approve'], { env: emulatorEnv });
      expect(apply.code, apply.stdout + apply.stderr).toBe(0);
      const put = emu.log.find((e) => e.method === 'PUT' && e.path === '/api/v1/deployments/1/reports/605')!;
      expect(put.requestBody).toEqual({ publicId: margin.publicId });
      expect(emu.snapshot().reports!.find((r) => r.id === 605)!.publicId).toBe(margin.publicId);
      const again = await runCli(['plan', '--dir', out, ...target(emu), '--detailed-exitcode'], { env: emulatorEnv });
      expect(again.code, again.stdout + again.stderr).toBe(0);
    });
  }, 120_000);

  test('publish: true where the published dashboard is the draft; otherwise left out, and said so', async () => {
    await withEmulator({ seed: uiMadeSeed() }, async (emu) => {
      const { out, stdout, stderr } = await exported(emu);
      expect(read(out, 'workbooks/finance-board.yaml').publish).toBe(true);
      expect(read(out, 'workbooks/q1-q2-plans.yaml').publish).toBeUndefined();
      expect(read(out, 'workbooks/sales-board.yaml').publish).toBeUndefined();
      expect(stdout).toContain('1 workbook is published with the draft as it is: written with `publish: true`.');
      expect(stderr).toContain(
        'workbooks/q1-q2-plans.yaml: the dashboard is published, but what is published differs from the draft',
      );
      const plan = await planJson(out, emu);
      expect(plan.changes.filter((c) => c.actions.includes('publish'))).toEqual([]);
      // Applied to an empty deployment, it is published there: the round trip (export-round-trip.test.ts) shows it.
    });
  }, 120_000);

  test('twin folder names: the second "Finance" is Finance[2], and plan against the same deployment moves nothing', async () => {
    await withEmulator({ seed: uiMadeSeed() }, async (emu) => {
      const { out } = await exported(emu);
      expect(read(out, 'workbooks/finance-board.yaml').folder).toBe('Finance[2]');
      expect(read(out, 'workbooks/q1-q2-plans.yaml').folder).toBe('Finance');
      const raw = read(out, 'reports/raw-query.yaml');
      expect(raw.folder).toBe('Finance[2]');
      // Twins are two folders by design: no "did you mean" between them.
      const v = await runCli(['validate', '--dir', out]);
      expect(v.code, v.stdout + v.stderr).toBe(0);
      expect(v.stdout + v.stderr).not.toContain('folder-near-miss');
      const plan = await planJson(out, emu);
      expect(actionsOf(plan, 'workbook/finance-board')).toEqual(['noop']);
      expect(actionsOf(plan, `report/${raw.publicId}`)).toEqual(['noop']);
      expect(plan.changes.some((c) => c.fields.some((f) => f.path === 'folder'))).toBe(false);
      expect(plan.changes.filter((c) => c.address.startsWith('folder/'))).toEqual([]);
    });
  }, 120_000);

  test('a slug no bundle can hold becomes a safe one with its adoption planned, and the output says so', async () => {
    await withEmulator({ seed: uiMadeSeed() }, async (emu) => {
      const { out, stdout } = await exported(emu);
      const wb = read(out, 'workbooks/q1-q2-plans.yaml');
      expect(wb.slug).toBe('q1-q2-plans');
      expect(wb.adopt).toEqual({ deploymentId: 1, id: 503 });
      expect(stdout).toContain('1 workbook had a slug a bundle cannot hold');
      expect(stdout).toContain('workbooks/q1-q2-plans.yaml: "q1/q2 plans" (workbook 503) → slug q1-q2-plans');
      const v = await runCli(['validate', '--dir', out]);
      expect(v.code, v.stdout + v.stderr).toBe(0);
      expect(v.stdout + v.stderr).not.toContain('unsafe-slug');

      const plan = await runCli(['plan', '--dir', out, ...target(emu)], { env: emulatorEnv });
      expect(plan.stdout).toContain('slug: "q1/q2 plans" → "q1-q2-plans"');
      emu.clearLog();
      const apply = await runCli(['apply', '--dir', out, ...target(emu), '--auto-approve'], { env: emulatorEnv });
      expect(apply.code, apply.stdout + apply.stderr).toBe(0);
      const put = emu.log.find((e) => e.method === 'PUT' && e.path === '/api/v1/deployments/1/workbooks/503')!;
      expect(put.requestBody).toEqual({ slug: 'q1-q2-plans' });
      expect(emu.snapshot().workbooks!.find((w) => w.id === 503)!.slug).toBe('q1-q2-plans');
    });
  }, 120_000);
});

/** One deployment's content, with every object's members in the order given or reversed. */
function orderedSeed(reverse: boolean): SeedState {
  const o = (entries: [string, unknown][]) => Object.fromEntries(reverse ? [...entries].reverse() : entries);
  const seed = defaultSeed();
  const query = o([
    ['measures', ['orders.count']],
    ['dimensions', ['orders.status']],
  ]);
  seed.reports = [
    {
      id: 700,
      deploymentId: 1,
      publicId: 'orderRep0001',
      name: 'Ordered',
      jsonQuery: JSON.stringify(query),
      meta: o([
        [
          'chart',
          o([
            ['type', 'bar'],
            ['stacked', true],
          ]),
        ],
        ['axis', 'x'],
      ]),
      pivotItems: o([
        ['columns', []],
        ['rows', ['orders.status']],
        ['measures', ['orders.count']],
        ['filters', []],
        ['showRowTotals', true],
      ]),
    },
  ];
  const widget = o([
    ['id', 'w1'],
    ['type', 'CHART'],
    [
      'position',
      o([
        ['x', 0],
        ['y', 0],
        ['w', 6],
        ['h', 4],
      ]),
    ],
    [
      'config',
      o([
        ['reportId', 700],
        ['title', 'T'],
        ['colors', ['red']],
      ]),
    ],
    [
      'style',
      o([
        ['border', 'none'],
        ['padding', 2],
      ]),
    ],
  ]);
  seed.workbooks = [
    {
      id: 600,
      deploymentId: 1,
      name: 'Ordered',
      slug: 'ordered',
      meta: o([
        ['owner', 'ops'],
        [
          'dashboardDraft',
          o([
            ['title', 'Ordered'],
            ['widgets', [widget]],
            ['kind', 'CLASSIC'],
          ]),
        ],
        ['big', 2 ** 60],
      ]),
    },
  ];
  return seed;
}

function filesOf(dir: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const sub of ['workbooks', 'reports']) {
    for (const f of readdirSync(join(dir, sub))) out[`${sub}/${f}`] = readFileSync(join(dir, sub, f), 'utf8');
  }
  return out;
}

describe('export writes one canonical order, and no integer it cannot carry', () => {
  test('equal content from two servers that order members differently gives equal bytes', async () => {
    const [a, b] = await Promise.all(
      [false, true].map((reverse) =>
        withEmulator({ seed: orderedSeed(reverse) }, async (emu) => (await exported(emu)).out),
      ),
    );
    const fa = filesOf(a!);
    expect(fa).toEqual(filesOf(b!));
    // The documented order: schema order for what the schema describes, the rest sorted.
    expect(fa['workbooks/ordered.yaml']).toContain(
      [
        '    kind: CLASSIC',
        '    title: Ordered',
        '    widgets:',
        '      - id: w1',
        '        type: CHART',
        '        position: { x: 0, y: 0, w: 6, h: 4 }',
        '        config:',
        '          colors: [ red ]',
      ].join('\n'),
    );
    expect(read(a!, 'reports/ordered.yaml').jsonQuery).toEqual({
      dimensions: ['orders.status'],
      measures: ['orders.count'],
    });
  }, 120_000);

  test('an integer beyond 2^53 in meta is refused with the field named, never written rounded', async () => {
    await withEmulator({ seed: orderedSeed(false) }, async (emu) => {
      const { out, stderr } = await exported(emu);
      expect(stderr).toContain(
        'workbooks/ordered.yaml: meta.big not exported (left unmanaged): `meta.big` is an integer beyond 2^53',
      );
      expect(read(out, 'workbooks/ordered.yaml').meta.big).toBeUndefined();
      expect(read(out, 'workbooks/ordered.yaml').meta.owner).toBe('ops');
      const plan = await runCli(['plan', '--dir', out, ...target(emu), '--detailed-exitcode'], { env: emulatorEnv });
      expect(plan.code, plan.stdout + plan.stderr).toBe(0);
    });
    // And a bundle that holds one is refused before any request, at its line and column.
    const dir = writeFiles({
      'workbooks/big.yaml': 'kind: Workbook\nslug: big\nmeta:\n  threshold: 12345678901234567890\n',
    });
    const v = await runCli(['validate', '--dir', dir]);
    expect(v.code).toBe(3);
    expect(v.stdout + v.stderr).toContain('workbooks/big.yaml:4:14');
    expect(v.stdout + v.stderr).toContain('`meta.threshold` is an integer beyond 2^53');
  }, 120_000);
});

describe('the sheets source under both names', () => {
  test('GOOGLE_SHEETS and HOSTED_SHEETS are accepted in a bundle and sent as written', async () => {
    const dir = writeFiles({
      'reports/google.yaml':
        'kind: Report\npublicId: sheetGoogle1\nname: g\nsource: GOOGLE_SHEETS\nsqlQuery: select 1\n',
      'reports/hosted.yaml':
        'kind: Report\npublicId: sheetHosted1\nname: h\nsource: HOSTED_SHEETS\nsqlQuery: select 1\n',
    });
    const v = await runCli(['validate', '--dir', dir]);
    expect(v.code, v.stdout + v.stderr).toBe(0);
    await withEmulator({}, async (emu) => {
      const apply = await runCli(['apply', '--dir', dir, ...target(emu), '--auto-approve'], { env: emulatorEnv });
      expect(apply.code, apply.stdout + apply.stderr).toBe(0);
      const sources = emu.log
        .filter((e) => e.method === 'POST' && e.path.endsWith('/reports'))
        .map((e) => e.requestBody as { publicId: string; source: string })
        .map((b) => [b.publicId, b.source])
        .sort();
      expect(sources).toEqual([
        ['sheetGoogle1', 'GOOGLE_SHEETS'],
        ['sheetHosted1', 'HOSTED_SHEETS'],
      ]);
      const plan = await runCli(['plan', '--dir', dir, ...target(emu), '--detailed-exitcode'], { env: emulatorEnv });
      expect(plan.code, plan.stdout + plan.stderr).toBe(0);
    });
  }, 120_000);
});
