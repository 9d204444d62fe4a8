// The ownership record: one reserved top-level `meta` key (`wsc`) on every
// resource apply writes. It tells prune which resources are this bundle's,
// and plan which managed parts someone changed outside wsc since the last
// apply (a three-way decision, as kubectl's last-applied configuration).
//
// Format (a JSON object in `meta.wsc`):
//   bundle  the bundle's name (wsc.yaml `bundle:`)
//   fields  managed field path (`title`, `folderId`, `meta.chart`,
//           `meta.dashboardDraft`) → hash of the value the bundle gave it at
//           the last apply (references resolved)
//   draft   (optional) the bundle's `meta.dashboardDraft` in parts
//           (ownership-draft.ts): `widgets` id → hash, `order`, `layout`
//           entry → hash, `members` (title, theme…) → hash. Absent when the
//           draft is not managed or its widgets have no ids of their own.
//   name    (optional) the resource's name (a report's title, else its name)
//   file    (optional) the bundle file it came from, relative to the bundle
//   of      the resource it was written for: `{ deployment, publicId }` (a
//           report) or `{ deployment, slug }` (a workbook). A UI copy of a
//           resource copies its `meta`, record included: a record whose `of`
//           is not the resource carrying it is not this bundle's there
//           (plan/record-claims.ts). Absent in records of earlier formats.
//   v       3 for this format (with `of`); 2 for the one before (no `of`);
//           absent in the first one (bundle, hash, fields)
//   hash    integrity of the record: 16 hex of sha256 over the canonical
//           JSON of the record without `hash` (first format: of `fields`)
// `name` and `file` describe; they are refreshed with any write and never
// cause one. A record whose `hash` does not match its content was not
// written by wsc: it is read as a malformed record. A record of an earlier
// format stays as it is until the next write of its resource rebinds it.
import { createHash } from 'node:crypto';
import { canonicalJson, parseJsonString, withoutNullMembers } from './canonical.js';
import { isObj, type JsonValue, type Obj } from './json.js';
import { normalizeSlug } from '../domain/wire.js';
import type { RecordOf, RecordSpec } from './plan-model.js';
import {
  draftPartChanges,
  draftParts,
  readDraftParts,
  widgetIdOrder,
  type DraftPartChanges,
  type DraftParts,
} from './ownership-draft.js';

export type { DraftParts } from './ownership-draft.js';
export { draftPartChanges, draftParts, noPartChanges } from './ownership-draft.js';

export const RECORD_KEY = 'wsc';
export const DRAFT_PATH = 'meta.dashboardDraft';

export interface OwnershipRecord {
  bundle: string;
  /** Integrity of the record (see the format above). */
  hash: string;
  /** Managed field path (`title`, `meta.chart`) → hash of its value. */
  fields: { [path: string]: string };
  /** The managed dashboard draft in parts, when its widgets have ids. */
  draft?: DraftParts;
  name?: string;
  file?: string;
  /** The resource the record was written for; absent in records of earlier formats. */
  of?: RecordOf;
}

function sha(text: string): string {
  return createHash('sha256').update(text).digest('hex').slice(0, 16);
}

/** The widgets of a draft without their ids: the server assigns ids to widgets sent without one. */
function draftForHash(v: unknown): unknown {
  const widgets = isObj(v) ? v['widgets'] : undefined;
  if (!Array.isArray(widgets)) return v;
  return { ...(v as Obj), widgets: widgets.map((w) => (isObj(w) ? { ...w, id: undefined } : w)) };
}

/**
 * Hash of one managed field's value, equal wherever the planner sees no
 * difference: canonical JSON, null members as absent, `jsonQuery` as parsed
 * JSON, a dashboard draft without widget ids.
 */
export function fieldHash(path: string, value: unknown): string {
  let v = value;
  if (path === 'jsonQuery') v = parseJsonString(value) ?? value;
  else if (path === DRAFT_PATH) v = draftForHash(value);
  return sha(canonicalJson(withoutNullMembers(v)));
}

/**
 * A managed field's value as the three-way decision compares it with the
 * record (`recordedHash`): its hash, and for a draft recorded in parts its
 * widget ids in order too, which the hash leaves out: a renamed id is a
 * change like any other (widget-identity.ts).
 */
export function decisionHash(record: OwnershipRecord, path: string, value: unknown): string {
  const h = fieldHash(path, value);
  return path === DRAFT_PATH && record.draft !== undefined ? `${h}:${widgetIdOrder(value)}` : h;
}

/** What the record says of a managed field, in decisionHash's terms; undefined: the record does not manage it. */
export function recordedHash(record: OwnershipRecord, path: string): string | undefined {
  const h = record.fields[path];
  if (h === undefined) return undefined;
  return path === DRAFT_PATH && record.draft !== undefined ? `${h}:${record.draft.order}` : h;
}

/** The value at a managed field path of a resource or request body (`meta.<key>` is one level down). */
export function valueAtPath(obj: unknown, path: string): unknown {
  if (!path.startsWith('meta.')) return isObj(obj) ? obj[path] : undefined;
  const meta = isObj(obj) ? obj['meta'] : undefined;
  return isObj(meta) ? meta[path.slice(5)] : undefined;
}

/** The integrity hash of a record's content (everything but `hash`). */
function integrity(r: Omit<OwnershipRecord, 'hash'> & { v?: number }): string {
  if (r.v === undefined) return sha(canonicalJson(r.fields));
  return sha(canonicalJson({ ...r, hash: undefined }));
}

/** A record's content, the one way it is put together (written or read): its optional parts only when present. */
function recordContent(c: Omit<OwnershipRecord, 'hash'>): Omit<OwnershipRecord, 'hash'> {
  const out: Omit<OwnershipRecord, 'hash'> = { bundle: c.bundle, fields: c.fields };
  if (c.draft !== undefined) out.draft = c.draft;
  if (c.name !== undefined) out.name = c.name;
  if (c.file !== undefined) out.file = c.file;
  if (c.of !== undefined) out.of = { ...c.of };
  return out;
}

/** A record from its parts, hashed: the current format when it says what it is `of`, else the one before. */
export function makeRecord(content: Omit<OwnershipRecord, 'hash'>): OwnershipRecord & { v: 2 | 3 } {
  const v: 2 | 3 = content.of !== undefined ? 3 : 2;
  const { bundle, fields, ...rest } = recordContent(content);
  const body = { bundle, fields, v, ...rest };
  return { ...body, hash: integrity(body) };
}

function readOf(of: unknown): RecordOf | undefined {
  if (!isObj(of) || !Number.isSafeInteger(of['deployment'])) return undefined;
  const keys = Object.keys(of).sort().join(',');
  const deployment = of['deployment'] as number;
  if (keys === 'deployment,publicId' && typeof of['publicId'] === 'string') {
    return { deployment, publicId: of['publicId'] };
  }
  if (keys === 'deployment,slug' && typeof of['slug'] === 'string') return { deployment, slug: of['slug'] };
  return undefined;
}

/** The address a record was written for, as the plan names it (`report/<publicId>`, `workbook/<slug>`). */
export function addressOf(of: RecordOf): string {
  return 'publicId' in of ? `report/${of.publicId}` : `workbook/${of.slug}`;
}

/**
 * Whether a record was written for the resource that carries it: `here`,
 * `unbound` (a record of an earlier format, which names no resource), or
 * `elsewhere` (another publicId, slug or deployment: a copy).
 */
export function bindingOf(
  record: OwnershipRecord,
  carrier: { kind: 'report' | 'workbook'; identity: unknown; deployment: number },
): 'here' | 'unbound' | 'elsewhere' {
  const of = record.of;
  if (of === undefined) return 'unbound';
  if (of.deployment !== carrier.deployment || typeof carrier.identity !== 'string') return 'elsewhere';
  if (carrier.kind === 'report') return 'publicId' in of && of.publicId === carrier.identity ? 'here' : 'elsewhere';
  return 'slug' in of && normalizeSlug(of.slug) === normalizeSlug(carrier.identity) ? 'here' : 'elsewhere';
}

/**
 * The record a request writes. Per path: the value the spec carries (hashed
 * once the caller resolved its references), else the spec's hash, else (null)
 * the value this body sends.
 */
export function recordFor(spec: RecordSpec, body: unknown): OwnershipRecord {
  const fields: { [path: string]: string } = {};
  const paths = new Set([...Object.keys(spec.fields), ...Object.keys(spec.values ?? {})]);
  for (const path of [...paths].sort()) {
    const values = spec.values ?? {};
    if (Object.hasOwn(values, path)) fields[path] = fieldHash(path, values[path]);
    else fields[path] = spec.fields[path] ?? fieldHash(path, valueAtPath(body, path));
  }
  let draft = spec.draft;
  if (spec.values !== undefined && Object.hasOwn(spec.values, DRAFT_PATH)) {
    draft = draftParts(spec.values[DRAFT_PATH]);
  }
  return makeRecord({
    bundle: spec.bundle,
    fields,
    ...(draft !== undefined ? { draft } : {}),
    ...(spec.name !== undefined ? { name: spec.name } : {}),
    ...(spec.file !== undefined ? { file: spec.file } : {}),
    ...(spec.of !== undefined ? { of: spec.of } : {}),
  });
}

/** The body with the record on top of whatever `meta` it sends. */
export function withRecord(body: Record<string, unknown>, spec: RecordSpec): Record<string, unknown> {
  const record = recordFor(spec, body);
  const meta = body['meta'];
  return { ...body, meta: { ...(isObj(meta) ? meta : {}), [RECORD_KEY]: record as unknown as JsonValue } };
}

/** What a live resource's `meta.wsc` says. */
export type RecordState =
  { state: 'record'; record: OwnershipRecord } | { state: 'missing' } | { state: 'malformed'; why: string };

/** The bundle a live resource's record names, whether the record is well-formed or only claims it. */
export function claimedBundle(obj: unknown): string | undefined {
  const meta = isObj(obj) ? obj['meta'] : undefined;
  const r = isObj(meta) ? meta[RECORD_KEY] : undefined;
  const bundle = isObj(r) ? r['bundle'] : undefined;
  return typeof bundle === 'string' ? bundle : undefined;
}

/** Reads the record a live resource carries: well-formed and matching its own hash, or why not. */
export function readRecord(obj: unknown): RecordState {
  const meta = isObj(obj) ? obj['meta'] : undefined;
  if (!isObj(meta) || !Object.hasOwn(meta, RECORD_KEY)) return { state: 'missing' };
  const r = meta[RECORD_KEY];
  if (!isObj(r)) return { state: 'malformed', why: 'it is not an object' };
  const { bundle, hash, fields, draft, name, file, v, of } = r;
  if (typeof bundle !== 'string' || bundle === '') return { state: 'malformed', why: 'it names no bundle' };
  if (typeof hash !== 'string' || !isObj(fields) || !Object.values(fields).every((x) => typeof x === 'string')) {
    return { state: 'malformed', why: 'its hashes are missing or not strings' };
  }
  if (v !== undefined && v !== 2 && v !== 3) {
    return { state: 'malformed', why: `its format (v: ${canonicalJson(v)}) is unknown` };
  }
  const bound = v === 3 ? readOf(of) : undefined;
  if ((v === 3) !== (bound !== undefined) || (v !== 3 && of !== undefined)) {
    return { state: 'malformed', why: 'the resource it names is malformed' };
  }
  const parts = draft === undefined ? undefined : readDraftParts(draft);
  if (draft !== undefined && parts === undefined) return { state: 'malformed', why: 'its draft parts are malformed' };
  if ((name !== undefined && typeof name !== 'string') || (file !== undefined && typeof file !== 'string')) {
    return { state: 'malformed', why: 'its name or file is not a string' };
  }
  const content = recordContent({
    bundle,
    fields: { ...(fields as { [k: string]: string }) },
    ...(parts !== undefined ? { draft: parts } : {}),
    ...(typeof name === 'string' ? { name } : {}),
    ...(typeof file === 'string' ? { file } : {}),
    ...(bound !== undefined ? { of: bound } : {}),
  });
  const record: OwnershipRecord = { ...content, hash };
  const expected = integrity(v !== undefined ? { ...record, v } : { bundle, fields: record.fields });
  if (expected !== hash) return { state: 'malformed', why: 'its hash does not match its content' };
  return { state: 'record', record };
}

/** The record a live resource carries, when it is well-formed. */
export function liveRecord(obj: unknown): OwnershipRecord | undefined {
  const r = readRecord(obj);
  return r.state === 'record' ? r.record : undefined;
}

/** The managed fields whose live value differs from what the record says wsc left there. */
function editedFields(record: OwnershipRecord, live: unknown, paths: readonly string[]): string[] {
  const out: string[] = [];
  for (const path of paths) {
    const h = recordedHash(record, path);
    if (h !== undefined && decisionHash(record, path, valueAtPath(live, path)) !== h) out.push(path);
  }
  return out;
}

/** What changed outside wsc since the record was written: fields, and for a draft recorded in parts, its parts. */
export interface OutsideChanges {
  /** Recorded field paths whose live value differs (the draft among them when any part of it does). */
  fields: string[];
  /** The draft's changed parts; absent when the record keeps no parts (a first-format record). */
  draft?: DraftPartChanges;
}

/**
 * What changed on a live resource since wsc last applied it, per the record:
 * for `export --into` (take only these into the files) and the planner's
 * three-way decision. A live draft whose widgets lost their ids counts as
 * changed in every part.
 */
export function changedOutside(record: OwnershipRecord, live: unknown): OutsideChanges {
  const fields = editedFields(record, live, Object.keys(record.fields).sort());
  if (record.draft === undefined) return { fields };
  const parts = draftParts(valueAtPath(live, DRAFT_PATH) as JsonValue | undefined);
  if (parts === undefined) {
    const all = (o: { [k: string]: string }) => Object.keys(o).sort();
    const r = record.draft;
    return { fields, draft: { widgets: all(r.widgets), layout: all(r.layout), members: all(r.members), order: true } };
  }
  return { fields, draft: draftPartChanges(record.draft, parts) };
}

/** Whether a live record already says exactly these field hashes (and draft parts) for this bundle. */
export function recordIsCurrent(
  record: OwnershipRecord | undefined,
  bundle: string,
  fields: { [path: string]: string },
  draft?: DraftParts,
): boolean {
  if (record === undefined || record.bundle !== bundle) return false;
  const a = Object.keys(record.fields);
  const b = Object.keys(fields);
  if (a.length !== b.length || !b.every((k) => record.fields[k] === fields[k])) return false;
  return canonicalJson(record.draft) === canonicalJson(draft);
}
