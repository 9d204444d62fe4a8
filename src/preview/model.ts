// What the preview shows of a bundle, as plain data: each workbook's
// dashboard placed at every breakpoint (the grid's fallback applied), its
// widgets as cards (type, id, what the card is (card.ts), the report they
// chart with its title, name, SQL, query and pivot as the file writes them
// with their lines), and the bundle's diagnostics. Pure: the SVGs and the
// page are drawn from it.
import { breakpointsWithLayout, gridAt } from '../core/dashboard-grid.js';
import { BREAKPOINTS, type Breakpoint } from '../domain/grid.js';
import { isRef, type DesiredReport, type DesiredState } from '../core/model.js';
import { isObj, type JsonValue } from '../core/json.js';
import type { Diagnostic } from '../errors.js';
import { cardContent, yamlOf, type CardContent, type Shown } from './card.js';
import type { CardChart, ChartInput } from './chart-types.js';
import { GLYPHS, type GlyphKind } from './glyphs.js';
import { pictureBreakpoints } from '../core/picture-names.js';
import { workbookChanges, type Baseline, type WorkbookChanges } from './changes.js';
import { memberTitles } from '../core/semantic/check.js';
import { reportMembers } from '../core/semantic/members.js';
import type { ModelIndex } from '../core/semantic/model-index.js';

interface PreviewReport {
  publicId: string;
  title?: string;
  name?: string;
  sqlQuery?: string;
  jsonQuery?: string;
  pivotItems?: JsonValue;
  file: string;
  /** The report's lines: `sqlQuery` as written, `jsonQuery` and `pivotItems` as YAML, each with its line. */
  shown: { sqlQuery?: Shown; jsonQuery?: Shown; pivotItems?: Shown };
  /** `meta.chart.type`, when the report names one. */
  chartType?: string;
  /** `meta.chart.stacked` and `meta.format`: how its data is drawn. */
  stacked?: boolean;
  format?: JsonValue;
  /** The members the report names with their titles in the data model (`wsc preview --model`), where it has one. */
  members?: { name: string; title: string }[];
}

export interface PreviewCard extends CardContent {
  id: string;
  type: string;
  x: number;
  y: number;
  w: number;
  h: number;
  outOfGrid: boolean;
  overlaps: string[];
  /** The report a CHART (or any widget with a `{ $report }`) shows. */
  report?: PreviewReport;
  /** A reference to a report that is not in the bundle. */
  missingReport?: string;
  /** Its report's data drawn at this card's size (`wsc preview` with data), or why not (charts.ts). */
  chart?: CardChart;
  /** Against a baseline: what changed in what it draws (`visualization table → bar`), and what it drew then. */
  change?: string;
  was?: ChartInput;
}

export interface PreviewGrid {
  breakpoint: Breakpoint;
  cols: number;
  rows: number;
  /** Pixels the grid is drawn across at this breakpoint (its `layout.breakpoints` width, at least 320). */
  width: number;
  rowHeight: number;
  cards: PreviewCard[];
}

export interface PreviewWorkbook {
  slug: string;
  name?: string;
  title?: string;
  file: string;
  line: number;
  /** Breakpoints with a layout of their own (the SVGs drawn for it); every breakpoint is in `grids`. */
  layouts: Breakpoint[];
  grids: PreviewGrid[];
  /** Its change against the baseline of `--against`. */
  changes?: WorkbookChanges;
}

export interface PreviewModel {
  workbooks: PreviewWorkbook[];
  /** The baseline the changes are against (`git:main`, `env:production`), with `--against`. */
  against?: string;
  /** Where the charts' data comes from (`from`), or why the cards are drawn without it (`off`). */
  data?: { from: string } | { off: string };
  /** The glyphs' path data, for the page. */
  glyphs: Record<GlyphKind, string>;
  diagnostics: {
    severity: string;
    rule: string;
    message: string;
    file: string;
    line: number;
    col: number;
    hint?: string;
  }[];
}

const WIDTH: Record<Breakpoint, number> = { lg: 1200, md: 996, sm: 768, xs: 480, xxs: 320 };

/** The draft's `layout` (members read at will: `{}` when there is none). */
function layoutOf(draft: JsonValue): { [k: string]: JsonValue | undefined } {
  const layout = isObj(draft) ? draft['layout'] : undefined;
  return isObj(layout) ? layout : {};
}

function widthAt(draft: JsonValue, bp: Breakpoint): number {
  const bps = layoutOf(draft)['breakpoints'];
  const n = isObj(bps) ? bps[bp] : undefined;
  return typeof n === 'number' && n >= 320 ? n : WIDTH[bp];
}

function str(v: JsonValue | undefined): string | undefined {
  return typeof v === 'string' ? v : undefined;
}

function shown(yaml: string, line: number | undefined): Shown {
  return line === undefined ? { yaml } : { yaml, line };
}

function reportOf(r: DesiredReport, index: ModelIndex | undefined): PreviewReport {
  const out: PreviewReport = { publicId: r.publicId, file: r.pos.file, shown: {} };
  const f = r.fields;
  for (const k of ['title', 'name', 'sqlQuery', 'jsonQuery'] as const) {
    const v = str(f[k]);
    if (v !== undefined) out[k] = v;
  }
  if (f['pivotItems'] !== undefined && f['pivotItems'] !== null) out.pivotItems = f['pivotItems'];
  const line = (k: string) => r.locate?.([k])?.line;
  if (out.sqlQuery !== undefined) out.shown.sqlQuery = shown(out.sqlQuery.replace(/\n$/, ''), line('sqlQuery'));
  if (out.jsonQuery !== undefined) out.shown.jsonQuery = shown(yamlOf(out.jsonQuery, true), line('jsonQuery'));
  if (out.pivotItems !== undefined) out.shown.pivotItems = shown(yamlOf(out.pivotItems), line('pivotItems'));
  const meta = r.fields['meta'];
  const chart = isObj(meta) ? meta['chart'] : undefined;
  const type = isObj(chart) ? str(chart['type']) : undefined;
  if (type !== undefined) out.chartType = type;
  if (isObj(chart) && chart['stacked'] === true) out.stacked = true;
  if (isObj(meta) && meta['format'] !== undefined && meta['format'] !== null) out.format = meta['format'];
  if (index !== undefined) {
    const names = [...new Set(reportMembers(f).uses.map((u) => u.member))];
    const titles = memberTitles(names, index);
    const members = names.filter((n) => titles[n] !== undefined).map((name) => ({ name, title: titles[name]! }));
    if (members.length > 0) out.members = members;
  }
  return out;
}

/** The index of each widget in the draft's list, by object: the line of a card is asked by that index. */
function indexOfWidgets(draft: JsonValue): Map<JsonValue, number> {
  const list = isObj(draft) ? draft['widgets'] : undefined;
  return new Map(Array.isArray(list) ? list.map((w, i) => [w, i] as const) : []);
}

function firstReportRef(v: JsonValue | undefined): string | undefined {
  if (isRef(v)) return '$report' in v ? v.$report : undefined;
  if (Array.isArray(v))
    for (const x of v) {
      const r = firstReportRef(x);
      if (r) return r;
    }
  else if (isObj(v))
    for (const k of Object.keys(v)) {
      const r = firstReportRef(v[k]);
      if (r) return r;
    }
  return undefined;
}

/** `index`: the data model given with `--model`, for the members' titles. */
export function previewModel(
  desired: DesiredState,
  diagnostics: readonly Diagnostic[],
  index?: ModelIndex,
): PreviewModel {
  const reports = new Map(desired.reports.map((r) => [r.publicId, reportOf(r, index)]));
  const workbooks = [...desired.workbooks]
    .sort((a, b) => (a.slug < b.slug ? -1 : a.slug > b.slug ? 1 : 0))
    .map((w): PreviewWorkbook => {
      const draft = w.fields.meta?.['dashboardDraft'] ?? null;
      const rowHeight = layoutOf(draft)['rowHeight'];
      const index = indexOfWidgets(draft);
      const grids = BREAKPOINTS.map((bp): PreviewGrid => {
        const g = gridAt(draft, bp);
        const cards = g.widgets.map((p): PreviewCard => {
          const card: PreviewCard = {
            id: p.id,
            type: p.type,
            ...p.box,
            outOfGrid: p.outOfGrid,
            overlaps: p.overlaps,
          };
          const ref = firstReportRef(p.widget['config'] ?? null);
          if (ref !== undefined) {
            const r = reports.get(ref);
            if (r) card.report = r;
            else card.missingReport = ref;
          }
          const i = index.get(p.widget);
          const path = ['meta', 'dashboardDraft', 'widgets', ...(i === undefined ? [] : [i])];
          Object.assign(
            card,
            cardContent(p.widget, card.report?.chartType, { locate: i === undefined ? undefined : w.locate, path }),
          );
          return card;
        });
        return {
          breakpoint: bp,
          cols: g.cols,
          rows: g.rows,
          width: widthAt(draft, bp),
          rowHeight: typeof rowHeight === 'number' && rowHeight > 0 ? rowHeight : 30,
          cards,
        };
      });
      const out: PreviewWorkbook = {
        slug: w.slug,
        file: w.pos.file,
        line: w.pos.line,
        layouts: breakpointsWithLayout(draft),
        grids,
      };
      if (w.fields.name !== undefined) out.name = w.fields.name;
      const title = isObj(draft) ? str(draft['title']) : undefined;
      if (title !== undefined) out.title = title;
      return out;
    });
  return {
    workbooks,
    glyphs: GLYPHS,
    diagnostics: diagnostics.map((d) => ({
      severity: d.severity,
      rule: d.rule,
      message: d.message,
      file: d.pos.file,
      line: d.pos.line,
      col: d.pos.col,
      ...(d.hint ? { hint: d.hint } : {}),
    })),
  };
}

/**
 * The model with each workbook's change against its baseline marked (`against` names the baseline);
 * the breakpoints the baseline had a layout of its own for are drawn too.
 */
export function markChanges(
  model: PreviewModel,
  desired: DesiredState,
  baselines: ReadonlyMap<string, Baseline>,
  against: string,
): PreviewModel {
  const drafts = new Map(desired.workbooks.map((w) => [w.slug, w.fields.meta?.['dashboardDraft']]));
  const workbooks = model.workbooks.map((wb): PreviewWorkbook => {
    const base = baselines.get(wb.slug) ?? { before: undefined, diff: undefined };
    const changes = workbookChanges(drafts.get(wb.slug), base);
    const layouts = pictureBreakpoints(drafts.get(wb.slug), base.before);
    return { ...wb, layouts, changes };
  });
  return { ...model, workbooks, against };
}
