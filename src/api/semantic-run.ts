// The semantic check's run against a deployment (plan, apply and `validate
// --semantic-check`): the model read beside the live state, the bundle's
// members checked against it, and the names `/v1/meta` does not list asked
// of Cube's planner for the resources the plan creates or changes. Bounded:
// the model read has WSC_SEMANTIC_TIMEOUT (SEMANTIC_TIMEOUT_S by default),
// the planner's questions as much again (then a warning, the plan goes on),
// the planner is asked PLANNER_CONCURRENCY queries at once and MAX_ASKS in
// all, and a run that fails elsewhere ends the step at once (abort). Never
// throws for an unreadable model: that is its outcome.
import pLimit from 'p-limit';
import type { Connection, ConnectOptions } from './connect.js';
import { readDataModel } from './data-model.js';
import { checkMembers, countUses, type ResourceMembers } from '../core/semantic/check.js';
import { plannedAsks, settle } from '../core/semantic/confirm.js';
import { indexModel } from '../core/semantic/model-index.js';
import type { SemanticOutcome } from '../core/semantic/outcome.js';
import { SEMANTIC_TIMEOUT_S } from '../defaults.js';
import { dataModelPaths, type PlannerVerdict } from '../domain/data-model.js';

/** Queries asked of Cube's planner at once (its connections). */
export const PLANNER_CONCURRENCY = 4;

export interface SemanticRun {
  /**
   * The outcome, once the model is read and the names it does not list are asked of Cube's planner for
   * the resources `changes` says the plan creates or changes.
   */
  finish(changes: (address: string) => boolean): Promise<SemanticOutcome>;
  /** The run failed elsewhere: what is in flight ends now. */
  abort(): void;
}

/** `p`, or the signal's reason as a rejection as soon as it is aborted. */
function until<T>(p: Promise<T>, signal: AbortSignal): Promise<T> {
  if (signal.aborted) return Promise.reject(signal.reason as Error);
  return new Promise<T>((resolve, reject) => {
    const stop = () => reject(signal.reason as Error);
    signal.addEventListener('abort', stop, { once: true });
    p.then(resolve, reject).finally(() => signal.removeEventListener('abort', stop));
  });
}

/** The data model's read, started before the members to check are known (beside an early live read). */
export interface ModelRead {
  read: ReturnType<typeof readDataModel>;
  stop: AbortController;
  /** The budget's timer, from the read's start. */
  timer: NodeJS.Timeout;
  /** Nothing will be checked: what is in flight ends now and the Core Data API's client is closed. */
  drop(): void;
}

/**
 * The time the model read may take, from its start, and the planner's questions as much again: past it, what is
 * not known is a warning.
 */
const budgetOf = (connOpts: ConnectOptions): number => connOpts.semanticTimeoutMs ?? SEMANTIC_TIMEOUT_S * 1000;

/** Starts reading the deployment's data model (its requests leave before this returns). */
export function startModelRead(conn: Connection, connOpts: ConnectOptions): ModelRead {
  const budgetMs = budgetOf(connOpts);
  const stop = new AbortController();
  // The model's read has the budget from the start (beside the live read); the planner's questions, once the
  // plan is known, the budget again: what the step can add to the run after the plan is bounded either way.
  const timer = setTimeout(
    () =>
      stop.abort(
        new Error(`no answer within ${budgetMs / 1000} s, the semantic check's time budget (WSC_SEMANTIC_TIMEOUT)`),
      ),
    budgetMs,
  );
  timer.unref();
  const read = readDataModel(conn.client, conn.deploymentId, {
    maxRetries: connOpts.maxRetries,
    connections: PLANNER_CONCURRENCY,
    signal: stop.signal,
    ...(connOpts.requestTimeoutMs !== undefined ? { requestTimeoutMs: connOpts.requestTimeoutMs } : {}),
    ...(connOpts.trace ? { trace: connOpts.trace } : {}),
    ...(connOpts.notice ? { notice: connOpts.notice } : {}),
  });
  // A read that ends after the budget or an abort still holds a client: closed as soon as it is in.
  read.then((r) => (r.ok && stop.signal.aborted ? r.core.close() : undefined)).catch(() => undefined);
  const drop = () => {
    clearTimeout(timer);
    stop.abort(new Error('nothing to check'));
  };
  return { read, stop, timer, drop };
}

/**
 * Starts the check of `resources`' members: the model's requests leave before this returns (so that they run
 * beside the live read, in an order that does not depend on timing), unless `model` was started earlier.
 */
export function runSemanticCheck(
  resources: ResourceMembers[],
  conn: Connection,
  connOpts: ConnectOptions,
  model: ModelRead = startModelRead(conn, connOpts),
): SemanticRun {
  const budgetMs = budgetOf(connOpts);
  const members = countUses(resources);
  const { stop, read } = model;
  let timer = model.timer;
  // The members are checked against `/v1/meta` as soon as it is in, while the live read goes on.
  const tried =
    `GET ${dataModelPaths.environments(conn.deploymentId)} and POST ${dataModelPaths.token(conn.deploymentId)}, ` +
    'then /v1/meta';
  const checked = until(read, stop.signal).then(
    (r) => {
      if (!r.ok) return r;
      const index = indexModel(r.meta);
      return { ...r, index, ...checkMembers(resources, index) };
    },
    (e: unknown) => ({ ok: false as const, tried, why: e instanceof Error ? e.message : String(e) }),
  );
  checked.catch(() => undefined);
  const finish = async (changes: (address: string) => boolean): Promise<SemanticOutcome> => {
    try {
      const c = await checked;
      if (!c.ok) return { status: 'unavailable', members, tried: c.tried, why: c.why };
      const { asks, notAsked } = plannedAsks(c.pending, changes);
      clearTimeout(timer);
      const late = `Cube's planner did not answer within ${budgetMs / 1000} s, the check's time budget`;
      timer = setTimeout(() => stop.abort(new Error(`${late} (WSC_SEMANTIC_TIMEOUT)`)), budgetMs);
      timer.unref();
      const verdicts = new Map<string, PlannerVerdict>();
      const limit = pLimit(PLANNER_CONCURRENCY);
      // In turn until one is accepted; the first refusal is the one shown.
      const ask = async (format: 'rest' | 'sql', queries: readonly unknown[]): Promise<PlannerVerdict> => {
        let first: PlannerVerdict | undefined;
        for (const q of queries) {
          const v = await c.core.plan(format, q);
          if (v.kind === 'accepted') return v;
          first ??= v;
        }
        return first!;
      };
      const once = new Map<string, Promise<void>>();
      for (const a of asks)
        if (!once.has(a.key))
          once.set(
            a.key,
            limit(async () => {
              if (stop.signal.aborted) return;
              const v = await ask(a.format, a.queries);
              if (!stop.signal.aborted || v.kind !== 'unavailable') verdicts.set(a.key, v);
            }),
          );
      const asked = [...once.values()];
      await until(Promise.all(asked), stop.signal).catch(() => undefined);
      limit.clearQueue();
      await c.core.close();
      return { status: 'checked', cubes: c.index.cubes.size, result: settle(c.result, asks, verdicts, notAsked) };
    } finally {
      clearTimeout(timer);
    }
  };
  return {
    finish,
    abort: () => {
      clearTimeout(timer);
      stop.abort(new Error('the run ended'));
    },
  };
}
