// A dashboard draft's change as lines: one per widget change (added, removed,
// moved, resized, type, member by path) and per dashboard member, references
// as `{ $report: <publicId> }` with the report's title; long text members
// (a TEXT widget's markdown, an APP's html) as a line diff under their line.
// Shared by the human and markdown plans, which style the signs.
import { canonicalize } from '../core/canonical.js';
import { isRef, type FieldChange, type JsonValue } from '../core/model.js';
import type { DashboardDiff, GridBox, WidgetChange } from '../core/plan/dashboard-diff.js';
import { layoutMap } from './dashboard-map.js';
import { lineDiff, valueLines, type DiffLine } from './value.js';
import { visible } from '../visible.js';

/** `+` added, `-` removed, `~` changed; `nested` lines are a long member's line diff. */
export interface DashLine {
  sign: '+' | '-' | '~';
  text: string;
  nested?: DiffLine[];
}

const INLINE_MAX = 60;

function refText(v: JsonValue, reports: DashboardDiff['reports']): string | undefined {
  if (!isRef(v)) return undefined;
  if ('$workbook' in v) return `{ $workbook: ${v.$workbook} }`;
  const title = Object.hasOwn(reports, v.$report) ? ` ${JSON.stringify(reports[v.$report])}` : '';
  return `{ $report: ${v.$report} }${title}`;
}

/** A value on one line, references in the bundle's form with their title. */
export function dashValue(v: JsonValue | undefined, reports: DashboardDiff['reports']): string {
  if (v === undefined) return '(none)';
  const ref = refText(v, reports);
  if (ref !== undefined) return visible(ref);
  const texts: string[] = [];
  const mark = (x: JsonValue): JsonValue => {
    const r = refText(x, reports);
    if (r !== undefined) return `\u0000${texts.push(r) - 1}\u0000`;
    if (Array.isArray(x)) return x.map(mark);
    if (x !== null && typeof x === 'object')
      return Object.fromEntries(Object.entries(x).map(([k, y]) => [k, mark(y)]));
    return x;
  };
  const json = JSON.stringify(mark(canonicalize(v))).replace(
    /"\\u0000(\d+)\\u0000"/g,
    (_, i: string) => texts[Number(i)]!,
  );
  return visible(json);
}

function isLongText(v: JsonValue | undefined): boolean {
  return typeof v === 'string' && (v.includes('\n') || v.length > INLINE_MAX);
}

const at = (b: GridBox | undefined) => (b ? ` at ${b.x},${b.y} ${b.w}×${b.h}` : '');

function memberLine(
  prefix: string,
  path: string,
  before: JsonValue | undefined,
  after: JsonValue | undefined,
  reports: DashboardDiff['reports'],
): DashLine {
  const where = `${prefix}${visible(path)}`;
  if (isLongText(before) || isLongText(after)) {
    const sign = before === undefined ? '+' : after === undefined ? '-' : '~';
    return { sign, text: `${where}:`, nested: lineDiff(valueLines(before, path), valueLines(after, path)) };
  }
  if (before === undefined) return { sign: '+', text: `${where}: ${dashValue(after, reports)}` };
  if (after === undefined) return { sign: '-', text: `${where}: ${dashValue(before, reports)}` };
  return { sign: '~', text: `${where}: ${dashValue(before, reports)} → ${dashValue(after, reports)}` };
}

function widgetLine(c: WidgetChange, reports: DashboardDiff['reports']): DashLine {
  const w = `widget ${visible(c.widget)}`;
  switch (c.change) {
    case 'added': {
      const shows =
        c.reports.length > 0 ? `, shows ${c.reports.map((r) => dashValue({ $report: r }, reports)).join(', ')}` : '';
      return { sign: '+', text: `${w} added: ${visible(c.type ?? 'widget')}${at(c.position)}${shows}` };
    }
    case 'removed':
      return { sign: '-', text: `${w} removed: ${visible(c.type ?? 'widget')}${at(c.position)}` };
    case 'moved':
      return { sign: '~', text: `${w} moved ${c.before.x},${c.before.y} → ${c.after.x},${c.after.y}` };
    case 'resized':
      return { sign: '~', text: `${w} resized ${c.before.w}×${c.before.h} → ${c.after.w}×${c.after.h}` };
    case 'type':
      return { sign: '~', text: `${w} type ${visible(c.before ?? '(none)')} → ${visible(c.after ?? '(none)')}` };
    case 'member':
      return memberLine(`${w} `, c.path, c.before, c.after, reports);
  }
}

/** The lines of a dashboard change: the dashboard's members first, then its widgets. */
export function dashboardLines(d: DashboardDiff): DashLine[] {
  return [
    ...d.members.map((m) => memberLine('', m.path, m.before, m.after, d.reports)),
    ...d.widgets.map((w) => widgetLine(w, d.reports)),
  ];
}

/** Widgets the map marks: every widget with a change. */
export function changedWidgets(d: DashboardDiff): Set<string> {
  return new Set(d.widgets.map((w) => w.widget));
}

/** The layout map of a draft's change (no lines when no widget moved, came or went), a blank line first. */
export function dashboardMap(c: FieldChange, width: number): string[] {
  if (!c.dashboard?.layoutChanged) return [];
  return ['', ...layoutMap(c.before ?? undefined, c.after, changedWidgets(c.dashboard), width)];
}
