// The pure half of `wsc export --into`: which live ids the bundle's resources
// were matched to, and what each file takes from the deployment: a three-way
// merge of the file, the live resource and the ownership record of the last
// apply, per field and, for a dashboard draft recorded in parts, per widget.
import { describe, expect, test } from 'vitest';
import { bundleMatches, intoDecisions, type IntoSides } from '../../src/core/export/into.js';
import { mergeResource } from '../../src/core/export/merge.js';
import type { JsonValue } from '../../src/core/json.js';
import type { ResourceChange } from '../../src/core/plan-model.js';
import type { Doc } from '../../src/core/export/docs.js';
import { draftParts, fieldHash, makeRecord, type OwnershipRecord } from '../../src/core/ownership.js';
import { dAttr, dReport, dWorkbook, desired } from './builders.js';

function change(
  address: string,
  liveId: number | undefined,
  paths: string[] = [],
  after: JsonValue = 'file',
): ResourceChange {
  const kind = address.split('/')[0] as ResourceChange['kind'];
  return {
    address,
    kind,
    actions: paths.length > 0 ? ['update'] : ['noop'],
    ...(liveId !== undefined ? { liveId } : {}),
    changes: paths.map((path) => ({ path, before: 'live', after })),
    requests: [],
  };
}

const bundle = desired({
  workbooks: [dWorkbook('sales')],
  reports: [
    dReport('revMrrTrnd01', { title: 'Old', meta: { chart: { type: 'line' } } }),
    dReport('gone00000001'),
    dReport('sameSame0001'),
  ],
  userAttributes: [dAttr('region')],
});
const changes = [
  change('workbook/sales', 7),
  change('report/revMrrTrnd01', 101, ['title', 'meta.chart', 'source']),
  change('report/gone00000001', undefined),
  change('report/sameSame0001', 102),
  change('user-attribute/region', 3),
];

const noRecord: IntoSides = {
  live: () => ({}),
  record: () => undefined,
  raw: (a): Doc =>
    a === 'report/revMrrTrnd01' ? { kind: 'Report', title: 'Old', meta: { chart: { type: 'line' } } } : {},
};

describe('export --into decisions', () => {
  test('the bundle is matched by the live ids the plan found, and only those', () => {
    const m = bundleMatches(bundle, changes);
    expect([...m.reports]).toEqual([
      [101, 'revMrrTrnd01'],
      [102, 'sameSame0001'],
    ]);
    expect([...m.workbooks]).toEqual([[7, 'sales']]);
    expect([...m.userAttributes]).toEqual(['region']);
  });

  test('without a record a changed resource takes its changed keys, node by node (not create-only ones); a matching one none; a gone one is named', () => {
    const managed = new Map<string, Doc>([
      ['workbook/sales', { kind: 'Workbook', slug: 'sales' }],
      ['report/revMrrTrnd01', { kind: 'Report', title: 'From the UI', meta: { chart: { type: 'bar' } }, source: 'X' }],
      ['report/sameSame0001', { kind: 'Report', title: 'Same' }],
      ['user-attribute/region', { kind: 'UserAttribute', name: 'region' }],
    ]);
    const d = intoDecisions(bundle, changes, managed, noRecord);
    expect(d.edits).toEqual([
      {
        address: 'report/revMrrTrnd01',
        file: 'reports/revMrrTrnd01.yaml',
        match: { publicId: 'revMrrTrnd01' },
        merge: {
          edits: [
            { op: 'set', path: ['title'], value: 'From the UI' },
            { op: 'set', path: ['meta', 'chart', 'type'], value: 'bar' },
          ],
          taken: ['title', 'meta.chart'],
          kept: [],
          conflicts: [],
          replaced: [],
          byHand: [],
          noRecord: true,
        },
      },
    ]);
    expect(d.unchanged).toBe(3);
    expect(d.notLive).toEqual(['report/gone00000001']);
  });
});

/** A record as apply leaves it: the hashes of the bundle's values then. */
function recordOf(fields: { [path: string]: unknown }): OwnershipRecord {
  const hashes = Object.fromEntries(Object.entries(fields).map(([p, v]) => [p, fieldHash(p, v)]));
  const draft = draftParts(fields['meta.dashboardDraft'] as JsonValue | undefined);
  return makeRecord({ bundle: 'b', fields: hashes, ...(draft ? { draft } : {}) });
}

const widget = (id: string, x: number, extra: object = {}) => ({
  id,
  type: 'TEXT',
  position: { x, y: 0, w: 1, h: 1 },
  ...extra,
});

describe('the three-way merge of one resource', () => {
  const base = { title: 'T', sqlQuery: 'LIMIT 25' };
  const record = recordOf(base);

  test.each([
    ['live moved, file as applied: taken', { title: 'UI' }, { title: 'T' }, { edits: 1, kept: [], conflicts: [] }],
    [
      'file moved, live as applied: kept',
      { title: 'T' },
      { title: 'T2' },
      { edits: 0, kept: ['title'], conflicts: [] },
    ],
    ['both moved apart: a conflict', { title: 'UI' }, { title: 'T2' }, { edits: 0, kept: [], conflicts: ['title'] }],
  ])('%s', (_, live, file, want) => {
    const m = mergeResource({
      change: change('report/x', 1, ['title'], file.title),
      record,
      live: { ...base, ...live, meta: {} },
      exported: { ...base, ...live },
      raw: { ...base, ...file },
      rendered: { ...base, ...file },
    });
    expect({ edits: m.edits.length, kept: m.kept, conflicts: m.conflicts }).toEqual(want);
    expect(m.noRecord).toBe(false);
  });

  test('a templated value equal to its rendering stays; one the UI changed is for a hand edit, nothing written', () => {
    const raw = { title: 'Revenue in ${vars.currency}', description: 'x' };
    const rendered = { title: 'Revenue in EUR', description: 'x' };
    const m = mergeResource({
      change: change('report/x', 1, ['title', 'description'], 'ignored'),
      record: undefined,
      live: {},
      exported: { title: 'Revenue in EUR', description: 'y' },
      raw,
      rendered,
    });
    expect(m.edits).toEqual([{ op: 'set', path: ['description'], value: 'y' }]);
    const n = mergeResource({
      change: change('report/x', 1, ['title'], 'ignored'),
      record: undefined,
      live: {},
      exported: { title: 'Revenue (UI)' },
      raw,
      rendered,
    });
    expect(n.edits).toEqual([]);
    expect(n.byHand).toEqual([
      { path: 'title', docPath: ['title'], file: 'Revenue in ${vars.currency}', live: 'Revenue (UI)' },
    ]);
  });

  test('a draft moved on both sides: the UI-moved widget is taken, the bundle-changed one kept, one changed on both left', () => {
    const applied = { widgets: [widget('a', 0), widget('b', 1), widget('c', 2)] };
    const file = { widgets: [widget('a', 0), widget('b', 1, { config: { v: 2 } }), widget('c', 5)] };
    const live = { widgets: [widget('a', 3), widget('b', 1), widget('c', 6)] };
    const m = mergeResource({
      change: change('workbook/w', 1, ['meta.dashboardDraft'], file),
      record: recordOf({ 'meta.dashboardDraft': applied }),
      live: { meta: { dashboardDraft: live } },
      exported: { meta: { dashboardDraft: live } },
      raw: { meta: { dashboardDraft: file } },
      rendered: { meta: { dashboardDraft: file } },
    });
    expect(m.edits).toEqual([{ op: 'set', path: ['meta', 'dashboardDraft', 'widgets', 0, 'position', 'x'], value: 3 }]);
    expect(m.taken).toEqual(['meta.dashboardDraft.widgets[a]']);
    expect(m.conflicts).toEqual(['meta.dashboardDraft.widgets[c]']);
  });

  test('widgets added, removed and reordered in the UI: one arrangement of the sequence, kept items by index', () => {
    const applied = { widgets: [widget('a', 0), widget('b', 1)] };
    const live = { widgets: [widget('n', 9), widget('b', 1)] };
    const m = mergeResource({
      change: change('workbook/w', 1, ['meta.dashboardDraft'], applied),
      record: recordOf({ 'meta.dashboardDraft': applied }),
      live: { meta: { dashboardDraft: live } },
      exported: { meta: { dashboardDraft: live } },
      raw: { meta: { dashboardDraft: applied } },
      rendered: { meta: { dashboardDraft: applied } },
    });
    expect(m.edits).toEqual([
      { op: 'arrange', path: ['meta', 'dashboardDraft', 'widgets'], items: [{ value: widget('n', 9) }, { keep: 1 }] },
    ]);
    expect(m.taken).toEqual([
      'meta.dashboardDraft.widgets[a]',
      'meta.dashboardDraft.widgets[n]',
      'meta.dashboardDraft.widgets (order)',
    ]);
  });
});
