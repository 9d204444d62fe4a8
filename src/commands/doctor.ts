// `wsc doctor`: resolve the environment, then check it (doctor/checks.ts) and
// print one line per check. Read-only. Exit 0 when every check passed, 1
// otherwise; a bad configuration is exit 3 as for every command.
import { resolve } from 'node:path';
import type { DoctorOptions } from './options.js';
import { EXIT, isWscError } from '../errors.js';
import { connectOptions } from './connection.js';
import type { CommandContext } from './context.js';

export async function run(opts: DoctorOptions, ctx: CommandContext): Promise<number> {
  const { resolveEnvironment } = await import('../config/environment.js');
  const { loadValidBundle } = await import('../bundle/load.js');
  const { probeOf, runChecks } = await import('../doctor/checks.js');
  const { doctorPassed, renderDoctorHuman, renderDoctorJson } = await import('../render/doctor.js');
  const dir = resolve(ctx.cwd, opts.dir);
  const connOpts = connectOptions(opts, ctx);
  const flags = { env: opts.env, baseUrl: opts.baseUrl, deployment: opts.deployment };
  const env = await resolveEnvironment({ dir, flags, env: ctx.env });
  // An invalid bundle is one failed check, not the end of the others.
  const loadOpts = {
    vars: env.vars,
    env: ctx.env,
    mayHoldUnknownRefs: env.mayHoldUnknownRefs,
    tokenVariables: env.tokenVariables,
  };
  const bundle = await loadValidBundle(dir, loadOpts).then(
    ({ desired }) => ({ desired }),
    (e: unknown) => {
      if (!isWscError(e)) throw e;
      return { error: e };
    },
  );
  const { connect } = await import('../api/connect.js');
  const conn = await connect(env, connOpts);
  try {
    let planned: ReturnType<typeof planOnce> | undefined;
    const planOnce = async () => {
      const { hintsFor, readLiveState } = await import('../api/live.js');
      const { plan } = await import('../core/plan.js');
      const desired = 'desired' in bundle ? bundle.desired : { workbooks: [], reports: [], userAttributes: [] };
      const live = await readLiveState(conn.client, conn.deploymentId, hintsFor(desired));
      const { name: environment, deploymentId, publicIds } = env;
      return plan(desired, live, { environment, deploymentId, publicIds, targets: [], fingerprints: false });
    };
    const checks = await runChecks({
      env,
      client: conn.client,
      deploymentId: conn.deploymentId,
      bundle,
      probe: probeOf(conn.client, conn.deploymentId),
      plan: () => (planned ??= planOnce()),
    });
    const baseUrl = env.embedded ? 'embedded emulator' : conn.baseUrl;
    const report = { environment: env.name, baseUrl, deploymentId: conn.deploymentId, checks };
    ctx.out(opts.output === 'json' ? renderDoctorJson(report) : renderDoctorHuman(report, ctx.style));
    return doctorPassed(report) ? EXIT.ok : EXIT.failure;
  } finally {
    await conn.close();
  }
}
