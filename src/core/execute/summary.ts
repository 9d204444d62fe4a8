// What a run did, from each request's outcome: the requests applied, failed
// and skipped, one outcome per resource, the counts, and the folders left empty.
import type { SourcePos } from '../../errors.js';
import { isDelete } from '../deletes.js';
import type { ActionKind, Plan, PlannedRequest, ResourceChange } from '../plan-model.js';
import type { ApplyCounts, ApplyResult, Outcome, ResourceStatus } from './types.js';

/**
 * Folders this apply created (not one another run made first) of which no
 * request that needed them was applied: they are left empty, and wsc never
 * deletes a folder, so the summary names them.
 */
export function emptyFolders(
  settled: ReadonlyArray<readonly [PlannedRequest, Outcome]>,
  lost: ReadonlyMap<string, unknown>,
): string[] {
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
    if (o.status === 'applied') {
      const recovered = o.recovered ? { recovered: true as const } : {};
      result.applied.push({ request: req, ...(o.id !== undefined ? { id: o.id } : {}), ...recovered });
    } else if (o.status === 'failed') {
      const pos = posOf(req.address);
      result.failed.push({ request: req, error: o.error, ...(pos ? { pos } : {}) });
    } else {
      result.skipped.push({ request: req, reason: o.reason, ...(o.blocked ? { blocked: true as const } : {}) });
    }
  }
  for (const change of plan.changes) {
    if (change.requests.length === 0) continue;
    const outs = change.requests.map((r) => byId.get(r.id)!);
    const ok = outs.filter((o) => o.status === 'applied').length;
    const anyFailed = outs.some((o) => o.status === 'failed');
    const status: ResourceStatus =
      ok === outs.length ? 'applied' : ok > 0 ? 'partial' : anyFailed ? 'failed' : 'skipped';
    let id = change.liveId;
    for (const o of outs) if (o.status === 'applied' && o.id !== undefined) id = o.id;
    const pos = change.pos ?? posOf(change.address);
    const { done, recovered } = doneActions(change, byId);
    result.resources.push({
      address: change.address,
      kind: change.kind,
      actions: change.actions,
      status,
      done,
      ...(recovered ? { recovered: true } : {}),
      ...(id !== undefined ? { id } : {}),
      ...(pos ? { pos } : {}),
    });
    count(result.counts, done, recovered);
  }
  return result;
}

/**
 * The actions of a resource that were carried out: a create or adopt once the
 * write that makes or claims it applied (a workbook whose dashboard then
 * failed was still created), an update or ownership record once every write
 * applied, a publish or delete once that request did. `recovered`: the create
 * found the resource already there (read back after a lost answer, or made
 * by another run), so it is not counted as created by this apply.
 */
function doneActions(
  change: ResourceChange,
  byId: ReadonlyMap<string, Outcome>,
): { done: ActionKind[]; recovered: boolean } {
  const applied = (r: PlannedRequest) => byId.get(r.id)?.status === 'applied';
  const isPublish = (r: PlannedRequest) => r.operation.op === 'publishWorkbook';
  const writes = change.requests.filter((r) => !isPublish(r) && !isDelete(r));
  const first = [...writes].sort((a, b) => a.phase - b.phase)[0];
  const all = (rs: PlannedRequest[]) => rs.length > 0 && rs.every(applied);
  const done = change.actions.filter((a) => {
    switch (a) {
      case 'create':
      case 'adopt':
        return first !== undefined && applied(first);
      case 'update':
      case 'record':
        return all(writes);
      case 'publish':
        return all(change.requests.filter(isPublish));
      case 'delete':
        return all(change.requests.filter(isDelete));
      default:
        return false;
    }
  });
  const o = first === undefined ? undefined : byId.get(first.id);
  const recovered = done.includes('create') && o?.status === 'applied' && o.recovered;
  return { done, recovered };
}

/** Each resource once per action it carried out; a create found already there only as that. */
function count(k: ApplyCounts, done: readonly ActionKind[], recovered: boolean): void {
  for (const a of done) {
    if (a === 'create' && recovered) k.recovered = (k.recovered ?? 0) + 1;
    else if (a === 'create') k.created++;
    else if (a === 'update') k.updated++;
    else if (a === 'adopt') k.adopted++;
    else if (a === 'publish') k.published++;
    else if (a === 'delete') k.deleted = (k.deleted ?? 0) + 1;
    else if (a === 'record') k.recorded = (k.recorded ?? 0) + 1;
  }
}
