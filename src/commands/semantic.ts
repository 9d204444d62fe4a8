// The semantic check of plan and apply (and `validate --semantic-check`):
// whether it runs (--skip-semantic-check, the environment's
// `semanticCheck: false`), the model read beside the live state, the bundle's
// members checked against it, and the names `/v1/meta` does not list asked
// of Cube's planner for the resources the plan creates or changes. Bounded:
// the model read has SEMANTIC_BUDGET_MS, the planner's questions as much again (then a warning, the plan goes on),
// the planner is asked PLANNER_CONCURRENCY queries at once and MAX_ASKS in
// all, and a run that fails elsewhere ends the step at once (abort). Never
// throws for an unreadable model: that is a warning on stderr.
import pLimit from 'p-limit';
import type { Connection, ConnectOptions } from '../api/connect.js';
import { readDataModel } from '../api/data-model.js';
import { locatorOf } from '../bundle/locate.js';
import type { ResolvedEnvironment } from '../config/types.js';
import type { DesiredState } from '../core/model.js';
import type { Plan } from '../core/plan-model.js';
import { bundleMembers, checkMembers, countUses } from '../core/semantic/check.js';
import { plannedAsks, settle } from '../core/semantic/confirm.js';
import { indexModel } from '../core/semantic/model-index.js';
import type { SemanticOutcome } from '../core/semantic/outcome.js';
import { dataModelPaths, type PlannerVerdict } from '../domain/data-model.js';
import { semanticHuman, semanticInPlan } from '../render/plan-semantic.js';
import type { CommandContext } from './context.js';
import { visible } from '../visible.js';

/** The time the whole step may take, from its start: past it, what is not known is a warning. */
const SEMANTIC_BUDGET_MS = 10_000;
/** Queries asked of Cube's planner at once (its connections). */
export const PLANNER_CONCURRENCY = 4;

export interface SemanticRequest {
  skip?: boolean | undefined;
  /** `--target` addresses: only their members are checked. */
  targets?: readonly string[];
}

export interface SemanticRun {
  /**
   * The outcome, once the model is read and the names it does not list are asked of Cube's planner for
   * the resources `changes` says the plan creates or changes.
   */
  finish(changes: (address: string) => boolean): Promise<SemanticOutcome>;
  /** The run failed elsewhere: what is in flight ends now. */
  abort(): void;
}

/** The addresses a plan creates or changes (what Cube's planner is asked about). */
export function changesOf(plan: Plan): (address: string) => boolean {
  const changed = new Set(
    plan.changes
      .filter((c) => c.actions.some((a) => a === 'create' || a === 'update' || a === 'adopt' || a === 'publish'))
      .map((c) => c.address),
  );
  return (a) => changed.has(a);
}

const settled = (o: SemanticOutcome): SemanticRun => ({ finish: () => Promise.resolve(o), abort: () => undefined });

/** `p`, or the signal's reason as a rejection as soon as it is aborted. */
function until<T>(p: Promise<T>, signal: AbortSignal): Promise<T> {
  if (signal.aborted) return Promise.reject(signal.reason as Error);
  return new Promise<T>((resolve, reject) => {
    const stop = () => reject(signal.reason as Error);
    signal.addEventListener('abort', stop, { once: true });
    p.then(resolve, reject).finally(() => signal.removeEventListener('abort', stop));
  });
}

/**
 * Starts the check: the model's requests leave before this returns (so that they run beside the live
 * read, in an order that does not depend on timing).
 */
export function startSemanticCheck(
  desired: DesiredState,
  env: ResolvedEnvironment,
  req: SemanticRequest,
  conn: Connection,
  connOpts: ConnectOptions,
  budgetMs = SEMANTIC_BUDGET_MS,
): SemanticRun {
  if (req.skip === true) return settled({ status: 'off', reason: '--skip-semantic-check' });
  if (env.semanticCheck === false)
    return settled({ status: 'off', reason: `semanticCheck: false in wsc.yaml for ${env.name}` });
  const only = req.targets !== undefined && req.targets.length > 0 ? new Set(req.targets) : undefined;
  const resources = bundleMembers(desired, { only, locatorOf });
  if (resources.length === 0) return settled({ status: 'none' });
  const members = countUses(resources);
  const stop = new AbortController();
  // The model's read has the budget from the start (beside the live read); the planner's questions, once the
  // plan is known, the budget again: what the step can add to the run after the plan is bounded either way.
  let timer = setTimeout(
    () => stop.abort(new Error(`no answer within ${budgetMs / 1000} s, the semantic check's time budget`)),
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
  // A read that ends after the budget or an abort still holds a client: closed as soon as it is in.
  read.then((r) => (r.ok && stop.signal.aborted ? r.core.close() : undefined)).catch(() => undefined);
  const finish = async (changes: (address: string) => boolean): Promise<SemanticOutcome> => {
    try {
      const c = await checked;
      if (!c.ok) return { status: 'unavailable', members, tried: c.tried, why: c.why };
      const { asks, notAsked } = plannedAsks(c.pending, changes);
      clearTimeout(timer);
      timer = setTimeout(
        () =>
          stop.abort(new Error(`Cube's planner did not answer within ${budgetMs / 1000} s, the check's time budget`)),
        budgetMs,
      );
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

/**
 * On stderr: the warning of a model that could not be read (what was tried and why it failed), or,
 * when the plan does not show the check (every member known), what was checked and what could not be.
 */
export function reportSemantic(o: SemanticOutcome, deploymentId: number, ctx: CommandContext): void {
  if (!semanticInPlan(o)) ctx.err(semanticHuman(o, deploymentId, ctx.style, true));
  if (o.status !== 'unavailable') return;
  ctx.err(
    `${ctx.style.c.yellow('warning')} the semantic check did not run: the data model could not be read ` +
      `(${visible(o.why)}). Tried: ${visible(o.tried)}. The ${o.members} member use(s) the bundle names are ` +
      `not checked.\n`,
  );
}
