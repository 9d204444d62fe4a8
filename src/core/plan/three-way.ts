// The three-way decision of a managed resource that carries this bundle's
// record, as kubectl's last-applied merge: per managed field, and for a
// dashboard draft recorded in parts per widget, `layout` entry and member,
// the record (what the bundle said at the last apply), the live value and
// the file's value are compared.
//   - only the file changed it: the file's value is written;
//   - only someone outside wsc changed it: the live value is kept (the
//     record keeps the bundle's, so the next plan decides the same);
//   - both changed it, differently: a conflict, the resource is blocked
//     until `--overwrite-ui-edits ADDR` (then the file's value wins) or the
//     file takes the edit (`wsc export --only ADDR --into DIR`).
// That is the `keep` policy. Under `revert` the file's value wins for every
// field it manages (edits outside wsc are written over); under `block` any
// edit outside wsc that differs from the file blocks the resource. Whatever
// the policy, the edits that differ from the file are listed (`drift`).
// The result is the file's fields with kept values and the merged draft in
// place, which the planner then plans as usual.
import { isObj, type JsonValue, type Obj } from '../json.js';
import { decisionHash, DRAFT_PATH, fieldHash, recordedHash, valueAtPath, type OwnershipRecord } from '../ownership.js';
import { draftPartChanges, draftParts, type DraftParts } from '../ownership-draft.js';
import { widgetsById } from '../widget-identity.js';
import type { UiEditsPolicy } from '../model.js';
import { editedOutside, type DriftPart } from './drift.js';

export interface ThreeWay {
  /** The fields to plan: the file's, with kept live values and the merged draft. */
  fields: Obj;
  /** Parts changed outside wsc that the file did not change: kept (`name`, `meta.dashboardDraft widget a`). */
  kept: string[];
  /** Parts changed on both sides, differently (under `block`: every part edited outside wsc): blocks the resource. */
  conflicts: string[];
  /** The parts edited outside wsc that differ from the file, whatever the policy does with them. */
  drift: DriftPart[];
}

/** The bundle's value of each managed field, references resolved (pending: its target is created by this apply). */
export type DesiredValues = Map<string, { value: JsonValue; pending: boolean }>;

type Side = 'file' | 'live';

/** Which side a part takes: the file's unless only the live one moved from the base; undefined = a conflict. */
function decide(base: string | undefined, file: string | undefined, live: string | undefined): Side | undefined {
  if (file === live || live === base) return 'file';
  if (file === base) return 'live';
  return undefined;
}

function setPath(fields: Obj, path: string, v: JsonValue): void {
  if (!path.startsWith('meta.')) {
    fields[path] = v;
    return;
  }
  const meta = isObj(fields['meta']) ? { ...fields['meta'] } : {};
  meta[path.slice(5)] = v;
  fields['meta'] = meta;
}

/**
 * The three-way decision over one resource. `fields` are the file's (in the
 * bundle's terms: references as written), `desired` their resolved values.
 */
export function threeWay(
  fields: Obj,
  desired: { values: DesiredValues },
  live: unknown,
  record: OwnershipRecord,
  policy: UiEditsPolicy = 'keep',
): ThreeWay {
  const drift = [...desired.values].flatMap(([path, d]) =>
    editedOutside(path, d.pending ? undefined : d.value, valueAtPath(live, path) as JsonValue | undefined, record),
  );
  // The file's fields as they are: its values are written over every edit made outside wsc (or, under
  // `block`, the resource is left alone while any differs).
  if (policy !== 'keep')
    return { fields: { ...fields }, kept: [], conflicts: policy === 'block' ? drift.map((p) => p.field) : [], drift };
  const out: ThreeWay = { fields: { ...fields }, kept: [], conflicts: [], drift };
  for (const [path, d] of desired.values) {
    const base = recordedHash(record, path);
    if (base === undefined) continue; // newly managed: the file's value, as on a first apply
    const liveValue = valueAtPath(live, path) as JsonValue | undefined;
    const hLive = decisionHash(record, path, liveValue);
    const hFile = d.pending ? undefined : decisionHash(record, path, d.value);
    if (hFile === hLive || namesLiveWidgets(path, d.value, liveValue)) continue;
    const side = decide(base, hFile, hLive);
    if (side === 'file') continue;
    if (side === 'live') {
      setPath(out.fields, path, liveValue ?? null);
      out.kept.push(...(path === DRAFT_PATH ? keptParts(record, liveValue) : [path]));
      continue;
    }
    const merged = path === DRAFT_PATH ? mergeDraft(valueAtPath(fields, path), d.value, liveValue, record) : undefined;
    if (merged === undefined) {
      out.conflicts.push(path);
      continue;
    }
    setPath(out.fields, path, merged.draft);
    out.kept.push(...merged.kept.map((p) => `${path} ${p}`));
    out.conflicts.push(...merged.conflicts.map((p) => `${path} ${p}`));
  }
  return out;
}

/**
 * Whether the file's draft is the live one but for ids the live draft cannot
 * tell its widgets apart by (empty, missing, repeated: widget-identity.ts),
 * as `wsc export` names them: the file wins, and its write names them.
 */
function namesLiveWidgets(path: string, file: JsonValue, live: JsonValue | undefined): boolean {
  if (path !== DRAFT_PATH || widgetsById(live) !== undefined || widgetsById(file) === undefined) return false;
  return fieldHash(path, file) === fieldHash(path, live);
}

/** A draft kept whole, named by the parts that changed outside wsc when the record has them. */
function keptParts(record: OwnershipRecord, live: JsonValue | undefined): string[] {
  const parts = draftParts(live);
  if (record.draft === undefined || parts === undefined) return [DRAFT_PATH];
  const c = draftPartChanges(record.draft, parts);
  const labels = [
    ...c.members,
    ...c.layout.map((k) => `layout.${k}`),
    ...c.widgets.map((id) => `widget ${id}`),
    ...(c.order ? ['order'] : []),
  ];
  return labels.length === 0 ? [DRAFT_PATH] : labels.map((l) => `${DRAFT_PATH} ${l}`);
}

interface MergedDraft {
  draft: Obj;
  kept: string[];
  conflicts: string[];
}

/**
 * The draft merged part by part: `raw` is the file's draft as written (its
 * widgets keep their references), `resolved` the same resolved (hashed). A
 * conflicting part takes the file's (applied only with --overwrite-ui-edits).
 * Undefined when a side cannot be split into parts: the caller decides on the
 * whole draft.
 */
export function mergeDraft(
  raw: unknown,
  resolved: JsonValue,
  live: unknown,
  record: OwnershipRecord,
): MergedDraft | undefined {
  const base = record.draft;
  const fileParts = draftParts(resolved);
  const liveParts = draftParts(live as JsonValue | undefined);
  if (base === undefined || fileParts === undefined || liveParts === undefined || !isObj(raw) || !isObj(live)) {
    return undefined;
  }
  const kept: string[] = [];
  const conflicts: string[] = [];
  const pick = (label: string, b: string | undefined, f: string | undefined, l: string | undefined): Side => {
    const side = decide(b, f, l);
    if (side === 'live') kept.push(label);
    if (side === undefined) conflicts.push(label);
    return side ?? 'file';
  };

  const draft: Obj = {};
  for (const k of union(base.members, fileParts.members, liveParts.members)) {
    const side = pick(k, own(base.members, k), own(fileParts.members, k), own(liveParts.members, k));
    const v = side === 'file' ? raw[k] : live[k];
    if (v !== undefined) draft[k] = v;
  }
  const rawLayout = isObj(raw['layout']) ? raw['layout'] : {};
  const liveLayout = isObj(live['layout']) ? live['layout'] : {};
  const layout: Obj = {};
  for (const k of union(base.layout, fileParts.layout, liveParts.layout)) {
    const side = pick(`layout.${k}`, own(base.layout, k), own(fileParts.layout, k), own(liveParts.layout, k));
    const v = side === 'file' ? rawLayout[k] : liveLayout[k];
    if (v !== undefined && v !== null) layout[k] = v;
  }
  if (Object.keys(layout).length > 0 || isObj(raw['layout']) || isObj(live['layout'])) draft['layout'] = layout;

  // Both split into parts above: their widgets are told apart by id.
  const rawWidgets = widgetsById(raw) ?? new Map<string, Obj>();
  const liveWidgets = widgetsById(live) ?? new Map<string, Obj>();
  const chosen = new Map<string, { side: Side; w: Obj }>();
  for (const id of union(base.widgets, fileParts.widgets, liveParts.widgets)) {
    const side = pick(`widget ${id}`, own(base.widgets, id), own(fileParts.widgets, id), own(liveParts.widgets, id));
    const w = (side === 'file' ? rawWidgets : liveWidgets).get(id);
    if (w !== undefined) chosen.set(id, { side, w });
  }
  const liveOrderMoved = liveParts.order !== base.order && fileParts.order === base.order;
  draft['widgets'] = ordered(
    chosen,
    liveOrderMoved ? [...liveWidgets.keys()] : [...rawWidgets.keys()],
    rawWidgets,
    liveWidgets,
  );
  if (liveOrderMoved && sameSet(base, liveParts)) kept.push('order');
  return { draft, kept, conflicts };
}

/** A part's hash, own members only: a part named `constructor` is not Object's (widget-identity.ts). */
function own(parts: { [k: string]: string }, k: string): string | undefined {
  return Object.hasOwn(parts, k) ? parts[k] : undefined;
}

function union(...maps: { [k: string]: string }[]): string[] {
  return [...new Set(maps.flatMap((m) => Object.keys(m)))].sort();
}

function sameSet(a: DraftParts, b: DraftParts): boolean {
  const x = Object.keys(a.widgets).sort();
  const y = Object.keys(b.widgets).sort();
  return x.length === y.length && x.every((k, i) => k === y[i]);
}

/**
 * The chosen widgets in the winning side's order; a widget only the other
 * side holds goes after the widget it follows there (first if none does).
 */
function ordered(
  chosen: Map<string, { side: Side; w: Obj }>,
  order: string[],
  file: Map<string, Obj>,
  live: Map<string, Obj>,
): Obj[] {
  const ids = order.filter((id) => chosen.has(id));
  for (const source of [[...file.keys()], [...live.keys()]]) {
    source.forEach((id, i) => {
      if (!chosen.has(id) || ids.includes(id)) return;
      const before = source
        .slice(0, i)
        .reverse()
        .find((p) => ids.includes(p));
      ids.splice(before === undefined ? 0 : ids.indexOf(before) + 1, 0, id);
    });
  }
  return ids.map((id) => chosen.get(id)!.w);
}
