// References left pending in a plan (`{ $report }`, `{ $workbook }`: their
// target is written by the same apply) are replaced by numeric ids just before
// a request is sent. Bodies are walked deeply: a widget's config may hold a
// reference at any depth.
import { isRef } from '../model.js';
import { refAddress } from '../plan/graph.js';

/** A bug: apply reports it as an internal error of the request. */
export function unresolvedRef(address: string): Error {
  return new Error(
    `the reference to ${address} has no id: it was neither read from the deployment nor written by this apply.`,
  );
}

/** A copy of `value` with every reference replaced by `lookup(address)`; throws unresolvedRef(). */
export function resolveRefs<T>(value: T, lookup: (address: string) => number | undefined): T {
  const go = (v: unknown): unknown => {
    if (isRef(v)) {
      const address = refAddress(v);
      const id = lookup(address);
      if (id === undefined) throw unresolvedRef(address);
      return id;
    }
    if (Array.isArray(v)) return v.map(go);
    if (v !== null && typeof v === 'object') {
      const out: Record<string, unknown> = {};
      for (const [k, x] of Object.entries(v)) out[k] = go(x);
      return out;
    }
    return v;
  };
  return go(value) as T;
}
