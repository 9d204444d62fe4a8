// A report moved out of a workbook whose dashboard still charts it: the
// dashboard then shows a chart of a report that is no longer in its workbook.
// Not an error (the file may move the widget next), a warning in the plan.
import { isObj } from './compare.js';
import { isRef, type JsonValue, type PlanWarning, type ResourceChange } from '../model.js';
import { liveDraft } from '../live-draft.js';
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
    if (names(w, publicId, liveId)) out.push(isObj(w) && typeof w['id'] === 'string' ? w['id'] : `#${i + 1}`);
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
