// References left pending in a plan (`{ $report }`, `{ $workbook }`: their
// target is written by the same apply) are replaced by numeric ids just before
// a request is sent. Bodies are walked deeply: a widget's config may hold a
// reference at any depth.
import { isFolderRef, type PlannedRequest } from '../plan-model.js';
import { isRef } from '../model.js';
import { collectRefs as refsIn } from '../refs.js';

export function refAddress(ref: { $report: string } | { $workbook: string }): string {
  return '$report' in ref ? `report/${ref.$report}` : `workbook/${ref.$workbook}`;
}

/** Addresses of every reference a request still holds. */
export function collectRefs(request: PlannedRequest): string[] {
  const op = request.operation;
  if (op.op === 'createFolder') return isFolderRef(op.parentId) ? [`folder/${op.parentId.$folder}`] : [];
  if (!('body' in op)) return [];
  const refs = refsIn(op.body);
  if (op.op === 'publishWorkbook') refsIn(op.workbook, refs);
  // The record hashes values resolved like the body's.
  const values = 'record' in op ? op.record?.values : undefined;
  if (values !== undefined) refsIn(values, refs);
  const found = new Set(refs.map(refAddress));
  // A folder created by this apply: only ever in a body's `folderId` (or the record's).
  for (const folderId of [(op.body as Record<string, unknown>)['folderId'], values?.['folderId']]) {
    if (isFolderRef(folderId)) found.add(`folder/${folderId.$folder}`);
  }
  return [...found];
}

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
