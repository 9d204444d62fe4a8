import { describe, expect, it } from 'vitest';
import { breakpointsWithLayout, gridAt } from '../../src/core/dashboard-grid.js';
import type { DesiredState } from '../../src/core/model.js';
import type { JsonValue } from '../../src/core/json.js';
import { previewModel } from '../../src/preview/model.js';
import { dashboardSvgs } from '../../src/preview/svg-files.js';
import { dReport, dWorkbook } from '../core/builders.js';

type W = { [k: string]: JsonValue };
const draft = (widgets: W[]): W => ({ title: 'Sales <&>', layout: { cols: { lg: 12, sm: 6 } }, widgets });
const state = (d: W): DesiredState => ({
  workbooks: [dWorkbook('sales', { name: 'Sales', meta: { dashboardDraft: d } })],
  reports: [dReport('revMrrTrnd01', { title: 'MRR "trend"', name: 'mrr', sqlQuery: 'select 1' })],
  userAttributes: [],
});

describe('the grid at a breakpoint', () => {
  const d = draft([
    {
      id: 'a',
      type: 'CHART',
      position: { x: 8, y: 0, w: 4, h: 4 },
      responsiveLayouts: { sm: { x: 0, y: 0, w: 6, h: 4 } },
    },
    { id: 'b', type: 'CHART', position: { x: 10, y: 4, w: 4, h: 2 } },
  ]);

  it('uses a layout of its own, else the nearest larger one fitted into the columns; flags what leaves the grid', () => {
    expect(breakpointsWithLayout(d)).toEqual(['lg', 'sm']);
    const lg = gridAt(d, 'lg');
    expect(lg.widgets.map((w) => [w.id, w.box, w.outOfGrid])).toEqual([
      ['a', { x: 8, y: 0, w: 4, h: 4 }, false],
      ['b', { x: 10, y: 4, w: 4, h: 2 }, true],
    ]);
    const xs = gridAt(d, 'xs');
    expect(xs.cols).toBe(4);
    expect(xs.widgets.map((w) => [w.id, w.from, w.box])).toEqual([
      ['a', 'sm', { x: 0, y: 0, w: 4, h: 4 }],
      ['b', 'lg', { x: 0, y: 4, w: 4, h: 2 }],
    ]);
  });
});

describe('a layout derived from a larger breakpoint', () => {
  it('is packed upwards as the grid packs it: side by side at lg, one under the other at xs, no overlap', () => {
    const d = draft([
      { id: 'left', type: 'CHART', position: { x: 0, y: 0, w: 6, h: 3 } },
      { id: 'right', type: 'CHART', position: { x: 6, y: 0, w: 6, h: 2 } },
      { id: 'low', type: 'TEXT', position: { x: 0, y: 9, w: 12, h: 1 } },
    ]);
    const xs = gridAt(d, 'xs');
    expect(xs.widgets.map((w) => [w.id, w.box, w.overlaps])).toEqual([
      ['left', { x: 0, y: 0, w: 4, h: 3 }, []],
      ['right', { x: 0, y: 3, w: 4, h: 2 }, []],
      ['low', { x: 0, y: 5, w: 4, h: 1 }, []],
    ]);
    // lg is the dashboard's own layout: kept as written, gaps and all.
    expect(gridAt(d, 'lg').widgets.map((w) => w.box.y)).toEqual([0, 0, 9]);
  });
});

describe('preview SVGs', () => {
  const d = draft([
    {
      id: 'chart',
      type: 'CHART',
      position: { x: 0, y: 0, w: 6, h: 4 },
      config: { reportId: { $report: 'revMrrTrnd01' } },
    },
    {
      id: 'note',
      type: 'TEXT',
      position: { x: 4, y: 2, w: 4, h: 3 },
      config: { content: '## Read <me>\nsecond line' },
    },
    { id: 'wide', type: 'CHART', position: { x: 10, y: 5, w: 4, h: 2 } },
  ]);

  it('one per breakpoint with a layout; byte-equal across runs; names escaped; overlaps and out-of-grid in red', () => {
    const files = dashboardSvgs(previewModel(state(d), []).workbooks);
    const again = dashboardSvgs(previewModel(state(structuredClone(d)), []).workbooks);
    expect(files.map((f) => f.name)).toEqual(['sales.lg.svg']);
    expect(again).toEqual(files);
    const svg = files[0]!.text;
    expect(svg.startsWith('<svg xmlns="http://www.w3.org/2000/svg" width="1200" height="')).toBe(true);
    expect(svg).toContain('Sales &lt;&amp;&gt; · lg (12 columns)');
    expect(svg).toContain('MRR &quot;trend&quot;');
    expect(svg).toContain('Read &lt;me&gt;');
    expect(svg).not.toMatch(/<script|href=|xlink|@import|url\(/);
    const card = (id: string) => svg.split('<g data-id=').find((g) => g.startsWith(`"${id}"`))!;
    expect(card('chart')).toContain('class="card bad"');
    expect(card('chart')).toContain('overlaps note');
    expect(card('wide')).toContain('out of the grid (x 10, w 4, 12 columns)');
    expect(card('wide')).toContain('class="card bad"');
  });

  it("renders a TEXT widget's markdown with raw HTML as text and no javascript: link", () => {
    const text = {
      id: 't',
      type: 'TEXT',
      position: { x: 0, y: 0, w: 4, h: 2 },
      config: { content: '<script>x()</script> [a](javascript:x()) **b**' },
    };
    const card = previewModel(state(draft([text])), []).workbooks[0]!.grids[0]!.cards[0]!;
    expect(card.html).toBe('<p>&lt;script&gt;x()&lt;/script&gt; [a](javascript:x()) <strong>b</strong></p>\n');
  });
});
