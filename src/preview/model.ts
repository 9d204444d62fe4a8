// What the preview shows of a bundle, as plain data: each workbook's
// dashboard placed at every breakpoint (the grid's fallback applied), its
// widgets as cards (type, id, the report they chart with its title, name,
// SQL, JSON query and pivot; a TEXT widget's markdown rendered), and the
// bundle's diagnostics. Pure: the SVGs and the page are drawn from it.
import { breakpointsWithLayout, gridAt } from '../core/dashboard-grid.js';
import { BREAKPOINTS, type Breakpoint } from '../domain/grid.js';
import { isRef, type DesiredReport, type DesiredState, type JsonValue } from '../core/model.js';
import { isObj } from '../core/plan/compare.js';
import type { Diagnostic } from '../errors.js';
import { markdownHtml } from './markdown.js';

export interface PreviewReport {
  publicId: string;
  title?: string;
  name?: string;
  sqlQuery?: string;
  jsonQuery?: string;
  pivotItems?: JsonValue;
  file: string;
}

export interface PreviewCard {
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
  /** A TEXT widget's markdown. */
  text?: string;
  /** The markdown as safe HTML, for the page. */
  html?: string;
  /** Its first line, plain, for the SVG card. */
  firstLine?: string;
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
}

export interface PreviewModel {
  workbooks: PreviewWorkbook[];
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

function reportOf(r: DesiredReport): PreviewReport {
  const out: PreviewReport = { publicId: r.publicId, file: r.pos.file };
  const f = r.fields;
  for (const k of ['title', 'name', 'sqlQuery', 'jsonQuery'] as const) {
    const v = str(f[k]);
    if (v !== undefined) out[k] = v;
  }
  if (f['pivotItems'] !== undefined && f['pivotItems'] !== null) out.pivotItems = f['pivotItems'];
  return out;
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

export function previewModel(desired: DesiredState, diagnostics: readonly Diagnostic[]): PreviewModel {
  const reports = new Map(desired.reports.map((r) => [r.publicId, reportOf(r)]));
  const workbooks = [...desired.workbooks]
    .sort((a, b) => (a.slug < b.slug ? -1 : a.slug > b.slug ? 1 : 0))
    .map((w): PreviewWorkbook => {
      const draft = w.fields.meta?.['dashboardDraft'] ?? null;
      const rowHeight = layoutOf(draft)['rowHeight'];
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
          const config = p.widget['config'];
          const content = isObj(config)
            ? (str(config['content']) ?? str(config['markdown']) ?? str(config['text']))
            : undefined;
          if (content !== undefined) {
            card.text = content;
            card.html = markdownHtml(content);
            const first = content.split('\n').find((l) => l.trim() !== '');
            if (first !== undefined) card.firstLine = first.replace(/^#+\s*/, '').trim();
          }
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
