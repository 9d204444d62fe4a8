// The executor: runs a plan's requests against an ApiPort. Pure
// orchestration: no I/O of its own (the port does it), no clock, no retries
// (the port retries; this layer resolves the one ambiguous outcome, a report
// create whose answer was lost, by reading it back: execute/send.ts).
//
// Scheduling is driven by dependencies: a request starts as soon as every
// request it depends on has succeeded, up to `concurrency` at a time. The
// phases follow from the dependencies (see execute/graph.ts), so user
// attributes and unrelated resources never wait for a whole phase.
import pLimit from 'p-limit';
import { InternalError, isWscError, type SourcePos, type WscError } from '../../errors.js';
import type { ApiPort } from '../api-port.js';
import { isDelete } from '../deletes.js';
import type { Plan, PlannedRequest } from '../plan-model.js';
import { buildGraph, type RequestGraph } from '../plan/graph.js';
import { trackPhases, type PhaseTracker } from './phases.js';
import { makeSender, type Sent } from './send.js';
import { emptyFolders, summarise } from './summary.js';
import { INTERRUPTED, type ApplyEvent, type ApplyResult, type ExecuteOptions, type Outcome } from './types.js';

export * from './types.js';

export async function execute(plan: Plan, port: ApiPort, opts: ExecuteOptions): Promise<ApplyResult> {
  const graph = buildGraph(plan);
  const emit = opts.onEvent ?? (() => {});
  const posOf = (address: string): SourcePos | undefined => graph.pos.get(address) ?? opts.desiredFiles?.get(address);

  // Ids written by this run, by address; they win over the ids the plan read.
  const written = new Map<string, number>();
  const lostFolders = new Map<string, { ours: number; deleted: boolean }>();
  const send = makeSender({
    plan,
    port,
    idOf: (address) => written.get(address) ?? graph.liveIds.get(address),
    posOf,
    onLostFolder: (id, lost) => lostFolders.set(id, lost),
  });
  const run = schedule(graph, {
    opts,
    emit,
    phases: trackPhases(graph.requests, emit),
    posOf,
    send: async (req) => {
      const sent = await send(req);
      if (sent.id !== undefined && req.operation.op !== 'publishWorkbook') written.set(req.address, sent.id);
      return sent;
    },
  });

  const settled = await Promise.all(graph.requests.map((r) => run(r).then((o) => [r, o] as const)));
  const result = summarise(plan, settled, posOf);
  for (const a of result.applied) {
    const lost = lostFolders.get(a.request.id);
    if (lost) a.lostFolder = lost;
  }
  const empty = emptyFolders(settled, lostFolders);
  if (empty.length > 0) result.emptyFolders = empty;
  return result;
}

interface Scheduling {
  opts: ExecuteOptions;
  emit: (e: ApplyEvent) => void;
  phases: PhaseTracker;
  posOf: (address: string) => SourcePos | undefined;
  send: (req: PlannedRequest) => Promise<Sent>;
}

/**
 * The outcome of each request, memoised: a request waits for those it depends
 * on, is skipped when one did not apply (or it is refused, or the run was
 * interrupted), else is sent within the concurrency limit. Deletes start once
 * every other request has ended, and not at all when one failed.
 */
function schedule(graph: RequestGraph, s: Scheduling): (req: PlannedRequest) => Promise<Outcome> {
  const { opts, emit, phases } = s;
  const limit = pLimit(Math.max(1, opts.concurrency));
  const outcomes = new Map<string, Promise<Outcome>>();

  const skip = (req: PlannedRequest, reason: string, blocked = false): Outcome => {
    phases.touch(req.phase);
    emit({ type: 'request-skip', request: req, reason });
    phases.settle(req.phase, 'skipped');
    return { status: 'skipped', reason, ...(blocked ? { blocked: true as const } : {}) };
  };

  let others: Promise<string | undefined> | undefined;
  const othersEnded = (): Promise<string | undefined> =>
    (others ??= Promise.all(graph.requests.filter((r) => !isDelete(r)).map((r) => outcomeOf(r))).then((os) => {
      const notApplied = (o: Outcome) => o.status === 'failed' || (o.status === 'skipped' && o.reason === INTERRUPTED);
      const failed = os.filter(notApplied).length;
      if (failed === 0) return undefined;
      return `not run: ${failed} other change${failed === 1 ? '' : 's'} did not apply, and deletes come last`;
    }));

  const sendNow = async (req: PlannedRequest): Promise<Outcome> => {
    phases.touch(req.phase);
    if (opts.signal?.aborted) {
      return skip(req, typeof opts.signal.reason === 'string' ? opts.signal.reason : INTERRUPTED);
    }
    emit({ type: 'request-start', request: req });
    try {
      const { id, recovered } = await s.send(req);
      emit({ type: 'request-done', request: req, id, recovered });
      phases.settle(req.phase, 'applied');
      return { status: 'applied', id, recovered };
    } catch (e) {
      const error = toWscError(e, req);
      emit({ type: 'request-fail', request: req, error, pos: s.posOf(req.address) });
      phases.settle(req.phase, 'failed');
      return { status: 'failed', error };
    }
  };

  const decide = async (req: PlannedRequest): Promise<Outcome> => {
    const refused = opts.refuse?.get(req.address);
    if (refused !== undefined) return skip(req, refused, true);
    const barrier = isDelete(req) ? await othersEnded() : undefined;
    if (barrier !== undefined) return skip(req, barrier);
    const deps = graph.deps.get(req.id) ?? [];
    const depOutcomes = await Promise.all(deps.map((d) => outcomeOf(graph.byId.get(d)!)));
    for (let i = 0; i < deps.length; i++) {
      const o = depOutcomes[i]!;
      if (o.status === 'applied') continue;
      if (o.status === 'failed') return skip(req, `depends on ${deps[i]} which failed`);
      return skip(req, o.reason, o.blocked === true);
    }
    return limit(() => sendNow(req));
  };

  const outcomeOf = (req: PlannedRequest): Promise<Outcome> => {
    if (!outcomes.has(req.id)) outcomes.set(req.id, decide(req));
    return outcomes.get(req.id)!;
  };
  return outcomeOf;
}

function toWscError(e: unknown, req: PlannedRequest): WscError {
  if (isWscError(e)) return e;
  const msg = e instanceof Error ? e.message : String(e);
  return new InternalError(`${req.id}: ${msg}`, { cause: e });
}
