// `wsc plan`: read the live deployment and print what apply would change.
// stdout holds the plan alone (--output human|json|markdown); progress and
// warnings go to stderr. Never writes to the API.
import { appendFile, rename, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { resolve } from 'node:path';
import type { PlanOptions } from '../cli.js';
import { hasChanges, type Plan } from '../core/model.js';
import { envValue } from '../env.js';
import { EXIT } from '../errors.js';
import type { Style } from '../render/style.js';
import type { CommandContext } from './context.js';
import { preparePlan } from './prepare.js';

async function render(plan: Plan, output: PlanOptions['output'], style: Style): Promise<string> {
  if (output === 'json') return (await import('../render/plan-json.js')).renderPlanJson(plan);
  if (output === 'markdown') return (await import('../render/plan-markdown.js')).renderPlanMarkdown(plan);
  return (await import('../render/plan-human.js')).renderPlanHuman(plan, style);
}

/** Written beside, then renamed over: a reader never sees half a plan. */
async function writeAtomic(file: string, text: string): Promise<void> {
  const tmp = `${file}.${process.pid}.tmp`;
  await writeFile(tmp, text, 'utf8');
  await rename(tmp, file);
}

export async function run(opts: PlanOptions, ctx: CommandContext): Promise<number> {
  const { env, plan, conn } = await preparePlan(opts, ctx);
  try {
    ctx.out(await render(plan, opts.output, ctx.style));
    if (opts.out !== undefined) {
      const { serializeSavedPlan } = await import('../core/saved-plan.js');
      const pkg = createRequire(import.meta.url)('../../package.json') as { version: string };
      const text = serializeSavedPlan({ wscVersion: pkg.version, createdAt: new Date().toISOString(), environment: env, plan });
      await writeAtomic(resolve(ctx.cwd, opts.out), text);
      ctx.err(`Saved the plan to ${opts.out}. Apply exactly this plan with \`wsc apply ${opts.out}\`.\n`);
    }
    const stepSummary = envValue(ctx.env, 'GITHUB_STEP_SUMMARY');
    if (stepSummary !== undefined) {
      const { renderPlanMarkdown } = await import('../render/plan-markdown.js');
      await appendFile(stepSummary, `${renderPlanMarkdown(plan)}\n`, 'utf8');
    }
    return opts.detailedExitcode && hasChanges(plan) ? EXIT.changes : EXIT.ok;
  } finally {
    await conn.close();
  }
}
