// `wsc drift`: read the live deployment, compare it with the bundle, and print
// only what differs (whoever changed it, whatever the policy). Never writes:
// the plan it compares with is made and dropped. `--detailed-exitcode` exits
// 2 when anything differs, for a scheduled job.
import { driftReport } from '../core/drift-report.js';
import { EXIT } from '../errors.js';
import { renderDriftHuman, renderDriftJson, renderDriftMarkdown, type DriftModel } from '../render/drift.js';
import type { CommandContext } from './context.js';
import type { DriftOptions } from '../command-options.js';
import { preparePlan } from './prepare.js';

export async function run(opts: DriftOptions, ctx: CommandContext): Promise<number> {
  // The data model is no part of drift: it is not read.
  const planOpts = { ...opts, target: [], detailedExitcode: false, skipSemanticCheck: true };
  const { plan, conn, env } = await preparePlan(planOpts, ctx, { listDeletes: true });
  try {
    const model: DriftModel = {
      environment: plan.environment,
      deploymentId: plan.deploymentId,
      ...(plan.bundle !== undefined ? { bundle: plan.bundle } : {}),
      ...(plan.uiEdits !== undefined ? { uiEdits: plan.uiEdits } : {}),
      run: opts,
      entries: driftReport(plan, env.prune === true),
    };
    if (opts.output === 'json') ctx.out(renderDriftJson(model));
    else if (opts.output === 'markdown') ctx.out(renderDriftMarkdown(model));
    else ctx.out(renderDriftHuman(model, ctx.style));
    return opts.detailedExitcode && model.entries.length > 0 ? EXIT.changes : EXIT.ok;
  } finally {
    await conn.close();
  }
}
