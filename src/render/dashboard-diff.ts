// A dashboard draft's change as lines: one per widget change (added, removed,
// moved, resized, type, member by path) and per dashboard member, references
// as `{ $report: <publicId> }` with the report's title; long text members
// (a TEXT widget's markdown, an APP's html) as a line diff under their line.
// Shared by the human and markdown plans, which style the signs.
import { isRef } from '../core/model.js';
import type { FieldChange } from '../core/plan-model.js';
import type { JsonValue } from '../core/json.js';
import type { DashboardDiff, GridBox, WidgetChange } from '../core/diff-model.js';
import { layoutMap } from './dashboard-map.js';
import { inlineValue, lineDiff, valueLines, type DiffLine } from './value.js';
import { visible } from '../visible.js';

/**
 * `+` added, `-` removed, `~` changed; `nested` lines are a long member's line diff. A changed line
 * also says what it was and what it becomes (`before`, `after`), for a diff that shows it as `-` and `+`.
 */
export interface DashLine {
  sign: '+' | '-' | '~';
  text: string;
  nested?: DiffLine[];
  before?: string;
  after?: string;
  /** `file:line` of the widget or member, where the file writes it. */
  where?: string;
  /** The widget or member was edited outside wsc and this apply writes the bundle's over it (`uiEdits: revert`). */
  edited?: true;
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
  if (v === null || typeof v !== 'object') return visible(JSON.stringify(v));
  // References become placeholders YAML writes plain, then their text: `{ $report: abc } "Title"` is no YAML.
  const texts: string[] = [];
  const mark = (x: JsonValue): JsonValue => {
    const r = refText(x, reports);
    if (r !== undefined) return `wscRef${texts.push(r) - 1}Placeholder`;
    if (Array.isArray(x)) return x.map(mark);
    if (x !== null && typeof x === 'object') return Object.fromEntries(Object.entries(x).map(([k, y]) => [k, mark(y)]));
    return x;
  };
  return inlineValue(mark(v)).replace(/wscRef(\d+)Placeholder/g, (_, i: string) => visible(texts[Number(i)]!));
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
  /** What the line starts with, when more than the hunk headers of a line diff say (a widget's title). */
  label = prefix,
): DashLine {
  const where = `${label}${visible(path)}`;
  if (isLongText(before) || isLongText(after)) {
    const sign = before === undefined ? '+' : after === undefined ? '-' : '~';
    const hunks = `${prefix}${visible(path)}`;
    const lines = lineDiff(valueLines(before, path), valueLines(after, path), { path: hunks, structured: false });
    return { sign, text: `${where}:`, nested: lines };
  }
  if (before === undefined) return { sign: '+', text: `${where}: ${dashValue(after, reports)}` };
  if (after === undefined) return { sign: '-', text: `${where}: ${dashValue(before, reports)}` };
  const [b, a] = [dashValue(before, reports), dashValue(after, reports)];
  return { sign: '~', text: `${where}: ${b} → ${a}`, before: `${where}: ${b}`, after: `${where}: ${a}` };
}

function widgetLine(c: WidgetChange, reports: DashboardDiff['reports']): DashLine {
  const id = `widget ${visible(c.widget)}`;
  const w = `${id}${c.title !== undefined ? ` ${visible(JSON.stringify(c.title))}` : ''}`;
  switch (c.change) {
    case 'added': {
      // The title is said once: after the id when there is one, else with the report it shows.
      const titled = c.title !== undefined;
      const ref = (r: string) =>
        titled !== undefined ? `{ $report: ${visible(r)} }` : dashValue({ $report: r }, reports);
      const shows = c.reports.length > 0 ? `, shows ${c.reports.map(ref).join(', ')}` : '';
      return { sign: '+', text: `${w} added: ${visible(c.type ?? 'widget')}${at(c.position)}${shows}` };
    }
    case 'removed':
      return { sign: '-', text: `${w} removed: ${visible(c.type ?? 'widget')}${at(c.position)}` };
    case 'moved':
      return {
        sign: '~',
        text: `${w} moved ${c.before.x},${c.before.y} → ${c.after.x},${c.after.y}`,
        before: `${w} at ${c.before.x},${c.before.y}`,
        after: `${w} at ${c.after.x},${c.after.y}`,
      };
    case 'resized':
      return {
        sign: '~',
        text: `${w} resized ${c.before.w}×${c.before.h} → ${c.after.w}×${c.after.h}`,
        before: `${w} size ${c.before.w}×${c.before.h}`,
        after: `${w} size ${c.after.w}×${c.after.h}`,
      };
    case 'type': {
      const [b, a] = [visible(c.before ?? '(none)'), visible(c.after ?? '(none)')];
      return { sign: '~', text: `${w} type ${b} → ${a}`, before: `${w} type ${b}`, after: `${w} type ${a}` };
    }
    case 'member':
      return memberLine(`${id} `, c.path, c.before, c.after, reports, `${w} `);
  }
}

/** `file:line:col` (`file:line` when no column is known), when the file and line are known. */
export function whereText(file: string | undefined, at: { line?: number; col?: number }): string | undefined {
  if (file === undefined || at.line === undefined) return undefined;
  return `${visible(file)}:${at.line}${at.col !== undefined ? `:${at.col}` : ''}`;
}

/**
 * The lines of a dashboard change: the dashboard's members first, then its widgets; `file` locates them.
 * `reverted`: the draft parts this apply writes back over an edit made outside wsc, as the plan's drift
 * names them (`widget w1`, `title`, `layout.cols`): their lines are marked `edited`.
 */
export function dashboardLines(d: DashboardDiff, file?: string, reverted: readonly string[] = []): DashLine[] {
  const located = (l: DashLine, at: { line?: number; col?: number }, edited: boolean): DashLine => {
    const where = whereText(file, at);
    return { ...l, ...(where !== undefined ? { where } : {}), ...(edited ? { edited: true as const } : {}) };
  };
  // A member's part is its top-level key (a `layout` entry for layout): `settings.theme` is of `settings`.
  const memberEdited = (path: string) => reverted.some((p) => path === p || path.startsWith(`${p}.`));
  return [
    ...d.members.map((m) => located(memberLine('', m.path, m.before, m.after, d.reports), m, memberEdited(m.path))),
    ...d.widgets.map((w) => located(widgetLine(w, d.reports), w, reverted.includes(`widget ${w.widget}`))),
  ];
}

/**
 * The layout map of a draft's change, every changed widget marked (no lines when no widget moved,
 * came or went), a blank line first.
 */
export function dashboardMap(c: FieldChange, width: number): string[] {
  if (!c.dashboard?.layoutChanged) return [];
  const marked = new Set(c.dashboard.widgets.map((w) => w.widget));
  return ['', ...layoutMap(c.before ?? undefined, c.after, marked, width)];
}
