// `wsc doctor [--deep]`: resolve the environment, then check it
// (doctor/checks.ts, run by doctor/run.ts) and print each line as soon as it is
// decided. Read-only. Its client has a short budget (a few seconds per request,
// one retry, no long Retry-After waits), so that doctor ends within a minute
// whatever the host does. Exit 0 when every check passed, 1 otherwise; a bad
// configuration is exit 3 as for every command.
import { resolve } from 'node:path';
import type { DoctorOptions } from './options.js';
import { EXIT, isWscError } from '../errors.js';
import { connectOptions, secondsVariable } from './connection.js';
import type { CommandContext } from './context.js';
import type { UnreadableItem } from '../core/model.js';
import type { CheckLine } from '../doctor/types.js';

/** One request's time in doctor (the configured timeout when shorter). */
export const DOCTOR_REQUEST_TIMEOUT_MS = 5_000;
/** A Retry-After longer than this is reported, not waited for. */
export const DOCTOR_RETRY_AFTER_MS = 5_000;

export async function run(opts: DoctorOptions, ctx: CommandContext): Promise<number> {
  const { resolveEnvironment } = await import('../config/environment.js');
  const { loadValidBundle } = await import('../bundle/load.js');
  const { checksOf, probeOf } = await import('../doctor/checks.js');
  const { runChecks, TOTAL_BUDGET_MS } = await import('../doctor/run.js');
  const { readTenantSpec } = await import('../doctor/tenant-spec.js');
  const render = await import('../render/doctor.js');
  const dir = resolve(ctx.cwd, opts.dir);
  const given = connectOptions(opts, ctx);
  const totalBudgetMs = secondsVariable(ctx.env, 'WSC_DOCTOR_TIMEOUT', 'doctor_timeout_invalid', {
    seconds: TOTAL_BUDGET_MS / 1000,
    example: 20,
  });
  const connOpts = {
    ...given,
    requestTimeoutMs: Math.min(given.requestTimeoutMs ?? DOCTOR_REQUEST_TIMEOUT_MS, DOCTOR_REQUEST_TIMEOUT_MS),
    maxRetries: Math.min(given.maxRetries, 1),
    retryPolicy: {
      capDelayMs: 1_000,
      retryAfterCapMs: DOCTOR_RETRY_AFTER_MS,
      longRetryAfter: 'give-up' as const,
      maxTotalMs: 2 * DOCTOR_REQUEST_TIMEOUT_MS + DOCTOR_RETRY_AFTER_MS,
    },
  };
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
  const json = opts.output === 'json';
  try {
    const { hintsFor, readLiveState } = await import('../api/live.js');
    const { plan } = await import('../core/plan/index.js');
    let planned: ReturnType<typeof planOnce> | undefined;
    const planOnce = async () => {
      const desired = 'desired' in bundle ? bundle.desired : { workbooks: [], reports: [], userAttributes: [] };
      const live = await readLiveState(conn.client, conn.deploymentId, hintsFor(desired));
      const { name: environment, deploymentId, publicIds } = env;
      return plan(desired, live, { environment, deploymentId, publicIds, targets: [], fingerprints: false });
    };
    let spec: ReturnType<typeof readTenantSpec> | undefined;
    const deep = async () => {
      const { deepRoundTrip } = await import('../doctor/deep.js');
      const { exportSourceOf } = await import('./export-source.js');
      const unreadable: UnreadableItem[] = [];
      const source = exportSourceOf(conn.client, conn.deploymentId, unreadable);
      return deepRoundTrip({ client: conn.client, deploymentId: conn.deploymentId, env, source, unreadable });
    };
    const baseUrl = env.embedded ? 'embedded emulator' : conn.baseUrl;
    const head = { environment: env.name, baseUrl, deploymentId: conn.deploymentId };
    if (!json) ctx.out(render.renderDoctorHeader(head));
    const checks = await runChecks(
      {
        env,
        client: conn.client,
        deploymentId: conn.deploymentId,
        bundle,
        probe: probeOf(conn.client, conn.deploymentId),
        spec: () => (spec ??= readTenantSpec(conn.client)),
        plan: () => (planned ??= planOnce()),
        ...(opts.deep ? { deep } : {}),
      },
      checksOf(opts.deep === true),
      {
        ...(totalBudgetMs !== undefined ? { totalBudgetMs } : {}),
        ...(json ? {} : { onLine: (line: CheckLine) => ctx.out(render.renderDoctorLine(line, ctx.style)) }),
      },
    );
    const report = { ...head, checks };
    ctx.out(json ? render.renderDoctorJson(report) : render.renderDoctorSummary(checks, ctx.style));
    return render.doctorPassed(report) ? EXIT.ok : EXIT.failure;
  } finally {
    await conn.close();
  }
}
