// How plan values read, as the bundle writes them: short values inline
// (`"Sales"`, `12`, `null`, `{ $workbook: sales }`), structured ones as YAML,
// long or multi-line ones (SQL, jsonQuery, YAML blocks) as line diffs whose
// hunk headers name the field and where in it (`@@ jsonQuery: filters @@`),
// references by identity (`{ $workbook: sales }`), never a bare id.
// Shared by the human and markdown renderers.
import { createRequire } from 'node:module';
import { structuredPatch } from 'diff';
import { isRef } from '../core/model.js';
import type { FieldChange } from '../core/plan-model.js';
import type { JsonValue } from '../core/json.js';
import { visible } from '../visible.js';

const INLINE_MAX = 60;

type Obj = { [k: string]: JsonValue };
const isObj = (v: unknown): v is Obj => v !== null && typeof v === 'object' && !Array.isArray(v);

/**
 * `before` with its object members in `like`'s order (members `like` lacks last), recursively: the
 * server's key order is not the file's, and a diff must not show a reordering as a change.
 */
export function orderLike(before: JsonValue, like: JsonValue | undefined): JsonValue {
  if (Array.isArray(before)) return before.map((x, i) => orderLike(x, Array.isArray(like) ? like[i] : undefined));
  if (!isObj(before)) return before;
  const keys = isObj(like) ? [...Object.keys(like).filter((k) => Object.hasOwn(before, k))] : [];
  for (const k of Object.keys(before)) if (!keys.includes(k)) keys.push(k);
  // fromEntries defines own members, `__proto__` included, as JSON.parse does.
  return Object.fromEntries(keys.map((k) => [k, orderLike(before[k]!, isObj(like) ? like[k] : undefined)]));
}

/** The `yaml` library, loaded at first use: a plan without changes shows no value, and loading it takes time. */
let yamlLib: typeof import('yaml') | undefined;

function yaml(v: JsonValue, flow: boolean): string {
  yamlLib ??= createRequire(import.meta.url)('yaml') as typeof import('yaml');
  return yamlLib
    .stringify(v, { lineWidth: 0, ...(flow ? { collectionStyle: 'flow' as const } : {}) })
    .replace(/\n$/, '');
}

/** A value on one line: strings and numbers as JSON, structured values and references as YAML flow. */
export function inlineValue(v: JsonValue | undefined): string {
  if (v === undefined) return '(none)';
  if (v === null || typeof v !== 'object') return visible(JSON.stringify(v));
  // JSON escapes C0 controls but not C1 ones nor direction overrides; YAML quotes what needs it.
  return visible(yaml(v, true));
}

/** A jsonQuery string as the value it holds (a file writes it as YAML); not JSON: the string. */
function parsedQuery(v: JsonValue | undefined, path: string): JsonValue | undefined {
  if (path !== 'jsonQuery' || typeof v !== 'string') return v;
  try {
    return JSON.parse(v) as JsonValue;
  } catch {
    return v;
  }
}

/** The lines a long value is diffed as: strings as they are, structured values (jsonQuery too) as YAML. */
export function valueLines(v: JsonValue | undefined, path: string, like?: JsonValue): string[] {
  const value = parsedQuery(v, path);
  if (value === undefined || value === null) return [];
  if (typeof value === 'string') return value.split('\n').map(visible);
  if (typeof value !== 'object') return [visible(JSON.stringify(value))];
  const ordered = like === undefined ? value : orderLike(value, parsedQuery(like, path));
  return yaml(ordered, false).split('\n').map(visible);
}

function isLong(v: JsonValue | undefined, path: string): boolean {
  const value = parsedQuery(v, path);
  if (value === undefined || value === null) return false;
  if (typeof value === 'string') {
    return value.includes('\n') || value.length > INLINE_MAX || (path === 'jsonQuery' && value !== v);
  }
  if (typeof value === 'object' && !isRef(value)) return path === 'jsonQuery' || inlineValue(value).length > INLINE_MAX;
  return false;
}

export type DiffLine = { sign: '+' | '-' | ' ' | '@'; text: string };

export type FieldView =
  | { kind: 'inline'; path: string; before?: string; after: string }
  /** `lines` is a whole value added or removed (no `@` line), or hunks each headed by an `@` line. */
  | { kind: 'block'; path: string; lines: DiffLine[] };

/** How one field change is shown. `before` is absent for a field that is new (or a resource being created). */
export function fieldView(c: FieldChange): FieldView {
  // The values shown: the plan's, or the bundle's form of them where they hold ids (`shown`).
  const s = c.shown;
  const before = s !== undefined && 'before' in s ? s.before : c.before;
  const after = s !== undefined && 'after' in s ? s.after : c.after;
  const path = visible(c.path);
  if (!isLong(before, c.path) && !isLong(after, c.path)) {
    const view: FieldView = { kind: 'inline', path, after: inlineValue(after) };
    if ('before' in c) view.before = inlineValue(before);
    return view;
  }
  const afterLines = valueLines(after, c.path);
  const beforeLines = valueLines(before, c.path, after);
  const structured = typeof parsedQuery(after ?? before ?? null, c.path) === 'object';
  return { kind: 'block', path, lines: lineDiff(beforeLines, afterLines, { path, structured }) };
}

/** The keys leading to line `i` of a YAML block (its parents, by indentation): `filters > member`. */
export function yamlPathAt(lines: readonly string[], i: number): string[] {
  const keys: string[] = [];
  let indent = indentOf(lines[i] ?? '');
  for (let j = i - 1; j >= 0 && indent > 0; j--) {
    const l = lines[j]!;
    const n = indentOf(l);
    if (n >= indent || l.trim() === '') continue;
    const key = /^\s*(?:- )*([^\s:][^:]*):(?: |$)/.exec(l);
    if (key !== null) keys.unshift(key[1]!);
    indent = n;
  }
  return keys;
}

function indentOf(l: string): number {
  const m = /^[\s-]*/.exec(l)![0];
  // `- ` opens a list item: its members are indented past the dash.
  return m.length;
}

/** Where a hunk is, in the field's terms: the YAML keys above its first change, or the text's line number. */
function hunkHeader(where: { path: string; structured: boolean }, lines: readonly string[], first: number): string {
  if (!where.structured) return `@@ ${where.path} line ${first + 1} @@`;
  const keys = yamlPathAt(lines, first);
  return `@@ ${where.path}${keys.length > 0 ? `: ${keys.join(' > ')}` : ''} @@`;
}

/**
 * A unified diff (3 lines of context) of two texts given as lines. Hunk headers name `where.path`
 * and the place of the first change (YAML keys or a line number) rather than JSON line counts.
 */
export function lineDiff(
  before: string[],
  after: string[],
  where: { path: string; structured: boolean } = { path: 'value', structured: false },
): DiffLine[] {
  if (before.length === 0) return after.map((text) => ({ sign: '+', text }));
  if (after.length === 0) return before.map((text) => ({ sign: '-', text }));
  const patch = structuredPatch(
    'before',
    'after',
    `${before.join('\n')}\n`,
    `${after.join('\n')}\n`,
    undefined,
    undefined,
    { context: 3 },
  );
  const out: DiffLine[] = [];
  for (const h of patch.hunks) {
    // The first changed line, counted in the text it is in (the new one, or the old one for a removal).
    let oldLine = h.oldStart - 1;
    let newLine = h.newStart - 1;
    let header: string | undefined;
    for (const l of h.lines) {
      if (l[0] === '+') header ??= hunkHeader(where, after, newLine);
      else if (l[0] === '-') header ??= hunkHeader(where, before, oldLine);
      if (l[0] !== '+') oldLine++;
      if (l[0] !== '-') newLine++;
    }
    out.push({ sign: '@', text: header ?? `@@ ${where.path} @@` });
    for (const l of h.lines) {
      const sign = l[0];
      if (sign === '+' || sign === '-' || sign === ' ') out.push({ sign, text: l.slice(1) });
    }
  }
  return out;
}
