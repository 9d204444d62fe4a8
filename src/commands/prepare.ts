// What `wsc plan` and `wsc apply` share: the steps of steps.ts composed.
// environment → bundle (validated, and what the run names in it checked)
// beside the connection and the live read (api/deployment-read.ts: only GETs,
// and the data model's token, before the bundle is known valid) → the data
// model, for the semantic check → plan. The caller owns the returned
// connection and must close it.
import { resolve } from 'node:path';
import { readDeployment } from '../api/deployment-read.js';
import { hintsFor } from '../api/live.js';
import type { Connection } from '../api/connect.js';
import { beginBundleLoad, READ_WHILE_LOADING_FROM_FILES, type BundleLoad } from '../bundle/load-off-thread.js';
import type { ResolvedEnvironment } from '../config/types.js';
import type { DesiredState, LiveState } from '../core/model.js';
import type { Plan } from '../core/plan-model.js';
import { splitUnreadable } from '../core/plan/unreadable.js';
import type { SemanticOutcome } from '../core/semantic/outcome.js';
import { checkTargetsIn } from '../core/plan/targets.js';
import { checkOwnershipAddresses, ownershipOf, requireBundleName } from '../core/plan/ownership-flags.js';
import type { Diagnostic } from '../errors.js';
import { renderDiagnostics } from '../render/diagnostics.js';
import { renderUnreadableWarnings } from '../render/unreadable.js';
import { endPhase } from '../timings.js';
import { configure } from './configure.js';
import { connectOptions } from './connection.js';
import type { CommandContext } from './context.js';
import type { ApplyOptions, PlanOptions } from '../command-options.js';
import { reportSemantic, semanticWanted, startSemanticCheck } from './semantic.js';
import { changesOf } from '../core/semantic/confirm.js';
import { documentNamesMembers } from '../core/semantic/check.js';
import type { DocItem } from '../bundle/checks.js';
import { planOf, sayReading, validBundle, type Bundle } from './steps.js';
import type { RunFlags } from '../render/run-commands.js';

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

/**
 * The bundle at `dir`, valid, and the addresses the run names in it: an invalid bundle, an unknown --target and
 * an unknown --overwrite-ui-edits or --take-over address stop here (exit 3, no write sent). With prune, an
 * overwrite may name a delete, known once the deployment is read: checked then. `load`: a load begun earlier
 * (plan and apply: a large bundle loads on a worker thread).
 */
export async function checkedBundle(
  dir: string,
  env: ResolvedEnvironment,
  run: {
    opts: PlanOptions | ApplyOptions;
    targets: string[];
    pruning: boolean;
    load?: BundleLoad;
    onItem?: (item: DocItem) => void;
    /** How the bundle and environment are named in the ways forward: the run's flags by default. */
    shown?: RunFlags;
  },
  ctx: CommandContext,
): Promise<Bundle> {
  const shown = run.shown ?? run.opts;
  const bundle = await validBundle(dir, env, ctx, {
    shown,
    begun: run.load,
    ...(run.onItem ? { onItem: run.onItem } : {}),
  });
  if (run.targets.length > 0) checkTargetsIn(bundle.desired, run.targets);
  checkOwnershipAddresses(bundle.desired, run.opts, run.pruning);
  return bundle;
}

/**
 * Resolves true at the first document loaded that gives the semantic check something to ask, false when
 * settled before one: the data model's read (a token minted, then `/v1/meta`) starts then, beside the lists.
 */
function memberWatch() {
  let seen = false;
  let settle: (named: boolean) => void = () => undefined;
  const named = new Promise<boolean>((r) => (settle = r));
  return {
    named,
    onItem: (item: DocItem) => {
      if (!seen && documentNamesMembers(item.kind, item.value)) {
        seen = true;
        settle(true);
      }
    },
    settle: () => settle(false),
  };
}

/**
 * The run's start: the bundle's load begun (a large bundle's worker thread starts while wsc.yaml is read),
 * the environment resolved, and the deployment's read set up: from some hundreds of files the lists are read
 * while the bundle loads (api/deployment-read.ts), and the data model once the bundle names a member (at once
 * for a bundle loaded on a worker thread, whose documents are not seen one by one here) when the check may run.
 */
async function begin(opts: PlanOptions | ApplyOptions, ctx: CommandContext) {
  const dir = resolve(ctx.cwd, opts.dir);
  const load = beginBundleLoad(dir);
  try {
    const { environment: env, client } = await configure(opts, ctx, { dir: opts.dir });
    requireBundleName(opts, env);
    const pruning = opts.prune === true || env.prune === true;
    const connOpts = connectOptions(opts, client, ctx);
    const semanticAsked = { skip: opts.skipSemanticCheck, targets: opts.target };
    const watch = memberWatch();
    // Read while the bundle loads from some hundreds of files (bundle/load-off-thread.ts), the data model then
    // at once for a bundle on a worker thread, else when a loaded document names a member.
    const lists = (await load.fileCount) >= READ_WHILE_LOADING_FROM_FILES;
    const semantic = lists && semanticWanted(env, semanticAsked) && load.offThread.then((off) => off || watch.named);
    const read = readDeployment(env, connOpts, { lists, semantic });
    // Documents are watched for members only while the data model may wait for them.
    const onItem = semantic === false ? undefined : watch.onItem;
    return { env, dir, pruning, connOpts, load, read, semanticAsked, watch, onItem };
  } catch (e) {
    load.cancel();
    throw e;
  }
}

/**
 * `listDeletes` (wsc drift): with a bundle name, plan the deletes of what the bundle recorded and no longer
 * holds (uncapped), so that they are listed; the plan is never applied.
 */
export async function preparePlan(
  opts: PlanOptions | ApplyOptions,
  ctx: CommandContext,
  how: { listDeletes?: boolean } = {},
): Promise<Prepared> {
  endPhase('start-up');
  const { env, dir, pruning, connOpts, load, read, semanticAsked, watch, onItem } = await begin(opts, ctx);
  let bundle: Bundle;
  try {
    bundle = await checkedBundle(
      dir,
      env,
      { opts, targets: opts.target, pruning, load, ...(onItem ? { onItem } : {}) },
      ctx,
    );
  } catch (e) {
    watch.settle();
    await read.abandon();
    throw e;
  }
  watch.settle();
  const { desired, warnings } = bundle;
  if (warnings.length > 0) ctx.err(renderDiagnostics(warnings, ctx.style));
  endPhase('bundle');

  // A connection error, now that the bundle is known valid.
  const { conn, live: reading, model } = await read.start(hintsFor(desired));
  try {
    sayReading(env, ctx);
    // The data model is read beside the live state (one round trip more at most); the members are found while
    // the lists' first pages are on their way.
    const semanticRun = startSemanticCheck(desired, env, semanticAsked, conn, connOpts, model);
    let semantic: SemanticOutcome;
    let p: Plan;
    let live: LiveState;
    try {
      live = await reading;
      endPhase('read deployment');
      if (live.unreadable) ctx.err(renderUnreadableWarnings(splitUnreadable(desired, live, env).unmanaged, ctx.style));
      p = planOf(desired, live, env, {
        targets: opts.target,
        // Only `plan --out` saves the plan, with the fingerprints apply checks.
        fingerprints: 'out' in opts && opts.out !== undefined,
        ...(opts.showUnmanaged === true ? { listUnmanaged: true } : {}),
        ...(env.bundle !== undefined
          ? {
              ownership: {
                ...ownershipOf(env.bundle, opts, env),
                ...(how.listDeletes === true ? { prune: true, maxDeletes: Number.MAX_SAFE_INTEGER } : {}),
              },
            }
          : {}),
      });
      endPhase('plan');
      // Cube's planner is asked only about what the plan creates or changes.
      semantic = await semanticRun.finish(changesOf(p));
      endPhase('semantic check');
    } catch (e) {
      // A failing read ends the run now, whatever the semantic check is waiting for.
      semanticRun.abort();
      throw e;
    }
    reportSemantic(semantic, env.deploymentId, ctx);
    if (pruning) checkOwnershipAddresses(desired, opts, false, p);
    return { env, desired, warnings, conn, live, plan: p, semantic };
  } catch (e) {
    await conn.close();
    throw e;
  }
}
