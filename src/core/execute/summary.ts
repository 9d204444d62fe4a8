// What a run did, from each request's outcome: the requests applied, failed
// and skipped, one outcome per resource, the counts, and the folders left empty.
import type { SourcePos } from '../../errors.js';
import type { ActionKind, Plan, PlannedRequest } from '../model.js';
import type { ApplyResult, Outcome, ResourceStatus } from './types.js';

/**
 * Folders this apply created (not one another run made first) of which no
 * request that needed them was applied: they are left empty, and wsc never
 * deletes a folder, so the summary names them.
 */
export function emptyFolders(settled: ReadonlyArray<readonly [PlannedRequest, Outcome]>, lost: ReadonlyMap<string, unknown>): string[] {
  const applied = new Set(settled.filter(([, o]) => o.status === 'applied').map(([r]) => r.id));
  const out: string[] = [];
  for (const [r] of settled) {
    if (r.operation.op !== 'createFolder' || !applied.has(r.id) || lost.has(r.id)) continue;
    const users = settled.filter(([d]) => d.dependsOn.includes(r.id));
    if (users.length > 0 && users.every(([d]) => !applied.has(d.id))) out.push(r.address);
  }
  return out;
}

export function summarise(
  plan: Plan,
  settled: ReadonlyArray<readonly [PlannedRequest, Outcome]>,
  posOf: (address: string) => SourcePos | undefined,
): ApplyResult {
  const result: ApplyResult = {
    applied: [],
    failed: [],
    skipped: [],
    resources: [],
    counts: { created: 0, updated: 0, adopted: 0, published: 0 },
  };
  const byId = new Map<string, Outcome>();
  for (const [req, o] of settled) {
    byId.set(req.id, o);
    if (o.status === 'applied') result.applied.push({ request: req, ...(o.id !== undefined ? { id: o.id } : {}), ...(o.recovered ? { recovered: true } : {}) });
    else if (o.status === 'failed') result.failed.push({ request: req, error: o.error, ...(posOf(req.address) ? { pos: posOf(req.address)! } : {}) });
    else result.skipped.push({ request: req, reason: o.reason });
  }
  for (const change of plan.changes) {
    if (change.requests.length === 0) continue;
    const outs = change.requests.map((r) => byId.get(r.id)!);
    const ok = outs.filter((o) => o.status === 'applied').length;
    const status: ResourceStatus =
      ok === outs.length ? 'applied' : ok > 0 ? 'partial' : outs.some((o) => o.status === 'failed') ? 'failed' : 'skipped';
    let id = change.liveId;
    for (const o of outs) if (o.status === 'applied' && o.id !== undefined) id = o.id;
    const pos = change.pos ?? posOf(change.address);
    result.resources.push({
      address: change.address,
      kind: change.kind,
      actions: change.actions,
      status,
      ...(id !== undefined ? { id } : {}),
      ...(pos ? { pos } : {}),
    });
    const writes = change.requests.filter((r) => r.operation.op !== 'publishWorkbook');
    const publishes = change.requests.filter((r) => r.operation.op === 'publishWorkbook');
    if (writes.length > 0 && writes.every((r) => byId.get(r.id)!.status === 'applied')) {
      if (change.actions.includes('create')) result.counts.created++;
      if (change.actions.includes('adopt')) result.counts.adopted++;
      if (change.actions.includes('update')) result.counts.updated++;
    }
    if (publishes.length > 0 && publishes.every((r) => byId.get(r.id)!.status === 'applied')) result.counts.published++;
    const done = (a: ActionKind) =>
      change.actions.includes(a) && change.requests.every((r) => byId.get(r.id)!.status === 'applied');
    if (done('delete')) result.counts.deleted = (result.counts.deleted ?? 0) + 1;
    if (done('record')) result.counts.recorded = (result.counts.recorded ?? 0) + 1;
  }
  return result;
}
