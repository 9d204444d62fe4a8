// A report's data as a Vega-Lite specification, for the kind of chart its
// card shows (line, area, bar, pie, KPI, table): the x axis is the first
// time column (else the first category), the series the next category, the
// values the measures (several measures without a series become the series).
// Times are drawn in UTC and numbers with a fixed locale, so the same answer
// gives the same picture on any machine. A KPI is the first measure of the
// first row in the report's `meta.format`. Pure: chart-render.ts draws it.
import type { Cell, DataColumn, DataTable } from '../core/chart-data.js';
import { isObj, type JsonValue } from '../core/json.js';

/** The chart kinds drawn with data (every other visualization gets a card that says why not). */
const DRAWN_KINDS = ['line', 'area', 'bar', 'pie', 'kpi', 'table'] as const;
export type DrawnKind = (typeof DRAWN_KINDS)[number];

export function isDrawn(kind: string | undefined): kind is DrawnKind {
  return (DRAWN_KINDS as readonly string[]).includes(kind ?? '');
}

export interface ChartAsk {
  kind: DrawnKind;
  table: DataTable;
  /** The picture's size in pixels. */
  width: number;
  height: number;
  /** The report's `meta.format` (`{type: percent | currency | number, decimalPlaces?, currency?}`). */
  format?: JsonValue;
  /** `meta.chart.stacked`. */
  stacked?: boolean;
}

type Spec = Record<string, unknown>;

/** The charts' text: DejaVu Sans, which the PNGs are drawn with (png-fonts.ts), else a browser's own. */
export const CHART_FONT = 'DejaVu Sans, Verdana, sans-serif';

/** A number in the report's format, with a fixed locale (en-US) so it reads the same everywhere. */
export function formatValue(v: Cell, format: JsonValue | undefined): string {
  if (v === null) return '—';
  if (typeof v === 'string') return v;
  const f = isObj(format) ? format : {};
  const dp =
    typeof f['decimalPlaces'] === 'number' && f['decimalPlaces'] >= 0 ? Math.min(10, f['decimalPlaces']) : undefined;
  const type = typeof f['type'] === 'string' ? f['type'] : 'number';
  if (type === 'percent') {
    return `${(v * 100).toLocaleString('en-US', { minimumFractionDigits: dp ?? 0, maximumFractionDigits: dp ?? 1 })}%`;
  }
  if (type === 'currency') {
    const currency = typeof f['currency'] === 'string' && /^[A-Z]{3}$/.test(f['currency']) ? f['currency'] : 'USD';
    return v.toLocaleString('en-US', {
      style: 'currency',
      currency,
      maximumFractionDigits: dp ?? 0,
      minimumFractionDigits: dp ?? 0,
    });
  }
  return v.toLocaleString('en-US', { maximumFractionDigits: dp ?? 2, minimumFractionDigits: dp ?? 0 });
}

function fieldName(i: number): string {
  return `c${i}`;
}

/** The rows as Vega-Lite values: `c0`, `c1`… by column (keys free of the dots Vega reads as paths). */
function values(table: DataTable, limit = Infinity): Record<string, Cell>[] {
  return table.rows.slice(0, limit).map((r) => Object.fromEntries(r.map((v, i) => [fieldName(i), v])));
}

interface Roles {
  x?: { col: DataColumn; i: number };
  series?: { col: DataColumn; i: number };
  measures: { col: DataColumn; i: number }[];
}

function roles(table: DataTable): Roles {
  const cols = table.columns.map((col, i) => ({ col, i }));
  const measures = cols.filter((c) => c.col.kind === 'measure');
  const dims = cols.filter((c) => c.col.kind !== 'measure');
  const x = dims.find((c) => c.col.kind === 'time') ?? dims[0];
  const series = dims.find((c) => c !== x);
  return { ...(x ? { x } : {}), ...(series ? { series } : {}), measures };
}

function base(a: ChartAsk): Spec {
  return {
    $schema: 'https://vega.github.io/schema/vega-lite/v6.json',
    width: a.width,
    height: a.height,
    autosize: { type: 'fit', contains: 'padding' },
    background: 'white',
    config: {
      font: CHART_FONT,
      view: { stroke: null },
      axis: { labelFontSize: 10, titleFontSize: 10, labelLimit: 90 },
      legend: {
        labelFontSize: 10,
        titleFontSize: 10,
        labelLimit: 90,
        orient: a.width > 2 * a.height ? 'right' : 'bottom',
      },
    },
  };
}

function xEncoding(x: Roles['x']): Spec {
  if (x === undefined) return {};
  if (x.col.kind === 'time')
    return { field: fieldName(x.i), type: 'temporal', title: x.col.title, scale: { type: 'utc' } };
  if (x.col.kind === 'number') return { field: fieldName(x.i), type: 'ordinal', title: x.col.title };
  return { field: fieldName(x.i), type: 'nominal', title: x.col.title, sort: null };
}

/** Line, area and bar: one measure by series, or several measures folded into the series. */
function cartesian(a: ChartAsk, r: Roles): Spec {
  const data = values(a.table);
  const mark =
    a.kind === 'bar'
      ? { type: 'bar' }
      : a.kind === 'area'
        ? { type: 'area', line: true }
        : { type: 'line', point: data.length <= 24 };
  const folded = r.series === undefined && r.measures.length > 1;
  const m = r.measures[0]!;
  const y = folded
    ? { field: 'value', type: 'quantitative', title: null, stack: a.stacked === true ? 'zero' : null }
    : {
        field: fieldName(m.i),
        type: 'quantitative',
        title: m.col.title,
        ...(a.kind !== 'bar' && a.stacked !== true ? { stack: null } : {}),
      };
  const color = folded
    ? { field: 'measure', type: 'nominal', title: null, sort: null }
    : r.series !== undefined
      ? { field: fieldName(r.series.i), type: 'nominal', title: r.series.col.title, sort: null }
      : undefined;
  // Bars of categories lie down: their names read across instead of standing on end under a short card.
  const across = a.kind === 'bar' && r.x !== undefined && r.x.col.kind !== 'time';
  // Bars over time stand on a band each (a time scale would draw them a pixel wide).
  const x =
    a.kind === 'bar' && r.x?.col.kind === 'time'
      ? {
          field: fieldName(r.x.i),
          type: 'ordinal',
          timeUnit: 'utcyearmonthdate',
          title: r.x.col.title,
          axis: { format: '%Y-%m-%d' },
        }
      : xEncoding(r.x);
  const encoding = across ? { y: x, x: y } : { x, y };
  const spec: Spec = {
    ...base(a),
    data: { values: data },
    mark,
    encoding: { ...encoding, ...(color ? { color } : {}) },
  };
  if (folded) {
    const titles = r.measures.map((x) => `${JSON.stringify(fieldName(x.i))}: ${JSON.stringify(x.col.title)}`);
    spec['transform'] = [
      { fold: r.measures.map((x) => fieldName(x.i)), as: ['key', 'value'] },
      { calculate: `{${titles.join(', ')}}[datum.key]`, as: 'measure' },
    ];
  }
  return spec;
}

function pie(a: ChartAsk, r: Roles): Spec {
  const m = r.measures[0]!;
  // A slice per category (summed over the rest, a series over time included); by time only when no category.
  const cat = [r.x, r.series].find((c) => c !== undefined && c.col.kind === 'category') ?? r.x;
  const data = values(a.table).filter(
    (d) => typeof d[fieldName(m.i)] === 'number' && (d[fieldName(m.i)] as number) > 0,
  );
  return {
    ...base(a),
    data: { values: data },
    mark: { type: 'arc', innerRadius: 0 },
    encoding: {
      theta: { field: fieldName(m.i), type: 'quantitative', title: m.col.title, aggregate: 'sum' },
      ...(cat
        ? {
            color: {
              field: fieldName(cat.i),
              type: cat.col.kind === 'time' ? 'ordinal' : 'nominal',
              title: cat.col.title,
              sort: null,
              ...(cat.col.kind === 'time' ? { timeUnit: 'utcyearmonthdate' } : {}),
            },
          }
        : {}),
    },
  };
}

function kpi(a: ChartAsk, r: Roles): Spec {
  const m = r.measures[0]!;
  const value = formatValue(a.table.rows[0]?.[m.i] ?? null, a.format);
  const size = Math.max(12, Math.min(48, a.height * 0.45, (a.width / Math.max(3, value.length)) * 1.6));
  return {
    ...base(a),
    data: { values: [{ v: value, t: m.col.title }] },
    layer: [
      {
        mark: { type: 'text', fontSize: size, fontWeight: 'bold', baseline: 'middle', dy: -size * 0.15 },
        encoding: { text: { field: 'v' } },
      },
      {
        mark: { type: 'text', fontSize: 11, fill: '#6b7280', baseline: 'top', dy: size * 0.45 },
        encoding: { text: { field: 't' } },
      },
    ],
  };
}

/** One row of measures (no dimension): a bar per measure, whatever the kind. */
function measuresOnly(a: ChartAsk, r: Roles): Spec {
  const row = a.table.rows[0] ?? [];
  const data = r.measures.map((m) => ({ measure: m.col.title, value: row[m.i] ?? null }));
  return {
    ...base(a),
    data: { values: data },
    mark: { type: 'bar' },
    encoding: {
      x: { field: 'measure', type: 'nominal', title: null, sort: null },
      y: { field: 'value', type: 'quantitative', title: null },
    },
  };
}

/** A table as text marks: a header row, then as many rows and columns as fit, values in their format. */
function table(a: ChartAsk): Spec {
  const cols = a.table.columns.slice(0, Math.max(1, Math.floor(a.width / 80)));
  const fit = Math.max(1, Math.floor(a.height / 18) - 1);
  const cells: { r: number; c: number; text: string; head: boolean }[] = [];
  cols.forEach((col, c) => cells.push({ r: 0, c, text: col.title, head: true }));
  a.table.rows.slice(0, fit).forEach((row, ri) =>
    cols.forEach((col, c) => {
      const v = row[c] ?? null;
      const text =
        col.kind === 'time' && typeof v === 'number'
          ? new Date(v).toISOString().slice(0, 10)
          : formatValue(v, col.kind === 'measure' ? a.format : undefined);
      cells.push({ r: ri + 1, c, text, head: false });
    }),
  );
  const colW = a.width / cols.length;
  const text = (head: boolean): Spec => ({
    transform: [{ filter: head ? 'datum.head' : '!datum.head' }],
    mark: {
      type: 'text',
      align: 'left',
      baseline: 'middle',
      fontSize: 11,
      limit: colW - 6,
      fontWeight: head ? 'bold' : 'normal',
      fill: head ? '#111827' : '#374151',
    },
    encoding: {
      x: { field: 'c', type: 'ordinal', axis: null, bandPosition: 0, scale: { type: 'band', padding: 0, align: 0 } },
      y: { field: 'r', type: 'ordinal', axis: null, scale: { type: 'band', padding: 0 } },
      text: { field: 'text' },
    },
  });
  return { ...base(a), data: { values: cells }, layer: [text(true), text(false)] };
}

/** The Vega-Lite specification of the picture, or why the data cannot be drawn as that kind. */
export function chartSpec(a: ChartAsk): { spec: Spec } | { why: string } {
  if (a.table.rows.length === 0) return { why: 'the query answered no rows' };
  if (a.kind === 'table') return { spec: table(a) };
  const r = roles(a.table);
  if (r.measures.length === 0) return { why: `a ${a.kind} needs a measure; the answer has none` };
  if (a.kind === 'kpi') return { spec: kpi(a, r) };
  if (a.kind === 'pie') return { spec: pie(a, r) };
  if (r.x === undefined) return { spec: measuresOnly(a, r) };
  return { spec: cartesian(a, r) };
}
