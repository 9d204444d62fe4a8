import { describe, expect, it } from 'vitest';
import type { FieldChange } from '../../src/core/plan-model.js';
import type { JsonValue } from '../../src/core/json.js';
import { diffDashboard, type ReportNames } from '../../src/core/plan/dashboard-diff.js';
import { dashboardLines, dashValue } from '../../src/render/dashboard-diff.js';
import { layoutMap } from '../../src/render/dashboard-map.js';
import { renderResourceHuman } from '../../src/render/plan-human.js';
import { renderPlanMarkdown } from '../../src/render/plan-markdown.js';
import { plainStyle } from '../../src/render/style.js';

const names: ReportNames = {
  byId: (id) => (id === 11 ? { publicId: 'revMrrTrnd01', title: 'Monthly recurring revenue' } : undefined),
  title: (pid) => (pid === 'revMrrTrnd01' ? 'Monthly recurring revenue' : undefined),
};
type W = { [k: string]: JsonValue };
const draft = (widgets: W[]): W => ({ layout: { cols: { lg: 12 } }, widgets });
const before = draft([
  {
    id: 'header',
    type: 'TEXT',
    position: { x: 0, y: 0, w: 12, h: 2 },
    config: { content: '## Revenue\nAll amounts in EUR.' },
  },
  { id: 'mrr', type: 'CHART', position: { x: 0, y: 2, w: 8, h: 4 }, config: { reportId: 11, visualization: 'line' } },
  { id: 'kpi', type: 'CHART', position: { x: 8, y: 2, w: 4, h: 4 } },
]);

describe('dashboard diff lines', () => {
  it('one line per change; references with their title; long text as a line diff', () => {
    const after = draft([
      {
        id: 'header',
        type: 'TEXT',
        position: { x: 0, y: 0, w: 12, h: 2 },
        config: { content: '## Revenue\nAll amounts in USD.' },
      },
      {
        id: 'mrr',
        type: 'CHART',
        position: { x: 0, y: 2, w: 6, h: 4 },
        config: { reportId: { $report: 'revMrrTrnd01' }, visualization: 'bar' },
      },
      { id: 'kpi', type: 'CHART', position: { x: 6, y: 2, w: 4, h: 4 } },
      {
        id: 'new',
        type: 'CHART',
        position: { x: 0, y: 6, w: 4, h: 3 },
        config: { reportId: { $report: 'revMrrTrnd01' } },
      },
    ]);
    const lines = dashboardLines(diffDashboard(before, after, names)!);
    expect(lines).toEqual([
      {
        sign: '~',
        text: 'widget header "Revenue" config.content:',
        nested: [
          { sign: '@', text: '@@ widget header config.content line 2 @@' },
          { sign: ' ', text: '## Revenue' },
          { sign: '-', text: 'All amounts in EUR.' },
          { sign: '+', text: 'All amounts in USD.' },
        ],
      },
      {
        sign: '~',
        text: 'widget mrr "Monthly recurring revenue" resized 8×4 → 6×4',
        before: 'widget mrr "Monthly recurring revenue" size 8×4',
        after: 'widget mrr "Monthly recurring revenue" size 6×4',
      },
      {
        sign: '~',
        text: 'widget mrr "Monthly recurring revenue" config.visualization: "line" → "bar"',
        before: 'widget mrr "Monthly recurring revenue" config.visualization: "line"',
        after: 'widget mrr "Monthly recurring revenue" config.visualization: "bar"',
      },
      { sign: '~', text: 'widget kpi moved 8,2 → 6,2', before: 'widget kpi at 8,2', after: 'widget kpi at 6,2' },
      {
        sign: '+',
        text: 'widget new "Monthly recurring revenue" added: CHART at 0,6 4×3, shows { $report: revMrrTrnd01 }',
      },
    ]);
  });

  it('shows a reference inside a larger value in the bundle form', () => {
    expect(dashValue([{ $report: 'revMrrTrnd01' }, 2], { revMrrTrnd01: 'MRR' })).toBe(
      '[ { $report: revMrrTrnd01 } "MRR", 2 ]',
    );
    // YAML flow, in the file's member order, not sorted-key JSON.
    expect(dashValue({ z: 1, a: { $report: 'revMrrTrnd01' } }, {})).toBe('{ z: 1, a: { $report: revMrrTrnd01 } }');
    expect(dashValue({ $workbook: 'sales' }, {})).toBe('{ $workbook: sales }');
  });
});

describe('layout map', () => {
  it('draws before and after side by side within 100 columns, the changed widget marked', () => {
    const after = draft([
      { id: 'header', type: 'TEXT', position: { x: 0, y: 0, w: 12, h: 2 } },
      { id: 'mrr', type: 'CHART', position: { x: 0, y: 2, w: 8, h: 4 } },
      { id: 'kpi', type: 'CHART', position: { x: 8, y: 3, w: 4, h: 3 } },
    ]);
    const map = layoutMap(before, after, new Set(['kpi']), 100);
    expect(`${map.join('\n')}\n`).toBe(`\
before (lg, 12 columns)                            after (lg, 12 columns)
+header-----------------------------------------+  +header-----------------------------------------+
|                                               |  |                                               |
+mrr----------------------------+*kpi-----------+  +mrr----------------------------+---------------+
|                               |               |  |                               +*kpi-----------+
|                               |               |  |                               |               |
|                               |               |  |                               |               |
+-------------------------------+---------------+  +-------------------------------+---------------+
* changed
`);
    expect(Math.max(...map.map((l) => l.length))).toBeLessThanOrEqual(100);
  });

  it('stacks the two maps when side by side would not fit, and cuts long labels with ~', () => {
    const wide = (w: number): W => ({
      layout: { cols: { lg: 40 } },
      widgets: [{ id: 'a-long-widget-id', type: 'CHART', position: { x: 0, y: 0, w, h: 1 } }],
    });
    const map = layoutMap(wide(4), wide(6), new Set(['a-long-widget-id']), 60);
    expect(map).toEqual([
      'before (lg, 40 columns)',
      '+*a~+',
      '+---+',
      '',
      'after (lg, 40 columns)',
      '+*a-l~+',
      '+-----+',
      '* changed',
    ]);
  });
});

describe('plans with a dashboard change', () => {
  const after = draft([
    {
      id: 'header',
      type: 'TEXT',
      position: { x: 0, y: 0, w: 12, h: 2 },
      config: { content: '## Revenue\nAll amounts in EUR.' },
    },
    {
      id: 'mrr',
      type: 'CHART',
      position: { x: 0, y: 2, w: 8, h: 4 },
      config: { reportId: { $report: 'revMrrTrnd01' }, visualization: 'line' },
    },
    { id: 'kpi', type: 'CHART', position: { x: 8, y: 3, w: 4, h: 3 } },
  ]);
  const change: FieldChange = {
    path: 'meta.dashboardDraft',
    before,
    after,
    dashboard: diffDashboard(before, after, names)!,
  };
  const rc = {
    address: 'workbook/rev',
    kind: 'workbook' as const,
    actions: ['update' as const],
    liveId: 3,
    changes: [change],
    requests: [],
  };

  it('human: the field, one line per change, then the map', () => {
    const out = renderResourceHuman(rc, plainStyle);
    expect(out.split('\n').slice(0, 5)).toEqual([
      '~ workbook/rev will be updated',
      '    meta.dashboardDraft:',
      '      ~ widget kpi moved 8,2 → 8,3',
      '      ~ widget kpi resized 4×4 → 4×3',
      '',
    ]);
    expect(out).toContain('    before (lg, 12 columns)');
    expect(Math.max(...out.split('\n').map((l) => l.length))).toBeLessThanOrEqual(100);
  });

  it('markdown: the lines in the diff fence (a change as - and + at column 0), the map in a text fence', () => {
    const plan = {
      formatVersion: 1 as const,
      environment: 'staging',
      deploymentId: 1,
      publicIds: 'as-is' as const,
      changes: [
        {
          ...rc,
          requests: [
            {
              id: 'workbook/rev#upsert',
              address: 'workbook/rev',
              phase: 1 as const,
              operation: { op: 'upsertWorkbook' as const, slug: 'rev', body: {} },
              dependsOn: [],
            },
          ],
        },
      ],
      summary: {
        create: 0,
        update: 1,
        adopt: 0,
        publish: 0,
        noop: 0,
        unmanaged: { workbooks: 0, reports: 0, userAttributes: 0 },
      },
      fingerprints: [],
    };
    const md = renderPlanMarkdown(plan);
    expect(md).toContain(
      '```diff\n  meta.dashboardDraft:\n- widget kpi at 8,2\n+ widget kpi at 8,3\n- widget kpi size 4×4\n+ widget kpi size 4×3\n' +
        '```\n\n```text\nbefore (lg, 12 columns)',
    );
  });
});
