// `wsc apply PLANFILE`: the plan was reviewed when it was saved, so nothing
// but it is applied (no prompt, like Terraform), and only if nothing it read
// has changed since. The file never chooses the connection (wsc.yaml, flags
// and the environment do), and its requests are never sent as written: they
// are derived again by the steps `wsc plan` takes (environment → bundle →
// connect → read → plan), and a file that holds other requests is refused.
import { resolve } from 'node:path';
import { connect, type Connection } from '../api/connect.js';
import type { ResolvedEnvironment } from '../config/types.js';
import { checkFingerprints } from '../core/fingerprint.js';
import type { LiveState } from '../core/model.js';
import type { Plan } from '../core/plan-model.js';
import { createOnlyError } from '../core/plan/create-only.js';
import { requestDifferences } from '../core/saved-plan-check.js';
import { parseSavedPlan, type SavedPlan } from '../core/saved-plan.js';
import { savedSemanticWarning } from '../core/semantic/outcome.js';
import { visible } from '../visible.js';
import { StalePlanError, UsageError } from '../errors.js';
import { endPhase } from '../timings.js';
import type { ApplyOptions } from './options.js';
import { connectOptions } from './connection.js';
import type { CommandContext } from './context.js';
import { checkedBundle } from './prepare.js';
import { checkOwnershipAddresses, overridesOf } from '../core/plan/ownership-flags.js';
import { readSavedPlanFile } from './saved-plan-file.js';
import { savedPlanDir, savedPlanEnvironment } from './saved-plan-target.js';
import { planOf, readLive } from './steps.js';

/** The plan derived again, equal to the file's; the caller applies it and closes the connection. */
export async function applySavedPlan(
  planFile: string,
  opts: ApplyOptions,
  ctx: CommandContext,
): Promise<{ plan: Plan; conn: Connection }> {
  endPhase('start-up');
  if (opts.target.length > 0) {
    throw new UsageError('--target cannot be used with a saved plan: the plan already says what to change.', {
      code: 'target_with_plan',
      hint: 'Make a new saved plan with `wsc plan --target ADDR --out FILE`.',
    });
  }
  const saved = parseSavedPlan(await readSavedPlanFile(resolve(ctx.cwd, planFile), planFile), planFile);
  const uiEdits = saved.plan.uiEdits;
  if (opts.uiEdits !== undefined && opts.uiEdits !== (uiEdits ?? 'keep')) {
    throw new UsageError(
      `--ui-edits ${opts.uiEdits} cannot change a saved plan made with uiEdits ${uiEdits ?? 'keep'}.`,
      {
        code: 'ui_edits_with_plan',
        hint: `Make a new saved plan with \`wsc plan --ui-edits ${opts.uiEdits} --out FILE\`.`,
      },
    );
  }
  // The check is not run again: what it was when the plan was saved is said, so that an off check is not missed.
  const unchecked = savedSemanticWarning(saved.semanticCheck);
  if (unchecked !== undefined) ctx.err(`${ctx.style.c.yellow('warning')} ${visible(unchecked)}.\n`);
  const dir = savedPlanDir(saved, opts, ctx.cwd);
  const { environment: env, client } = await savedPlanEnvironment(saved.environment, dir, opts, ctx);
  const targets = saved.targets ?? [];
  const pruning = saved.plan.prune?.enabled === true;
  const { desired } = await checkedBundle(dir, env, { opts, targets, pruning }, ctx);

  const conn = await connect(env, connectOptions(opts, client, ctx));
  try {
    // Also when only the plan holds one: its fingerprint is checked below.
    const userAttributes = saved.plan.fingerprints.some((f) => f.address.startsWith('user-attribute/'));
    const live = await readLive(conn, desired, userAttributes ? { userAttributes: true } : {});
    endPhase('read deployment');
    refuseDrift(saved, live, env, planFile);
    const derived = planOf(desired, live, env, {
      targets,
      // The same ownership as when the plan was saved; its deletes were reviewed then, so no cap applies
      // again (a delete the file holds that the bundle does not give is refused below like any request).
      ...(env.bundle !== undefined
        ? {
            ownership: {
              bundle: env.bundle,
              prune: pruning,
              maxDeletes: Number.MAX_SAFE_INTEGER,
              ...overridesOf(opts),
              // The policy the plan was made with, whatever wsc.yaml says now.
              ...(uiEdits !== undefined ? { uiEdits } : {}),
            },
          }
        : {}),
    });
    endPhase('plan');
    if (pruning) checkOwnershipAddresses(desired, opts, false, derived);
    // The bundle changed since the plan was saved in a way only a create can make: never applied.
    const refused = createOnlyError(derived);
    if (refused) throw refused;
    refuseOtherRequests(saved, derived, planFile, dir);
    return { plan: derived, conn };
  } catch (e) {
    await conn.close();
    throw e;
  }
}

/** A resource the plan read that changed since it was saved: the plan is stale, nothing is applied. */
function refuseDrift(saved: SavedPlan, live: LiveState, env: ResolvedEnvironment, planFile: string): void {
  const drifts = checkFingerprints(saved.plan.fingerprints, live, {
    deploymentId: env.deploymentId,
    publicIds: env.publicIds,
  });
  if (drifts.length === 0) return;
  throw new StalePlanError(
    `The saved plan ${planFile} is stale: ${drifts.length} ` +
      `resource${drifts.length === 1 ? '' : 's'} changed since it was made. ` +
      `Nothing was applied.`,
    drifts.map((d) => `${d.address}: ${d.message}`),
    { hint: 'Run `wsc plan --out FILE` again, review it, and apply the new plan.' },
  );
}

/** The comparison with the file: the requests derived again must be the file's. */
function refuseOtherRequests(saved: SavedPlan, derived: Plan, planFile: string, dir: string): void {
  const differences = requestDifferences(saved.plan, derived);
  if (differences.length === 0) return;
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
