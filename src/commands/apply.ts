// `wsc apply [PLANFILE]`: plan (or load a saved plan), confirm, execute.
// Thin: the work is in core/execute (orchestration), render/apply (output)
// and the shared plan preparation of `wsc plan`.
import { resolve } from 'node:path';
import type { ApplyOptions } from './options.js';
import { execute, type ApplyResult } from '../core/execute/index.js';
import { hasRequests, type Plan } from '../core/plan-model.js';
import type { Connection } from '../api/connect.js';
import { createOnlyError } from '../core/plan/create-only.js';
import { semanticError } from '../core/semantic/outcome.js';
import { EXIT, StalePlanError, UsageError } from '../errors.js';
import { applyStatus, renderApplyJson, renderApplySummary, renderInterrupted } from '../render/apply.js';
import { waysForward } from '../render/plan-ownership.js';
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
      hint:
        'Review the changes with `wsc plan`, then run `wsc apply ' +
        '--auto-approve`; or save a reviewed plan with `wsc plan --out ' +
        'plan.json` and apply exactly that with `wsc apply plan.json`.',
    });
  }
  const { preparePlan } = await import('./prepare.js');
  const prepared = await preparePlan(opts, ctx);
  try {
    const { plan } = prepared;
    // Members the data model lacks: refused before anything is shown or asked, with each one located.
    const refused = createOnlyError(plan) ?? semanticError(prepared.semantic, true);
    if (refused) throw refused;
    if (!hasRequests(plan)) return noChanges(plan, opts, ctx);
    const { renderPlanHuman } = await import('../render/plan-human.js');
    // The plan and the result on stdout, as `wsc plan` does (`wsc apply | tee apply.log` keeps both); progress
    // on stderr. With --output json, stdout holds the result's JSON alone, so the plan goes to stderr.
    const show = (text: string) => (opts.output === 'json' ? ctx.err(text) : ctx.out(text));
    show(renderPlanHuman(plan, ctx.style, opts.dir, { compact: opts.compact, semantic: prepared.semantic }));
    if (!opts.autoApprove) {
      const yes = await ctx.confirm('Apply these changes? (yes/no)');
      if (!yes) {
        show('Apply cancelled. Nothing was changed.\n');
        return EXIT.failure;
      }
    }
    return await executeAndReport(plan, prepared.conn, opts, ctx, true);
  } finally {
    await prepared.conn.close();
  }
}

/**
 * `wsc apply PLANFILE`: the plan was reviewed when it was saved, so nothing
 * but it is applied (no prompt, like Terraform), and only if nothing it read
 * has changed since. The file never chooses the connection (wsc.yaml, flags
 * and the environment do), and its requests are never sent as written: they
 * are derived again from the bundle and the deployment, and a file that
 * holds other requests is refused.
 */
async function applySavedPlan(planFile: string, opts: Options, ctx: CommandContext): Promise<number> {
  endPhase('start-up');
  if (opts.target.length > 0) {
    throw new UsageError('--target cannot be used with a saved plan: the plan already says what to change.', {
      code: 'target_with_plan',
      hint: 'Make a new saved plan with `wsc plan --target ADDR --out FILE`.',
    });
  }
  const { readSavedPlanFile } = await import('./saved-plan-file.js');
  const text = await readSavedPlanFile(resolve(ctx.cwd, planFile), planFile);
  const { parseSavedPlan } = await import('../core/saved-plan.js');
  const saved = parseSavedPlan(text, planFile);

  const { savedPlanDir, savedPlanEnvironment } = await import('./saved-plan-target.js');
  const dir = savedPlanDir(saved, opts, ctx.cwd);
  const env = await savedPlanEnvironment(saved.environment, dir, opts, ctx.env);
  const { loadValidBundle } = await import('../bundle/load.js');
  const { desired } = await loadValidBundle(dir, {
    vars: env.vars,
    env: ctx.env,
    mayHoldUnknownRefs: env.mayHoldUnknownRefs,
    tokenVariables: env.tokenVariables,
  });
  // Checked before anything is read, as for `wsc apply --target`.
  const { checkTargetsIn } = await import('../core/targets.js');
  if ((saved.targets ?? []).length > 0) checkTargetsIn(desired, saved.targets!);
  const { checkOwnershipAddresses, overridesOf } = await import('./prepare.js');
  const pruning = saved.plan.prune?.enabled === true;
  await checkOwnershipAddresses(desired, opts, pruning);

  const { connect } = await import('../api/connect.js');
  const { connectOptions } = await import('./connection.js');
  const conn = await connect(env, connectOptions(opts, ctx));
  try {
    const { hintsFor, readLiveState } = await import('../api/live.js');
    const { checkFingerprints } = await import('../core/fingerprint.js');
    const hints = hintsFor(desired);
    // Also when only the plan holds one: its fingerprint is checked below.
    if (saved.plan.fingerprints.some((f) => f.address.startsWith('user-attribute/'))) hints.userAttributes = true;
    const live = await readLiveState(conn.client, conn.deploymentId, hints);
    endPhase('read deployment');
    const drifts = checkFingerprints(saved.plan.fingerprints, live, {
      deploymentId: conn.deploymentId,
      publicIds: env.publicIds,
    });
    if (drifts.length > 0) {
      throw new StalePlanError(
        `The saved plan ${planFile} is stale: ${drifts.length} ` +
          `resource${drifts.length === 1 ? '' : 's'} changed since it was made. ` +
          `Nothing was applied.`,
        drifts.map((d) => `${d.address}: ${d.message}`),
        { hint: 'Run `wsc plan --out FILE` again, review it, and apply the new plan.' },
      );
    }
    const { plan } = await import('../core/plan/index.js');
    const { requestDifferences } = await import('../core/saved-plan-check.js');
    const derived = plan(desired, live, {
      environment: env.name,
      deploymentId: env.deploymentId,
      publicIds: env.publicIds,
      targets: saved.targets ?? [],
      fingerprints: false,
      // The same ownership as when the plan was saved; its deletes were reviewed then, so no cap applies
      // again (a delete the file holds that the bundle does not give is refused below like any request).
      ...(env.bundle !== undefined
        ? {
            ownership: {
              bundle: env.bundle,
              prune: saved.plan.prune?.enabled === true,
              maxDeletes: Number.MAX_SAFE_INTEGER,
              ...overridesOf(opts),
            },
          }
        : {}),
    });
    endPhase('plan');
    // The bundle changed since the plan was saved in a way only a create can make: never applied.
    if (pruning) await checkOwnershipAddresses(desired, opts, false, derived);
    const refused = createOnlyError(derived);
    if (refused) throw refused;
    const differences = requestDifferences(saved.plan, derived);
    if (differences.length > 0) {
      throw new UsageError(
        `The saved plan ${planFile} does not hold the requests that the bundle ` +
          `in ${dir} gives for this deployment. Nothing was applied.`,
        {
          code: 'saved_plan_differs',
          details: differences,
          hint:
            'The plan file or the bundle changed since the plan was saved. Run ' +
            '`wsc plan --out FILE` again, review it, and apply the new plan.',
        },
      );
    }
    if (!hasRequests(derived)) return noChanges(derived, opts, ctx);
    return await executeAndReport(derived, conn, opts, ctx);
  } finally {
    await conn.close();
  }
}

/** The resources the plan blocks (the flags that proceed were not given), with the reason and the ways forward. */
function refusedBlocked(plan: Plan, dir: string): Map<string, string> {
  const refuse = new Map<string, string>();
  for (const c of plan.changes) {
    if (c.actions[0] !== 'blocked' || c.blocked === undefined) continue;
    refuse.set(c.address, `${c.blocked.message}; left alone: ${waysForward(c, dir)}`);
  }
  return refuse;
}

function noChanges(plan: Plan, opts: Options, ctx: CommandContext): number {
  const counts = { created: 0, updated: 0, adopted: 0, published: 0 };
  const empty: ApplyResult = { applied: [], failed: [], skipped: [], resources: [], counts };
  ctx.out(opts.output === 'json' ? renderApplyJson(plan, empty) : NO_CHANGES);
  return EXIT.ok;
}

async function executeAndReport(
  plan: Plan,
  conn: Connection,
  opts: Options,
  ctx: CommandContext,
  shownPlan = false,
): Promise<number> {
  const progress = createProgress({
    style: ctx.style,
    write: (text) => ctx.err(text),
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
    result = await execute(plan, conn.port, {
      concurrency: opts.concurrency,
      onEvent: progress.onEvent,
      // The server gone (the client's breaker open) stops new requests like an interrupt.
      signal: AbortSignal.any([interrupt.signal, conn.client.breaker.signal]),
      refuse: refusedBlocked(plan, opts.dir),
    });
  } finally {
    stopListening();
    progress.stop();
  }
  endPhase('apply');
  // After a plan on stdout, a blank line sets the result apart.
  const gap = shownPlan && opts.output !== 'json' ? '\n' : '';
  ctx.out(opts.output === 'json' ? renderApplyJson(plan, result) : `${gap}${renderApplySummary(result, ctx.style)}`);
  const status = applyStatus(result);
  if (status === 'applied') return EXIT.ok;
  return status === 'blocked' ? EXIT.blocked : status === 'partial' ? EXIT.partial : EXIT.failure;
}
