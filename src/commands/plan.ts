// `wsc plan`: read the live deployment and print what apply would change.
// stdout holds the plan alone (--output human|json|markdown); progress and
// warnings go to stderr. Never writes to the API.
import { appendFile } from 'node:fs/promises';
import { relative, resolve, sep } from 'node:path';
import type { PlanOptions } from './options.js';
import { hasChanges, type Plan } from '../core/plan-model.js';
import { createOnlyError } from '../core/plan/create-only.js';
import { serializeSavedPlan } from '../core/saved-plan.js';
import { savedSemantic, semanticError, type SemanticOutcome } from '../core/semantic/outcome.js';
import { EXIT } from '../errors.js';
import { renderPlanHuman } from '../render/plan-human.js';
import { renderPlanJson } from '../render/plan-json.js';
import { renderPlanMarkdown, type MarkdownOptions } from '../render/plan-markdown.js';
import type { Style } from '../render/style.js';
import type { CommandContext } from './context.js';
import { preparePlan } from './prepare.js';
import { MAX_SAVED_PLAN_BYTES, planTooLargeToSave } from './saved-plan-file.js';
import { VERSION } from '../version.js';
import { redact } from '../redact.js';
import { checkPlanOut, writePlanOut } from '../plan-out.js';
import { writePreviewPictures } from './preview-drawing.js';

type Pictures = MarkdownOptions['pictures'];

function markdown(plan: Plan, semantic: SemanticOutcome, opts: PlanOptions, pictures: Pictures): string {
  return renderPlanMarkdown(plan, { compact: opts.compact, semantic, ...(pictures !== undefined ? { pictures } : {}) });
}

function render(plan: Plan, semantic: SemanticOutcome, opts: PlanOptions, style: Style, pictures: Pictures): string {
  if (opts.output === 'json') return renderPlanJson(plan, semantic);
  if (opts.output === 'markdown') return markdown(plan, semantic, opts, pictures);
  return renderPlanHuman(plan, style, opts.dir, { compact: opts.compact, semantic });
}

/**
 * `--pictures DIR`: the pictures `wsc preview --out DIR --against env:<this environment>` writes (the same
 * step; the chart libraries load on first use), data only with `--with-data`.
 */
async function drawPictures(out: string, envName: string, opts: PlanOptions, ctx: CommandContext): Promise<Pictures> {
  const { written } = await writePreviewPictures(
    {
      dir: opts.dir,
      env: envName,
      out,
      against: `env:${envName}`,
      withData: opts.withData === true,
      port: 0,
      color: opts.color,
    },
    ctx,
  );
  return { dir: out, written };
}

export async function run(opts: PlanOptions, ctx: CommandContext): Promise<number> {
  const outFile = opts.out === undefined ? undefined : resolve(ctx.cwd, opts.out);
  if (outFile !== undefined) await checkPlanOut(outFile, opts.out!);
  const { env, plan, conn, semantic } = await preparePlan(opts, ctx);
  try {
    const pictures = opts.pictures !== undefined ? await drawPictures(opts.pictures, env.name, opts, ctx) : undefined;
    ctx.out(render(plan, semantic, opts, ctx.style, pictures));
    // A difference only a create can make, or a member the data model lacks: shown above, never saved nor applied.
    const refused = createOnlyError(plan) ?? semanticError(semantic, false);
    if (opts.out !== undefined && refused === undefined) {
      const bundleDir = relative(ctx.cwd, resolve(ctx.cwd, opts.dir)).split(sep).join('/') || '.';
      const text = serializeSavedPlan({
        wscVersion: VERSION,
        createdAt: new Date().toISOString(),
        environment: env,
        bundleDir,
        targets: opts.target,
        semanticCheck: savedSemantic(semantic),
        plan,
      });
      const bytes = Buffer.byteLength(text);
      if (bytes > MAX_SAVED_PLAN_BYTES) throw planTooLargeToSave(opts.out, bytes);
      await writePlanOut(outFile!, opts.out, text);
      ctx.err(`Saved the plan to ${opts.out}. Apply exactly this plan with \`wsc apply ${opts.out}\`.\n`);
    }
    const stepSummary = ctx.settings.stepSummary;
    if (stepSummary !== undefined) {
      // The job summary is a courtesy: failing to add to it does not fail the plan.
      await appendFile(stepSummary, redact(`${markdown(plan, semantic, opts, pictures)}\n`), 'utf8').catch(
        (e: unknown) => {
          ctx.err(
            `${ctx.style.c.yellow('warning')} could not add the plan to ` +
              `GITHUB_STEP_SUMMARY (${stepSummary}): ` +
              `${(e as NodeJS.ErrnoException).code ?? String(e)}.\n`,
          );
        },
      );
    }
    if (refused) throw refused;
    if (!opts.detailedExitcode) return EXIT.ok;
    // As apply would: a resource left alone is exit 5, before any change to make (2).
    if (plan.changes.some((c) => c.actions.includes('blocked'))) return EXIT.blocked;
    return hasChanges(plan) ? EXIT.changes : EXIT.ok;
  } finally {
    await conn.close();
  }
}
