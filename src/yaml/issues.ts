// zod issues -> diagnostics at the key or value that caused them, in words a
// user of the file understands (not zod's).
import type { z } from 'zod';
import type { Diagnostic } from '../errors.js';
import type { PositionIndex, Path } from './positions.js';
import { closest, listSome } from '../domain/suggest.js';

export interface IssueContext {
  file: string;
  positions: PositionIndex;
  schema: z.ZodType;
  data: unknown;
  /** Extra words for an unknown key at the document root, by key. */
  rootKeyNotes?: Record<string, string>;
  serverOwned?: ReadonlySet<string>;
  /**
   * Paths (JSON of the path array) already reported otherwise, e.g. an
   * undefined variable: no second diagnostic there.
   */
  skipPaths?: ReadonlySet<string>;
}

type Issue = z.core.$ZodIssue;

export function issuesToDiagnostics(issues: readonly Issue[], ctx: IssueContext): Diagnostic[] {
  const out: Diagnostic[] = [];
  const push = (path: Path, at: 'key' | 'value', rule: string, message: string, hint?: string) => {
    out.push({
      severity: 'error',
      rule,
      message,
      pos: { file: ctx.file, ...ctx.positions.find(path, at) },
      ...(hint ? { hint } : {}),
    });
  };
  const suggested = suggestedKeys(issues, ctx);
  for (const issue of issues) {
    const path = issue.path.filter((s): s is string | number => typeof s !== 'symbol');
    const key = JSON.stringify(path);
    const value = valueAt(ctx.data, path);
    if (ctx.skipPaths?.has(key) || (issue.code === 'invalid_type' && value === undefined && suggested.has(key)))
      continue;
    const where = path.length > 0 ? `\`${dotted(path)}\`: ` : '';
    switch (issue.code) {
      case 'unrecognized_keys': {
        const known = knownKeysAt(ctx.schema, path);
        for (const key of issue.keys) {
          const suggestion = closest(key, known);
          const inWhere = path.length > 0 ? ` in \`${dotted(path)}\`` : '';
          let message = `unknown key \`${key}\`${inWhere}`;
          if (suggestion) message += ` (did you mean \`${suggestion}\`?)`;
          else if (path.length === 0 && ctx.rootKeyNotes?.[key]) message += `: ${ctx.rootKeyNotes[key]}`;
          else if (path.length === 0 && ctx.serverOwned?.has(key))
            message += ': it is set by the server, not by a bundle';
          push(
            [...path, key],
            'key',
            'unknown-key',
            message,
            known.length ? `Allowed keys: ${listSome(known)}.` : undefined,
          );
        }
        break;
      }
      case 'invalid_type': {
        const parent = valueAt(ctx.data, path.slice(0, -1));
        const last = path[path.length - 1];
        const missing =
          value === undefined && last !== undefined && !(isObject(parent) && Object.hasOwn(parent, String(last)));
        if (missing && typeof last === 'string') {
          const inWhere = path.length > 1 ? ` in \`${dotted(path.slice(0, -1))}\`` : '';
          push(path, 'key', 'missing-key', `missing required key \`${last}\`${inWhere}`);
        } else {
          const expected = issue.expected === 'number' && isIntAt(ctx.schema, path) ? 'int' : issue.expected;
          push(
            path,
            'value',
            'wrong-type',
            `${where}expected ${EXPECTED_NAMES[expected] ?? expected}, got ${describe(value)}`,
          );
        }
        break;
      }
      case 'invalid_value': {
        const values = issue.values.map(String);
        const suggestion = typeof value === 'string' ? closest(value, values) : undefined;
        const msg =
          values.length === 1
            ? `${where}must be \`${values[0]}\`, got ${describe(value)}`
            : `${where}${describe(value)} is not one of ` +
              `${listSome(values.map((v) => `\`${v}\``))}${suggestion ? ` (did you mean \`${suggestion}\`?)` : ''}`;
        push(path, 'value', 'bad-value', msg);
        break;
      }
      case 'too_big':
      case 'too_small': {
        push(path, 'value', 'bad-value', `${where}${rangeMessage(issue, value)}`);
        break;
      }
      case 'invalid_format':
        push(path, 'value', 'bad-value', `${where}${describe(value)} ${issue.message}`);
        break;
      default:
        push(path, 'value', 'bad-value', `${where}${issue.message}`);
    }
  }
  return out;
}

/**
 * The paths of keys a misspelt key is near (`deployment` for `deploymentId`): such a key, also missing, is
 * reported once, as the misspelling.
 */
function suggestedKeys(issues: readonly Issue[], ctx: IssueContext): Set<string> {
  const suggested = new Set<string>();
  for (const issue of issues) {
    if (issue.code !== 'unrecognized_keys') continue;
    const path = issue.path.filter((s): s is string | number => typeof s !== 'symbol');
    const known = knownKeysAt(ctx.schema, path);
    for (const key of issue.keys) {
      const near = closest(key, known);
      if (near) suggested.add(JSON.stringify([...path, near]));
    }
  }
  return suggested;
}

/** A string's length, an array's items or a number out of their range, in words. */
function rangeMessage(issue: z.core.$ZodIssueTooBig | z.core.$ZodIssueTooSmall, value: unknown): string {
  const big = issue.code === 'too_big';
  const limit = 'maximum' in issue ? issue.maximum : issue.minimum;
  if (issue.origin === 'string') {
    const len = typeof value === 'string' ? value.length : 0;
    if (big) return `too long: ${len} characters, at most ${limit} allowed`;
    return Number(limit) <= 1 ? 'must not be empty' : `too short: at least ${limit} characters`;
  }
  if (issue.origin === 'array') return `${big ? 'at most' : 'at least'} ${limit} items allowed`;
  return `must be ${big ? 'at most' : 'at least'} ${limit}, got ${describe(value)}`;
}

function dotted(path: Path): string {
  let s = '';
  for (const seg of path) s += typeof seg === 'number' ? `[${seg}]` : s === '' ? seg : `.${seg}`;
  return s;
}

export function valueAt(data: unknown, path: Path): unknown {
  let cur: unknown = data;
  for (const seg of path) {
    if (Array.isArray(cur) && typeof seg === 'number') cur = cur[seg];
    else if (isObject(cur) && Object.hasOwn(cur, String(seg))) cur = cur[String(seg)];
    else return undefined;
  }
  return cur;
}

export function isObject(v: unknown): v is Record<string, unknown> {
  return v !== null && typeof v === 'object' && !Array.isArray(v);
}

export function describe(v: unknown): string {
  if (v === undefined) return 'nothing';
  if (v === null) return 'null';
  if (typeof v === 'string') {
    const s = v.length > 40 ? `${v.slice(0, 37)}...` : v;
    return JSON.stringify(s);
  }
  if (typeof v === 'number' || typeof v === 'boolean') return String(v);
  if (Array.isArray(v)) return 'a list';
  return 'a mapping';
}

const EXPECTED_NAMES: Record<string, string> = {
  int: 'an integer',
  number: 'a number',
  string: 'a string',
  boolean: 'true or false',
  object: 'a mapping',
  record: 'a mapping',
  array: 'a list',
};

// ---------------------------------------------------------------------------
// The keys a strict object at `path` accepts, by walking the schema.

type AnyDef = { type: string; [k: string]: unknown };
// `def` is zod's public view of a schema's definition (`_zod.def` is its internal one).
const defOf = (s: unknown): AnyDef => (s as z.ZodType).def as unknown as AnyDef;

const WRAPPERS = new Set(['optional', 'nullable', 'default', 'readonly', 'prefault', 'nonoptional']);

function unwrap(s: unknown): unknown {
  for (let i = 0; i < 16; i++) {
    const d = defOf(s);
    if (WRAPPERS.has(d.type)) s = d['innerType'];
    else if (d.type === 'pipe') s = d['in'];
    else return s;
  }
  return s;
}

function childOf(s: unknown, seg: string | number): unknown[] {
  const d = defOf(unwrap(s));
  switch (d.type) {
    case 'object': {
      const shape = d['shape'] as Record<string, unknown>;
      return typeof seg === 'string' && Object.hasOwn(shape, seg) ? [shape[seg]] : [];
    }
    case 'array':
      return typeof seg === 'number' ? [d['element']] : [];
    case 'record':
      return [d['valueType']];
    case 'union':
      return (d['options'] as unknown[]).flatMap((o) => childOf(o, seg));
    default:
      return [];
  }
}

/** The definitions of the schemas that can hold the value at `path`. */
function defsAt(schema: z.ZodType, path: Path): AnyDef[] {
  let current: unknown[] = [schema];
  for (const seg of path) current = current.flatMap((s) => childOf(s, seg));
  return current.map((s) => defOf(unwrap(s)));
}

function isIntAt(schema: z.ZodType, path: Path): boolean {
  return defsAt(schema, path).some((d) => d['format'] === 'safeint' || d['format'] === 'int32');
}

function knownKeysAt(schema: z.ZodType, path: Path): string[] {
  const keys = new Set<string>();
  const options = (d: AnyDef) => (d.type === 'union' ? (d['options'] as unknown[]).map((o) => defOf(unwrap(o))) : [d]);
  for (const d of defsAt(schema, path).flatMap(options))
    if (d.type === 'object') for (const k of Object.keys(d['shape'] as object)) keys.add(k);
  return [...keys];
}
