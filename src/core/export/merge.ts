// `export --into` / `--only` as a three-way merge, as kubectl's last-applied
// configuration decides per field: for each managed field the plan finds
// different, the ownership record (the bundle's values at the last apply)
// says which side moved. Only what moved on the live side is taken; a change
// of the bundle not applied yet is kept; a field (for a dashboard draft: a
// widget, a layout entry, a member, the order) that moved on both sides is a
// conflict and is left alone. Without a record every differing field is taken.
//
// What is taken is taken node by node: only the scalars, keys and widgets
// whose value differs become edits, each addressed by its path in the file's
// document, so that everything else keeps its text. A value the file writes
// with `${vars.…}` stays when its rendering equals the live value; when the
// UI changed it, nothing is written there and it is named to edit by hand.
import type { Doc } from './docs.js';
import type { FieldChange, ResourceChange } from '../plan-model.js';
import { isObj, type JsonValue, type Obj } from '../json.js';
import { isRef } from '../model.js';
import { sameContent } from '../canonical.js';
import { collectRefs } from '../refs.js';
import type { DraftPartChanges } from '../ownership-draft.js';
import {
  changedOutside,
  decisionHash,
  draftPartChanges,
  draftParts,
  DRAFT_PATH,
  fieldHash,
  recordedHash,
  type OwnershipRecord,
} from '../ownership.js';
import { isWidgetList, usableWidgetId, widgetsById } from '../widget-identity.js';

/** The ids of a draft's widgets when they can be told apart, else none. */
/** The id of a widget of a list `isWidgetList` accepted (every id usable: widget-identity.ts). */
const idOf = (w: unknown): string => usableWidgetId(w)!;
const usableIds = (draft: unknown): string[] => [...(widgetsById(draft)?.keys() ?? [])];

/** A path in the file's document: mapping keys and sequence indices. */
export type DocPath = (string | number)[];

/** One change to the file's document. Every path is one of the document as it was read. */
export type DocEdit =
  /** Set the value at `path` (a new key when the mapping has none). */
  | { op: 'set'; path: DocPath; value: JsonValue }
  | { op: 'delete'; path: DocPath }
  /** The sequence at `path` becomes these items: existing ones by their index, new ones by value. */
  | { op: 'arrange'; path: DocPath; items: ({ keep: number } | { value: JsonValue })[] };

export interface MergeResult {
  edits: DocEdit[];
  /** What was taken from the deployment, by display path (`title`, `meta.dashboardDraft.widgets[kpi]`). */
  taken: string[];
  /** Changes of the bundle that are not applied yet: kept as the file has them. */
  kept: string[];
  /** Changed in the bundle and outside wsc alike since the last apply: left as the file has it. */
  conflicts: string[];
  /** Such conflicts taken from the deployment all the same (`takeConflicts`): the bundle's unapplied value replaced. */
  replaced: string[];
  /** Values the file writes with a variable that the deployment changed: to edit by hand. */
  byHand: { path: string; docPath: DocPath; file: string; live: JsonValue; line?: number; col?: number }[];
  /** No ownership record of this bundle: every differing field was taken. */
  noRecord: boolean;
}

export interface MergeInput {
  change: ResourceChange;
  /** The record of this bundle on the live resource; undefined: none (or another bundle's). */
  record: OwnershipRecord | undefined;
  /** The live resource as read (what the record is compared with). */
  live: unknown;
  /** The live resource as the bundle writes it: references for ids, `$${` for a literal `${`. */
  exported: Doc;
  /** The file's document as written (variables not rendered). */
  raw: Doc;
  /** The file's values rendered for this environment (references as written): `DesiredX.fields`. */
  rendered: { [k: string]: unknown };
  /**
   * A part changed on both sides is taken from the deployment too, replacing the bundle's
   * unapplied value (`export --only ADDR`: the way forward a blocked apply names); else it is left.
   */
  takeConflicts?: boolean;
}

/** Fields of a change that are no keys of the file: publishing, adopting, create-only ones. */
const NOT_IN_FILE = new Set(['dashboardPublished', 'publicId', 'source', 'slug']);

const VARIABLE = /(?<!\$)\$\{/;

function unescapeVars(v: unknown): unknown {
  if (typeof v === 'string') return v.includes('$${') ? v.replaceAll('$${', '${') : v;
  if (Array.isArray(v)) return v.map(unescapeVars);
  if (isObj(v)) return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, unescapeVars(x)]));
  return v;
}

function hasVariable(v: unknown): boolean {
  if (typeof v === 'string') return VARIABLE.test(v);
  if (Array.isArray(v)) return v.some(hasVariable);
  if (isObj(v)) return Object.values(v).some(hasVariable);
  return false;
}

/** The key a field has in the file, and in the export's document. */
function keyPath(field: string, raw: Doc): string[] {
  if (field.startsWith('meta.')) return ['meta', field.slice(5)];
  // The file names its folder by path; the plan compares the id it stands for.
  if (field === 'folderId' && Object.hasOwn(raw, 'folder')) return ['folder'];
  return [field];
}

function at(v: unknown, path: readonly (string | number)[]): unknown {
  let x = v;
  for (const k of path) x = isObj(x) || Array.isArray(x) ? (x as Record<string, unknown>)[k] : undefined;
  return x;
}

class Merger {
  readonly out: MergeResult;
  constructor(noRecord: boolean) {
    this.out = { edits: [], taken: [], kept: [], conflicts: [], replaced: [], byHand: [], noRecord };
  }

  /** Takes the live value into the file at `path`, node by node. `shown` names it for people. */
  take(path: DocPath, shown: string, raw: unknown, rendered: unknown, exported: unknown): void {
    const [edits, taken] = [this.out.edits.length, this.out.taken.length];
    this.node(path, shown, raw, rendered, exported);
    // Named once, by the finest part that a nested take did not already name.
    if (this.out.edits.length > edits && this.out.taken.length === taken) this.out.taken.push(shown);
  }

  private node(path: DocPath, shown: string, raw: unknown, rendered: unknown, exported: unknown): void {
    const live = unescapeVars(exported);
    const templated = raw !== undefined && hasVariable(raw);
    // Without a variable the file's text and the export's compare as they are (references, `$${` alike).
    if (raw !== undefined && !templated && sameContent(raw, exported)) return;
    if (templated && rendered !== undefined && sameContent(rendered, live)) return;
    if (exported === undefined || exported === null) {
      if (raw !== undefined) this.out.edits.push({ op: 'delete', path });
      return;
    }
    if (isObj(raw) && isObj(exported) && !isRef(raw) && !isRef(exported)) {
      this.mapping(path, shown, raw, rendered, exported);
      return;
    }
    if (Array.isArray(raw) && Array.isArray(exported) && isWidgetList(raw) && isWidgetList(exported)) {
      this.widgets(path, shown, raw, rendered, exported, () => true, true);
      return;
    }
    if (templated) {
      // A value written with a variable: only a node without one below it may be taken.
      if (Array.isArray(raw) && Array.isArray(exported) && raw.length === exported.length) {
        raw.forEach((x, i) => this.node([...path, i], `${shown}[${i}]`, x, at(rendered, [i]), exported[i]));
        return;
      }
      const file = typeof raw === 'string' ? raw : JSON.stringify(raw);
      this.out.byHand.push({ path: shown, docPath: path, file, live: live as JsonValue });
      return;
    }
    this.out.edits.push({ op: 'set', path, value: exported as JsonValue });
  }

  private mapping(path: DocPath, shown: string, raw: Obj, rendered: unknown, exported: Obj): void {
    for (const k of Object.keys(raw)) {
      this.node([...path, k], `${shown}.${k}`, raw[k], at(rendered, [k]), exported[k]);
    }
    for (const k of Object.keys(exported)) {
      if (Object.hasOwn(raw, k) || exported[k] === null) continue;
      this.out.edits.push({ op: 'set', path: [...path, k], value: exported[k]! });
    }
  }

  /**
   * A draft's widgets, matched by id: those `take` names are merged (or added,
   * or removed); the others stay. The order is the live one when `order`.
   */
  widgets(
    path: DocPath,
    shown: string,
    raw: Obj[],
    rendered: unknown,
    exported: Obj[],
    take: (id: string) => boolean,
    order: boolean,
  ): void {
    const fileIndex = new Map(raw.map((w, i) => [idOf(w), i]));
    const liveIds = new Set(exported.map((w) => idOf(w)));
    for (const w of exported) {
      const id = idOf(w);
      const i = fileIndex.get(id);
      if (i === undefined || !take(id)) continue;
      const where = `${shown}[${id}]`;
      this.take([...path, i], where, raw[i], at(rendered, [i]), w);
    }
    // Which widgets the file ends with, in which order.
    const kept = raw.map((w, i) => ({ id: idOf(w), i })).filter((w) => liveIds.has(w.id) || !take(w.id));
    const added = exported.filter((w) => !fileIndex.has(idOf(w)) && take(idOf(w)));
    let items: ({ keep: number } | { value: JsonValue })[];
    if (order) {
      const byId = new Map(kept.map((k) => [k.id, k.i]));
      items = exported
        .filter((w) => byId.has(idOf(w)) || added.includes(w))
        .map((w) => (byId.has(idOf(w)) ? { keep: byId.get(idOf(w))! } : { value: w }));
      // Widgets the file keeps that the deployment does not hold (a bundle change): where they were.
      for (const k of kept) if (!liveIds.has(k.id)) items.splice(Math.min(k.i, items.length), 0, { keep: k.i });
    } else {
      items = [...kept.map((k) => ({ keep: k.i })), ...added.map((w) => ({ value: w }))];
    }
    for (const w of raw) if (!liveIds.has(idOf(w)) && take(idOf(w))) this.noteTaken(shown, w);
    for (const w of added) this.noteTaken(shown, w);
    const same = items.length === raw.length && items.every((x, i) => 'keep' in x && x.keep === i);
    if (!same) {
      this.out.edits.push({ op: 'arrange', path, items });
      if (order && !this.out.taken.includes(`${shown} (order)`)) this.out.taken.push(`${shown} (order)`);
    }
  }

  /** A part changed on both sides: taken (and named as replaced) when `take`, else left and named. */
  conflict(take: boolean, shown: string, taking: () => void): void {
    if (!take) {
      this.out.conflicts.push(shown);
      return;
    }
    taking();
    this.replaced([shown]);
  }

  /** Conflicting parts taken: named as replaced, but those left for a hand edit (a variable), named there. */
  replaced(labels: string[]): void {
    for (const l of labels) {
      if (!this.out.byHand.some((h) => h.path === l || h.path.startsWith(`${l}.`) || h.path.startsWith(`${l}[`)))
        this.out.replaced.push(l);
    }
  }

  private noteTaken(shown: string, w: Obj): void {
    this.out.taken.push(`${shown}[${idOf(w)}]`);
  }
}

/** The plan's `after` holds a reference only when its target is created by the same apply. */
function bundleMoved(c: FieldChange, record: OwnershipRecord): boolean {
  return collectRefs(c.after).length > 0 || decisionHash(record, c.path, c.after) !== recordedHash(record, c.path);
}

/** Whether the folder id the bundle's path resolves to (as a write sends it) is not the recorded one. */
function folderMoved(change: ResourceChange, base: string): boolean {
  for (const r of change.requests) {
    const body = (r.operation as { body?: unknown }).body;
    if (!isObj(body) || !Object.hasOwn(body, 'folderId')) continue;
    // A folder this apply creates (`{ $folder }`) cannot be the one recorded.
    return isObj(body['folderId']) || fieldHash('folderId', body['folderId']) !== base;
  }
  return true;
}

/** What the file takes from the deployment, per field and (for a dashboard draft recorded in parts) per part. */
export function mergeResource(input: MergeInput): MergeResult {
  const { change, record, raw, rendered, exported } = input;
  const m = new Merger(record === undefined);
  const outside = record === undefined ? undefined : changedOutside(record, input.live);
  for (const c of change.changes) {
    if (NOT_IN_FILE.has(c.path) || c.createOnly === true) continue;
    const keys = keyPath(c.path, raw);
    const [fileRaw, fileRendered, live] = [at(raw, keys), at(rendered, keys), at(exported, keys)];
    // The plan shows a folder by its path (`folder`); the record hashes the id it stands for.
    const recorded = c.path === 'folder' ? 'folderId' : c.path;
    const base = record?.fields[recorded];
    if (record === undefined || base === undefined) {
      m.take(keys, c.path, fileRaw, fileRendered, live);
      continue;
    }
    const liveMoved = outside!.fields.includes(recorded);
    const fileMoved = c.path === 'folder' ? folderMoved(change, base) : bundleMoved(c, record);
    if (!liveMoved) {
      if (fileMoved) m.out.kept.push(c.path);
      continue;
    }
    if (!fileMoved) {
      m.take(keys, c.path, fileRaw, fileRendered, live);
      continue;
    }
    const sides = { raw: fileRaw, rendered: fileRendered, live, after: c.after, take: input.takeConflicts === true };
    if (c.path === DRAFT_PATH && record.draft !== undefined && outside!.draft !== undefined) {
      draftByParts(m, keys, sides, record, outside!.draft);
      continue;
    }
    m.conflict(sides.take, c.path, () => m.take(keys, c.path, fileRaw, fileRendered, live));
  }
  return m.out;
}

interface DraftSides {
  raw: unknown;
  rendered: unknown;
  live: unknown;
  /** The file's draft with references resolved, as the record hashes it. */
  after: JsonValue | undefined;
  /** Parts changed on both sides are taken from the deployment (MergeInput.takeConflicts). */
  take: boolean;
}

/** A draft changed on both sides: each widget, layout entry and member decided on its own. */
function draftByParts(
  m: Merger,
  keys: DocPath,
  s: DraftSides,
  record: OwnershipRecord,
  outsideParts: ReturnType<typeof draftPartChanges>,
): void {
  let liveParts = outsideParts;
  const fileParts = draftParts(s.after);
  if (!isObj(s.raw) || !isObj(s.live) || fileParts === undefined || collectRefs(s.after).length > 0) {
    m.conflict(s.take, DRAFT_PATH, () => m.take(keys, DRAFT_PATH, s.raw, s.rendered, s.live));
    return;
  }
  const bundle = draftPartChanges(record.draft!, fileParts);
  // A widget the export named (the live draft could not tell it apart: widget-identity.ts) is new to the record.
  const named = usableIds(s.live).filter((id) => !Object.hasOwn(record.draft!.widgets, id));
  liveParts = { ...liveParts, widgets: [...new Set([...liveParts.widgets, ...named])].sort() };
  const shown = DRAFT_PATH;
  // A part changed on both sides conflicts unless both made the same change.
  const same = (file: unknown, live: unknown) => sameContent(file, unescapeVars(live));
  const widgetOf = (draft: unknown, id: string) =>
    (Array.isArray(at(draft, ['widgets'])) ? (at(draft, ['widgets']) as unknown[]) : []).find(
      (w) => usableWidgetId(w) === id,
    );
  const both = (a: string[], b: string[]) => a.filter((x) => b.includes(x));
  const conflicts: string[] = [];
  for (const id of both(liveParts.widgets, bundle.widgets)) {
    if (!same(widgetOf(s.rendered, id), widgetOf(s.live, id))) conflicts.push(`${shown}.widgets[${id}]`);
  }
  for (const e of both(liveParts.layout, bundle.layout)) {
    if (!same(at(s.rendered, ['layout', e]), at(s.live, ['layout', e]))) conflicts.push(`${shown}.layout.${e}`);
  }
  for (const k of both(liveParts.members, bundle.members)) {
    if (!same(at(s.rendered, [k]), s.live[k])) conflicts.push(`${shown}.${k}`);
  }
  const ids = (draft: unknown) =>
    (Array.isArray(at(draft, ['widgets'])) ? (at(draft, ['widgets']) as unknown[]) : []).map((w) => at(w, ['id']));
  if (liveParts.order && bundle.order && !sameContent(ids(s.rendered), ids(s.live))) {
    conflicts.push(`${shown}.widgets (order)`);
  }
  if (!s.take) m.out.conflicts.push(...conflicts);
  takeDraftParts(m, keys, s, s.take ? NO_PART_CHANGES : bundle, liveParts);
  if (s.take) m.replaced(conflicts);
}

const NO_PART_CHANGES: DraftPartChanges = { widgets: [], layout: [], members: [], order: false };

/** Takes what changed in the deployment's draft (`live`) but what the bundle changed too (`bundle`). */
function takeDraftParts(
  m: Merger,
  keys: DocPath,
  s: DraftSides,
  bundle: DraftPartChanges,
  liveParts: DraftPartChanges,
) {
  if (!isObj(s.raw) || !isObj(s.live)) return;
  const shown = DRAFT_PATH;
  for (const k of liveParts.members.filter((x) => !bundle.members.includes(x))) {
    m.take([...keys, k], `${shown}.${k}`, s.raw[k], at(s.rendered, [k]), s.live[k]);
  }
  for (const e of liveParts.layout.filter((x) => !bundle.layout.includes(x))) {
    const path = [...keys, 'layout', e];
    if (!isObj(s.raw['layout'])) {
      m.take([...keys, 'layout'], `${shown}.layout`, s.raw['layout'], at(s.rendered, ['layout']), s.live['layout']);
      break;
    }
    m.take(
      path,
      `${shown}.layout.${e}`,
      at(s.raw, ['layout', e]),
      at(s.rendered, ['layout', e]),
      at(s.live, ['layout', e]),
    );
  }
  const takeWidget = new Set(liveParts.widgets.filter((x) => !bundle.widgets.includes(x)));
  const rawWidgets = s.raw['widgets'];
  const liveWidgets = s.live['widgets'];
  const takeOrder = liveParts.order && !bundle.order;
  if (takeWidget.size === 0 && !takeOrder) return;
  const list = (v: unknown) => (v === undefined || v === null ? [] : v);
  const rw = list(rawWidgets);
  const lw = list(liveWidgets);
  if (!Array.isArray(rw) || !Array.isArray(lw) || !isWidgetList(rw) || !isWidgetList(lw)) {
    const whole = [...keys, 'widgets'];
    m.conflict(s.take, `${shown}.widgets`, () => m.take(whole, `${shown}.widgets`, rawWidgets, undefined, liveWidgets));
    return;
  }
  if (rawWidgets === undefined) {
    m.take([...keys, 'widgets'], `${shown}.widgets`, undefined, undefined, liveWidgets);
    return;
  }
  m.widgets(
    [...keys, 'widgets'],
    `${shown}.widgets`,
    rw,
    at(s.rendered, ['widgets']),
    lw,
    (id) => takeWidget.has(id),
    takeOrder,
  );
}
