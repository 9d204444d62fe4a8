// `wsc apply PLANFILE`: the plan was reviewed when it was saved, so nothing
// but it is applied (no prompt, like Terraform), and only if nothing it read
// has changed since. The file never chooses the connection (wsc.yaml, flags
// and the environment do), and its requests are never sent as written: they
// are derived again by the steps `wsc plan` takes (environment → bundle →
// connect → read → plan), and a file that holds other requests is refused.
import { resolve } from 'node:path';
import { connect, type Connection } from '../api/connect.js';
import type { ApplyOptions } from '../command-options.js';
import type { Plan } from '../core/plan-model.js';
import { createOnlyError } from '../core/plan/create-only.js';
import { checkOwnershipAddresses } from '../core/plan/ownership-flags.js';
import {
  refuseOtherDeployment,
  refuseOtherUiEdits,
  refuseTargetWithPlan,
  savedPlanOwnership,
} from '../core/saved-plan-apply.js';
import { refuseDrift, refuseOtherRequests } from '../core/saved-plan-check.js';
import { parseSavedPlan, savedPlanFlags } from '../core/saved-plan.js';
import { savedSemanticWarning } from '../core/semantic/outcome.js';
import { savedPlanDir } from '../plan-file/dir.js';
import { readSavedPlanFile } from '../plan-file/read.js';
import { visible } from '../visible.js';
import { endPhase } from '../timings.js';
import { configure } from './configure.js';
import { connectOptions } from './connection.js';
import type { CommandContext } from './context.js';
import { checkedBundle } from './prepare.js';
import { planOf, readLive } from './steps.js';
import { planAgain, planCommand, shellArg, type PlanFlags } from '../render/run-commands.js';

/** The plan derived again, equal to the file's; the caller applies it and closes the connection. */
export async function applySavedPlan(
  planFile: string,
  opts: ApplyOptions,
  ctx: CommandContext,
): Promise<{ plan: Plan; conn: Connection; run: PlanFlags }> {
  endPhase('start-up');
  refuseTargetWithPlan(opts.target);
  const save = planCommand(`--out ${shellArg(planFile)}`, opts);
  const saved = parseSavedPlan(await readSavedPlanFile(resolve(ctx.cwd, planFile), planFile, save), planFile);
  const uiEdits = saved.plan.uiEdits;
  refuseOtherUiEdits(uiEdits, opts.uiEdits);
  // The check is not run again: what it was when the plan was saved is said, so that an off check is not missed.
  const unchecked = savedSemanticWarning(saved.semanticCheck);
  if (unchecked !== undefined) ctx.err(`${ctx.style.c.yellow('warning')} ${visible(unchecked)}.\n`);
  const dir = savedPlanDir(saved.bundleDir, opts, ctx.cwd);
  // The environment --env or WSC_ENV names, else the plan's; it must be the deployment the plan was made for.
  const { environment: env, client } = await configure(opts, ctx, { dir, envName: saved.environment.name });
  refuseOtherDeployment(saved.environment, env);
  const flags = savedPlanFlags(saved, env.uiEdits);
  const { target: targets, prune: pruning } = flags;
  // The ways forward name the plan's bundle, environment and what it planned.
  const shown = opts.dirGiven === true || saved.bundleDir === undefined ? opts.dir : saved.bundleDir;
  const run = { dir: shown, env: env.name, baseUrl: opts.baseUrl, deployment: opts.deployment, ...flags };
  const { desired } = await checkedBundle(dir, env, { opts, targets, pruning, shown: run }, ctx);

  const conn = await connect(env, connectOptions(opts, client, ctx));
  try {
    // Also when only the plan holds one: its fingerprint is checked below.
    const userAttributes = saved.plan.fingerprints.some((f) => f.address.startsWith('user-attribute/'));
    const live = await readLive(conn, desired, userAttributes ? { userAttributes: true } : {});
    endPhase('read deployment');
    const again = planAgain(planFile, run);
    refuseDrift(saved.plan, live, env, planFile, again);
    const derived = planOf(desired, live, env, {
      targets,
      ...(env.bundle !== undefined ? { ownership: savedPlanOwnership(env.bundle, pruning, opts, uiEdits) } : {}),
    });
    endPhase('plan');
    if (pruning) checkOwnershipAddresses(desired, opts, false, derived);
    // The bundle changed since the plan was saved in a way only a create can make: never applied.
    const refused = createOnlyError(derived);
    if (refused) throw refused;
    refuseOtherRequests(saved.plan, derived, planFile, dir, again);
    return { plan: derived, conn, run };
  } catch (e) {
    await conn.close();
    throw e;
  }
}
