// The path from flags to a planned change, one function per step:
// environment (configure.ts) → bundle (validBundle, or bundleOf for every
// diagnostic) → connect (api/connect.ts, with connection.ts's options) → read
// (readLive) → plan (planOf). plan, apply, apply PLANFILE, export
// --into/--only, doctor, preview --against and validate (which stops before
// connecting) compose these; none spells a step out itself.
import type { Connection } from '../api/connect.js';
import { hintsFor, readLiveState, type LiveHints } from '../api/live.js';
import { loadBundle, loadValidBundle, type LoadOptions, type LoadResult } from '../bundle/load.js';
import type { DocItem } from '../bundle/checks.js';
import type { BundleLoad } from '../bundle/load-off-thread.js';
import type { ResolvedEnvironment } from '../config/types.js';
import type { DesiredState, LiveState, PlanContext } from '../core/model.js';
import type { Plan } from '../core/plan-model.js';
import { plan } from '../core/plan/index.js';
import { BundleError, type Diagnostic } from '../errors.js';
import { validateCommand, type RunFlags } from '../render/run-commands.js';
import type { CommandContext } from './context.js';

export interface Bundle {
  desired: DesiredState;
  warnings: Diagnostic[];
}

/** How the bundle at a path is read in the environment (`anyRefs`, `strict`: see validBundle and bundleOf). */
function loadOptions(env: ResolvedEnvironment, ctx: CommandContext, o: { anyRefs?: boolean; strict?: boolean }) {
  const opts: LoadOptions = {
    vars: env.vars,
    env: ctx.settings.variables,
    mayHoldUnknownRefs: o.anyRefs === true || env.mayHoldUnknownRefs,
    tokenVariables: env.tokenVariables,
    ...(env.folderLookAlikes !== undefined ? { folderLookAlikes: env.folderLookAlikes } : {}),
  };
  if (o.strict !== undefined) opts.strict = o.strict;
  return opts;
}

/** `p`, or its BundleError with the way forward of this run: `wsc validate` with its --dir and --env. */
export async function validateAgain<T>(p: Promise<T>, run: RunFlags): Promise<T> {
  try {
    return await p;
  } catch (e) {
    if (!(e instanceof BundleError)) throw e;
    throw new BundleError(e.diagnostics, validateCommand(run));
  }
}

/**
 * The bundle at `dir` with the environment's variables, valid or a
 * BundleError (exit 3) whose way forward is the `wsc validate` of `shown`. `anyRefs`: a reference outside the
 * bundle is only warned of whatever the environment (export updates a bundle in place).
 * `begun`: a load begun earlier (plan and apply: a large bundle is loaded on a
 * worker thread, started before wsc.yaml is read; bundle/load-off-thread.ts),
 * `onItem` told of each valid document as it loads (BundleLoad's `load`).
 */
export function validBundle(
  dir: string,
  env: ResolvedEnvironment,
  ctx: CommandContext,
  o: { shown: RunFlags; anyRefs?: boolean; begun?: BundleLoad | undefined; onItem?: (item: DocItem) => void },
) {
  const { begun, onItem } = o;
  const load = begun ? (_: string, lo: LoadOptions) => begun.load(lo, onItem) : loadBundle;
  return validateAgain(loadValidBundle(dir, loadOptions(env, ctx, { anyRefs: o.anyRefs === true }), load), o.shown);
}

/**
 * The bundle at `dir` with every diagnostic, valid or not (validate's result). `strict`: a reference outside
 * the bundle is an error whatever the environment.
 */
export function bundleOf(dir: string, env: ResolvedEnvironment, ctx: CommandContext, strict: boolean) {
  return loadBundle(dir, loadOptions(env, ctx, { strict }));
}

/**
 * The bundle at `dir` when wsc.yaml is invalid, so that no environment is known: its `vars` are taken as
 * defined, a reference outside the bundle only warned of (unless `strict`), folder paths alike only warned of.
 */
export function bundleWithoutEnvironment(dir: string, ctx: CommandContext, strict: boolean): Promise<LoadResult> {
  return loadBundle(dir, {
    vars: {},
    varsUnknown: true,
    env: ctx.settings.variables,
    mayHoldUnknownRefs: true,
    strict,
    folderLookAlikes: 'allow',
  });
}

/** Says on stderr which deployment is read (or exported: `verb`). */
export function sayReading(env: ResolvedEnvironment, ctx: CommandContext, verb = 'Reading', suffix = ''): void {
  const where = env.embedded ? 'the embedded emulator' : env.baseUrl;
  ctx.err(ctx.style.c.dim(`${verb} deployment ${env.deploymentId} at ${where}${suffix} (environment ${env.name})…\n`));
}

/** The live state the bundle needs (`more`: hints beyond the bundle's). */
export function readLive(conn: Connection, desired: DesiredState, more: LiveHints = {}): Promise<LiveState> {
  return readLiveState(conn.client, conn.deploymentId, { ...hintsFor(desired), ...more });
}

/** What the planner takes besides the environment; by default every resource, no fingerprints, no ownership. */
type PlanChoices = Partial<Pick<PlanContext, 'targets' | 'fingerprints' | 'ownership' | 'listUnmanaged'>>;

/** The plan of the bundle against the live state, in the environment. */
export function planOf(desired: DesiredState, live: LiveState, env: ResolvedEnvironment, o: PlanChoices = {}): Plan {
  return plan(desired, live, {
    environment: env.name,
    deploymentId: env.deploymentId,
    publicIds: env.publicIds,
    targets: o.targets ?? [],
    fingerprints: o.fingerprints ?? false,
    ...(env.folderLookAlikes !== undefined ? { folderLookAlikes: env.folderLookAlikes } : {}),
    ...(o.listUnmanaged === true ? { listUnmanaged: true } : {}),
    ...(o.ownership !== undefined ? { ownership: o.ownership } : {}),
  });
}
