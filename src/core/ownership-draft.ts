// A dashboard draft in parts, for the ownership record: one hash per widget
// (keyed by its id), per `layout` entry and per other member of the draft,
// and one for the order of the widgets. With these, a draft is compared
// three ways part by part (the record, the live draft, the file), so that a
// widget moved in the UI and another widget changed in the bundle are two
// independent changes, not one conflict over the whole draft.
import { createHash } from 'node:crypto';
import { canonicalJson, withoutNullMembers } from './canonical.js';
import { isObj, type JsonValue, type Obj } from './json.js';
import { idRecord, widgetIdList, widgetsById } from './widget-identity.js';

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

/** A widget as hashed: without its id (the key) and without null members. */
function widgetBody(w: Obj): Obj {
  const out: Obj = {};
  for (const [k, v] of Object.entries(w)) if (k !== 'id') out[k] = v;
  return out;
}

/**
 * The hash of a draft's widget ids in their order (the record's `order`): a
 * renamed id changes it, where the field's hash leaves ids out.
 */
export function widgetIdOrder(draft: unknown): string {
  return partHash(widgetIdList(draft));
}

/**
 * The parts of a draft, or undefined when it is no object or its widgets
 * cannot be told apart by id (widget-identity.ts: the draft is then whole).
 */
export function draftParts(draft: JsonValue | undefined): DraftParts | undefined {
  if (!isObj(draft)) return undefined;
  const byId = widgetsById(draft);
  if (byId === undefined) return undefined;
  const widgets = idRecord([...byId].map(([id, w]) => [id, partHash(widgetBody(w))] as const));
  const layout: { [entry: string]: string } = {};
  const lay = draft['layout'];
  if (isObj(lay)) for (const [k, v] of Object.entries(lay)) if (v !== null) layout[k] = partHash(v);
  const members: { [member: string]: string } = {};
  for (const [k, v] of Object.entries(draft)) {
    if (k === 'widgets' || v === null || (k === 'layout' && isObj(v))) continue;
    members[k] = partHash(v);
  }
  return { widgets, order: widgetIdOrder(draft), layout, members };
}

function differing(a: { [k: string]: string }, b: { [k: string]: string }): string[] {
  const keys = new Set([...Object.keys(a), ...Object.keys(b)]);
  const at = (o: { [k: string]: string }, k: string) => (Object.hasOwn(o, k) ? o[k] : undefined);
  return [...keys].filter((k) => at(a, k) !== at(b, k)).sort();
}

/** The parts that differ between `before` and `after`. The order counts only when both hold the same widgets. */
export function draftPartChanges(before: DraftParts, after: DraftParts): DraftPartChanges {
  const widgets = differing(before.widgets, after.widgets);
  const sameSet = differing(
    idRecord(Object.keys(before.widgets).map((k) => [k, ''] as const)),
    idRecord(Object.keys(after.widgets).map((k) => [k, ''] as const)),
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
  return { widgets: idRecord(Object.entries(widgets)), order, layout: { ...layout }, members: { ...members } };
}
