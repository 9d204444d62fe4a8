// The export transform and the streaming exporter, without HTTP: live objects
// -> files (a real DirSink in a temp dir) -> the bundle loader -> the planner.
// The invariant of export: a plan right after an export has nothing to
// create or update (legacy reports only get adopted).
import fc from 'fast-check';
import { tempDir } from '../helpers/temp-dir.js';
import { describe, expect, test } from 'vitest';
import { normalizeSlug, type Folder, type Report, type UserAttribute, type Workbook } from '../../src/domain/wire.js';
import { LEGACY_PLACEHOLDER } from '../../src/emulator/seed.js';
import { loadBundle } from '../../src/bundle/load.js';
import { DirSink } from '../../src/bundle/write-files.js';
import {
  exportDeployment,
  type ExportOptions,
  type ExportSink,
  type ExportSource,
  type Doc,
} from '../../src/core/export/index.js';
import { jsonQueryValue, reportDoc, workbookDoc, type RefLookup } from '../../src/core/export/docs.js';
import { mintPublicId } from '../../src/core/export/mint.js';
import { plan } from '../../src/core/plan/index.js';
import { toYaml } from '../../src/bundle/write.js';
import { ctx, lAttr, lReport, lWorkbook } from './builders.js';
import { runs } from '../helpers/property.js';
import { tree } from '../helpers/tree.js';

const tmp = (): string => tempDir('wsc-export-');

function pages<T>(items: T[], size: number): AsyncIterable<T[]> {
  return (async function* () {
    for (let i = 0; i < items.length; i += size) yield items.slice(i, i + size);
  })();
}

interface Live {
  workbooks: Workbook[];
  reports: Report[];
  userAttributes: UserAttribute[];
}

function sourceOf(l: Live, pageSize = 3): ExportSource {
  return {
    workbooks: () => pages(l.workbooks, pageSize),
    reports: () => pages(l.reports, pageSize),
    userAttributes: () => pages(l.userAttributes, pageSize),
  };
}

const OPTS: ExportOptions = { deploymentId: 1, workbooks: [], publicIds: 'as-is' };

async function exportTo(l: Live, opts: Partial<ExportOptions> = {}, pageSize = 3) {
  const dir = tmp();
  const sink = await DirSink.open(dir);
  const summary = await exportDeployment(sourceOf(l, pageSize), sink, { ...OPTS, ...opts });
  return { dir, summary };
}

async function planAfterExport(l: Live, opts: Partial<ExportOptions> = {}) {
  const { dir, summary } = await exportTo(l, opts);
  const loaded = await loadBundle(dir, { vars: {}, env: {}, mayHoldUnknownRefs: true });
  const errors = loaded.diagnostics.filter((d) => d.severity === 'error');
  expect(errors).toEqual([]);
  const folders = [{ id: 7, name: 'Finance', parentId: null }] as Folder[];
  const p = plan(
    loaded.desired,
    { workbooks: l.workbooks, reports: l.reports, userAttributes: l.userAttributes, folders },
    ctx(),
  );
  return { dir, summary, plan: p, desired: loaded.desired };
}

/** A small deployment with one of everything export must handle. */
function sample(): Live {
  const workbooks = [
    lWorkbook(10, 'sales', {
      name: 'Sales',
      folderId: 7,
      folderPath: [{ id: 7, name: 'Finance' }],
      meta: {
        owner: 'finance',
        dashboardDraft: {
          kind: 'CLASSIC',
          title: 'Sales',
          widgets: [
            { id: 'w1', type: 'CHART', position: { x: 0, y: 0, w: 6, h: 4 }, config: { reportId: 100 } },
            {
              id: 'w2',
              type: 'CHART',
              position: { x: 6, y: 0, w: 6, h: 4 },
              config: { reportId: 102, nested: { sourceReportId: 101 } },
            },
            { id: 'w3', type: 'CHART', position: { x: 0, y: 4, w: 6, h: 4 }, config: { reportId: 999 } },
            {
              id: 't1',
              type: 'TEXT',
              position: { x: 6, y: 4, w: 6, h: 4 },
              config: { text: 'Price is ${price}', count: 100 },
            },
          ],
        },
      },
    }),
    lWorkbook(11, null, { name: 'Ops Board' }),
  ];
  const reports = [
    lReport(100, 'revqZ1x8Kp0a', {
      name: 'Revenue',
      title: 'Revenue by month',
      source: 'PLAYGROUND',
      workbookId: 10,
      folderId: 7,
      folderPath: [{ id: 7, name: 'Finance' }],
      jsonQuery: '{"measures":["orders.count"],"dimensions":["orders.status"]}',
      pivotItems: { columns: [], rows: ['orders.status'], measures: ['orders.count'], filters: [] },
      meta: { chart: { type: 'bar' } },
      description: 'read-only, never exported',
      canEdit: true,
      version: 3,
    }),
    lReport(101, LEGACY_PLACEHOLDER, { name: 'Old one', workbookId: 10, sqlQuery: 'select 1\nfrom t -- ${not_a_var}' }),
    lReport(102, LEGACY_PLACEHOLDER, { name: 'Old one', workbookId: 11, jsonQuery: '{ "measures": ["a.b"] }' }),
    lReport(103, 'sharedAAAAA1', { name: 'Twin A', workbookId: 12 }),
    lReport(104, 'sharedAAAAA1', { name: 'Twin B' }),
  ];
  const userAttributes = [lAttr(1, 'region', { displayName: 'Region', defaultValue: 'EU', description: null })];
  return { workbooks, reports, userAttributes };
}

describe('documents', () => {
  const refs: RefLookup = {
    workbookSlug: (id) => (id === 10 ? 'sales' : undefined),
    reportPublicId: (id) => (id === 100 ? 'revqZ1x8Kp0a' : undefined),
    folderPath: (id) => (id === 7 ? 'Finance' : undefined),
  };

  test('a report: input fields only, in schema order, references for exported workbooks', () => {
    const r = sample().reports[0]!;
    const built = reportDoc(r, { publicId: r.publicId! }, refs);
    expect(toYaml(built.doc)).toMatchInlineSnapshot(`
      "kind: Report
      publicId: revqZ1x8Kp0a
      name: Revenue
      title: Revenue by month
      source: PLAYGROUND
      workbookId: { $workbook: sales }
      folder: Finance
      jsonQuery:
        measures: [ orders.count ]
        dimensions: [ orders.status ]
      pivotItems:
        columns: []
        rows: [ orders.status ]
        measures: [ orders.count ]
        filters: []
      meta:
        chart: { type: bar }
      "
    `);
    expect(built.dangling).toEqual([]);
  });

  test('a legacy report: adopt block last, variables escaped, unknown workbook kept as a number', () => {
    const r = lReport(101, LEGACY_PLACEHOLDER, { name: 'Old ${x}', workbookId: 55, sqlQuery: 'select ${a}' });
    const built = reportDoc(r, { publicId: 'AbCdEfGhIjK1', adopt: { deploymentId: 1, id: 101 } }, refs);
    expect(toYaml(built.doc)).toMatchInlineSnapshot(`
      "kind: Report
      publicId: AbCdEfGhIjK1
      name: Old $\${x}
      workbookId: 55
      sqlQuery: select $\${a}
      adopt: { deploymentId: 1, id: 101 }
      "
    `);
    expect(built.dangling).toEqual([{ kind: 'workbook', path: 'workbookId', id: 55 }]);
  });

  test('a workbook: widget report ids become references, unknown ones stay with a note', () => {
    const built = workbookDoc(sample().workbooks[0]!, 'sales', refs);
    const draft = (built.doc['meta'] as Doc)['dashboardDraft'] as Doc;
    const widgets = draft['widgets'] as Doc[];
    expect(widgets.map((w) => w['config'])).toEqual([
      { reportId: { $report: 'revqZ1x8Kp0a' } },
      { reportId: 102, nested: { sourceReportId: 101 } },
      { reportId: 999 },
      { text: 'Price is $${price}', count: 100 },
    ]);
    expect(built.dangling.map((d) => d.path)).toEqual([
      'meta.dashboardDraft.widgets[1].config.reportId',
      'meta.dashboardDraft.widgets[1].config.nested.sourceReportId',
      'meta.dashboardDraft.widgets[2].config.reportId',
    ]);
    expect(Object.keys(built.doc)).toEqual(['kind', 'slug', 'name', 'folder', 'meta']);
  });

  test.each([
    ['{"a":1,"b":[1,2]}', { a: 1, b: [1, 2] }],
    ['{ "a": 1 }', '{ "a": 1 }'], // not compact: kept as text so it stays byte-equal
    ['[1,2]', '[1,2]'],
    ['"x"', '"x"'],
    ['not json', 'not json'],
    ['{"b":1,"1":2}', '{"b":1,"1":2}'], // integer-like keys would be reordered
    ['{"n":12345678901234567890}', '{"n":12345678901234567890}'], // precision
    ['{"x":{"$report":"abc"}}', '{"x":{"$report":"abc"}}'], // would read as a reference
    ['{"constructor":1}', '{"constructor":1}'], // refused by the loader
  ])('jsonQuery %s', (text, value) => {
    expect(jsonQueryValue(text)).toEqual(value);
  });
});

describe('exportDeployment', () => {
  test('writes the sample deployment; plan on it adopts the unstable reports and changes nothing else', async () => {
    const l = sample();
    const { dir, summary, plan: p } = await planAfterExport(l);
    const files = tree(dir);
    expect(Object.keys(files).sort()).toEqual(
      [
        'reports/old-one.',
        'reports/old-one.',
        'reports/revenue.yaml',
        'reports/twin-a.yaml',
        'reports/twin-b.yaml',
        'user-attributes/region.yaml',
        'workbooks/ops-board.yaml',
        'workbooks/sales.yaml',
      ]
        .map((f) => (f.endsWith('.') ? expect.stringMatching(/^reports\/old-one\.[0-9a-f]{8}\.yaml$/) : f))
        .sort(),
    );
    for (const [rel, text] of Object.entries(files)) {
      const kind = rel.split('/')[0]!.replace(/s$/, '');
      expect(text.split('\n')[0]).toBe(`# yaml-language-server: $schema=../schemas/${kind}.schema.json`);
    }
    // 101, 102: placeholder; 103, 104: a publicId shared by two reports.
    expect(summary.adoptions.map((a) => [a.reportId, a.reason, a.publicId])).toEqual(
      expect.arrayContaining([
        [101, 'placeholder', mintPublicId(1, 101)],
        [102, 'placeholder', mintPublicId(1, 102)],
        [103, 'shared', mintPublicId(1, 103)],
        [104, 'shared', mintPublicId(1, 104)],
      ]),
    );
    expect(summary.adoptions).toHaveLength(4);
    expect(summary.derivedSlugs).toEqual([
      { file: 'workbooks/ops-board.yaml', slug: 'ops-board', workbookId: 11, name: 'Ops Board', reports: 1 },
    ]);
    expect(summary.warnings.map((w) => [w.code, w.file])).toEqual([
      ['dangling-workbook', 'reports/twin-a.yaml'],
      ['dangling-report', 'workbooks/sales.yaml'],
      ['report-id-kept', 'workbooks/sales.yaml'],
    ]);
    // `count: 100` in a text widget is not a reference, but 100 is a report's id: kept, and said so.
    expect(summary.warnings.find((w) => w.code === 'report-id-kept')!.message).toBe(
      'meta.dashboardDraft.widgets[3].config.count: widget "t1": 100 is the id of a report of this deployment, under a key wsc does not read as a report reference; kept as it is.',
    );
    expect(summary.files).toEqual({ workbooks: 2, reports: 5, userAttributes: 1 });
    // The widget that pointed at legacy report 102 now points at its minted publicId.
    expect(files['workbooks/sales.yaml']).toContain(`$report: ${mintPublicId(1, 102)}`);

    const byAddress = new Map(p.changes.map((c) => [c.address, c]));
    for (const c of p.changes) {
      if (c.address === 'workbook/ops-board') {
        // No slug live: the exported adopt block gives the live workbook its slug; nothing else changes.
        expect(c.actions).toEqual(['adopt']);
        expect(c.changes.map((x) => [x.path, x.before, x.after])).toEqual([['slug', null, 'ops-board']]);
        expect(c.requests.map((r) => r.operation)).toEqual([
          { op: 'adoptWorkbook', workbookId: 11, slug: 'ops-board' },
        ]);
      } else if (c.address === `report/${mintPublicId(1, 102)}`) {
        // ... and the report in it stays there: its workbook reference resolves to the adopted id.
        expect(c.actions).toEqual(['adopt']);
        expect(c.changes.map((x) => [x.path, x.after])).toEqual([['publicId', mintPublicId(1, 102)]]);
      } else if (c.kind === 'report' && summary.adoptions.some((a) => `report/${a.publicId}` === c.address)) {
        expect(c.actions).toEqual(['adopt']);
        expect(c.changes.map((x) => x.path)).toEqual(['publicId']);
      } else {
        expect([c.address, c.actions]).toEqual([c.address, ['noop']]);
      }
    }
    expect(byAddress.get('workbook/sales')!.actions).toEqual(['noop']);
    expect(byAddress.get('user-attribute/region')!.actions).toEqual(['noop']);
  });

  test('a plan after export is empty for any content (no phantom diffs)', async () => {
    const text = fc.oneof(
      fc.string({ maxLength: 30 }),
      fc.constantFrom(
        '${env.HOME}',
        '$${x}',
        'a ${ open',
        '$${',
        'a\nb\n',
        ' lead',
        'trail ',
        'yes',
        'null',
        '~',
        '123',
        '0x1F',
        '- x',
        '# c',
        'a: b',
        '"q"',
        "'",
        '\t',
        '\r\n',
      ),
      fc.string({ unit: fc.integer({ min: 0, max: 0xa0 }).map((c) => String.fromCharCode(c)), maxLength: 10 }),
    );
    const json = fc.jsonValue({ maxDepth: 3 });
    await fc.assert(
      fc.asyncProperty(
        fc.array(
          fc.record({
            name: text,
            title: fc.option(text, { nil: undefined }),
            sqlQuery: fc.option(text, { nil: undefined }),
            jsonQuery: fc.option(
              fc.oneof(
                json.map((v) => JSON.stringify(v) ?? 'null'),
                text,
              ),
              { nil: undefined },
            ),
            meta: fc.option(fc.dictionary(fc.string({ maxLength: 8 }), json, { maxKeys: 3 }), { nil: undefined }),
            legacy: fc.boolean(),
          }),
          { maxLength: 8 },
        ),
        fc.dictionary(fc.string({ maxLength: 8 }), json, { maxKeys: 3 }),
        // Slugs validate refuses (unsafe-slug: '.', '..', '/', control characters) cannot round-trip.
        text
          .map((t) => normalizeSlug(t))
          .filter((t) => t !== '' && t !== '.' && t !== '..' && !/[/\\\u0000-\u001f\u007f-\u009f]/.test(t)), // eslint-disable-line no-control-regex
        async (rs, wbMeta, slug) => {
          const reports = rs.map((r, i) =>
            lReport(500 + i, r.legacy ? LEGACY_PLACEHOLDER : `pid${String(i).padStart(9, '0')}`, {
              name: r.name,
              title: r.title,
              sqlQuery: r.sqlQuery,
              jsonQuery: r.jsonQuery,
              meta: r.meta as Record<string, unknown> | undefined,
              workbookId: 10,
            }),
          );
          const l: Live = { workbooks: [lWorkbook(10, slug, { meta: wbMeta })], reports, userAttributes: [] };
          const { plan: p, summary } = await planAfterExport(l);
          for (const c of p.changes) {
            const expected =
              c.kind === 'report' && summary.adoptions.some((a) => `report/${a.publicId}` === c.address)
                ? ['adopt']
                : ['noop'];
            expect([c.address, c.actions, c.changes.filter((x) => x.path !== 'publicId')]).toEqual([
              c.address,
              expected,
              [],
            ]);
          }
          const dropped = summary.warnings.filter((w) => w.code === 'field-dropped');
          // Only what a bundle cannot hold is left out: reserved keys, `$`-references, integers beyond 2^53.
          for (const w of dropped)
            expect(w.message).toMatch(/constructor|prototype|__proto__|reference|\$report|\$workbook|beyond 2\^53/);
        },
      ),
      { numRuns: runs(60) },
    );
  });

  test('the files do not depend on the order or page size of the listing', async () => {
    const l = sample();
    const a = await exportTo(l, {}, 2);
    const reversed: Live = {
      workbooks: [...l.workbooks].reverse(),
      reports: [...l.reports].reverse(),
      userAttributes: l.userAttributes,
    };
    const b = await exportTo(reversed, {}, 1);
    const c = await exportTo(l, {}, 100);
    expect(tree(b.dir)).toEqual(tree(a.dir));
    expect(tree(c.dir)).toEqual(tree(a.dir));
  });

  test('--workbook: only that workbook, its reports and the reports its widgets show', async () => {
    const { dir, summary } = await exportTo(sample(), { workbooks: ['SALES'] });
    expect(Object.keys(tree(dir)).sort()).toEqual([
      expect.stringMatching(/^reports\/old-one\.[0-9a-f]{8}\.yaml$/),
      expect.stringMatching(/^reports\/old-one\.[0-9a-f]{8}\.yaml$/),
      'reports/revenue.yaml',
      'workbooks/sales.yaml',
    ]);
    // Report 102 lives in the slugless workbook 11, which is not exported: its workbookId stays a number.
    expect(summary.warnings.map((w) => w.code).sort()).toEqual([
      'dangling-report',
      'dangling-workbook',
      'report-id-kept',
    ]);
  });

  test('--workbook with an unknown slug fails before writing anything', async () => {
    const dir = tmp();
    const sink = await DirSink.open(dir);
    await expect(exportDeployment(sourceOf(sample()), sink, { ...OPTS, workbooks: ['nope'] })).rejects.toMatchObject({
      code: 'export_unknown_workbook',
      exitCode: 1,
    });
    expect(tree(dir)).toEqual({});
  });

  test('a value the bundle schema refuses is left out field by field, with a warning', async () => {
    const l: Live = {
      workbooks: [
        lWorkbook(1, 'w', {
          meta: { good: 1, dashboardDraft: { widgets: [{ type: 'CHART', position: { x: 0, y: 0, w: 1, h: 1 } }] } },
        }),
      ],
      reports: [
        lReport(2, 'AAAAAAAAAAA2', {
          name: 'r',
          pivotItems: { columns: [], rows: [], measures: [], filters: [], displayScale: 2 } as never,
          meta: { constructor: 1, ok: true },
        }),
      ],
      userAttributes: [lAttr(3, 'odd', { type: 'date' })],
    };
    const { plan: p, summary } = await planAfterExport(l);
    expect(summary.warnings.map((w) => [w.file, w.message.split(' ')[0]])).toEqual([
      ['reports/r.yaml', 'meta.constructor'],
      ['reports/r.yaml', 'pivotItems'],
      ['user-attributes/odd.yaml', 'type'],
      ['workbooks/w.yaml', 'meta.dashboardDraft'],
    ]);
    expect(p.changes.every((c) => c.actions[0] === 'noop')).toBe(true);
  });

  test('memory: reports are handed to the sink as their page arrives, at most one page read ahead', async () => {
    const seen: string[] = [];
    const sink: ExportSink = {
      writeDoc: async (_k, rel) => void seen.push(rel),
      readDoc: async () => ({}),
      rename: async () => undefined,
    };
    let requested = 0;
    const reports = Array.from({ length: 50 }, (_, i) =>
      lReport(i + 1, `p${String(i).padStart(11, '0')}`, { name: `r${i}` }),
    );
    const source: ExportSource = {
      workbooks: () => pages([], 10),
      userAttributes: () => pages([], 10),
      reports: () =>
        (async function* () {
          for (let i = 0; i < reports.length; i += 10) {
            // When page n is asked for, every report of pages before n - 1 is written already.
            expect(seen.length).toBeGreaterThanOrEqual(Math.max(0, requested - 10));
            requested += 10;
            yield reports.slice(i, i + 10);
          }
        })(),
    };
    const summary = await exportDeployment(source, sink, OPTS);
    expect(summary.files.reports).toBe(50);
    expect(requested).toBe(50);
  });

  test('workbooks are read twice, page by page: their index first, their files once every report is known', async () => {
    const l: Live = {
      workbooks: [lWorkbook(1, 'sales'), lWorkbook(2, null, { name: 'Made in UI' }), lWorkbook(3, 'ops')],
      reports: [lReport(10, 'AAAAAAAAAA10', { workbookId: 2 }), lReport(11, 'AAAAAAAAAA11', { workbookId: 3 })],
      userAttributes: [],
    };
    const events: string[] = [];
    const source: ExportSource = {
      ...sourceOf(l, 1),
      workbooks: () =>
        (async function* () {
          events.push('workbooks read');
          for (const wb of l.workbooks) yield [wb];
        })(),
      reports: () =>
        (async function* () {
          yield l.reports;
          events.push('reports read');
        })(),
    };
    const dir = tmp();
    const summary = await exportDeployment(source, await DirSink.open(dir), OPTS);
    expect(events).toEqual(['workbooks read', 'reports read', 'workbooks read']);
    expect(summary.files).toEqual({ workbooks: 3, reports: 2, userAttributes: 0 });
    // The same files as a source that lists everything in one page.
    const whole = await exportTo(l, {}, 100);
    expect(tree(dir)).toEqual(tree(whole.dir));
  });

  test('a workbook deleted between the two reads fails the export (export_changed), naming it', async () => {
    const l: Live = {
      workbooks: [lWorkbook(1, 'sales'), lWorkbook(2, 'ops')],
      reports: [lReport(10, 'AAAAAAAAAA10', { workbookId: 2 })],
      userAttributes: [],
    };
    let reads = 0;
    const source: ExportSource = {
      ...sourceOf(l),
      // The second read no longer lists workbook 2, which report 10 was written to reference.
      workbooks: () => pages(reads++ === 0 ? l.workbooks : l.workbooks.slice(0, 1), 3),
    };
    const e = await exportDeployment(source, await DirSink.open(tmp()), OPTS).then(
      () => undefined,
      (x: unknown) => x as { code?: string; message?: string },
    );
    expect(e?.code).toBe('export_changed');
    expect(e?.message).toMatch(/^workbook 2 was deleted while the export ran/);
  });

  test('read-ahead: the first report page is requested while workbooks are read; a failure stops it cleanly', async () => {
    const order: string[] = [];
    let closed = false;
    const source: ExportSource = {
      workbooks: () =>
        // A source that fails before its first page.
        // eslint-disable-next-line require-yield
        (async function* () {
          order.push('workbooks');
          await new Promise((r) => setTimeout(r, 5));
          throw new Error('workbooks failed');
        })(),
      userAttributes: () => pages([], 10),
      reports: () =>
        (async function* () {
          try {
            order.push('reports page 1');
            yield [lReport(1, 'AAAAAAAAAAA1')];
            order.push('reports page 2');
            yield [lReport(2, 'AAAAAAAAAAA2')];
          } finally {
            closed = true;
          }
        })(),
    };
    const sink: ExportSink = {
      writeDoc: async () => undefined,
      readDoc: async () => ({}),
      rename: async () => undefined,
    };
    await expect(exportDeployment(source, sink, OPTS)).rejects.toThrow('workbooks failed');
    expect(order).toEqual(['reports page 1', 'workbooks']);
    expect(closed).toBe(true);
  });
});
