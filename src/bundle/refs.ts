// References inside free-form values (`meta`, widget `config`): any mapping
// with a `$report` or `$workbook` key must be exactly `{ $report: <publicId> }`
// or `{ $workbook: <slug> }`.
import { PUBLIC_ID_RE } from '../api/wire.js';
import { describe, isObject } from './issues.js';
import type { Path } from './positions.js';
import { closest } from './suggest.js';

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
  const walk = (v: unknown, path: Path, depth: number): void => {
    if (depth > 100) return;
    if (Array.isArray(v)) {
      v.forEach((item, i) => walk(item, [...path, i], depth + 1));
      return;
    }
    if (!isObject(v)) return;
    const keys = Object.keys(v);
    const refKey = keys.find((k) => k === '$report' || k === '$workbook');
    if (refKey) {
      const target = v[refKey];
      const kind = refKey === '$report' ? 'report' : 'workbook';
      if (keys.length !== 1) {
        const extra = keys.find((k) => k !== refKey)!;
        problems.push({ path: [...path, extra], at: 'key', message: `a reference holds only \`${refKey}\`; unexpected key \`${extra}\`` });
      } else if (typeof target !== 'string') {
        problems.push({ path: [...path, refKey], at: 'value', message: `\`${refKey}\` must name a ${kind === 'report' ? 'publicId' : 'slug'} (a string), got ${describe(target)}` });
      } else if (kind === 'report' && !PUBLIC_ID_RE.test(target)) {
        problems.push({ path: [...path, refKey], at: 'value', message: `\`$report\` must be a publicId of exactly 12 characters of [0-9A-Za-z], got ${describe(target)}` });
      } else if (kind === 'workbook' && target.trim() === '') {
        problems.push({ path: [...path, refKey], at: 'value', message: '`$workbook` must name a slug, got an empty string' });
      } else {
        refs.push({ kind, target, path: [...path, refKey] });
      }
      return;
    }
    for (const k of keys) {
      if (k.startsWith('$') && k.length > 2) {
        const near = closest(k, REF_KEYS);
        if (near) problems.push({ path: [...path, k], at: 'key', message: `unknown reference key \`${k}\` (did you mean \`${near}\`?)` });
      }
      walk(v[k], [...path, k], depth + 1);
    }
  };
  walk(value, base, 0);
}
