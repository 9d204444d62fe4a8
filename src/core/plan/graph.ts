// The order apply runs requests in. The planner states dependencies
// (`dependsOn`); this adds the ones that follow from the plan's own data, so
// the phase order (Operation.phase) holds even if a dependency was left out: a request
// waits for earlier-phase requests of the same resource, and for the request
// that produces each id its body still refers to symbolically.
import { InternalError, type SourcePos } from '../../errors.js';
import { isFolderRef, type Plan, type PlannedRequest } from '../plan-model.js';
import { collectRefs as refsIn } from '../refs.js';

export interface RequestGraph {
  /** Requests in plan order. */
  requests: PlannedRequest[];
  byId: Map<string, PlannedRequest>;
  /** Effective dependencies of each request (declared plus implied), deduplicated. */
  deps: Map<string, string[]>;
  /** Address -> the resource's source position, when the plan knows it. */
  pos: Map<string, SourcePos>;
  /** Address -> the live id the plan read (existing resources). */
  liveIds: Map<string, number>;
}

export function buildGraph(plan: Pick<Plan, 'changes'>): RequestGraph {
  const requests: PlannedRequest[] = [];
  const byId = new Map<string, PlannedRequest>();
  const pos = new Map<string, SourcePos>();
  const liveIds = new Map<string, number>();
  for (const change of plan.changes) {
    if (change.pos) pos.set(change.address, change.pos);
    if (change.liveId !== undefined) liveIds.set(change.address, change.liveId);
    for (const r of change.requests) {
      if (byId.has(r.id)) throw new InternalError(`The plan holds two requests with the id ${r.id}.`);
      byId.set(r.id, r);
      requests.push(r);
    }
  }

  // The request that yields an address's id: its earliest-phase write.
  const producer = new Map<string, PlannedRequest>();
  for (const r of requests) {
    const op = r.operation.op;
    if (op !== 'upsertWorkbook' && op !== 'createReport' && op !== 'createFolder') continue;
    const seen = producer.get(r.address);
    if (!seen || r.phase < seen.phase) producer.set(r.address, r);
  }

  const byAddress = new Map<string, PlannedRequest[]>();
  for (const r of requests) {
    const list = byAddress.get(r.address);
    if (list) list.push(r);
    else byAddress.set(r.address, [r]);
  }

  const deps = new Map<string, string[]>();
  for (const r of requests) {
    const set = new Set<string>();
    for (const d of r.dependsOn) {
      if (!byId.has(d)) throw new InternalError(`Request ${r.id} depends on ${d}, which is not in the plan.`);
      set.add(d);
    }
    for (const other of byAddress.get(r.address)!) {
      if (other.phase < r.phase) set.add(other.id);
    }
    for (const address of collectRefs(r)) {
      if (liveIds.has(address)) continue;
      const p = producer.get(address);
      if (p && p !== r) set.add(p.id);
    }
    set.delete(r.id);
    deps.set(r.id, [...set]);
  }
  assertAcyclic(requests, deps);
  return { requests, byId, deps, pos, liveIds };
}

function assertAcyclic(requests: PlannedRequest[], deps: Map<string, string[]>): void {
  const state = new Map<string, 'visiting' | 'done'>();
  const visit = (id: string, path: string[]): void => {
    const s = state.get(id);
    if (s === 'done') return;
    if (s === 'visiting') {
      throw new InternalError(`The plan's requests depend on each other in a cycle: ${[...path, id].join(' -> ')}.`);
    }
    state.set(id, 'visiting');
    for (const d of deps.get(id) ?? []) visit(d, [...path, id]);
    state.set(id, 'done');
  };
  for (const r of requests) visit(r.id, []);
}

export function refAddress(ref: { $report: string } | { $workbook: string }): string {
  return '$report' in ref ? `report/${ref.$report}` : `workbook/${ref.$workbook}`;
}

/** Addresses of every reference a request still holds. */
function collectRefs(request: PlannedRequest): string[] {
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
