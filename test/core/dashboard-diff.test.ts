import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { JsonValue } from '../../src/core/json.js';
import { diffDashboard, type ReportNames } from '../../src/core/plan/dashboard-diff.js';
import { runs } from '../helpers/property.js';

const names: ReportNames = {
  byId: (id) =>
    id === 11
      ? { publicId: 'revMrrTrnd01', title: 'Monthly recurring revenue' }
      : id === 12
        ? { publicId: 'revNrrKpi001', title: 'NRR' }
        : undefined,
  title: (pid) => ({ revMrrTrnd01: 'Monthly recurring revenue', revNrrKpi001: 'NRR' })[pid],
};

type W = { [k: string]: JsonValue };
const widget = (id: string, x: number, y: number, extra: W = {}): W => ({
  id,
  type: 'CHART',
  position: { x, y, w: 4, h: 4 },
  ...extra,
});
const draft = (widgets: W[], extra: W = {}): W => ({
  title: 'Revenue',
  layout: { cols: { lg: 12 }, rowHeight: 30 },
  widgets,
  ...extra,
});

const MRR = 'Monthly recurring revenue';

describe('diffDashboard', () => {
  const live = draft([widget('a', 0, 0, { config: { reportId: 11, visualization: 'line' } }), widget('b', 4, 0)]);

  it('reports a widget moved by one line, and the layout as changed', () => {
    const d = diffDashboard(
      live,
      draft([
        widget('a', 0, 0, { config: { reportId: { $report: 'revMrrTrnd01' }, visualization: 'line' } }),
        widget('b', 4, 2),
      ]),
      names,
    );
    expect(d).toEqual({
      members: [],
      widgets: [{ widget: 'b', change: 'moved', before: { x: 4, y: 0 }, after: { x: 4, y: 2 } }],
      reports: {},
      layoutChanged: true,
    });
  });

  it('does not count a reordering of the widgets as a change', () => {
    const d = diffDashboard(
      live,
      draft([
        widget('b', 4, 0),
        widget('a', 0, 0, { config: { reportId: { $report: 'revMrrTrnd01' }, visualization: 'line' } }),
      ]),
      names,
    );
    expect(d).toEqual({ members: [], widgets: [], reports: {}, layoutChanged: false });
  });

  it('shows references in the bundle form with the report titles, on both sides', () => {
    const d = diffDashboard(
      live,
      draft([
        widget('a', 0, 0, { config: { reportId: { $report: 'revNrrKpi001' }, visualization: 'bar' } }),
        widget('b', 4, 0),
      ]),
      names,
    );
    expect(d?.widgets).toEqual([
      {
        widget: 'a',
        change: 'member',
        path: 'config.reportId',
        before: { $report: 'revMrrTrnd01' },
        after: { $report: 'revNrrKpi001' },
        title: 'NRR',
      },
      { widget: 'a', change: 'member', path: 'config.visualization', before: 'line', after: 'bar', title: 'NRR' },
    ]);
    expect(d?.reports).toEqual({ revMrrTrnd01: 'Monthly recurring revenue', revNrrKpi001: 'NRR' });
    expect(d?.layoutChanged).toBe(false);
  });

  it('reports added, removed, resized and type changes, and dashboard members by path', () => {
    const after = draft(
      [
        widget('a', 0, 0, {
          type: 'TABLE',
          position: { x: 0, y: 0, w: 6, h: 4 },
          config: { reportId: { $report: 'revMrrTrnd01' }, visualization: 'line' },
        }),
        widget('c', 0, 4, { config: { reportId: { $report: 'revNrrKpi001' } } }),
      ],
      { title: 'Revenue 2', layout: { cols: { lg: 24 }, rowHeight: 30 } },
    );
    const d = diffDashboard(live, after, names)!;
    expect(d.members).toEqual([
      { path: 'layout.cols.lg', before: 12, after: 24 },
      { path: 'title', before: 'Revenue', after: 'Revenue 2' },
    ]);
    expect(d.widgets).toEqual([
      { widget: 'a', change: 'resized', before: { w: 4, h: 4 }, after: { w: 6, h: 4 }, title: MRR },
      { widget: 'a', change: 'type', before: 'CHART', after: 'TABLE', title: MRR },
      {
        widget: 'c',
        change: 'added',
        type: 'CHART',
        position: { x: 0, y: 4, w: 4, h: 4 },
        reports: ['revNrrKpi001'],
        title: 'NRR',
      },
      { widget: 'b', change: 'removed', type: 'CHART', position: { x: 4, y: 0, w: 4, h: 4 } },
    ]);
    expect(d.layoutChanged).toBe(true);
  });

  it("names each widget by the title of its report, a TEXT widget's heading or a FILTER's label", () => {
    const d = diffDashboard(
      draft([]),
      draft([
        widget('t', 0, 0, { type: 'TEXT', config: { content: '\n## Revenue overview\nAll in EUR.' } }),
        widget('f', 4, 0, { type: 'FILTER', config: { member: 'accounts.region', label: 'Region' } }),
        widget('m', 8, 0, { config: { reportId: { $report: 'revMrrTrnd01' } } }),
        widget('u', 0, 4, { config: { reportId: { $report: 'unknownRep01' } } }),
        widget('g', 4, 4, { type: 'TIME_GRAIN', config: { default: 'month' } }),
      ]),
      names,
    )!;
    expect(d.widgets.map((w) => [w.widget, w.title])).toEqual([
      ['t', 'Revenue overview'],
      ['f', 'Region'],
      ['m', MRR],
      ['u', 'unknownRep01'],
      ['g', undefined],
    ]);
  });

  it('treats a new dashboard as every widget added', () => {
    const d = diffDashboard(undefined, draft([widget('a', 0, 0)]), names)!;
    expect(d.widgets).toEqual([
      { widget: 'a', change: 'added', type: 'CHART', position: { x: 0, y: 0, w: 4, h: 4 }, reports: [] },
    ]);
    expect(d.members.map((m) => m.path)).toEqual(['layout.cols.lg', 'layout.rowHeight', 'title']);
  });

  it('gives up (undefined: the plan keeps the line diff) when widget ids repeat', () => {
    expect(
      diffDashboard(draft([widget('a', 0, 0), widget('a', 4, 0)]), draft([widget('a', 0, 0)]), names),
    ).toBeUndefined();
  });
});

describe('diffDashboard properties', () => {
  const box = fc.record({
    x: fc.nat(11),
    y: fc.nat(40),
    w: fc.integer({ min: 1, max: 12 }),
    h: fc.integer({ min: 1, max: 10 }),
  });
  const widgetArb = (id: string) =>
    fc.record({
      id: fc.constant(id),
      type: fc.constantFrom('CHART', 'TEXT', 'FILTER'),
      position: box,
      config: fc.dictionary(
        fc.constantFrom('visualization', 'content', 'label', 'limit'),
        fc.oneof(fc.string(), fc.integer()),
      ),
    });
  const draftArb = fc
    .uniqueArray(fc.stringMatching(/^[a-z][a-z0-9-]{0,8}$/), { minLength: 1, maxLength: 8 })
    .chain((ids) => fc.tuple(...ids.map(widgetArb)))
    .map((widgets) => draft(widgets as unknown as W[]));

  it('no change, in any widget order: no widget lines', () => {
    fc.assert(
      fc.property(draftArb, fc.nat(), (d, seed) => {
        const widgets = [...(d['widgets'] as W[])];
        const shuffled = widgets
          .map((w, i) => ({ w, k: (i * 7919 + seed) % 101 }))
          .sort((a, b) => a.k - b.k)
          .map((e) => e.w);
        const r = diffDashboard(d, { ...d, widgets: shuffled }, names)!;
        expect(r.widgets).toEqual([]);
        expect(r.members).toEqual([]);
      }),
      { numRuns: runs(300) },
    );
  });

  it('a random edit of one widget reports exactly that widget', () => {
    const edit = fc.oneof(
      fc.record({ kind: fc.constant('move' as const), dy: fc.integer({ min: 1, max: 5 }) }),
      fc.record({ kind: fc.constant('resize' as const), dw: fc.integer({ min: 1, max: 3 }) }),
      fc.record({ kind: fc.constant('config' as const), v: fc.string({ minLength: 1 }) }),
      fc.record({ kind: fc.constant('type' as const) }),
    );
    fc.assert(
      fc.property(draftArb, fc.nat(), edit, (d, pick, e) => {
        const widgets = d['widgets'] as W[];
        const i = pick % widgets.length;
        const w = structuredClone(widgets[i]!);
        const p = w['position'] as { x: number; y: number; w: number; h: number };
        if (e.kind === 'move') p.y += e.dy;
        if (e.kind === 'resize') p.w += e.dw;
        if (e.kind === 'config') (w['config'] as W)['edited'] = e.v;
        if (e.kind === 'type') w['type'] = w['type'] === 'CHART' ? 'TEXT' : 'CHART';
        const after = { ...d, widgets: widgets.map((x, j) => (j === i ? w : x)) };
        const r = diffDashboard(d, after, names)!;
        expect(r.widgets.length).toBe(1);
        expect(r.widgets[0]!.widget).toBe(w['id']);
        expect(r.widgets[0]!.change).toBe({ move: 'moved', resize: 'resized', config: 'member', type: 'type' }[e.kind]);
      }),
      { numRuns: runs(300) },
    );
  });
});
