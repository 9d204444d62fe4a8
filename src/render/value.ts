// How plan values read: short values inline (`"Sales"`, `12`, `null`),
// long or multi-line ones (SQL, jsonQuery, dashboards) as line diffs of a
// stable pretty form, references not resolved yet as `(known after apply)`.
// Shared by the human and markdown renderers.
import { structuredPatch } from 'diff';
import { canonicalize } from '../core/canonical.js';
import { isRef, type FieldChange, type JsonValue } from '../core/model.js';
import { visible } from './visible.js';

export const KNOWN_AFTER_APPLY = '(known after apply)';
const INLINE_MAX = 60;
const SENTINEL = '\u0000known-after-apply\u0000';

function markRefs(v: JsonValue): JsonValue {
  if (isRef(v)) return SENTINEL;
  if (Array.isArray(v)) return v.map(markRefs);
  if (v !== null && typeof v === 'object') {
    const out: { [k: string]: JsonValue } = {};
    for (const [k, x] of Object.entries(v)) Object.defineProperty(out, k, { value: markRefs(x), enumerable: true, writable: true, configurable: true });
    return out;
  }
  return v;
}

function stringify(v: JsonValue, indent?: number): string {
  return JSON.stringify(markRefs(canonicalize(v)), null, indent).replaceAll(JSON.stringify(SENTINEL), KNOWN_AFTER_APPLY);
}

/** A value on one line. */
export function inlineValue(v: JsonValue | undefined): string {
  if (v === undefined) return '(none)';
  if (isRef(v)) return KNOWN_AFTER_APPLY;
  // JSON escapes C0 controls but not C1 ones nor direction overrides.
  return visible(stringify(v));
}

/**
 * The lines a long value is diffed as: strings as they are (JSON strings
 * pretty-printed), other values as pretty JSON with sorted keys.
 */
export function valueLines(v: JsonValue | undefined, path: string): string[] {
  return rawValueLines(v, path).map(visible);
}

function rawValueLines(v: JsonValue | undefined, path: string): string[] {
  if (v === undefined || v === null) return [];
  if (typeof v === 'string') {
    if (path === 'jsonQuery') {
      try {
        return stringify(JSON.parse(v) as JsonValue, 2).split('\n');
      } catch {
        // not JSON: diffed as text
      }
    }
    return v.split('\n');
  }
  return stringify(v, 2).split('\n');
}

function isLong(v: JsonValue | undefined, path: string): boolean {
  if (v === undefined || v === null) return false;
  if (typeof v === 'string') return v.includes('\n') || v.length > INLINE_MAX || (path === 'jsonQuery' && v.length > 2);
  if (typeof v === 'object' && !isRef(v)) return inlineValue(v).length > INLINE_MAX;
  return false;
}

export type DiffLine = { sign: '+' | '-' | ' ' | '@'; text: string };

export type FieldView =
  | { kind: 'inline'; path: string; before?: string; after: string }
  | { kind: 'block'; path: string; lines: DiffLine[] };

/** How one field change is shown. `before` is absent for a field that is new (or a resource being created). */
export function fieldView(c: FieldChange): FieldView {
  const long = isLong(c.before, c.path) || isLong(c.after, c.path);
  if (!long) {
    const view: FieldView = { kind: 'inline', path: visible(c.path), after: inlineValue(c.after) };
    if ('before' in c) view.before = inlineValue(c.before);
    return view;
  }
  return { kind: 'block', path: visible(c.path), lines: lineDiff(valueLines(c.before, c.path), valueLines(c.after, c.path)) };
}

/** A unified diff (3 lines of context) of two texts given as lines. */
export function lineDiff(before: string[], after: string[]): DiffLine[] {
  if (before.length === 0) return after.map((text) => ({ sign: '+', text }));
  if (after.length === 0) return before.map((text) => ({ sign: '-', text }));
  const patch = structuredPatch('before', 'after', `${before.join('\n')}\n`, `${after.join('\n')}\n`, undefined, undefined, { context: 3 });
  const out: DiffLine[] = [];
  for (const h of patch.hunks) {
    out.push({ sign: '@', text: `@@ -${h.oldStart},${h.oldLines} +${h.newStart},${h.newLines} @@` });
    for (const l of h.lines) {
      const sign = l[0];
      if (sign === '+' || sign === '-' || sign === ' ') out.push({ sign, text: l.slice(1) });
    }
  }
  return out;
}
