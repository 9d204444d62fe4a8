// The steps `export --into` and `--only` share: the environment, the bundle
// they update in place and a connection, then the deployment read once and
// the plan of the bundle against it (what says which resources it manages).
import { connect } from '../api/connect.js';
import { hintsFor } from '../api/live.js';
import { checkTargetsIn } from '../core/plan/targets.js';
import { configure } from './configure.js';
import { connectOptions } from './connection.js';
import type { CommandContext } from './context.js';
import type { ExportOptions } from './options.js';
import { planOf, readLive, validBundle } from './steps.js';

/**
 * The environment, the bundle at `root` an export updates in place, and a
 * connection: a bundle that does not load is not updated (exit 3, nothing
 * read). `only`: the addresses of --only, checked before any request.
 */
export async function environmentAndBundle(opts: ExportOptions, ctx: CommandContext, root: string, only?: string[]) {
  // Whose wsc.yaml names the environment: --dir when given; else, into a bundle (--into), that bundle's own.
  const dir = opts.dirGiven !== true && opts.into !== undefined ? opts.into : opts.dir;
  const { environment: env, client } = await configure(opts, ctx, { dir });
  const { desired } = await validBundle(root, env, ctx, true);
  // In the words of the flag given (plan would say `--target`).
  if (only !== undefined) checkTargetsIn(desired, only, '--only');
  const conn = await connect(env, connectOptions(opts, client, ctx));
  return { env, desired, conn };
}
type EnvAndBundle = Awaited<ReturnType<typeof environmentAndBundle>>;

/** The deployment, read once, and the plan of the bundle against it. */
export async function liveAndPlan({ env, desired, conn }: EnvAndBundle, targets: string[]) {
  const hints = hintsFor(desired);
  const live = await readLive(conn, desired);
  return { hints, live, changes: planOf(desired, live, env, { targets }).changes };
}
