// What `wsc plan` and `wsc apply` share: environment → bundle (validated
// before any connection is made) → connection → live state → plan. The
// caller owns the returned connection and must close it.
import { resolve } from 'node:path';
import type { ApplyOptions, PlanOptions } from '../cli.js';
import type { ResolvedEnvironment } from '../config/types.js';
import type { DesiredState, LiveState, Plan } from '../core/model.js';
import type { Diagnostic } from '../errors.js';
import { renderDiagnostics } from '../render/diagnostics.js';
import { connectOptions } from './connection.js';
import type { CommandContext } from './context.js';
import { endPhase } from '../timings.js';

type Connection = Awaited<ReturnType<typeof import('../api/connect.js').connect>>;

export interface Prepared {
  env: ResolvedEnvironment;
  desired: DesiredState;
  warnings: Diagnostic[];
  conn: Connection;
  live: LiveState;
  plan: Plan;
}

export async function preparePlan(opts: PlanOptions | ApplyOptions, ctx: CommandContext): Promise<Prepared> {
  endPhase('start-up');
  // The client's modules (undici, zod schemas) load while the bundle is read:
  // loading code sends nothing, and it is half of a plan's start-up time.
  const later = Promise.all([import('../api/connect.js'), import('../api/live.js'), import('../core/plan.js')]);
  later.catch(() => undefined);
  const [{ resolveEnvironment }, { loadValidBundle }] = await Promise.all([import('../config/environment.js'), import('../bundle/load.js')]);
  const dir = resolve(ctx.cwd, opts.dir);
  const connOpts = connectOptions(opts, ctx);
  const env = await resolveEnvironment({
    dir,
    flags: { env: opts.env, baseUrl: opts.baseUrl, deployment: opts.deployment },
    env: ctx.env,
  });
  // An invalid bundle stops here, before any connection (exit 3, nothing sent).
  const { desired, warnings } = await loadValidBundle(dir, { vars: env.vars, env: ctx.env, mayHoldUnknownRefs: env.mayHoldUnknownRefs });
  if (warnings.length > 0) ctx.err(renderDiagnostics(warnings, ctx.style));
  endPhase('bundle');

  const [{ connect }, { readLiveState }, { plan }] = await later;
  const conn = await connect(env, connOpts);
  try {
    const where = env.embedded ? 'the embedded emulator' : env.baseUrl;
    ctx.err(ctx.style.c.dim(`Reading deployment ${env.deploymentId} at ${where} (environment ${env.name})…\n`));
    const namesFolders = [...desired.workbooks, ...desired.reports].some((r) => r.folder !== undefined && r.folder.length > 0);
    const live = await readLiveState(conn.client, conn.deploymentId, { reports: desired.reports.length, folders: namesFolders });
    endPhase('read deployment');
    const p = plan(desired, live, {
      environment: env.name,
      deploymentId: env.deploymentId,
      publicIds: env.publicIds,
      targets: opts.target,
      // Only `plan --out` saves the plan, with the fingerprints apply checks.
      fingerprints: 'out' in opts && opts.out !== undefined,
    });
    endPhase('plan');
    return { env, desired, warnings, conn, live, plan: p };
  } catch (e) {
    await conn.close();
    throw e;
  }
}
