// What `wsc plan` and `wsc apply` share: environment → bundle (validated
// before any connection is made) → connection → live state → plan. The
// caller owns the returned connection and must close it.
import { resolve } from 'node:path';
import type { ApplyOptions, PlanOptions } from './options.js';
import type { ResolvedEnvironment } from '../config/types.js';
import type { DesiredState, LiveState, OwnershipContext } from '../core/model.js';
import type { Plan } from '../core/plan-model.js';
import { UsageError, type Diagnostic } from '../errors.js';
import { renderDiagnostics } from '../render/diagnostics.js';
import { connectOptions } from './connection.js';
import type { CommandContext } from './context.js';
import { endPhase } from '../timings.js';
import type { SemanticOutcome } from '../core/semantic/outcome.js';

type Connection = Awaited<ReturnType<typeof import('../api/connect.js').connect>>;

export interface Prepared {
  env: ResolvedEnvironment;
  desired: DesiredState;
  warnings: Diagnostic[];
  conn: Connection;
  live: LiveState;
  plan: Plan;
  /** The members the bundle names, checked against the deployment's data model (or why not). */
  semantic: SemanticOutcome;
}

/** `--overwrite-ui-edits` and `--take-over` (apply only) as the planner takes them. */
export function overridesOf(opts: PlanOptions | ApplyOptions): Pick<OwnershipContext, 'overwrite' | 'takeOver'> {
  const out: Pick<OwnershipContext, 'overwrite' | 'takeOver'> = {};
  const { overwriteUiEdits: o, takeOver } = opts as ApplyOptions;
  if (o === true) out.overwrite = true;
  else if (Array.isArray(o) && o.length > 0) out.overwrite = [...o];
  if (takeOver !== undefined && takeOver.length > 0) out.takeOver = [...takeOver];
  return out;
}

/**
 * `--overwrite-ui-edits` and `--take-over` addresses must name a resource of the bundle (exit 3, did you mean);
 * an overwrite may also name a delete of `plan`. Before the plan (none given), the overwrite addresses are
 * left for later when `deferOverwrite` (prune is on).
 */
export async function checkOwnershipAddresses(
  desired: DesiredState,
  opts: PlanOptions | ApplyOptions,
  deferOverwrite: boolean,
  plan?: Plan,
): Promise<void> {
  const { overwriteUiEdits, takeOver } = opts as ApplyOptions;
  if (overwriteUiEdits === undefined && takeOver === undefined) return;
  const { checkTargets, targetableAddresses } = await import('../core/targets.js');
  const known = targetableAddresses(desired);
  if (plan === undefined && takeOver !== undefined) checkTargets(takeOver, known, '--take-over');
  if (!Array.isArray(overwriteUiEdits) || overwriteUiEdits.length === 0 || (plan === undefined && deferOverwrite)) {
    return;
  }
  const deletes = (plan?.changes ?? []).filter((c) => c.requests.some((r) => r.phase === 5)).map((c) => c.address);
  checkTargets(overwriteUiEdits, [...known, ...deletes], '--overwrite-ui-edits');
}

function ownershipOf(bundle: string, opts: PlanOptions | ApplyOptions, env: ResolvedEnvironment): OwnershipContext {
  const own: OwnershipContext = { bundle, prune: opts.prune === true || env.prune === true, ...overridesOf(opts) };
  if (opts.maxDeletes !== undefined) own.maxDeletes = opts.maxDeletes;
  return own;
}

export async function preparePlan(opts: PlanOptions | ApplyOptions, ctx: CommandContext): Promise<Prepared> {
  endPhase('start-up');
  // The client's modules (undici, zod schemas) load while the bundle is read:
  // loading code sends nothing, and it is half of a plan's start-up time.
  const later = Promise.all([
    import('../api/connect.js'),
    import('../api/live.js'),
    import('../core/plan/index.js'),
    import('./semantic.js'),
  ]);
  later.catch(() => undefined);
  const [{ resolveEnvironment }, { loadValidBundle }] = await Promise.all([
    import('../config/environment.js'),
    import('../bundle/load.js'),
  ]);
  const dir = resolve(ctx.cwd, opts.dir);
  const connOpts = connectOptions(opts, ctx);
  const env = await resolveEnvironment({
    dir,
    flags: { env: opts.env, baseUrl: opts.baseUrl, deployment: opts.deployment },
    env: ctx.env,
  });
  if (opts.prune === true && env.bundle === undefined) {
    throw new UsageError("--prune needs the bundle's name: wsc deletes only what carries it in its ownership record.", {
      code: 'bundle_name_required',
      hint:
        "Add `bundle: <name>` at the top of wsc.yaml (for example the repository's name) and apply once, " +
        "so that what wsc writes is recorded as this bundle's.",
    });
  }
  // An invalid bundle stops here, before any connection (exit 3, nothing sent).
  const { desired, warnings } = await loadValidBundle(dir, {
    vars: env.vars,
    env: ctx.env,
    mayHoldUnknownRefs: env.mayHoldUnknownRefs,
    tokenVariables: env.tokenVariables,
  });
  if (warnings.length > 0) ctx.err(renderDiagnostics(warnings, ctx.style));
  // An unknown --target stops here too: nothing is read for a run that cannot do what was asked.
  if (opts.target.length > 0) (await import('../core/targets.js')).checkTargetsIn(desired, opts.target);
  // So is an address of --overwrite-ui-edits or --take-over: a typo there would leave the resource guarded with
  // no word said. With prune, an overwrite may name a delete, known once the deployment is read: checked then.
  const pruning = opts.prune === true || env.prune === true;
  await checkOwnershipAddresses(desired, opts, pruning);
  endPhase('bundle');

  const [{ connect }, { hintsFor, readLiveState }, { plan, splitUnreadable }, { reportSemantic, startSemanticCheck }] =
    await later;
  const conn = await connect(env, connOpts);
  try {
    const where = env.embedded ? 'the embedded emulator' : env.baseUrl;
    ctx.err(ctx.style.c.dim(`Reading deployment ${env.deploymentId} at ${where} (environment ${env.name})…\n`));
    const reading = readLiveState(conn.client, conn.deploymentId, hintsFor(desired));
    reading.catch(() => undefined);
    // The data model is read beside the live state (one round trip more at most); the members are found while
    // the lists' first pages are on their way.
    const semanticRun = startSemanticCheck(
      desired,
      env,
      { skip: opts.skipSemanticCheck, targets: opts.target },
      conn,
      connOpts,
    );
    semanticRun.catch(() => undefined);
    const live = await reading;
    const semantic = await semanticRun;
    reportSemantic(semantic, env.deploymentId, ctx);
    endPhase('read deployment');
    if (live.unreadable) {
      const { renderUnreadableWarnings } = await import('../render/unreadable.js');
      ctx.err(renderUnreadableWarnings(splitUnreadable(desired, live, env).unmanaged, ctx.style));
    }
    const p = plan(desired, live, {
      environment: env.name,
      deploymentId: env.deploymentId,
      publicIds: env.publicIds,
      targets: opts.target,
      // Only `plan --out` saves the plan, with the fingerprints apply checks.
      fingerprints: 'out' in opts && opts.out !== undefined,
      ...(opts.showUnmanaged === true ? { listUnmanaged: true } : {}),
      ...(env.bundle !== undefined ? { ownership: ownershipOf(env.bundle, opts, env) } : {}),
    });
    endPhase('plan');
    if (pruning) await checkOwnershipAddresses(desired, opts, false, p);
    return { env, desired, warnings, conn, live, plan: p, semantic };
  } catch (e) {
    await conn.close();
    throw e;
  }
}
