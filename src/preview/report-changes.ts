// What changed in what a CHART card draws, against the baseline of
// `--against`: its visualization (`visualization table → bar`), its report's
// query (`query: + subscriptions.mrr, − accounts.region`; `SQL changed`), the
// report it charts, or the report's format. A change of the report alone
// (its file edited, the dashboard's file not) marks every card that charts
// it, so every dashboard that charts it is drawn; the card keeps what it
// drew before (`was`), to be drawn beside what it draws now. Pure.
import { isObj, type JsonValue } from '../core/json.js';
import type { ChartInput } from './chart-types.js';
import { glyphOf } from './glyphs.js';
import type { PreviewCard, PreviewModel } from './model.js';

/** What a report was in the baseline: what its picture is drawn from. */
export interface ReportAt {
  publicId?: string;
  jsonQuery?: string;
  sqlQuery?: string;
  chartType?: string;
  format?: JsonValue;
  stacked?: boolean;
}

/** The baseline's report a widget's `reportId` names (`{ $report }` in a bundle, a number live). */
export type ReportLookup = (reportId: JsonValue | undefined) => ReportAt | undefined;

const str = (v: JsonValue | undefined) => (typeof v === 'string' ? v : undefined);

/** A report's fields as the picture reads them (a bundle's `jsonQuery` may be a mapping: its JSON text). */
export function reportAt(fields: { readonly [k: string]: JsonValue | undefined }, publicId?: string): ReportAt {
  const out: ReportAt = publicId !== undefined ? { publicId } : {};
  const q = fields['jsonQuery'];
  if (typeof q === 'string') out.jsonQuery = q;
  else if (isObj(q)) out.jsonQuery = JSON.stringify(q);
  const sql = str(fields['sqlQuery']);
  if (sql !== undefined) out.sqlQuery = sql;
  const meta = fields['meta'];
  const chart = isObj(meta) ? meta['chart'] : undefined;
  const type = isObj(chart) ? str(chart['type']) : undefined;
  if (type !== undefined) out.chartType = type;
  if (isObj(chart) && chart['stacked'] === true) out.stacked = true;
  if (isObj(meta) && meta['format'] !== undefined && meta['format'] !== null) out.format = meta['format'];
  return out;
}

/** The members a JSON query names, in order, once each. */
function members(jsonQuery: string | undefined): string[] | undefined {
  if (jsonQuery === undefined) return undefined;
  let q: unknown;
  try {
    q = JSON.parse(jsonQuery);
  } catch {
    return undefined;
  }
  if (q === null || typeof q !== 'object') return undefined;
  const o = q as Record<string, unknown>;
  const out: string[] = [];
  const add = (v: unknown) => {
    if (typeof v === 'string' && !out.includes(v)) out.push(v);
  };
  for (const k of ['measures', 'dimensions', 'segments']) if (Array.isArray(o[k])) (o[k] as unknown[]).forEach(add);
  if (Array.isArray(o['timeDimensions']))
    for (const td of o['timeDimensions'] as Record<string, unknown>[]) add(td?.['dimension']);
  return out;
}

const canonical = (s: string | undefined) => {
  if (s === undefined) return undefined;
  try {
    return JSON.stringify(JSON.parse(s));
  } catch {
    return s;
  }
};

/** The words of a change of query: members added and removed, else that it changed. */
function queryChange(before: ReportAt, now: ReportAt): string | undefined {
  if (canonical(before.jsonQuery) !== canonical(now.jsonQuery)) {
    const [a, b] = [members(before.jsonQuery), members(now.jsonQuery)];
    if (a === undefined || b === undefined) return 'query changed';
    const plus = b.filter((m) => !a.includes(m)).map((m) => `+ ${m}`);
    const minus = a.filter((m) => !b.includes(m)).map((m) => `− ${m}`);
    return plus.length + minus.length > 0 ? `query: ${[...plus, ...minus].join(', ')}` : 'query changed';
  }
  if ((before.sqlQuery ?? '').trim() !== (now.sqlQuery ?? '').trim()) return 'SQL changed';
  return undefined;
}

function inputOfReport(r: ReportAt, visualization: string | undefined): ChartInput {
  return {
    ...(r.jsonQuery !== undefined ? { jsonQuery: r.jsonQuery } : {}),
    ...(r.sqlQuery !== undefined ? { sqlQuery: r.sqlQuery } : {}),
    kind: glyphOf(visualization),
    ...(visualization !== undefined ? { visualization } : {}),
    ...(r.format !== undefined ? { format: r.format } : {}),
    ...(r.stacked ? { stacked: true } : {}),
  };
}

/** The change of one card, against its widget in the baseline's draft and the report that widget charted. */
function cardChange(c: PreviewCard, widget: { [k: string]: JsonValue } | undefined, lookup: ReportLookup) {
  if (c.type !== 'CHART' || c.report === undefined || widget === undefined) return undefined;
  const config = isObj(widget['config']) ? widget['config'] : {};
  const was = lookup(config['reportId']);
  if (was === undefined) return undefined;
  const wasVis = str(config['visualization']) ?? was.chartType;
  const now: ReportAt = reportAt({}, c.report.publicId);
  if (c.report.jsonQuery !== undefined) now.jsonQuery = c.report.jsonQuery;
  if (c.report.sqlQuery !== undefined) now.sqlQuery = c.report.sqlQuery;
  const parts: string[] = [];
  if (was.publicId !== undefined && was.publicId !== c.report.publicId)
    parts.push(`report ${was.publicId} → ${c.report.publicId}`);
  if (glyphOf(wasVis) !== glyphOf(c.visualization) || (wasVis ?? '') !== (c.visualization ?? ''))
    parts.push(`visualization ${wasVis ?? '(none)'} → ${c.visualization ?? '(none)'}`);
  const q = queryChange(was, now);
  if (q !== undefined) parts.push(q);
  if (JSON.stringify(was.format) !== JSON.stringify(c.report.format)) parts.push('format changed');
  if (parts.length === 0) return undefined;
  return { change: parts.join('; '), was: inputOfReport(was, wasVis) };
}

/**
 * The model with every CHART card whose picture changed against the baseline marked (`change`, `was`, a
 * config mark) and its dashboard counted as changed. `drafts`: each dashboard's draft in the baseline
 * (undefined: it is new there); `lookup`: the baseline's reports.
 */
export function markChartChanges(
  model: PreviewModel,
  drafts: (slug: string) => JsonValue | undefined,
  lookup: ReportLookup,
): PreviewModel {
  const workbooks = model.workbooks.map((wb) => {
    const draft = drafts(wb.slug);
    const list = isObj(draft) && Array.isArray(draft['widgets']) ? draft['widgets'] : [];
    const before = new Map(list.flatMap((w) => (isObj(w) && typeof w['id'] === 'string' ? [[w['id'], w]] : [])));
    let changed = false;
    const grids = wb.grids.map((g) => {
      const cards = g.cards.map((c) => {
        const ch = cardChange(c, before.get(c.id), lookup);
        if (ch === undefined) return c;
        changed = true;
        const marks = wb.changes?.grids[g.breakpoint];
        if (marks !== undefined) {
          const m = marks.cards[c.id] ?? { kinds: [] };
          marks.cards[c.id] = {
            ...m,
            kinds: m.kinds.includes('config') ? m.kinds : [...m.kinds, 'config'],
            paths: [...new Set([...(m.paths ?? []), 'report'])],
          };
        }
        return { ...c, ...ch };
      });
      return { ...g, cards };
    });
    const changes = wb.changes && changed ? { ...wb.changes, changed: true } : wb.changes;
    return { ...wb, grids, ...(changes !== undefined ? { changes } : {}) };
  });
  return { ...model, workbooks };
}
