// The one rule of how a dashboard's widgets are told apart, for every part of
// wsc that matches the widgets of two drafts: the plan's diff
// (plan/dashboard-diff.ts), the ownership record's parts (ownership-draft.ts),
// the three-way decision (plan/three-way.ts) and export's merge
// (export/merge.ts). Decided once here:
//   - a widget is known by its `id`, compared exactly (case and all);
//   - an id is usable when it is a string holding more than white space (the
//     bundle's schema asks that of every widget it writes);
//   - a draft's widgets are told apart when every one is an object with a
//     usable id and no id repeats; otherwise (an empty, missing or repeated
//     id, as a UI may leave) the draft is one value: diffed as lines,
//     recorded, decided, merged and taken whole, never part by part;
//   - ids are keys of Maps or of objects without a prototype, never of plain
//     objects: `__proto__` and `constructor` are ids like any other;
//   - the id is part of the widget: an id renamed (`grain-ui` → `grain`) is
//     one widget removed and one added, a change like any other, by whichever
//     side made it (the ids in order are part of what the record compares).
import { isObj, type Obj } from './json.js';

/** A widget's id when it can tell the widget apart, else undefined. */
export function usableWidgetId(w: unknown): string | undefined {
  if (!isObj(w)) return undefined;
  const id = w['id'];
  return typeof id === 'string' && /\S/.test(id) ? id : undefined;
}

/** A widget as messages and pictures name it: its usable id, else `#n`, its place in the draft counted from 1. */
export function widgetLabel(w: unknown, index: number): string {
  return usableWidgetId(w) ?? `#${index + 1}`;
}

/** Whether a list is widgets that can be told apart by id (see the rule above). */
export function isWidgetList(list: unknown): list is Obj[] {
  return Array.isArray(list) && byIdOf(list) !== undefined;
}

function byIdOf(list: readonly unknown[]): Map<string, Obj> | undefined {
  const out = new Map<string, Obj>();
  for (const w of list) {
    const id = usableWidgetId(w);
    if (id === undefined || out.has(id)) return undefined;
    out.set(id, w as Obj);
  }
  return out;
}

/**
 * The widgets of a draft by id, in their order; an empty map when the draft
 * has none (`widgets` absent or null). Undefined when they cannot be told
 * apart (not a list, or an id empty, missing or repeated): the caller takes
 * the draft whole.
 */
export function widgetsById(draft: unknown): Map<string, Obj> | undefined {
  const list = isObj(draft) ? draft['widgets'] : undefined;
  if (list === undefined || list === null) return new Map();
  return Array.isArray(list) ? byIdOf(list) : undefined;
}

/**
 * The ids of a draft's widgets in their order, as they stand (null for a
 * widget without a string id): what the record compares besides the widgets'
 * content, so that a renamed id is a change.
 */
export function widgetIdList(draft: unknown): (string | null)[] {
  const list = isObj(draft) ? draft['widgets'] : undefined;
  if (!Array.isArray(list)) return [];
  return list.map((w) => (isObj(w) && typeof w['id'] === 'string' ? w['id'] : null));
}

/** An object without a prototype, for keys that are ids (`__proto__` is then a key like any other). */
export function idRecord<T>(entries: Iterable<readonly [string, T]> = []): { [id: string]: T } {
  const out = Object.create(null) as { [id: string]: T };
  for (const [k, v] of entries) out[k] = v;
  return out;
}

/**
 * For comparison only: the desired draft with each widget written without an
 * id given the id of the live widget at the same place (the server assigns
 * one to a widget sent without it). A bundle's widgets all have ids; a draft
 * from elsewhere may not.
 */
export function alignWidgetIds<T>(desired: T, live: unknown): T {
  if (!isObj(desired) || !isObj(live)) return desired;
  const dw = desired['widgets'];
  const lw = live['widgets'];
  if (!Array.isArray(dw) || !Array.isArray(lw)) return desired;
  const widgets = dw.map((w, i) => {
    const l = lw[i];
    if (!isObj(w) || (w['id'] !== undefined && w['id'] !== null) || !isObj(l)) return w;
    const id = l['id'];
    return typeof id === 'string' ? { ...w, id } : w;
  });
  return { ...desired, widgets };
}

/**
 * The widgets of a draft, each able to be told apart: one whose id is empty
 * (or white space), or an id an earlier widget has, is given `widget-<n>` (n its place,
 * counted from 1, or the next number free). For export: a bundle's widgets
 * all need an id, and a written id makes the next apply name the widget.
 */
export function namedWidgets<T>(list: readonly T[]): T[] {
  const taken = new Set(list.map(usableWidgetId).filter((id) => id !== undefined));
  const seen = new Set<string>();
  return list.map((w, i) => {
    const id = usableWidgetId(w);
    // A widget without a string id is left as it is: the API gives every live widget one (an export then
    // refuses the draft as the bundle's schema does).
    if (!isObj(w) || typeof w['id'] !== 'string' || (id !== undefined && !seen.has(id))) {
      if (id !== undefined) seen.add(id);
      return w;
    }
    let n = i + 1;
    while (taken.has(`widget-${n}`)) n++;
    const minted = `widget-${n}`;
    taken.add(minted);
    seen.add(minted);
    return { ...w, id: minted };
  });
}
