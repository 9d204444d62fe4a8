// The canonical form of JSON values: object keys sorted, no whitespace. The
// planner compares and hashes only through this file, so key order and
// formatting can never show up as a change (DESIGN §4: no phantom diffs).
import { createHash } from 'node:crypto';
import type { JsonValue } from './model.js';

/** Sets an own member, even one named `__proto__` (plain assignment would set the prototype). */
export function setMember(o: { [k: string]: JsonValue }, k: string, v: JsonValue): void {
  Object.defineProperty(o, k, { value: v, enumerable: true, writable: true, configurable: true });
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

/** JSON with sorted keys and no whitespace. */
export function canonicalJson(v: unknown): string {
  return JSON.stringify(canonicalize(v));
}

export function canonicalEqual(a: unknown, b: unknown): boolean {
  return canonicalJson(a) === canonicalJson(b);
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
 * equal absent ones.
 */
export function sameContent(desired: unknown, live: unknown): boolean {
  return canonicalJson(withoutNullMembers(desired)) === canonicalJson(withoutNullMembers(live));
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
  const a = parseJsonString(desired);
  const b = parseJsonString(live);
  if (a !== undefined && b !== undefined) return sameContent(a, b);
  return (desired ?? null) === (live ?? null);
}
