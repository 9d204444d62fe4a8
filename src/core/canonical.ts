// The canonical form of JSON values: object keys sorted, no whitespace. The
// planner compares and hashes only through this file, so key order and
// formatting can never show up as a change (no phantom diffs).
import { createHash } from 'node:crypto';
import type { JsonValue } from './json.js';

/** Sets an own member, even one named `__proto__` (plain assignment would set the prototype). */
export function setMember(o: { [k: string]: JsonValue }, k: string, v: JsonValue): void {
  // defineProperty is several times slower than assignment, which creates the
  // same own, enumerable, writable member for every other key.
  if (k === '__proto__')
    Object.defineProperty(o, k, { value: v, enumerable: true, writable: true, configurable: true });
  else o[k] = v;
}

/** A deep copy with object keys sorted and `undefined` members dropped. */
export function canonicalize(v: unknown): JsonValue {
  if (v === null || v === undefined) return null;
  if (Array.isArray(v)) return v.map((x) => canonicalize(x));
  if (typeof v === 'object') {
    const out: { [k: string]: JsonValue } = {};
    for (const k of Object.keys(v).sort()) {
      const x = (v as Record<string, unknown>)[k];
      if (x !== undefined) setMember(out, k, canonicalize(x));
    }
    return out;
  }
  if (typeof v === 'number' || typeof v === 'string' || typeof v === 'boolean') return v;
  // bigint, function, symbol: not JSON; a bug upstream, shown rather than hidden.
  return String(v);
}

/**
 * JSON with sorted keys and no whitespace: `JSON.stringify(canonicalize(v))`,
 * written directly rather than through the sorted copy (the planner hashes
 * every live object; test/core/canonical.test.ts checks they agree).
 */
export function canonicalJson(v: unknown): string {
  if (v === null || v === undefined) return 'null';
  switch (typeof v) {
    case 'string':
    case 'number': // NaN and ±Infinity give null, as in JSON.stringify
      return JSON.stringify(v);
    case 'boolean':
      return v ? 'true' : 'false';
    case 'object': {
      if (Array.isArray(v)) {
        let s = '[';
        for (let i = 0; i < v.length; i++) s += i === 0 ? canonicalJson(v[i]) : `,${canonicalJson(v[i])}`;
        return `${s}]`;
      }
      let s = '';
      for (const k of Object.keys(v).sort()) {
        const x = (v as Record<string, unknown>)[k];
        if (x === undefined) continue;
        s += `${s === '' ? '' : ','}${JSON.stringify(k)}:${canonicalJson(x)}`;
      }
      return `{${s}}`;
    }
    default:
      return JSON.stringify(String(v));
  }
}

/** sha256 (hex) of the canonical JSON: the content hash of saved-plan fingerprints. */
export function contentHash(v: unknown): string {
  return createHash('sha256').update(canonicalJson(v)).digest('hex');
}

/**
 * Object members that are null are dropped, at every depth: a server that
 * answers `description: null` for a member never sent holds the same content
 * as the file that leaves it out. Array elements are kept as they are.
 */
export function withoutNullMembers(v: unknown): JsonValue {
  if (v === null || v === undefined) return null;
  if (Array.isArray(v)) return v.map((x) => withoutNullMembers(x));
  if (typeof v === 'object') {
    const out: { [k: string]: JsonValue } = {};
    for (const [k, x] of Object.entries(v as Record<string, unknown>)) {
      if (x !== null && x !== undefined) setMember(out, k, withoutNullMembers(x));
    }
    return out;
  }
  return canonicalize(v);
}

/**
 * Whether a desired value and a live value hold the same content: canonical
 * equality, where an absent live field equals null and null object members
 * equal absent ones. That is `canonicalJson(withoutNullMembers(desired)) ===
 * canonicalJson(withoutNullMembers(live))`, compared in place without the
 * copies (test/core/canonical.test.ts checks they agree).
 */
export function sameContent(desired: unknown, live: unknown): boolean {
  const aObj = desired !== null && typeof desired === 'object';
  const bObj = live !== null && typeof live === 'object';
  if (!aObj || !bObj) return !aObj && !bObj && scalarOf(desired) === scalarOf(live);
  const aArr = Array.isArray(desired);
  if (aArr !== Array.isArray(live)) return false;
  if (aArr) {
    const a = desired as unknown[];
    const b = live as unknown[];
    if (a.length !== b.length) return false;
    for (let i = 0; i < a.length; i++) if (!sameContent(a[i], b[i])) return false;
    return true;
  }
  const a = desired as Record<string, unknown>;
  const b = live as Record<string, unknown>;
  let members = 0;
  // for-in with hasOwn is Object.keys without an array per object compared.
  for (const k in a) {
    if (!Object.hasOwn(a, k)) continue;
    const x = a[k];
    if (x === null || x === undefined) continue;
    members++;
    if (!isEnumerable.call(b, k)) return false;
    const y = b[k];
    if (y === null || y === undefined || !sameContent(x, y)) return false;
  }
  for (const k in b) {
    if (!Object.hasOwn(b, k)) continue;
    const y = b[k];
    if (y !== null && y !== undefined) members--;
  }
  return members === 0;
}

// Called with .call(o, k): the method is taken from the prototype once, for every object.
// eslint-disable-next-line @typescript-eslint/unbound-method
const isEnumerable = Object.prototype.propertyIsEnumerable;

/**
 * What a non-object value is in canonical JSON: null for null, undefined and
 * non-finite numbers; String(v) for what JSON lacks.
 */
function scalarOf(v: unknown): string | number | boolean | null {
  if (v === null || v === undefined) return null;
  if (typeof v === 'number') return Number.isFinite(v) ? v : null;
  if (typeof v === 'string' || typeof v === 'boolean') return v;
  return String(v);
}

/** A JSON string parsed, or undefined when it is not valid JSON. */
export function parseJsonString(s: unknown): JsonValue | undefined {
  if (typeof s !== 'string') return undefined;
  try {
    return JSON.parse(s) as JsonValue;
  } catch {
    return undefined;
  }
}

/** `jsonQuery` equality: as parsed JSON when both sides parse, else as strings (absent ≡ null). */
export function sameJsonString(desired: unknown, live: unknown): boolean {
  // The same text parses the same (or fails the same): no need to parse it.
  if (typeof desired === 'string' && desired === live) return true;
  const a = parseJsonString(desired);
  const b = parseJsonString(live);
  if (a !== undefined && b !== undefined) return sameContent(a, b);
  return (desired ?? null) === (live ?? null);
}
