// The executor: runs a plan's requests against an ApiPort. Pure
// orchestration: no I/O of its own (the port does it), no clock, no retries
// (the port retries, per api/retry.ts; this layer resolves the one ambiguous
// outcome, a report create whose answer was lost, by reading it back).
//
// Scheduling is driven by dependencies: a request starts as soon as every
// request it depends on has succeeded, up to `concurrency` at a time. The
// phases (Operation.phase) follow from the dependencies (see execute/graph.ts), so
// user attributes and unrelated resources never wait for a whole phase.
import pLimit from 'p-limit';
import type { Report } from '../api/wire.js';
import { ApiError, InternalError, isWscError, NetworkError, type SourcePos, type WscError } from '../errors.js';
import type { ActionKind, ApiPort, Plan, PlannedRequest, RecordSpec, ResourceKind } from './model.js';
import { buildGraph } from './execute/graph.js';
import { publicIdRejected, publicIdTaken, matchesSent, type PublicIdContext } from './execute/report-create.js';
import { refAddress, resolveRefs, UnresolvedRefError } from './execute/resolve.js';
import { withRecord } from './ownership.js';
import { createFolderOnce, folderIdOf, resolveFolderId } from './execute/folder-create.js';
import { explainMove } from './execute/folder-move.js';
import { isFolderRef } from './model.js';
import { createUserAttributeConverging } from './execute/user-attribute-create.js';

export type Phase = PlannedRequest['phase'];

export interface AppliedRequest {
  request: PlannedRequest;
  /** The id of the object written (workbook, report, user attribute). */
  id?: number;
  /** A report create whose answer was lost and which was found, ours, on reading back. */
  recovered?: boolean;
  /** A folder create that lost the race to another writer's copy (ours deleted unless said otherwise). */
  lostFolder?: { ours: number; deleted: boolean };
}
export interface FailedRequest {
  request: PlannedRequest;
  error: WscError;
  pos?: SourcePos;
}
export interface SkippedRequest {
  request: PlannedRequest;
  /** e.g. `depends on workbook/sales#upsert which failed` */
  reason: string;
}

export type ResourceStatus = 'applied' | 'partial' | 'failed' | 'skipped';
export interface ResourceOutcome {
  address: string;
  kind: ResourceKind;
  actions: ActionKind[];
  status: ResourceStatus;
  id?: number;
  pos?: SourcePos;
}

export interface ApplyCounts {
  created: number;
  updated: number;
  adopted: number;
  published: number;
  /** Present when the plan deletes or records ownership. */
  deleted?: number;
  recorded?: number;
}

export interface ApplyResult {
  applied: AppliedRequest[];
  failed: FailedRequest[];
  skipped: SkippedRequest[];
  /** One entry per resource that had requests to make, in plan order. */
  resources: ResourceOutcome[];
  /** Actions completed, counted per resource (a resource created then published counts in both). */
  counts: ApplyCounts;
  /** Folders this apply created and left empty: what was to go in them failed or was skipped. */
  emptyFolders?: string[];
}

export type ApplyEvent =
  | { type: 'phase-start'; phase: Phase; total: number }
  | { type: 'phase-end'; phase: Phase; applied: number; failed: number; skipped: number }
  | { type: 'request-start'; request: PlannedRequest }
  | { type: 'request-done'; request: PlannedRequest; id?: number; recovered: boolean }
  | { type: 'request-fail'; request: PlannedRequest; error: WscError; pos?: SourcePos }
  | { type: 'request-skip'; request: PlannedRequest; reason: string };

export interface ExecuteOptions {
  concurrency: number;
  onEvent?: (e: ApplyEvent) => void;
  /** Source positions by address, for plans whose changes carry none. */
  desiredFiles?: Map<string, SourcePos>;
  /**
   * Aborted (an interrupt): no request starts any more; those in flight run
   * to their end, so that what was applied is known, and the rest are
   * skipped with the abort reason when it is a sentence, else INTERRUPTED.
   */
  signal?: AbortSignal;
  /**
   * Resources not to write, by address, with the reason (edited outside wsc
   * since the last apply); their requests, and those depending on them, are skipped.
   */
  refuse?: Map<string, string>;
}

/** Why a request was skipped when the run was interrupted before it started. */
export const INTERRUPTED = 'not started: apply was interrupted';

type Outcome =
  | { status: 'applied'; id?: number; recovered: boolean }
  | { status: 'failed'; error: WscError }
  | { status: 'skipped'; reason: string };

export async function execute(plan: Plan, port: ApiPort, opts: ExecuteOptions): Promise<ApplyResult> {
  const graph = buildGraph(plan);
  const emit = opts.onEvent ?? (() => {});
  const limit = pLimit(Math.max(1, opts.concurrency));
  const posOf = (address: string): SourcePos | undefined => graph.pos.get(address) ?? opts.desiredFiles?.get(address);

  // Ids written by this run, by address; they win over the ids the plan read.
  const written = new Map<string, number>();
  const lostFolders = new Map<string, { ours: number; deleted: boolean }>();
  const idOf = (address: string): number | undefined => written.get(address) ?? graph.liveIds.get(address);

  const phaseTotals = new Map<Phase, number>();
  for (const r of graph.requests) phaseTotals.set(r.phase, (phaseTotals.get(r.phase) ?? 0) + 1);
  const phaseSeen = new Map<Phase, { applied: number; failed: number; skipped: number }>();
  const touchPhase = (phase: Phase) => {
    if (phaseSeen.has(phase)) return;
    phaseSeen.set(phase, { applied: 0, failed: 0, skipped: 0 });
    emit({ type: 'phase-start', phase, total: phaseTotals.get(phase) ?? 0 });
  };
  const settlePhase = (phase: Phase, status: Outcome['status']) => {
    touchPhase(phase);
    const s = phaseSeen.get(phase)!;
    s[status]++;
    if (s.applied + s.failed + s.skipped === phaseTotals.get(phase)) emit({ type: 'phase-end', phase, ...s });
  };

  const send = async (req: PlannedRequest): Promise<{ id?: number; recovered: boolean }> => {
    const op = req.operation;
    const resolve = <T>(v: T): T => resolveRefs(resolveFolderId(v, idOf), idOf);
    // The ownership record goes on top of the body, hashed once references are resolved.
    const owned = (body: Record<string, unknown>, record: RecordSpec | undefined) =>
      record === undefined ? body : withRecord(body, record);
    switch (op.op) {
      case 'upsertWorkbook': {
        const body = owned(resolve(op.body), op.record);
        try {
          const wb = await port.upsertWorkbookBySlug(op.slug, body);
          return { id: wb.id, recovered: false };
        } catch (e) {
          throw explainMove(e, req, body, plan);
        }
      }
      case 'createFolder': {
        const parentId = isFolderRef(op.parentId) ? folderIdOf(op.parentId, idOf) : op.parentId;
        const r = await createFolderOnce(port, op.name, parentId);
        if (r.lost) lostFolders.set(req.id, r.lost);
        return { id: r.id, recovered: false };
      }
      case 'adoptWorkbook':
        await port.adoptWorkbook(op.workbookId, op.slug);
        return { id: op.workbookId, recovered: false };
      case 'createReport':
        return createReport(req, owned(resolve(op.body), op.record));
      case 'updateReport': {
        const body = owned(resolve(op.body), op.record);
        try {
          const r = await port.updateReport(op.reportId, body);
          return { id: r.id, recovered: false };
        } catch (e) {
          if (!('publicId' in body)) throw explainMove(e, req, body, plan);
          // Adopting into a publicId someone holds: say who, if it can be seen.
          const publicId = body['publicId'];
          const taken = e instanceof ApiError && e.status === 409 && e.apiCode === undefined && typeof publicId === 'string';
          const holders = taken ? await port.findReportsByPublicId(publicId).catch(() => []) : [];
          throw explainPublicIdFailure(e, req, body, { reportId: op.reportId }, holders);
        }
      }
      case 'publishWorkbook': {
        const workbookId = typeof op.workbook === 'number' ? op.workbook : idOf(refAddress(op.workbook));
        if (workbookId === undefined) throw new UnresolvedRefError(refAddress(op.workbook as never));
        await port.publishWorkbook(workbookId, { ...resolve(op.body), workbookId });
        return { id: workbookId, recovered: false };
      }
      case 'createUserAttribute':
        return createUserAttributeConverging(port, op.body, { address: req.address, pos: posOf(req.address) });
      case 'updateUserAttribute': {
        const ua = await port.updateUserAttribute(op.id, op.body);
        return { id: ua.id, recovered: false };
      }
      case 'deleteReport':
        await gone(() => port.deleteReport(op.reportId));
        return { id: op.reportId, recovered: false };
      case 'deleteWorkbook':
        await gone(() => port.deleteWorkbook(op.workbookId));
        return { id: op.workbookId, recovered: false };
    }
  };

  // A delete repeated after its answer was lost meets 404: the object is gone, as asked.
  const gone = async (del: () => Promise<void>): Promise<void> => {
    try {
      await del();
    } catch (e) {
      if (!(e instanceof ApiError && e.status === 404)) throw e;
    }
  };

  // Deletes start once every other request has ended, and not at all when one failed.
  let others: Promise<string | undefined> | undefined;
  const othersEnded = (): Promise<string | undefined> =>
    (others ??= Promise.all(graph.requests.filter((r) => r.phase !== 5).map((r) => outcomeOf(r))).then((os) => {
      const failed = os.filter((o) => o.status === 'failed' || (o.status === 'skipped' && o.reason === INTERRUPTED)).length;
      if (failed === 0) return undefined;
      return `not run: ${failed} other change${failed === 1 ? '' : 's'} did not apply, and deletes come last`;
    }));

  const publicIdCtx = (req: PlannedRequest, publicId: string): PublicIdContext => ({
    address: req.address,
    publicId,
    pos: posOf(req.address),
    environment: plan.environment,
    deploymentId: plan.deploymentId,
  });

  const explainPublicIdFailure = (
    e: unknown,
    req: PlannedRequest,
    body: Record<string, unknown>,
    adopting: { reportId: number } | undefined,
    holders: Report[],
  ): unknown => {
    const publicId = body['publicId'];
    if (!(e instanceof ApiError) || typeof publicId !== 'string') return e;
    const ctx = publicIdCtx(req, publicId);
    if (e.status === 400) return publicIdRejected(e, ctx, adopting) ?? e;
    if (e.status === 409 && e.apiCode === undefined) return publicIdTaken(e, ctx, holders, adopting);
    return e;
  };

  // Exactly once: see execute/report-create.ts.
  const createReport = async (req: PlannedRequest, body: Record<string, unknown>): Promise<{ id?: number; recovered: boolean }> => {
    try {
      const r = await port.createReport(body);
      return { id: r.id, recovered: false };
    } catch (e) {
      const publicId = body['publicId'];
      const ambiguous =
        (e instanceof ApiError && e.status === 409 && e.apiCode === undefined) || e instanceof NetworkError;
      if (!ambiguous || typeof publicId !== 'string') throw explainPublicIdFailure(e, req, body, undefined, []);
      let holders: Report[];
      try {
        holders = await port.findReportsByPublicId(publicId);
      } catch {
        throw e; // the read-back failed too: the original failure says more
      }
      const ours = holders.find((r) => r.deploymentId === plan.deploymentId && matchesSent(body, r));
      if (ours) return { id: ours.id, recovered: true };
      if (e instanceof NetworkError) throw e;
      throw explainPublicIdFailure(e, req, body, undefined, holders);
    }
  };

  const toWscError = (e: unknown, req: PlannedRequest): WscError => {
    if (isWscError(e)) return e;
    if (e instanceof UnresolvedRefError) return new InternalError(`${req.id}: ${e.message}.`, { cause: e });
    const msg = e instanceof Error ? e.message : String(e);
    return new InternalError(`${req.id}: ${msg}`, { cause: e });
  };

  const outcomes = new Map<string, Promise<Outcome>>();
  const outcomeOf = (req: PlannedRequest): Promise<Outcome> => {
    let p = outcomes.get(req.id);
    if (p) return p;
    p = (async (): Promise<Outcome> => {
      const refused = opts.refuse?.get(req.address);
      const barrier = req.phase === 5 && refused === undefined ? await othersEnded() : undefined;
      if (refused !== undefined || barrier !== undefined) {
        const reason = (refused ?? barrier)!;
        touchPhase(req.phase);
        emit({ type: 'request-skip', request: req, reason });
        settlePhase(req.phase, 'skipped');
        return { status: 'skipped', reason };
      }
      const deps = graph.deps.get(req.id) ?? [];
      const depOutcomes = await Promise.all(deps.map((d) => outcomeOf(graph.byId.get(d)!)));
      for (let i = 0; i < deps.length; i++) {
        const o = depOutcomes[i]!;
        if (o.status === 'applied') continue;
        const reason = o.status === 'failed' ? `depends on ${deps[i]} which failed` : o.reason;
        touchPhase(req.phase);
        emit({ type: 'request-skip', request: req, reason });
        settlePhase(req.phase, 'skipped');
        return { status: 'skipped', reason };
      }
      return limit(async (): Promise<Outcome> => {
        touchPhase(req.phase);
        if (opts.signal?.aborted) {
          const reason = typeof opts.signal.reason === 'string' ? opts.signal.reason : INTERRUPTED;
          emit({ type: 'request-skip', request: req, reason });
          settlePhase(req.phase, 'skipped');
          return { status: 'skipped', reason };
        }
        emit({ type: 'request-start', request: req });
        try {
          const { id, recovered } = await send(req);
          if (id !== undefined && req.operation.op !== 'publishWorkbook') written.set(req.address, id);
          emit({ type: 'request-done', request: req, id, recovered });
          settlePhase(req.phase, 'applied');
          return { status: 'applied', id, recovered };
        } catch (e) {
          const error = toWscError(e, req);
          emit({ type: 'request-fail', request: req, error, pos: posOf(req.address) });
          settlePhase(req.phase, 'failed');
          return { status: 'failed', error };
        }
      });
    })();
    outcomes.set(req.id, p);
    return p;
  };

  const settled = await Promise.all(graph.requests.map((r) => outcomeOf(r).then((o) => [r, o] as const)));
  const result = summarise(plan, settled, posOf);
  for (const a of result.applied) {
    const lost = lostFolders.get(a.request.id);
    if (lost) a.lostFolder = lost;
  }
  const empty = emptyFolders(settled, lostFolders);
  if (empty.length > 0) result.emptyFolders = empty;
  return result;
}

/**
 * Folders this apply created (not one another run made first) of which no
 * request that needed them was applied: they are left empty, and wsc never
 * deletes a folder, so the summary names them.
 */
function emptyFolders(settled: ReadonlyArray<readonly [PlannedRequest, Outcome]>, lost: ReadonlyMap<string, unknown>): string[] {
  const applied = new Set(settled.filter(([, o]) => o.status === 'applied').map(([r]) => r.id));
  const out: string[] = [];
  for (const [r] of settled) {
    if (r.operation.op !== 'createFolder' || !applied.has(r.id) || lost.has(r.id)) continue;
    const users = settled.filter(([d]) => d.dependsOn.includes(r.id));
    if (users.length > 0 && users.every(([d]) => !applied.has(d.id))) out.push(r.address);
  }
  return out;
}

function summarise(
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
