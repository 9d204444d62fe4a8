// References (`{ $report: <publicId> }`, `{ $workbook: <slug> }`) stand where
// a numeric id goes. The planner resolves them against the target: a known
// target becomes its numeric id; one created by the same apply stays a
// reference (known after apply); one that exists nowhere is an error.
import { normalizeSlug } from '../domain/wire.js';
import { oneOf } from '../domain/suggest.js';
import { EXIT, WscError, type SourcePos } from '../errors.js';
import { setMember } from './canonical.js';
import { isRef, type Ref } from './model.js';
import type { JsonValue } from './json.js';
import { at } from './where.js';

/** What a reference points at: a live id, `pending` (created by this apply), or unknown. */
export interface RefTargets {
  report(bundlePublicId: string): number | 'pending' | undefined;
  workbook(slug: string): number | 'pending' | undefined;
  /** Names a reference to nothing may be a slip of (bundle and deployment), for "did you mean …?". */
  nearMisses?(ref: Ref): string[];
}

function refKey(ref: Ref): string {
  return '$report' in ref ? `report/${ref.$report}` : `workbook/${normalizeSlug(ref.$workbook)}`;
}

/** Every reference in a value, in document order. */
export function collectRefs(v: unknown, out: Ref[] = []): Ref[] {
  if (isRef(v)) out.push(v);
  else if (Array.isArray(v)) for (const x of v) collectRefs(x, out);
  else if (v !== null && typeof v === 'object') for (const x of Object.values(v)) collectRefs(x, out);
  return out;
}

export interface Resolved {
  value: JsonValue;
  /** References left in `value` because their target is created by this apply. */
  pending: Ref[];
}

/** Where a value is: its resource, path, and file position (`refPos`: of a reference, by refKey, where known). */
export interface RefSite {
  address: string;
  path: string;
  pos?: SourcePos;
  refPos?: ReadonlyMap<string, SourcePos>;
}

export function resolveRefs(v: JsonValue, targets: RefTargets, where: RefSite): Resolved {
  const pending: Ref[] = [];
  const walk = (x: JsonValue): JsonValue => {
    if (isRef(x)) {
      const target = '$report' in x ? targets.report(x.$report) : targets.workbook(normalizeSlug(x.$workbook));
      if (target === undefined) throw unknownReference(x, where, targets.nearMisses?.(x) ?? []);
      if (target === 'pending') {
        // Kept normalised, so the executor finds the workbook it waits for by address.
        const ref: Ref = '$report' in x ? { $report: x.$report } : { $workbook: normalizeSlug(x.$workbook) };
        pending.push(ref);
        return ref;
      }
      return target;
    }
    // Copied only where a reference was replaced; a value without one is returned as it is.
    if (Array.isArray(x)) {
      let out: JsonValue[] | undefined;
      for (let i = 0; i < x.length; i++) {
        const y = walk(x[i]!);
        if (out) out.push(y);
        else if (y !== x[i]) (out = x.slice(0, i)).push(y);
      }
      return out ?? x;
    }
    if (x !== null && typeof x === 'object') {
      let out: { [k: string]: JsonValue } | undefined;
      // for-in over own members: Object.entries' order, without arrays per object (this walks every value planned).
      for (const k in x) {
        if (!Object.hasOwn(x, k)) continue;
        const y = x[k]!;
        const z = walk(y);
        if (out) setMember(out, k, z);
        else if (z !== y) {
          out = {};
          for (const j in x) {
            if (j === k) break;
            if (Object.hasOwn(x, j)) setMember(out, j, x[j]!);
          }
          setMember(out, k, z);
        }
      }
      return out ?? x;
    }
    return x;
  };
  return { value: walk(v), pending };
}

function unknownReference(ref: Ref, where: RefSite, near: readonly string[]): WscError {
  // The reference's own place (the one `wsc validate` names), else the resource's.
  const pos = where.refPos?.get(refKey(ref)) ?? where.pos;
  const what = '$report' in ref ? `report "${ref.$report}"` : `workbook "${ref.$workbook}"`;
  const kind = '$report' in ref ? 'report with that publicId' : 'workbook with that slug';
  const didYouMean = near.length > 0 ? ` Did you mean ${oneOf(near)}?` : '';
  return new WscError(
    'unknown_reference',
    `${at(pos)}${where.address} ${where.path} refers to ${what}, which is neither in the bundle nor in the ` +
      `deployment.${didYouMean}`,
    // A validation error, known only once the deployment is read:
    // exit 3 like any invalid bundle; nothing was written.
    EXIT.invalid,
    { hint: `Add the ${kind} to the bundle, or fix the reference.` },
  );
}
