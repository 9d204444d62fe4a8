// The pure half of `wsc export --into`: which live ids the bundle's resources
// were matched to, and which keys of which files take the deployment's values.
import { describe, expect, test } from 'vitest';
import { bundleMatches, intoDecisions } from '../../src/core/export/into.js';
import type { ResourceChange } from '../../src/core/model.js';
import type { Doc } from '../../src/core/export/docs.js';
import { dAttr, dReport, dWorkbook, desired } from './builders.js';

function change(address: string, liveId: number | undefined, paths: string[] = []): ResourceChange {
  const kind = address.split('/')[0] as ResourceChange['kind'];
  return {
    address,
    kind,
    actions: paths.length > 0 ? ['update'] : ['noop'],
    ...(liveId !== undefined ? { liveId } : {}),
    changes: paths.map((path) => ({ path, before: 'file', after: 'live' })),
    requests: [],
  };
}

const bundle = desired({
  workbooks: [dWorkbook('sales')],
  reports: [dReport('revMrrTrnd01'), dReport('gone00000001'), dReport('sameSame0001')],
  userAttributes: [dAttr('region')],
});
const changes = [
  change('workbook/sales', 7),
  change('report/revMrrTrnd01', 101, ['title', 'meta.chart', 'source']),
  change('report/gone00000001', undefined),
  change('report/sameSame0001', 102),
  change('user-attribute/region', 3),
];

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

  test('a changed resource takes its changed keys (not create-only ones), a matching one none, a gone one is named', () => {
    const managed = new Map<string, Doc>([
      ['workbook/sales', { kind: 'Workbook', slug: 'sales' }],
      ['report/revMrrTrnd01', { kind: 'Report', title: 'From the UI', meta: { chart: { type: 'bar' } }, source: 'X' }],
      ['report/sameSame0001', { kind: 'Report', title: 'Same' }],
      ['user-attribute/region', { kind: 'UserAttribute', name: 'region' }],
    ]);
    const d = intoDecisions(bundle, changes, managed);
    expect(d.edits).toEqual([
      {
        address: 'report/revMrrTrnd01',
        file: 'reports/revMrrTrnd01.yaml',
        match: { publicId: 'revMrrTrnd01' },
        edits: [
          { path: ['title'], value: 'From the UI' },
          { path: ['meta', 'chart'], value: { type: 'bar' } },
        ],
      },
    ]);
    expect(d.unchanged).toBe(3);
    expect(d.notLive).toEqual(['report/gone00000001']);
  });
});
