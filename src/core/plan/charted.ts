// Reports that dashboards still chart. A report moved out of a workbook whose
// dashboard still charts it: the dashboard then shows a chart of a report that
// is no longer in its workbook; not an error (the file may move the widget
// next), a warning in the plan. A report prune would delete while a
// dashboard still charts it after this apply: an error, nothing planned.
import type { Report, Workbook } from '../../domain/wire.js';
import { EXIT, WscError, type SourcePos } from '../../errors.js';
import { isObj, type JsonValue } from '../json.js';
import type { Planned } from './compare.js';
import { isRef, type DesiredWorkbook, type LiveState } from '../model.js';
import type { PlanWarning, ResourceChange } from '../plan-model.js';
import { liveDraft } from '../live-draft.js';
import { widgetLabel } from '../widget-identity.js';
import type { Matches } from './match.js';

/** Whether `v` names the report: `{ $report: <publicId> }` (the file's form) or a `reportId` of its live id. */
function names(v: JsonValue | undefined, publicId: string, liveId: number | undefined, key = ''): boolean {
  if (isRef(v)) return '$report' in v && v.$report === publicId;
  if (typeof v === 'number') return key === 'reportId' && v === liveId;
  if (Array.isArray(v)) return v.some((x) => names(x, publicId, liveId));
  if (isObj(v)) return Object.keys(v).some((k) => names(v[k], publicId, liveId, k));
  return false;
}

/** The ids of the widgets of `draft` that chart the report. */
function chartingWidgets(draft: JsonValue | undefined, publicId: string, liveId: number | undefined): string[] {
  if (!isObj(draft) || !Array.isArray(draft['widgets'])) return [];
  const out: string[] = [];
  draft['widgets'].forEach((w, i) => {
    if (names(w, publicId, liveId)) out.push(widgetLabel(w, i));
  });
  return out;
}

export function stillChartedWarnings(reports: readonly ResourceChange[], m: Matches): PlanWarning[] {
  const out: PlanWarning[] = [];
  for (const rc of reports) {
    const c = rc.changes.find((f) => f.path === 'workbookId');
    if (c === undefined || typeof c.before !== 'number') continue;
    const from = m.liveWorkbookById.get(c.before);
    if (from === undefined) continue;
    const rm = m.reportsByBundleId.get(rc.address.slice('report/'.length));
    if (rm === undefined) continue;
    // The dashboard after this apply: the file's draft when the bundle manages that workbook, else the live one.
    const managed = [...m.workbooks].find(([, lw]) => lw?.id === from.id)?.[0];
    const draft = managed?.fields.meta?.['dashboardDraft'] ?? liveDraft(from);
    const widgets = chartingWidgets(draft, rm.desired.publicId, rm.live?.id);
    if (widgets.length === 0) continue;
    const name = typeof from.slug === 'string' && from.slug !== '' ? `workbook/${from.slug}` : `workbook ${from.id}`;
    const w = widgets.length === 1 ? `widget ${widgets[0]}` : `widgets ${widgets.join(', ')}`;
    out.push({
      code: 'report-still-charted',
      address: rc.address,
      message:
        `${rc.address} moves out of ${name}, whose dashboard still charts it (${w}): ` +
        'move or remove the chart, or keep the report in that workbook.',
    });
  }
  return out;
}

/** A dashboard as it will be after this apply: a workbook's draft (or published config), and where it is written. */
export interface Dashboard {
  /** `workbook/sales`, or `workbook 12` for one without a slug. */
  label: string;
  /** The live workbook holding it; absent for a workbook this apply creates. */
  workbookId?: number;
  /** `draft` or `published`. */
  which: 'draft' | 'published';
  config: JsonValue | undefined;
  /** The workbook's file, when the bundle manages its draft. */
  pos?: SourcePos;
  /** Where the file refers to a report not in the bundle (by `report/<publicId>`). */
  refPos?: ReadonlyMap<string, SourcePos>;
}

export interface ChartedAt {
  dashboard: string;
  widget: string;
  pos?: SourcePos;
}

/** The widgets that chart a live report in the dashboards given. */
export function whereCharted(r: Report, dashboards: readonly Dashboard[]): ChartedAt[] {
  const out: ChartedAt[] = [];
  for (const d of dashboards) {
    for (const widget of chartingWidgets(d.config, r.publicId ?? '', r.id)) {
      const pos = d.refPos?.get(`report/${r.publicId}`) ?? d.pos;
      const dashboard = d.which === 'draft' ? d.label : `${d.label} (published dashboard)`;
      out.push({ dashboard, widget, ...(pos ? { pos } : {}) });
    }
  }
  return out;
}

/** The plan refuses a delete of a report still charted: the chart would point at nothing. */
export function stillChartedError(charted: { report: Report; where: ChartedAt }[]): WscError {
  const lines = charted.map(({ report: r, where: w }) => {
    const name = typeof r.title === 'string' && r.title !== '' ? r.title : r.name;
    const at = w.pos ? ` (${w.pos.file}:${w.pos.line}:${w.pos.col})` : '';
    return `report/${r.publicId} ${JSON.stringify(name)} is charted by ${w.dashboard}, widget ${w.widget}${at}`;
  });
  const n = new Set(charted.map((c) => c.report.id)).size;
  return new WscError(
    'prune_still_charted',
    `The plan would delete ${n === 1 ? 'a report' : `${n} reports`} that a dashboard still charts after this ` +
      `apply: ${lines[0]}${lines.length > 1 ? ` (and ${lines.length - 1} more)` : ''}. Nothing was planned.`,
    EXIT.failure,
    {
      details: lines,
      hint:
        'Remove the widget from the dashboard (or point it at another report), or keep the report: ' +
        'put its file back in the bundle. A dashboard the bundle does not manage is edited in the UI.',
    },
  );
}

function publishedConfig(w: Workbook): JsonValue | undefined {
  if (isObj(w.dashboardPublished)) return w.dashboardPublished;
  const config = w.publishedDashboard?.config;
  return isObj(config) ? config : undefined;
}

/**
 * Every dashboard as this plan leaves it: a draft the bundle manages as
 * planned (its file's, merged with kept UI edits), any other draft and every
 * published dashboard not published again as live.
 */
export function dashboardsAfter(
  desired: readonly DesiredWorkbook[],
  planned: readonly Planned[],
  m: Matches,
  live: LiveState,
): Dashboard[] {
  const out: Dashboard[] = [];
  const managed = new Map<number, Planned>();
  desired.forEach((w, i) => {
    const lw = m.workbooks.get(w);
    const p = planned[i]!;
    if (lw !== undefined) managed.set(lw.id, p);
    if (w.fields.meta === undefined || !Object.hasOwn(w.fields.meta, 'dashboardDraft')) return;
    const change = p.change.changes.find((c) => c.path === 'meta.dashboardDraft');
    const writes = change !== undefined && p.change.actions[0] !== 'blocked';
    const config = writes ? change.after : liveDraft(lw);
    out.push({
      label: w.address,
      which: 'draft',
      config,
      ...(lw !== undefined ? { workbookId: lw.id } : {}),
      pos: w.pos,
      ...(w.refPos !== undefined ? { refPos: w.refPos } : {}),
    });
  });
  for (const lw of live.workbooks) {
    const label = typeof lw.slug === 'string' && lw.slug !== '' ? `workbook/${lw.slug}` : `workbook ${lw.id}`;
    const p = managed.get(lw.id);
    const draftPlanned = out.some((d) => d.workbookId === lw.id);
    if (!draftPlanned) out.push({ label, which: 'draft', config: liveDraft(lw), workbookId: lw.id });
    const publishes = p !== undefined && p.change.actions.includes('publish');
    if (!publishes) out.push({ label, which: 'published', config: publishedConfig(lw), workbookId: lw.id });
  }
  return out;
}
