// The pictures of a change (`wsc preview --out DIR --against REF`): one
// golden file per kind of change (added, removed, moved, resized, config),
// each also read for the marks it must hold, so that a golden file written
// wrong cannot pass; byte-equal across runs. `WSC_UPDATE_GOLDEN=1` rewrites
// the files (then look at them).
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { DesiredState } from '../../src/core/model.js';
import type { JsonValue } from '../../src/core/json.js';
import { diffDashboard, type ReportNames } from '../../src/core/plan/dashboard-diff.js';
import { workbookChanges } from '../../src/preview/changes.js';
import { markChanges, previewModel } from '../../src/preview/model.js';
import { GLYPHS, glyphOf, type GlyphKind } from '../../src/preview/glyphs.js';
import { dashboardSvgs } from '../../src/preview/svg.js';
import { dReport, dWorkbook } from '../core/builders.js';

type W = { [k: string]: JsonValue };
const GOLDEN = join(import.meta.dirname, '../golden/preview');

const base: W[] = [
  { id: 'header', type: 'TEXT', position: { x: 0, y: 0, w: 12, h: 2 }, config: { content: '## Revenue\nIn EUR.' } },
  {
    id: 'region',
    type: 'FILTER',
    position: { x: 0, y: 2, w: 4, h: 2 },
    config: { label: 'Region', member: 'a.region' },
  },
  {
    id: 'grain',
    type: 'TIME_GRAIN',
    position: { x: 4, y: 2, w: 4, h: 2 },
    config: { default: 'month', options: ['week', 'month'] },
  },
  {
    id: 'mrr',
    type: 'CHART',
    position: { x: 0, y: 4, w: 8, h: 6 },
    config: { reportId: { $report: 'revMrrTrnd01' }, visualization: 'line' },
  },
  {
    id: 'kpi',
    type: 'CHART',
    position: { x: 8, y: 4, w: 4, h: 3 },
    config: { reportId: { $report: 'revNrrKpi001' }, visualization: 'kpi' },
  },
];
const draft = (widgets: W[]): W => ({ title: 'Revenue', layout: { cols: { lg: 12 } }, widgets });
const state = (widgets: W[]): DesiredState => ({
  workbooks: [dWorkbook('revenue', { name: 'Revenue', meta: { dashboardDraft: draft(widgets) } })],
  reports: [
    dReport('revMrrTrnd01', { title: 'Monthly recurring revenue' }),
    dReport('revNrrKpi001', { title: 'Net revenue retention' }),
    dReport('revArrRgn001', { title: 'ARR by region' }),
  ],
  userAttributes: [],
});
const TITLES: Record<string, string> = { revNrrKpi001: 'Net revenue retention' };
const names: ReportNames = { byId: () => undefined, title: (pid) => TITLES[pid] };
const edit = (id: string, patch: W): W[] => base.map((w) => (w['id'] === id ? { ...w, ...patch } : w));

/** The SVG of `after` drawn against `base`, as `preview --out --against git:main` writes it. */
function picture(after: W[]): string {
  const desired = state(after);
  const before = draft(base);
  const model = markChanges(
    previewModel(desired, []),
    desired,
    new Map([['revenue', { before, diff: diffDashboard(before, draft(after), names) }]]),
    'git:main',
  );
  const files = dashboardSvgs(model.workbooks, 'git:main');
  expect(files.map((f) => f.name)).toEqual(['revenue.lg.svg']);
  return files[0]!.text;
}

function golden(name: string, svg: string): void {
  const file = join(GOLDEN, `${name}.svg`);
  if (process.env['WSC_UPDATE_GOLDEN'] === '1') writeFileSync(file, svg);
  expect(existsSync(file), `${file} is missing: run with WSC_UPDATE_GOLDEN=1 and look at it`).toBe(true);
  expect(svg).toBe(readFileSync(file, 'utf8'));
}

/** The `<g>` of a card (or of a removed widget, an old box) by id. */
function group(svg: string, attr: string, id: string): string {
  const start = svg.indexOf(`<g ${attr}="${id}"`);
  expect(start, `${attr}=${id}`).toBeGreaterThanOrEqual(0);
  return svg.slice(start, svg.indexOf('</g>', start));
}

const CASES: [string, W[], (svg: string) => void][] = [
  [
    'added',
    [
      ...base,
      {
        id: 'arr',
        type: 'CHART',
        position: { x: 8, y: 7, w: 4, h: 3 },
        config: { reportId: { $report: 'revArrRgn001' }, visualization: 'bar' },
      },
    ],
    (svg) => {
      const g = group(svg, 'data-id', 'arr');
      expect(g).toContain('data-change="added"');
      expect(g).toContain('class="card added"');
      expect(g).toContain('>added</text>');
      expect(g).toContain('ARR by region');
      expect(svg.match(/data-change=/g)).toHaveLength(1);
    },
  ],
  [
    'removed',
    base.filter((w) => w['id'] !== 'kpi'),
    (svg) => {
      const g = group(svg, 'data-removed', 'kpi');
      expect(g).toContain('class="gone"');
      expect(g).toContain('>removed</text>');
      expect(g).toContain('Net revenue retention');
      // Dashed where it was: x 8 of 12 columns at 1200 px, y 4 rows of 30 px under the header and legend.
      expect(g).toContain('x="804" y="180"');
      expect(svg).not.toContain('data-id="kpi"');
    },
  ],
  [
    'moved',
    edit('grain', { position: { x: 8, y: 2, w: 4, h: 2 } }),
    (svg) => {
      expect(group(svg, 'data-id', 'grain')).toContain('data-change="moved"');
      const was = group(svg, 'data-was', 'grain');
      expect(was).toContain('class="old" x="404"');
      expect(was).toContain('marker-end="url(#arrow)"');
    },
  ],
  [
    'resized',
    edit('kpi', { position: { x: 8, y: 4, w: 4, h: 6 } }),
    (svg) => {
      const g = group(svg, 'data-id', 'kpi');
      expect(g).toContain('data-change="resized"');
      expect(g).toContain('>resized</text>');
      const was = group(svg, 'data-was', 'kpi');
      expect(was).toContain('height="82"');
      expect(was).not.toContain('arrow');
    },
  ],
  [
    'config',
    edit('mrr', { config: { reportId: { $report: 'revMrrTrnd01' }, visualization: 'area' } }),
    (svg) => {
      const g = group(svg, 'data-id', 'mrr');
      expect(g).toContain('data-change="config"');
      expect(g).toContain('class="card config"');
      expect(g).toContain('config.visualization');
      // The badge says which member changed, not just "config".
      expect(g).toContain('>visualization changed</text>');
      expect(svg).not.toContain('data-was=');
    },
  ],
];

describe('pictures of a change (preview --out --against)', () => {
  it.each(CASES)('%s: marked, with the legend, the same bytes every time (golden file)', (name, after, check) => {
    const svg = picture(after);
    expect(picture(structuredClone(after))).toBe(svg);
    expect(svg).toContain('changes against git:main');
    expect(svg).toContain('<g class="legend">');
    check(svg);
    golden(name, svg);
  });

  it('draws nothing for a dashboard that did not change', () => {
    const desired = state(base);
    const before = draft(base);
    const model = markChanges(
      previewModel(desired, []),
      desired,
      new Map([['revenue', { before, diff: diffDashboard(before, draft(base), names) }]]),
      'git:main',
    );
    expect(dashboardSvgs(model.workbooks, 'git:main')).toEqual([]);
  });

  it('marks every card of a new dashboard as added, and a removed widget at each breakpoint it had', () => {
    const all = workbookChanges(draft(base), { before: undefined, diff: undefined });
    expect(all.created).toBe(true);
    expect(Object.values(all.grids.lg.cards).every((m) => m.kinds.join() === 'added')).toBe(true);
    const gone = workbookChanges(draft(base.slice(0, 4)), { before: draft(base), diff: undefined });
    expect(gone.grids.lg.removed.map((r) => r.id)).toEqual(['kpi']);
    expect(gone.grids.xs.removed.map((r) => r.id)).toEqual(['kpi']);
  });
});

describe('cards in the SVG say what they are', () => {
  it('a CHART its glyph and report title, a FILTER label and member, a TIME_GRAIN default and options, TEXT cut with …', () => {
    const svg = dashboardSvgs(previewModel(state(base), []).workbooks)[0]!.text;
    const card = (id: string) => group(svg, 'data-id', id);
    expect(card('mrr')).toContain(`<path class="glyph"`);
    expect(card('mrr')).toContain(`d="${GLYPHS.line}"`);
    expect(card('mrr')).toContain('Monthly recurring revenue');
    expect(card('kpi')).toContain(`d="${GLYPHS.kpi}"`);
    expect(card('region')).toContain('>Region · a.region<');
    expect(card('grain')).toContain('>default month of week, month<');
    // Two lines of markdown in a card with room for one under its head: the first, and the cue.
    expect(card('header')).toContain('<tspan class="m">Revenue…</tspan>');
  });

  it('maps visualization names to glyphs, generic for the rest', () => {
    const cases: [string | undefined, GlyphKind][] = [
      ['line', 'line'],
      ['Bar', 'bar'],
      ['histogram', 'bar'],
      ['area', 'area'],
      ['donut', 'pie'],
      ['big_number', 'kpi'],
      ['table', 'table'],
      ['pivot-table', 'pivot'],
      ['choropleth', 'map'],
      ['funnel', 'generic'],
      [undefined, 'generic'],
    ];
    for (const [name, kind] of cases) expect(glyphOf(name), String(name)).toBe(kind);
  });
});

/** Each `<text>` of the picture outside the charts' own pictures, as a box (12 px sans-serif, 7 px a character). */
function labelBoxes(svg: string): { text: string; x: number; y: number; w: number }[] {
  // The legend is laid out on its own line (translated groups); the charts' pictures are their own.
  const outside = svg.replace(/<svg x=[\s\S]*?<\/svg>/g, '').replace(/<g class="legend">.*\n/, '');
  return [...outside.matchAll(/<text\b([^>]*)>([\s\S]*?)<\/text>/g)].map((m) => {
    const attr = (k: string) => Number(new RegExp(`\\b${k}="([-\\d.]+)"`).exec(m[1]!)?.[1] ?? NaN);
    const text = m[2]!.replace(/<[^>]+>/g, '').replace(/&[a-z]+;/g, '&');
    const anchor = /text-anchor="end"/.test(m[1]!);
    const w = [...text].length * (/class="badge"/.test(m[1]!) ? 6 : 7);
    return { text, x: anchor ? attr('x') - w : attr('x'), y: attr('y'), w };
  });
}

describe('no two labels overlap', () => {
  it('a removed widget under a moved one: its label goes under the grid, clear of the card now there', () => {
    // `kpi` removed and `grain` moved (and grown) onto its place.
    const after = base
      .filter((w) => w['id'] !== 'kpi')
      .map((w) => (w['id'] === 'grain' ? { ...w, position: { x: 8, y: 4, w: 4, h: 3 } } : w));
    const svg = picture(after);
    expect(group(svg, 'data-removed', 'kpi')).not.toContain('<text');
    expect(svg).toMatch(
      /data-removed-label="kpi"[^>]*>removed: CHART kpi · Net revenue retention \(the dashed red box at x 8, y 4, w 4, h 3\)/,
    );
    const boxes = labelBoxes(svg);
    for (const [i, a] of boxes.entries())
      for (const b of boxes.slice(i + 1)) {
        const apart = a.x + a.w <= b.x || b.x + b.w <= a.x || Math.abs(a.y - b.y) >= 12;
        expect(apart, `"${a.text}" and "${b.text}" overlap`).toBe(true);
      }
  });
});
