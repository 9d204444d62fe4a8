// The ownership record: one reserved top-level `meta` key (`wsc`) on every
// resource apply writes, holding the bundle's name and a hash per managed
// field of the value wsc left there. It tells prune which resources are this
// bundle's, and plan which managed fields someone changed outside wsc since.
import { createHash } from 'node:crypto';
import { canonicalJson, parseJsonString, withoutNullMembers } from './canonical.js';
import type { JsonValue, RecordSpec } from './model.js';
import { isObj, type Obj } from './plan/compare.js';

export const RECORD_KEY = 'wsc';

export interface OwnershipRecord {
  bundle: string;
  /** Hash of `fields` (canonical): the record as a whole. */
  hash: string;
  /** Managed field path (`title`, `meta.chart`) → hash of its value. */
  fields: { [path: string]: string };
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
  else if (path === 'meta.dashboardDraft') v = draftForHash(value);
  return sha(canonicalJson(withoutNullMembers(v)));
}

/** The value at a managed field path of a resource or request body (`meta.<key>` is one level down). */
export function valueAtPath(obj: unknown, path: string): unknown {
  if (!path.startsWith('meta.')) return isObj(obj) ? obj[path] : undefined;
  const meta = isObj(obj) ? obj['meta'] : undefined;
  return isObj(meta) ? meta[path.slice(5)] : undefined;
}

/** The record a request writes: its pending fields hashed from the body it sends, references resolved. */
export function recordFor(spec: RecordSpec, body: unknown): OwnershipRecord {
  const fields: { [path: string]: string } = {};
  for (const path of Object.keys(spec.fields).sort()) {
    const h = spec.fields[path];
    fields[path] = h ?? fieldHash(path, valueAtPath(body, path));
  }
  return { bundle: spec.bundle, hash: sha(canonicalJson(fields)), fields };
}

/** The body with the record on top of whatever `meta` it sends. */
export function withRecord(body: Record<string, unknown>, spec: RecordSpec): Record<string, unknown> {
  const record = recordFor(spec, body);
  const meta = body['meta'];
  return { ...body, meta: { ...(isObj(meta) ? meta : {}), [RECORD_KEY]: record as unknown as JsonValue } };
}

/** The record a live resource carries, when it is well-formed. */
export function liveRecord(obj: unknown): OwnershipRecord | undefined {
  const r = valueAtPath(obj, `meta.${RECORD_KEY}`);
  if (!isObj(r)) return undefined;
  const { bundle, hash, fields } = r;
  if (typeof bundle !== 'string' || typeof hash !== 'string' || !isObj(fields)) return undefined;
  const out: { [path: string]: string } = {};
  for (const [k, v] of Object.entries(fields)) if (typeof v === 'string') out[k] = v;
  return { bundle, hash, fields: out };
}

/** The managed fields whose live value differs from what the record says wsc left there. */
export function editedFields(record: OwnershipRecord, live: unknown, paths: readonly string[]): string[] {
  const out: string[] = [];
  for (const path of paths) {
    const h = record.fields[path];
    if (h !== undefined && fieldHash(path, valueAtPath(live, path)) !== h) out.push(path);
  }
  return out;
}

/** Whether a live record already says exactly these field hashes for this bundle. */
export function recordIsCurrent(
  record: OwnershipRecord | undefined,
  bundle: string,
  fields: { [path: string]: string },
): boolean {
  if (record === undefined || record.bundle !== bundle) return false;
  const a = Object.keys(record.fields);
  const b = Object.keys(fields);
  return a.length === b.length && b.every((k) => record.fields[k] === fields[k]);
}
