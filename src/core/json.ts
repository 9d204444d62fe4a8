// JSON values as the core handles them: the bottom of src/core, imported by
// every part of it and importing nothing.

export type JsonValue = null | boolean | number | string | JsonValue[] | { [k: string]: JsonValue };

export type Obj = { [k: string]: JsonValue };

/** A JSON object (not null, not an array). */
export function isObj(v: unknown): v is Obj {
  return v !== null && typeof v === 'object' && !Array.isArray(v);
}
