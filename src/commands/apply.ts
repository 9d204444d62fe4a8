// `wsc apply [PLANFILE]`: plan (or load a saved plan), confirm, execute.
// Thin: the work is in core/execute (orchestration), render/apply (output)
// and the shared plan preparation of `wsc plan`.
import { readFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import type { ApplyOptions } from '../cli.js';
import { execute, type ApplyResult } from '../core/execute.js';
import { hasChanges, type ApiPort, type Plan } from '../core/model.js';
import { createOnlyError } from '../core/plan/create-only.js';
import type { ResolvedEnvironment } from '../config/types.js';
import type { SavedPlanEnvironment } from '../core/saved-plan.js';
import { envValue } from '../env.js';
import { ConfigError, EXIT, StalePlanError, UsageError } from '../errors.js';
import { applyStatus, renderApplyJson, renderApplySummary, renderInterrupted } from '../render/apply.js';
import { createProgress } from '../render/progress.js';
import type { CommandContext } from './context.js';
import { endPhase } from '../timings.js';

type Options = ApplyOptions & { args?: string[] };

const NO_CHANGES = 'No changes. The deployment matches the bundle.\n';

export async function run(opts: Options, ctx: CommandContext): Promise<number> {
  const planFile = opts.args?.[0];
  if (planFile !== undefined) return applySavedPlan(planFile, opts, ctx);

  // Checked before anything is read: without a terminal nobody can answer.
  if (!ctx.interactive && !opts.autoApprove) {
    throw new UsageError('apply needs confirmation: pass --auto-approve when not on a terminal', {
      code: 'confirmation_required',
      hint: 'Review the changes with `wsc plan`, then run `wsc apply --auto-approve`; or save a reviewed plan with `wsc plan --out plan.json` and apply exactly that with `wsc apply plan.json`.',
    });
  }
  const { preparePlan } = await import('./prepare.js');
  const prepared = await preparePlan(opts, ctx);
  try {
    const { plan } = prepared;
    const refused = createOnlyError(plan);
    if (refused) throw refused;
    if (!hasChanges(plan)) return noChanges(plan, opts, ctx);
    const { renderPlanHuman } = await import('../render/plan-human.js');
    ctx.err(renderPlanHuman(plan, ctx.style));
    if (!opts.autoApprove) {
      const yes = await ctx.confirm('Apply these changes? (yes/no)');
      if (!yes) {
        ctx.err('Apply cancelled. Nothing was changed.\n');
        return EXIT.failure;
      }
    }
    return await executeAndReport(plan, prepared.conn.port, opts, ctx);
  } finally {
    await prepared.conn.close();
  }
}

/**
 * `wsc apply PLANFILE`: the plan was reviewed when it was saved, so it is
 * applied exactly as saved (no re-planning, no prompt, like Terraform), but
 * only if nothing it read has changed since.
 */
async function applySavedPlan(planFile: string, opts: Options, ctx: CommandContext): Promise<number> {
  endPhase('start-up');
  if (opts.target.length > 0) {
    throw new UsageError('--target cannot be used with a saved plan: the plan already says what to change.', {
      code: 'target_with_plan',
      hint: 'Make a new saved plan with `wsc plan --target ADDR --out FILE`.',
    });
  }
  const file = resolve(ctx.cwd, planFile);
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (e) {
    throw new UsageError(`Cannot read the saved plan ${planFile}: ${(e as NodeJS.ErrnoException).code ?? String(e)}.`, {
      code: 'plan_file_unreadable',
      hint: 'Save a plan with `wsc plan --out FILE` first.',
    });
  }
  const { parseSavedPlan } = await import('../core/saved-plan.js');
  const saved = parseSavedPlan(text, planFile);

  const env = await savedPlanEnvironment(saved.environment, opts, ctx);

  const { connect } = await import('../api/connect.js');
  const { connectOptions } = await import('./connection.js');
  const conn = await connect(env, connectOptions(opts, ctx));
  try {
    const { readLiveState } = await import('../api/live.js');
    const { checkFingerprints } = await import('../core/fingerprint.js');
    const live = await readLiveState(conn.client, conn.deploymentId);
    endPhase('read deployment');
    const drifts = checkFingerprints(saved.plan.fingerprints, live, {
      deploymentId: conn.deploymentId,
      publicIds: saved.plan.publicIds,
    });
    if (drifts.length > 0) {
      throw new StalePlanError(
        `The saved plan ${planFile} is stale: ${drifts.length} resource${drifts.length === 1 ? '' : 's'} changed since it was made. Nothing was applied.`,
        drifts.map((d) => `${d.address}: ${d.message}`),
        { hint: 'Run `wsc plan --out FILE` again, review it, and apply the new plan.' },
      );
    }
    if (!hasChanges(saved.plan)) return noChanges(saved.plan, opts, ctx);
    return await executeAndReport(saved.plan, conn.port, opts, ctx);
  } finally {
    await conn.close();
  }
}

/**
 * The environment to apply a saved plan to. Flags and environment variables
 * may name it; when nothing does, the plan's own environment is used. Either
 * way it must be the deployment the plan was made for.
 */
async function savedPlanEnvironment(saved: SavedPlanEnvironment, opts: Options, ctx: CommandContext): Promise<ResolvedEnvironment> {
  const { resolveEnvironment } = await import('../config/environment.js');
  const dir = resolve(ctx.cwd, opts.dir);
  const flags = { env: opts.env, baseUrl: opts.baseUrl, deployment: opts.deployment };
  const named = [opts.env, opts.baseUrl, envValue(ctx.env, 'WSC_ENV'), envValue(ctx.env, 'WSC_BASE_URL')].some((v) => v !== undefined);
  let env: ResolvedEnvironment;
  if (named) {
    env = await resolveEnvironment({ dir, flags, env: ctx.env });
  } else {
    try {
      env = await resolveEnvironment({ dir, flags: { ...flags, env: saved.name }, env: ctx.env });
    } catch (e) {
      // Made with --base-url (no wsc.yaml environment of that name): the plan says where.
      if (!(e instanceof ConfigError && e.code === 'env_unknown' && saved.baseUrl)) throw e;
      env = await resolveEnvironment({
        dir,
        flags: { baseUrl: saved.baseUrl, deployment: opts.deployment ?? saved.deploymentId },
        env: ctx.env,
      });
    }
  }
  const where = (e: { embedded: boolean; baseUrl?: string; deploymentId: number }) =>
    `deployment ${e.deploymentId} ${e.embedded ? 'of the embedded emulator' : `at ${e.baseUrl}`}`;
  if (env.deploymentId !== saved.deploymentId || env.embedded !== saved.embedded || (saved.baseUrl !== undefined && env.baseUrl !== undefined && saved.baseUrl !== env.baseUrl)) {
    throw new UsageError(`The saved plan was made for ${where(saved)} (environment ${saved.name}), but this run targets ${where(env)} (environment ${env.name}).`, {
      code: 'plan_target_mismatch',
      hint: 'Apply the plan to the deployment it was made for (drop the --env, --base-url or --deployment that differ), or make a new plan for this one.',
    });
  }
  return env;
}

function noChanges(plan: Plan, opts: Options, ctx: CommandContext): number {
  if (opts.output === 'json') {
    const empty: ApplyResult = { applied: [], failed: [], skipped: [], resources: [], counts: { created: 0, updated: 0, adopted: 0, published: 0 } };
    ctx.out(renderApplyJson(plan, empty));
  } else {
    ctx.out(NO_CHANGES);
  }
  return EXIT.ok;
}

async function executeAndReport(plan: Plan, port: ApiPort, opts: Options, ctx: CommandContext): Promise<number> {
  const progress = createProgress({
    style: ctx.style,
    write: ctx.err,
    ...(ctx.style.spinner ? { stream: process.stderr } : {}),
  });
  // Ctrl-C (or the CI runner's SIGTERM) while writing: start nothing new,
  // let the requests in flight end, and report what was applied; a second
  // signal ends the process at once.
  const interrupt = new AbortController();
  const stopListening = ctx.onInterrupt((signal) => {
    interrupt.abort();
    ctx.err(renderInterrupted(signal, ctx.style));
  });
  let result: ApplyResult;
  try {
    result = await execute(plan, port, { concurrency: opts.concurrency, onEvent: progress.onEvent, signal: interrupt.signal });
  } finally {
    stopListening();
    progress.stop();
  }
  endPhase('apply');
  ctx.out(opts.output === 'json' ? renderApplyJson(plan, result) : renderApplySummary(result, ctx.style));
  const status = applyStatus(result);
  return status === 'applied' ? EXIT.ok : status === 'partial' ? EXIT.partial : EXIT.failure;
}
