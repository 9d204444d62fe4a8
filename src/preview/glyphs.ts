// The small pictures a CHART card shows beside its title, one per kind of
// visualization, as SVG path data on a 16×16 box (stroked, no fill): drawn
// by the SVG files and, from the model's copy, by the page. A visualization
// wsc does not know gets the generic glyph.
export type GlyphKind = 'line' | 'bar' | 'area' | 'pie' | 'kpi' | 'table' | 'pivot' | 'map' | 'generic';

export const GLYPHS: Record<GlyphKind, string> = {
  line: 'M1 13 L5 8 L8 10 L15 3',
  bar: 'M2 15 V9 M6 15 V4 M10 15 V7 M14 15 V2',
  area: 'M1 15 V10 L5 6 L9 9 L15 3 V15 Z',
  pie: 'M8 1 A7 7 0 1 0 15 8 H8 Z M10 0.5 V6 H15.5 A6 6 0 0 0 10 0.5',
  kpi: 'M2 3 H14 M2 13 H14 M5 10 V6 L7 8 L9 6 V10 M11 6 V10',
  table: 'M1 2 H15 V14 H1 Z M1 6 H15 M1 10 H15 M6 2 V14',
  pivot: 'M1 1 H15 V15 H1 Z M1 5 H15 M5 1 V15 M8 8 H12 M8 11 H12',
  map: 'M1 3 L5 1 L11 3 L15 1 V13 L11 15 L5 13 L1 15 Z M5 1 V13 M11 3 V15',
  generic: 'M1 1 H15 V15 H1 Z M4 11 L7 7 L9 9 L12 5',
};

/** Words a bundle uses for a visualization, by glyph (lower case, `-`, `_` and spaces dropped). */
const SYNONYMS: Record<string, GlyphKind> = {
  line: 'line',
  linechart: 'line',
  spline: 'line',
  bar: 'bar',
  barchart: 'bar',
  column: 'bar',
  histogram: 'bar',
  stackedbar: 'bar',
  area: 'area',
  areachart: 'area',
  pie: 'pie',
  piechart: 'pie',
  donut: 'pie',
  doughnut: 'pie',
  kpi: 'kpi',
  number: 'kpi',
  bignumber: 'kpi',
  singlevalue: 'kpi',
  table: 'table',
  grid: 'table',
  pivot: 'pivot',
  pivottable: 'pivot',
  map: 'map',
  geo: 'map',
  choropleth: 'map',
};

/** The glyph of a visualization's name; generic for one wsc does not know (or none). */
export function glyphOf(visualization: string | undefined): GlyphKind {
  if (visualization === undefined) return 'generic';
  return SYNONYMS[visualization.toLowerCase().replace(/[-_\s]/g, '')] ?? 'generic';
}
