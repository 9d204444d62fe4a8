// Compiled parsers for the zod schemas wsc applies in bulk: every live item of
// a list (wire.ts) and every bundle document (domain/bundle-schema). zod builds a new
// object and an issue list for each value, which at 10k reports was a quarter
// of a plan's CPU and much of its garbage. What this file compiles from a
// schema's definition does the common case without that: it returns the
// input itself when zod's output would equal it, member order included, and
// builds a copy only where zod's would differ (members reordered or dropped).
// When it cannot tell, it says NO and the caller runs zod, so every error and
// its message still comes from zod alone.
//
// The contract (test/zod-fast.test.ts checks it against zod on random schemas
// and values):
// - `compileCheck(s)(v)`: true ⇒ s.safeParse(v).success.
// - `compileParse(s)(v)`: not NO ⇒ success, and the result is zod's output:
//   the same JSON, members in the same order.
// A node this file does not compile (refinements, transforms, string formats
// other than regex, ...) is parsed by zod itself, for that node only.
import type { z } from 'zod';

/** "Ask zod": the value is invalid, or this file cannot vouch for it. */
export const NO: unique symbol = Symbol('zod-fast: ask zod');
type Out = unknown;
type Run = (v: unknown) => Out;
type Mode = 'valid' | 'parse';

/** JavaScript types a node can accept (for unions: which options surely fail). */
type JsType = 'string' | 'number' | 'boolean' | 'null' | 'undefined' | 'array' | 'object' | 'other';
const ALL: ReadonlySet<JsType> = new Set<JsType>(['string', 'number', 'boolean', 'null', 'undefined', 'array', 'object', 'other']);

interface Node {
  run: Run;
  types: ReadonlySet<JsType>;
}

/** What this file reads of zod's definitions (zod 4 `schema._zod`). */
interface Def {
  type: string;
  checks?: Array<{ _zod: { def: CheckDef } }>;
  check?: string;
  format?: string;
  shape?: Record<string, z.ZodType>;
  catchall?: z.ZodType;
  element?: z.ZodType;
  keyType?: z.ZodType;
  valueType?: z.ZodType;
  options?: z.ZodType[];
  innerType?: z.ZodType;
  /** z.coerce.*: accepts any input type. */
  coerce?: boolean;
}
interface CheckDef {
  check: string;
  /** `.refine(fn)`: a check of its own (type 'custom'); superRefine has none. */
  type?: string;
  fn?: (v: unknown) => unknown;
  maximum?: number;
  minimum?: number;
  length?: number;
  format?: string;
  pattern?: RegExp;
  value?: number | bigint;
  inclusive?: boolean;
}
interface Internals {
  def: Def;
  values?: Set<unknown>;
  optin?: string;
  optout?: string;
}
const internals = (s: z.ZodType): Internals => (s as unknown as { _zod: Internals })._zod;

function typeOf(v: unknown): JsType {
  if (v === null) return 'null';
  if (Array.isArray(v)) return 'array';
  const t = typeof v;
  return t === 'string' || t === 'number' || t === 'boolean' || t === 'undefined' || t === 'object' ? t : 'other';
}

const cache: Record<Mode, WeakMap<z.ZodType, Node>> = { valid: new WeakMap(), parse: new WeakMap() };

/** true ⇒ zod accepts v (memoised per schema). */
export function compileCheck(schema: z.ZodType): (v: unknown) => boolean {
  const n = node(schema, 'valid');
  return (v) => n.run(v) !== NO;
}

/** zod's output for v, or NO: then run zod (memoised per schema). */
export function compileParse(schema: z.ZodType): Run {
  const n = node(schema, 'parse');
  return (v) => n.run(v);
}

const keeps = new WeakMap<z.ZodType, boolean>();

/**
 * Whether zod's output for any value the schema accepts is that value itself,
 * up to the order of object members: no member dropped (no strip object), no
 * value filled in or changed (defaults, transforms, pipes, coercion, catch).
 * Then `compileCheck` is enough, and the input can be kept as it is, without
 * zod's copy (memoised per schema; a schema that reaches itself counts as
 * keeping its input while it is being decided).
 */
export function keepsInput(schema: z.ZodType): boolean {
  const hit = keeps.get(schema);
  if (hit !== undefined) return hit;
  keeps.set(schema, true);
  const r = decideKeeps(schema);
  keeps.set(schema, r);
  return r;
}

function decideKeeps(schema: z.ZodType): boolean {
  const zi = internals(schema);
  const def = zi.def;
  if (def.coerce) return false;
  switch (def.type) {
    case 'string':
    case 'number':
    case 'boolean':
    case 'null':
    case 'unknown':
    case 'any':
    case 'never':
    case 'literal':
    case 'enum':
      return true;
    case 'optional':
      return internals(def.innerType!).optin !== 'defaulted' && keepsInput(def.innerType!);
    case 'nullable':
      return keepsInput(def.innerType!);
    case 'array':
      return keepsInput(def.element!);
    case 'record':
      return keepsInput(def.keyType!) && keepsInput(def.valueType!);
    case 'object': {
      // Strip (no catchall) drops unknown members; strict (never) refuses them; loose keeps them.
      if (def.catchall === undefined) return false;
      if (internals(def.catchall).def.type !== 'never' && !keepsInput(def.catchall)) return false;
      return Object.values(def.shape!).every((m) => keepsInput(m));
    }
    case 'union': {
      // zod's output is that of the first option that accepts the value. Only
      // when no two options accept a value of the same JavaScript type is
      // that option surely the one compileCheck found: an earlier one could
      // otherwise accept it too and answer with another value (a record
      // before `unknown` makes an own `__proto__` member the prototype).
      if (!def.options!.every((o) => keepsInput(o))) return false;
      const seen = new Set<JsType>();
      for (const o of def.options!) {
        for (const t of node(o, 'valid').types) {
          if (seen.has(t)) return false;
          seen.add(t);
        }
      }
      return true;
    }
    default:
      return false;
  }
}

function node(schema: z.ZodType, mode: Mode): Node {
  const hit = cache[mode].get(schema);
  if (hit) return hit;
  // A placeholder first: a schema may reach itself (z.lazy) or be shared.
  const slot: Node = { run: (v) => built.run(v), types: ALL };
  cache[mode].set(schema, slot);
  const built = compile(schema, mode);
  slot.run = built.run;
  slot.types = built.types;
  return slot;
}

/**
 * zod itself for one node: what is not compiled is still parsed exactly.
 * Refinements never widen what a node's type accepts: a refined string still
 * refuses a mapping, so a union may skip it for one (without zod's costly
 * failure) while the base type says so.
 */
const BASE_TYPES: Record<string, ReadonlySet<JsType>> = {
  string: new Set(['string']),
  number: new Set(['number']),
  boolean: new Set(['boolean']),
  array: new Set(['array']),
  object: new Set(['object']),
  record: new Set(['object']),
};
function viaZod(schema: z.ZodType): Node {
  return {
    types: internals(schema).def.coerce ? ALL : (BASE_TYPES[internals(schema).def.type] ?? ALL),
    run: (v) => {
      const r = schema.safeParse(v);
      return r.success ? r.data : NO;
    },
  };
}

const ok = (pred: (v: unknown) => boolean): Run => (v) => (pred(v) ? v : NO);

/** One predicate for a node's checks, without a closure per call (these run for every value read). */
function allOf<T>(preds: Array<(v: T) => boolean>): (v: T) => boolean {
  if (preds.length === 0) return () => true;
  if (preds.length === 1) return preds[0]!;
  return (v) => {
    for (let i = 0; i < preds.length; i++) if (!preds[i]!(v)) return false;
    return true;
  };
}

function compile(schema: z.ZodType, mode: Mode): Node {
  const zi = internals(schema);
  const def = zi.def;
  const checks = (def.checks ?? []).map((c) => c._zod.def);
  // Coercion, or a check on the schema itself (z.email(), z.int32(), ...): only z.int() is compiled.
  if (def.coerce) return viaZod(schema);
  if (def.check !== undefined && !(def.type === 'number' && def.check === 'number_format' && def.format === 'safeint')) return viaZod(schema);
  switch (def.type) {
    case 'string': {
      const preds = checks.map(stringCheck);
      if (preds.some((p) => p === undefined)) return viaZod(schema);
      const all = allOf(preds as Array<(s: string) => boolean>);
      return { types: new Set(['string']), run: ok((v) => typeof v === 'string' && all(v)) };
    }
    case 'number': {
      const base: (n: number) => boolean = def.check === 'number_format' ? Number.isSafeInteger : Number.isFinite;
      const preds = checks.map(numberCheck);
      if (preds.some((p) => p === undefined)) return viaZod(schema);
      const all = allOf(preds as Array<(n: number) => boolean>);
      return { types: new Set(['number']), run: ok((v) => typeof v === 'number' && base(v) && all(v)) };
    }
    case 'boolean':
      if (checks.length > 0) return viaZod(schema);
      return { types: new Set(['boolean']), run: ok((v) => typeof v === 'boolean') };
    case 'null':
      return { types: new Set(['null']), run: ok((v) => v === null) };
    case 'unknown':
    case 'any':
      if (checks.length > 0) return viaZod(schema);
      return { types: ALL, run: (v) => v };
    case 'never':
      return { types: new Set(), run: () => NO };
    case 'literal':
    case 'enum': {
      const values = zi.values;
      if (!values || checks.length > 0) return viaZod(schema);
      return { types: new Set([...values].map(typeOf)), run: ok((v) => values.has(v)) };
    }
    case 'optional': {
      // An optional default: zod puts the default in for undefined.
      if (checks.length > 0 || internals(def.innerType!).optin === 'defaulted') return viaZod(schema);
      const inner = node(def.innerType!, mode);
      return { types: new Set([...inner.types, 'undefined']), run: (v) => (v === undefined ? v : inner.run(v)) };
    }
    case 'nullable': {
      if (checks.length > 0) return viaZod(schema);
      const inner = node(def.innerType!, mode);
      return { types: new Set([...inner.types, 'null']), run: (v) => (v === null ? v : inner.run(v)) };
    }
    case 'default': {
      // Missing, zod fills the default in: valid, and zod makes the value.
      if (checks.length > 0) return viaZod(schema);
      const inner = node(def.innerType!, mode);
      const filled = viaZod(schema);
      return { types: new Set([...inner.types, 'undefined']), run: (v) => (v !== undefined ? inner.run(v) : mode === 'valid' ? v : filled.run(v)) };
    }
    case 'array': {
      const preds = checks.map(lengthCheck);
      if (preds.some((p) => p === undefined)) return viaZod(schema);
      const all = allOf(preds as Array<(n: number) => boolean>);
      const el = node(def.element!, mode);
      return {
        types: new Set(['array']),
        run: (v) => {
          if (!Array.isArray(v) || !all(v.length)) return NO;
          let out: unknown[] | undefined;
          for (let i = 0; i < v.length; i++) {
            const x: unknown = v[i];
            const r = el.run(x);
            if (r === NO) return NO;
            if (r !== x) (out ??= v.slice())[i] = r;
          }
          return out ?? v;
        },
      };
    }
    case 'record': {
      const keyDef = internals(def.keyType!).def;
      if (checks.length > 0 || keyDef.type !== 'string' || (keyDef.checks ?? []).length > 0 || keyDef.check !== undefined) return viaZod(schema);
      const value = node(def.valueType!, mode);
      return {
        types: new Set(['object']),
        run: (v) => {
          if (!isPlain(v)) return NO;
          const o = v as Record<string, unknown>;
          let out: Record<string, unknown> | undefined;
          // for-in (own members only): Object.keys' order, without an array per object.
          for (const k in o) {
            if (!Object.hasOwn(o, k)) continue;
            if (k === '__proto__') return NO;
            const x = o[k];
            const r = value.run(x);
            if (r === NO) return NO;
            if (r !== x && out === undefined) {
              // zod builds a new object in the input's key order: copy what came before.
              out = {};
              for (const j in o) {
                if (j === k) break;
                if (Object.hasOwn(o, j)) out[j] = o[j];
              }
            }
            if (out !== undefined) out[k] = r;
          }
          return out ?? v;
        },
      };
    }
    case 'object':
      return checks.length > 0 ? viaZod(schema) : objectNode(def, mode);
    case 'union': {
      if (checks.length > 0) return viaZod(schema);
      const options = def.options!.map((o) => node(o, mode));
      return {
        types: new Set(options.flatMap((o) => [...o.types])),
        run: (v) => {
          const t = typeOf(v);
          for (const o of options) {
            if (!o.types.has(t)) continue; // zod surely rejects this option
            const r = o.run(v);
            if (r !== NO) return r;
            // zod may accept this option, and then returns its output: a
            // later option cannot vouch for the result (valid mode: it can).
            if (mode === 'parse') return NO;
          }
          return NO;
        },
      };
    }
    default:
      return viaZod(schema);
  }
}

const ABSENT = Symbol('absent');

/**
 * zod 4 objects (core/schemas.js, $ZodObject and handlePropertyResult): the
 * output has the shape's members in shape order, then (loose) the unknown
 * members in input order; a missing member is allowed only if its schema is
 * optional-in, and stays missing if it is optional-in and -out.
 */
function objectNode(def: Def, mode: Mode): Node {
  const shape = def.shape!;
  const keys = Object.keys(shape).filter((k) => k !== '__proto__'); // zod skips it too
  const index = new Map(keys.map((k, i) => [k, i]));
  const members = keys.map((k) => node(shape[k]!, mode));
  const mayMiss = keys.map((k) => {
    const m = internals(shape[k]!);
    if (m.optin === undefined) return false;
    // `defaulted` puts a value in (left to zod when parsing).
    return mode === 'valid' || (m.optin === 'optional' && m.optout === 'optional');
  });
  const catchall = def.catchall === undefined ? 'strip' : internals(def.catchall).def.type === 'never' ? 'strict' : node(def.catchall, mode);
  return {
    types: new Set(['object']),
    run: (v) => {
      if (!isPlain(v)) return NO;
      const o = v as Record<string, unknown>;
      let changed = false;
      // The members' outputs, kept only once one differs from its input (parse mode): most values pass through as they are.
      let outs: unknown[] | undefined;
      for (let i = 0; i < keys.length; i++) {
        const k = keys[i]!;
        if (!Object.hasOwn(o, k)) {
          // zod asks `k in o`: an inherited member would count as present.
          if (!mayMiss[i] || k in o) return NO;
          if (outs !== undefined) outs[i] = ABSENT;
          continue;
        }
        const x = o[k];
        // Present but undefined: zod may keep or drop the member; not JSON anyway.
        if (x === undefined) return NO;
        const r = members[i]!.run(x);
        if (r === NO) return NO;
        if (r !== x) {
          changed = true;
          if (mode === 'parse' && outs === undefined) {
            outs = new Array<unknown>(keys.length);
            for (let j = 0; j < i; j++) outs[j] = memberOf(o, keys[j]!);
          }
        }
        if (outs !== undefined) outs[i] = r;
      }
      // Unknown members, and whether the input's order is zod's output order.
      // for-in rather than Object.keys: same order for own members, no array per object.
      let last = -1;
      let extras: Array<[string, unknown]> | undefined;
      for (const k in o) {
        if (!Object.hasOwn(o, k)) continue;
        const at = index.get(k);
        if (at !== undefined) {
          if (at < last || extras !== undefined) changed = true;
          last = at;
          continue;
        }
        if (k === '__proto__' || catchall === 'strict') return NO;
        if (catchall === 'strip') {
          if (mode === 'valid') continue;
          changed = true;
          continue;
        }
        const x = o[k];
        const r = catchall.run(x);
        if (r === NO) return NO;
        if (r !== x) changed = true;
        (extras ??= []).push([k, r]);
      }
      if (!changed || mode === 'valid') return v;
      const out: Record<string, unknown> = {};
      for (let i = 0; i < keys.length; i++) {
        const r = outs !== undefined ? outs[i] : memberOf(o, keys[i]!);
        if (r !== ABSENT) out[keys[i]!] = r;
      }
      if (extras) for (const [k, r] of extras) out[k] = r;
      return out;
    },
  };
}

/** An own member's value, or ABSENT. */
function memberOf(o: Record<string, unknown>, k: string): unknown {
  return Object.hasOwn(o, k) ? o[k] : ABSENT;
}

/** Plain data only (a JSON object): zod copies other objects member by member. */
function isPlain(v: unknown): boolean {
  if (typeof v !== 'object' || v === null || Array.isArray(v)) return false;
  const p = Object.getPrototypeOf(v) as unknown;
  return p === Object.prototype || p === null;
}

function stringCheck(c: CheckDef): ((s: string) => boolean) | undefined {
  switch (c.check) {
    case 'custom': {
      // `.refine(fn)`: zod accepts when fn's result is truthy (and awaits a
      // promise, which only an async parse may do). Vouch only for a plain
      // true; anything else asks zod, which words the issue.
      if (c.type !== 'custom' || typeof c.fn !== 'function') return undefined;
      const fn = c.fn;
      return (s) => fn(s) === true;
    }
    case 'max_length':
      return (s) => s.length <= c.maximum!;
    case 'min_length':
      return (s) => s.length >= c.minimum!;
    case 'length_equals':
      return (s) => s.length === c.length!;
    case 'string_format': {
      if (c.format !== 'regex' || !(c.pattern instanceof RegExp)) return undefined;
      const re = c.pattern;
      return (s) => {
        re.lastIndex = 0;
        return re.test(s);
      };
    }
    default:
      return undefined;
  }
}

function numberCheck(c: CheckDef): ((n: number) => boolean) | undefined {
  if (typeof c.value !== 'number') return undefined;
  const x = c.value;
  if (c.check === 'greater_than') return c.inclusive ? (n) => n >= x : (n) => n > x;
  if (c.check === 'less_than') return c.inclusive ? (n) => n <= x : (n) => n < x;
  return undefined;
}

function lengthCheck(c: CheckDef): ((n: number) => boolean) | undefined {
  if (c.check === 'max_length') return (n) => n <= c.maximum!;
  if (c.check === 'min_length') return (n) => n >= c.minimum!;
  if (c.check === 'length_equals') return (n) => n === c.length!;
  return undefined;
}
