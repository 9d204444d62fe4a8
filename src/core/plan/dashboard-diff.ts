// A dashboard draft's change as a reviewer reads it: widgets matched by id
// (added, removed, moved, resized, type, config/style members by path) and
// the dashboard's own members (layout, title, settings, theme, app) by path.
// Values keep references in their bundle form (`{ $report: <publicId> }`),
// with the titles of the reports they name, whichever side they come from.
import { sameContent, setMember } from '../canonical.js';
import type { DashboardDiff, GridBox, MemberChange, WidgetChange } from '../diff-model.js';
import { isObj, type JsonValue, type Obj } from '../json.js';
import { isRef } from '../model.js';
import { collectRefs } from '../refs.js';
import { alignWidgetIds, usableWidgetId, widgetsById } from '../widget-identity.js';

/** What the planner knows about reports: bundle publicId and title by live id, title by bundle publicId. */
export interface ReportNames {
  byId(id: number): { publicId: string; title: string } | undefined;
  title(publicId: string): string | undefined;
}

const WIDGET_KEYS = new Set(['id', 'type', 'position']);
const WIDGETS = new Set(['widgets']);

/** The draft as an object, or undefined for anything else (null, absent, not an object). */
function draftOf(v: JsonValue | undefined): Obj | undefined {
  return isObj(v) ? v : undefined;
}

export function boxOf(v: JsonValue | undefined): GridBox | undefined {
  if (!isObj(v)) return undefined;
  const { x, y, w, h } = v;
  if (typeof x !== 'number' || typeof y !== 'number' || typeof w !== 'number' || typeof h !== 'number')
    return undefined;
  return { x, y, w, h };
}

/**
 * The live side in the bundle's terms: where the desired value holds a
 * `{ $report }` reference and the live one a number, the number becomes the
 * reference of the report with that id; so does a `reportId` of a widget the
 * bundle no longer has.
 */
function liveInBundleTerms(
  live: JsonValue,
  desired: JsonValue | undefined,
  names: ReportNames,
  key: string,
): JsonValue {
  if (typeof live === 'number' && (isRef(desired) || (key === 'reportId' && desired === undefined))) {
    const r = names.byId(live);
    return r ? { $report: r.publicId } : live;
  }
  if (Array.isArray(live)) {
    const d = Array.isArray(desired) ? desired : [];
    // Widgets pair with the desired widget of their id, not of their place (widget-identity.ts).
    const byId = key === 'widgets' ? widgetsById({ widgets: d }) : undefined;
    return live.map((x, i) => {
      const id = byId === undefined ? undefined : usableWidgetId(x);
      return liveInBundleTerms(x, id === undefined ? d[i] : byId!.get(id), names, key);
    });
  }
  if (isObj(live)) {
    const d = isObj(desired) ? desired : {};
    const out: Obj = {};
    for (const k of Object.keys(live)) {
      setMember(out, k, liveInBundleTerms(live[k]!, d[k], names, k));
    }
    return out;
  }
  return live;
}

/** Leaves of a value by dotted path: objects are walked, arrays and references are leaves. */
function leaves(v: JsonValue | undefined, prefix: string, out: Map<string, JsonValue>): Map<string, JsonValue> {
  if (isObj(v) && !isRef(v) && Object.keys(v).length > 0) {
    for (const k of Object.keys(v)) leaves(v[k], prefix ? `${prefix}.${k}` : k, out);
  } else if (v !== undefined && prefix !== '') {
    out.set(prefix, v);
  }
  return out;
}

/** Member changes between two values, by path, in path order. */
function memberChanges(before: JsonValue | undefined, after: JsonValue | undefined, prefix: string): MemberChange[] {
  const b = leaves(before, prefix, new Map());
  const a = leaves(after, prefix, new Map());
  const all = [...new Set([...b.keys(), ...a.keys()])].sort();
  // An empty object on one side and members under it on the other: the members tell it.
  const paths = all.filter((p) => !all.some((q) => q.startsWith(`${p}.`)));
  const out: MemberChange[] = [];
  for (const path of paths) {
    const x = b.get(path);
    const y = a.get(path);
    if (x !== undefined && y !== undefined && sameContent(x, y)) continue;
    const c: MemberChange = { path };
    if (x !== undefined) c.before = x;
    if (y !== undefined) c.after = y;
    out.push(c);
  }
  return out;
}

/** The bundle publicIds of the reports a value names by `{ $report }`, once each, in document order. */
function reportsIn(v: unknown): string[] {
  return [...new Set(collectRefs(v).flatMap((r) => ('$report' in r ? [r.$report] : [])))];
}

function widgetChanges(id: string, b: Obj, a: Obj): WidgetChange[] {
  const out: WidgetChange[] = [];
  const pb = boxOf(b['position']);
  const pa = boxOf(a['position']);
  if (pb && pa) {
    if (pb.x !== pa.x || pb.y !== pa.y)
      out.push({ widget: id, change: 'moved', before: { x: pb.x, y: pb.y }, after: { x: pa.x, y: pa.y } });
    if (pb.w !== pa.w || pb.h !== pa.h)
      out.push({ widget: id, change: 'resized', before: { w: pb.w, h: pb.h }, after: { w: pa.w, h: pa.h } });
  } else if (!sameContent(b['position'] ?? null, a['position'] ?? null)) {
    for (const m of memberChanges(b['position'], a['position'], 'position')) {
      out.push({ widget: id, change: 'member', ...m });
    }
  }
  if (!sameContent(b['type'] ?? null, a['type'] ?? null)) {
    const t: WidgetChange = { widget: id, change: 'type' };
    if (typeof b['type'] === 'string') t.before = b['type'];
    if (typeof a['type'] === 'string') t.after = a['type'];
    out.push(t);
  }
  for (const m of memberChanges(membersExcept(b, WIDGET_KEYS), membersExcept(a, WIDGET_KEYS), '')) {
    out.push({ widget: id, change: 'member', ...m });
  }
  return out;
}

/** The non-null members of `d` other than those in `skip`. */
function membersExcept(d: Obj | undefined, skip: ReadonlySet<string>): Obj {
  const o: Obj = {};
  if (d) for (const k of Object.keys(d)) if (!skip.has(k) && d[k] !== null) setMember(o, k, d[k]!);
  return o;
}

/** The first line of a TEXT widget's markdown that holds text, without its heading marks. */
export function headingOf(content: string): string | undefined {
  const first = content.split('\n').find((l) => l.trim() !== '');
  return first === undefined ? undefined : first.replace(/^\s*#+\s*/, '').trim();
}

/** What names a widget for a reader: the title of the report it charts, a TEXT heading, a label. */
function widgetTitle(w: Obj, names: ReportNames): string | undefined {
  const pid = reportsIn(w['config'] ?? null)[0];
  if (pid !== undefined) return names.title(pid) ?? pid;
  const config = w['config'];
  if (!isObj(config)) return undefined;
  for (const k of ['content', 'markdown', 'text', 'label', 'title']) {
    const v = config[k];
    if (typeof v !== 'string' || v.trim() === '') continue;
    return k === 'label' || k === 'title' ? v : headingOf(v);
  }
  return undefined;
}

/** A widget's type and box, where it has them. */
function typeAndBox(w: Obj): { type?: string; position?: GridBox } {
  const p = boxOf(w['position']);
  return { ...(typeof w['type'] === 'string' ? { type: w['type'] } : {}), ...(p ? { position: p } : {}) };
}

/**
 * The change between a live draft and a desired one (references not resolved:
 * the bundle's values). Undefined when the drafts cannot be matched by widget
 * id; then the plan shows the draft as a line diff.
 */
export function diffDashboard(
  liveDraft: JsonValue | undefined,
  desiredDraft: JsonValue | undefined,
  names: ReportNames,
): DashboardDiff | undefined {
  const after = draftOf(desiredDraft === undefined ? undefined : alignWidgetIds(desiredDraft, liveDraft));
  const rawBefore = draftOf(liveDraft);
  const before = rawBefore ? draftOf(liveInBundleTerms(rawBefore, after, names, '')) : undefined;
  const wb = widgetsById(before);
  const wa = widgetsById(after);
  if (!wb || !wa) return undefined;

  const members = memberChanges(membersExcept(before, WIDGETS), membersExcept(after, WIDGETS), '');
  const widgets: WidgetChange[] = [];
  const titled = (w: Obj, list: WidgetChange[]): WidgetChange[] => {
    const title = widgetTitle(w, names);
    return title === undefined ? list : list.map((c) => ({ ...c, title }));
  };
  for (const [id, a] of wa) {
    const b = wb.get(id);
    if (b) widgets.push(...titled(a, widgetChanges(id, b, a)));
    else widgets.push(...titled(a, [{ widget: id, change: 'added', reports: reportsIn(a), ...typeAndBox(a) }]));
  }
  for (const [id, b] of wb)
    if (!wa.has(id)) widgets.push(...titled(b, [{ widget: id, change: 'removed', ...typeAndBox(b) }]));

  // References stand only in member values; an added widget lists its own.
  const named = new Set([
    ...reportsIn([members, widgets]),
    ...widgets.flatMap((w) => (w.change === 'added' ? w.reports : [])),
  ]);
  const reports: Record<string, string> = {};
  for (const pid of [...named].sort()) {
    const t = names.title(pid);
    if (t !== undefined) reports[pid] = t;
  }
  const layoutChanged =
    widgets.some((w) => w.change !== 'member' && w.change !== 'type') ||
    members.some((m) => m.path.startsWith('layout.cols') || m.path.startsWith('layout.breakpoints'));
  return { members, widgets, reports, layoutChanged };
}
