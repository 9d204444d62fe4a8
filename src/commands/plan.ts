// `wsc plan`: read the live deployment and print what apply would change.
// stdout holds the plan alone (--output human|json|markdown); progress and
// warnings go to stderr. Never writes to the API.
import { resolve } from 'node:path';
import type { PlanOptions } from '../command-options.js';
import { hasChanges, type Plan } from '../core/plan-model.js';
import { createOnlyError } from '../core/plan/create-only.js';
import { semanticError, type SemanticOutcome } from '../core/semantic/outcome.js';
import { EXIT } from '../errors.js';
import { checkPictureFlags } from '../core/plan/picture-flags.js';
import { renderPlanHuman } from '../render/plan-human.js';
import { renderPlanJson } from '../render/plan-json.js';
import { renderPlanMarkdown, type MarkdownOptions } from '../render/plan-markdown.js';
import { shellArg } from '../render/run-commands.js';
import type { Style } from '../render/style.js';
import type { CommandContext } from './context.js';
import { preparePlan, type Prepared } from './prepare.js';
import { checkPlanOut, savePlan } from '../plan-file/write.js';
import { checkPicturesDir } from '../preview/pictures-dir.js';
import { appendStepSummary } from '../step-summary.js';

type Pictures = MarkdownOptions['pictures'];

function markdown(plan: Plan, semantic: SemanticOutcome, opts: PlanOptions, pictures: Pictures): string {
  const shown = { compact: opts.compact, semantic, run: opts };
  return renderPlanMarkdown(plan, { ...shown, ...(pictures !== undefined ? { pictures } : {}) });
}

function render(plan: Plan, semantic: SemanticOutcome, opts: PlanOptions, style: Style, pictures: Pictures): string {
  if (opts.output === 'json') return renderPlanJson(plan, semantic);
  if (opts.output === 'markdown') return markdown(plan, semantic, opts, pictures);
  return renderPlanHuman(plan, style, opts, { compact: opts.compact, semantic });
}

/**
 * `--pictures DIR`: the pictures `wsc preview --out DIR --against env:<this environment>` writes, drawn from
 * what this plan read (preview-drawing.ts), data only with `--with-data`. The preview's modules (the page's
 * markdown reader among them) load only then: a plan without pictures does not parse them (docs/performance.md).
 */
async function drawPictures(out: string, read: Prepared, opts: PlanOptions, ctx: CommandContext): Promise<Pictures> {
  const { writePlanPictures } = await import('./preview-drawing.js');
  const written = await writePlanPictures(read, { out, withData: opts.withData === true, targets: opts.target }, ctx);
  return { dir: out, written };
}

export async function run(opts: PlanOptions, ctx: CommandContext): Promise<number> {
  checkPictureFlags(opts);
  const outFile = opts.out === undefined ? undefined : resolve(ctx.cwd, opts.out);
  if (outFile !== undefined) await checkPlanOut(outFile, opts.out!);
  if (opts.pictures !== undefined) await checkPicturesDir(resolve(ctx.cwd, opts.pictures), opts.pictures, '--pictures');
  const prepared = await preparePlan(opts, ctx);
  const { env, plan, conn, semantic } = prepared;
  try {
    const pictures = opts.pictures !== undefined ? await drawPictures(opts.pictures, prepared, opts, ctx) : undefined;
    ctx.out(render(plan, semantic, opts, ctx.style, pictures));
    // A difference only a create can make, or a member the data model lacks: never saved nor applied. Shown
    // above in human and markdown; the JSON on stdout holds them, so stderr names them itself.
    const refused = createOnlyError(plan) ?? semanticError(semantic, opts.output === 'json');
    if (opts.out !== undefined && refused === undefined) {
      const saving = { cwd: ctx.cwd, dir: opts.dir, environment: env, targets: opts.target, semantic, plan };
      await savePlan(outFile!, opts.out, saving);
      ctx.err(`Saved the plan to ${opts.out}. Apply exactly this plan with \`wsc apply ${shellArg(opts.out)}\`.\n`);
    }
    const summary = ctx.settings.stepSummary;
    // The job summary is a courtesy: failing to add to it does not fail the plan.
    const failed = summary && (await appendStepSummary(summary, markdown(plan, semantic, opts, pictures)));
    if (failed)
      ctx.err(
        `${ctx.style.c.yellow('warning')} could not add the plan to GITHUB_STEP_SUMMARY (${summary}): ${failed}.\n`,
      );
    if (refused) throw refused;
    if (!opts.detailedExitcode) return EXIT.ok;
    // As apply would: a resource left alone is exit 5, before any change to make (2).
    if (plan.changes.some((c) => c.actions.includes('blocked'))) return EXIT.blocked;
    return hasChanges(plan) ? EXIT.changes : EXIT.ok;
  } finally {
    await conn.close();
  }
}
