// A dashboard draft in parts, for the ownership record: one hash per widget
// (keyed by its id), per `layout` entry and per other member of the draft,
// and one for the order of the widgets. With these, a draft is compared
// three ways part by part (the record, the live draft, the file), so that a
// widget moved in the UI and another widget changed in the bundle are two
// independent changes, not one conflict over the whole draft.
import { createHash } from 'node:crypto';
import { canonicalJson, withoutNullMembers } from './canonical.js';
import { isObj, type JsonValue, type Obj } from './json.js';

/** What the record keeps of a draft. Keys are the draft's own (widget ids, layout and member names). */
export interface DraftParts {
  /** Widget id → hash of the widget without its id. */
  widgets: { [id: string]: string };
  /** Hash of the widget ids in their order. */
  order: string;
  /** `layout` member (`cols`, `rowHeight`, `breakpoints`…) → hash. */
  layout: { [entry: string]: string };
  /** Any other member of the draft (`title`, `theme`, `kind`…) → hash. */
  members: { [member: string]: string };
}

/** The parts of a draft that differ between two sets of parts (or a set and a live draft's). */
export interface DraftPartChanges {
  /** Widget ids whose widget differs, was added or was removed. */
  widgets: string[];
  /** `layout` entries that differ, were added or were removed. */
  layout: string[];
  /** Other draft members that differ, were added or were removed. */
  members: string[];
  /** Whether the order of the widgets both sides hold differs. */
  order: boolean;
}

function partHash(v: unknown): string {
  return createHash('sha256')
    .update(canonicalJson(withoutNullMembers(v)))
    .digest('hex')
    .slice(0, 16);
}

/** The widgets of a draft by id; undefined when one has no string id or an id repeats (no part-wise record then). */
function widgetsById(draft: Obj): Map<string, Obj> | undefined {
  const list = draft['widgets'];
  const out = new Map<string, Obj>();
  if (list === undefined || list === null) return out;
  if (!Array.isArray(list)) return undefined;
  for (const w of list) {
    if (!isObj(w) || typeof w['id'] !== 'string' || w['id'] === '' || out.has(w['id'])) return undefined;
    out.set(w['id'], w);
  }
  return out;
}

/** A widget as hashed: without its id (the key) and without null members. */
function widgetBody(w: Obj): Obj {
  const out: Obj = {};
  for (const [k, v] of Object.entries(w)) if (k !== 'id') out[k] = v;
  return out;
}

/**
 * The parts of a draft, or undefined when it is no object or its widgets
 * cannot be told apart by id (a widget sent without an id gets one from the
 * server, so its key would change on the first read).
 */
export function draftParts(draft: JsonValue | undefined): DraftParts | undefined {
  if (!isObj(draft)) return undefined;
  const byId = widgetsById(draft);
  if (byId === undefined) return undefined;
  const widgets: { [id: string]: string } = {};
  for (const [id, w] of byId) widgets[id] = partHash(widgetBody(w));
  const layout: { [entry: string]: string } = {};
  const lay = draft['layout'];
  if (isObj(lay)) for (const [k, v] of Object.entries(lay)) if (v !== null) layout[k] = partHash(v);
  const members: { [member: string]: string } = {};
  for (const [k, v] of Object.entries(draft)) {
    if (k === 'widgets' || v === null || (k === 'layout' && isObj(v))) continue;
    members[k] = partHash(v);
  }
  return { widgets, order: partHash([...byId.keys()]), layout, members };
}

function differing(a: { [k: string]: string }, b: { [k: string]: string }): string[] {
  const keys = new Set([...Object.keys(a), ...Object.keys(b)]);
  return [...keys].filter((k) => a[k] !== b[k]).sort();
}

/** The parts that differ between `before` and `after`. The order counts only when both hold the same widgets. */
export function draftPartChanges(before: DraftParts, after: DraftParts): DraftPartChanges {
  const widgets = differing(before.widgets, after.widgets);
  const sameSet = differing(
    Object.fromEntries(Object.keys(before.widgets).map((k) => [k, ''])),
    Object.fromEntries(Object.keys(after.widgets).map((k) => [k, ''])),
  );
  return {
    widgets,
    layout: differing(before.layout, after.layout),
    members: differing(before.members, after.members),
    order: sameSet.length === 0 && before.order !== after.order,
  };
}

/** Whether nothing differs. */
export function noPartChanges(c: DraftPartChanges): boolean {
  return c.widgets.length === 0 && c.layout.length === 0 && c.members.length === 0 && !c.order;
}

/** Draft parts read from a live record, when well-formed. */
export function readDraftParts(v: unknown): DraftParts | undefined {
  if (!isObj(v)) return undefined;
  const { widgets, order, layout, members } = v;
  const strings = (o: unknown): o is { [k: string]: string } =>
    isObj(o) && Object.values(o).every((x) => typeof x === 'string');
  if (!strings(widgets) || typeof order !== 'string' || !strings(layout) || !strings(members)) return undefined;
  return { widgets: { ...widgets }, order, layout: { ...layout }, members: { ...members } };
}
