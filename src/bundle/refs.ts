// References inside free-form values (`meta`, widget `config`): any mapping
// with a `$report` or `$workbook` key must be exactly `{ $report: <publicId> }`
// or `{ $workbook: <slug> }`.
import { PUBLIC_ID_RE } from '../domain/wire.js';
import { describe } from '../yaml/issues.js';
import type { Path } from '../yaml/positions.js';
import { closest } from '../domain/suggest.js';

export interface FoundRef {
  kind: 'report' | 'workbook';
  target: string;
  /** Path of the `$report` / `$workbook` entry. */
  path: Path;
}

export interface RefProblem {
  path: Path;
  at: 'key' | 'value';
  message: string;
}

const REF_KEYS = ['$report', '$workbook'];

export function scanRefs(value: unknown, base: Path, refs: FoundRef[], problems: RefProblem[]): void {
  // One path, written at the walk's depth and copied only for a finding (push
  // and pop would let V8 shrink and regrow its store, for every value).
  const path: (string | number)[] = [...base];
  const at = (depth: number, ...more: (string | number)[]): Path => [...path.slice(0, base.length + depth), ...more];
  const walk = (v: unknown, depth: number): void => {
    if (depth > 100 || v === null || typeof v !== 'object') return;
    const d = base.length + depth;
    if (Array.isArray(v)) {
      for (let i = 0; i < v.length; i++) {
        path[d] = i;
        walk(v[i], depth + 1);
      }
      return;
    }
    const o = v as Record<string, unknown>;
    if (Object.hasOwn(o, '$report') || Object.hasOwn(o, '$workbook')) {
      const keys = Object.keys(o);
      const refKey = keys.find((k) => k === '$report' || k === '$workbook')!;
      const target = o[refKey];
      const kind = refKey === '$report' ? 'report' : 'workbook';
      if (keys.length !== 1) {
        const extra = keys.find((k) => k !== refKey)!;
        const message = `a reference holds only \`${refKey}\`; unexpected key \`${extra}\``;
        problems.push({ path: at(depth, extra), at: 'key', message });
        return;
      }
      const message = targetProblem(refKey, target);
      if (message !== undefined) problems.push({ path: at(depth, refKey), at: 'value', message });
      else refs.push({ kind, target: target as string, path: at(depth, refKey) });
      return;
    }
    for (const k in o) {
      if (!Object.hasOwn(o, k)) continue;
      if (k.length > 2 && k.charCodeAt(0) === 36 /* $ */) {
        const near = closest(k, REF_KEYS);
        if (near) {
          const message = `unknown reference key \`${k}\` (did you mean \`${near}\`?)`;
          problems.push({ path: at(depth, k), at: 'key', message });
        }
      }
      path[d] = k;
      walk(o[k], depth + 1);
    }
  };
  walk(value, 0);
}

/** What is wrong with the target of a `$report` or `$workbook` reference, or undefined. */
function targetProblem(refKey: string, target: unknown): string | undefined {
  if (typeof target !== 'string')
    return (
      `\`${refKey}\` must name a ` +
      `${refKey === '$report' ? 'publicId' : 'slug'} (a string), got ` +
      `${describe(target)}`
    );
  if (refKey === '$report')
    return PUBLIC_ID_RE.test(target)
      ? undefined
      : `\`$report\` must be a publicId of exactly 12 characters of [0-9A-Za-z], got ${describe(target)}`;
  return target.trim() === '' ? '`$workbook` must name a slug, got an empty string' : undefined;
}
