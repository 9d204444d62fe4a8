// `wsc preview --against REF`: the baseline a preview marks its change
// against. `git:<ref>` is the bundle as committed at <ref> (bundle/at-ref.ts
// reads it into a temporary directory, loaded from there); `env:<name>` is
// that environment's live deployment, read once through the live-read path
// plan uses (list requests only; nothing is written), then compared with
// each reload of the bundle by the planner, offline (preview/baselines.ts).
import { connect } from '../api/connect.js';
import { livePublicId } from '../core/publicid.js';
import type { ResolvedEnvironment } from '../config/types.js';
import type { DesiredState, LiveState, OwnershipContext } from '../core/model.js';
import { CONCURRENCY, MAX_RETRIES } from '../defaults.js';
import { UsageError } from '../errors.js';
import { liveReports, planBaselines, type Against } from '../preview/baselines.js';
import { configure } from './configure.js';
import { connectOptions } from './connection.js';
import type { CommandContext } from './context.js';
import { planOf, readLive, sayReading } from './steps.js';

export type AgainstRef = { kind: 'git'; ref: string } | { kind: 'env'; name: string };

export function parseAgainst(raw: string): AgainstRef {
  const m = /^(git|env):(.+)$/.exec(raw);
  // A ref that starts with `-` would read as an option of git.
  if (!m || m[2]!.startsWith('-')) {
    throw new UsageError(`--against takes git:<ref> or env:<environment>, got "${raw}".`, {
      code: 'preview_against',
      hint: 'For example --against git:main (the bundle as committed there) or --against env:production (live).',
    });
  }
  return m[1] === 'git' ? { kind: 'git', ref: m[2]! } : { kind: 'env', name: m[2]! };
}

/** The live deployment of environment `name`, read once; each reload of the bundle planned against it. */
export async function envBaselines(
  name: string,
  dir: string,
  desired: DesiredState,
  ctx: CommandContext,
): Promise<Against> {
  const { environment: env, client } = await configure({ env: name }, ctx, { dir });
  // preview has no connection flags: their defaults.
  const conn = await connect(
    env,
    connectOptions({ verbose: false, concurrency: CONCURRENCY, maxRetries: MAX_RETRIES }, client, ctx),
  );
  let live: LiveState;
  try {
    sayReading(env, ctx);
    live = await readLive(conn, desired);
  } finally {
    await conn.close();
  }
  // Planned as `wsc plan` plans it (ownership and the environment's uiEdits), so that the picture agrees with it.
  const ownership = env.bundle !== undefined ? ownershipFor(env.bundle, env) : undefined;
  const toBundle = new Map(
    desired.reports.map((r) => [livePublicId(r.publicId, env.publicIds, env.deploymentId), r.publicId]),
  );
  return {
    reports: liveReports(live, (pid) => toBundle.get(pid) ?? pid),
    baselines: (now) => {
      const p = planOf(now, live, env, ownership !== undefined ? { ownership } : {});
      return planBaselines(now, p, live);
    },
  };
}

function ownershipFor(bundle: string, env: ResolvedEnvironment): OwnershipContext {
  return { bundle, prune: false, ...(env.uiEdits !== undefined ? { uiEdits: env.uiEdits } : {}) };
}
