// `wsc doctor [--deep]`: resolve the environment, then check it
// (doctor/checks.ts, run by doctor/run.ts over doctor/context.ts) and print
// each line as soon as it is decided. Read-only. Its client has a short budget
// (a few seconds per request, one retry, no long Retry-After waits), so that
// doctor ends within a minute whatever the host does. Exit 0 when every check
// passed, 1 otherwise; a bad configuration is exit 3 as for every command.
import { resolve } from 'node:path';
import type { DoctorOptions } from '../command-options.js';
import { connect } from '../api/connect.js';
import { doctorConnectOptions } from '../doctor/budget.js';
import { checksOf } from '../doctor/checks.js';
import { doctorContext } from '../doctor/context.js';
import { runChecks } from '../doctor/run.js';
import type { CheckLine } from '../doctor/types.js';
import { EXIT, isWscError } from '../errors.js';
import {
  doctorPassed,
  renderDoctorHeader,
  renderDoctorJson,
  renderDoctorLine,
  renderDoctorSummary,
} from '../render/doctor.js';
import { doctorCommands } from '../render/run-commands.js';
import { configure } from './configure.js';
import { connectOptions } from './connection.js';
import type { CommandContext } from './context.js';
import { planOf, readLive, validBundle } from './steps.js';

export async function run(opts: DoctorOptions, ctx: CommandContext): Promise<number> {
  // WSC_DOCTOR_TIMEOUT: the whole run's time (doctor/run.ts's default otherwise); checked before anything is read.
  const totalBudgetMs = ctx.settings.doctorTimeoutMs;
  const { environment: env, client } = await configure(opts, ctx, { dir: opts.dir });
  const connOpts = doctorConnectOptions(connectOptions(opts, client, ctx));
  // An invalid bundle is one failed check, not the end of the others.
  const bundle = await validBundle(resolve(ctx.cwd, opts.dir), env, ctx, { shown: opts }).then(
    ({ desired }) => ({ desired }),
    (e: unknown) => {
      if (!isWscError(e)) throw e;
      return { error: e };
    },
  );
  const conn = await connect(env, connOpts);
  const json = opts.output === 'json';
  try {
    const plan = async () => {
      const desired = 'desired' in bundle ? bundle.desired : { workbooks: [], reports: [], userAttributes: [] };
      return planOf(desired, await readLive(conn, desired), env);
    };
    const baseUrl = env.embedded ? 'embedded emulator' : conn.baseUrl;
    const head = { environment: env.name, baseUrl, deploymentId: conn.deploymentId };
    if (!json) ctx.out(renderDoctorHeader(head));
    const checks = await runChecks(
      doctorContext(conn, env, bundle, { plan, deep: opts.deep === true, commands: doctorCommands(opts) }),
      checksOf(opts.deep === true),
      {
        ...(totalBudgetMs !== undefined ? { totalBudgetMs } : {}),
        ...(json ? {} : { onLine: (line: CheckLine) => ctx.out(renderDoctorLine(line, ctx.style)) }),
      },
    );
    const report = { ...head, checks };
    ctx.out(json ? renderDoctorJson(report) : renderDoctorSummary(checks, ctx.style));
    return doctorPassed(report) ? EXIT.ok : EXIT.failure;
  } finally {
    await conn.close();
  }
}
