// The path from flags to a planned change, one function per step:
// environment (configure.ts) → bundle (validBundle) → connect (api/connect.ts,
// with connection.ts's options) → read (readLive) → plan (planOf). plan,
// apply, apply PLANFILE, export --into/--only, doctor and preview --against
// compose these; none spells a step out itself.
import type { Connection } from '../api/connect.js';
import { hintsFor, readLiveState, type LiveHints } from '../api/live.js';
import { loadValidBundle } from '../bundle/load.js';
import type { ResolvedEnvironment } from '../config/types.js';
import type { DesiredState, LiveState, PlanContext } from '../core/model.js';
import type { Plan } from '../core/plan-model.js';
import { plan } from '../core/plan/index.js';
import type { Diagnostic } from '../errors.js';
import type { CommandContext } from './context.js';

export interface Bundle {
  desired: DesiredState;
  warnings: Diagnostic[];
}

/**
 * The bundle at `dir` with the environment's variables, valid or a
 * BundleError (exit 3). `anyRefs`: a reference outside the bundle is only
 * warned of whatever the environment (export updates a bundle in place).
 */
export function validBundle(dir: string, env: ResolvedEnvironment, ctx: CommandContext, anyRefs = false) {
  return loadValidBundle(dir, {
    vars: env.vars,
    env: ctx.settings.variables,
    mayHoldUnknownRefs: anyRefs || env.mayHoldUnknownRefs,
    tokenVariables: env.tokenVariables,
    ...(env.folderLookAlikes !== undefined ? { folderLookAlikes: env.folderLookAlikes } : {}),
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
