// `wsc plan`: read the live deployment and print what apply would change.
// stdout holds the plan alone (--output human|json|markdown); progress and
// warnings go to stderr. Never writes to the API.
import { appendFile, rename, rm, stat } from 'node:fs/promises';
import { dirname, relative, resolve, sep } from 'node:path';
import type { PlanOptions } from './options.js';
import { hasChanges, type Plan } from '../core/plan-model.js';
import { createOnlyError } from '../core/plan/create-only.js';
import { serializeSavedPlan } from '../core/saved-plan.js';
import { savedSemantic, semanticError, type SemanticOutcome } from '../core/semantic/outcome.js';
import { EXIT, UsageError } from '../errors.js';
import { renderPlanHuman } from '../render/plan-human.js';
import { renderPlanJson } from '../render/plan-json.js';
import { renderPlanMarkdown } from '../render/plan-markdown.js';
import type { Style } from '../render/style.js';
import type { CommandContext } from './context.js';
import { preparePlan } from './prepare.js';
import { MAX_SAVED_PLAN_BYTES, planTooLargeToSave } from './saved-plan-file.js';
import { VERSION } from '../version.js';
import { redact } from '../redact.js';
import { refuseLink, writeOutFile } from '../out-file.js';

function markdown(plan: Plan, semantic: SemanticOutcome, opts: PlanOptions): string {
  const pictures = opts.pictures;
  return renderPlanMarkdown(plan, { compact: opts.compact, semantic, ...(pictures !== undefined ? { pictures } : {}) });
}

function render(plan: Plan, semantic: SemanticOutcome, opts: PlanOptions, style: Style): string {
  if (opts.output === 'json') return renderPlanJson(plan, semantic);
  if (opts.output === 'markdown') return markdown(plan, semantic, opts);
  return renderPlanHuman(plan, style, opts.dir, { compact: opts.compact, semantic });
}

function planOutError(shown: string, e: unknown): UsageError {
  if (e instanceof UsageError) return e; // a link where the plan goes (out-file.ts)
  const code = (e as NodeJS.ErrnoException).code ?? String(e);
  return new UsageError(`cannot save the plan to ${shown}: ${code}.`, {
    code: 'plan_out_unwritable',
    hint: 'Give --out a file name in a directory that exists and that you can write to.',
  });
}

/** Checked before anything is read: a plan that cannot be saved is not worth reading the deployment for. */
async function checkPlanOut(file: string, shown: string): Promise<void> {
  const dir = await stat(dirname(file)).catch((e: unknown) => {
    throw planOutError(shown, e);
  });
  if (!dir.isDirectory()) throw planOutError(shown, { code: 'ENOTDIR' });
  refuseLink(file);
  const existing = await stat(file).catch(() => undefined);
  if (existing?.isDirectory()) throw planOutError(shown, { code: 'EISDIR' });
}

/** Written beside, then renamed over: a reader never sees half a plan. */
async function writeAtomic(file: string, text: string): Promise<void> {
  const tmp = `${file}.${process.pid}.tmp`;
  try {
    writeOutFile(tmp, redact(text));
    refuseLink(file); // a link planted since the check is not replaced either
    await rename(tmp, file);
  } catch (e) {
    await rm(tmp, { force: true }).catch(() => undefined);
    throw e;
  }
}

export async function run(opts: PlanOptions, ctx: CommandContext): Promise<number> {
  const outFile = opts.out === undefined ? undefined : resolve(ctx.cwd, opts.out);
  if (outFile !== undefined) await checkPlanOut(outFile, opts.out!);
  const { env, plan, conn, semantic } = await preparePlan(opts, ctx);
  try {
    ctx.out(render(plan, semantic, opts, ctx.style));
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
      await writeAtomic(outFile!, text).catch((e: unknown) => {
        throw planOutError(opts.out!, e);
      });
      ctx.err(`Saved the plan to ${opts.out}. Apply exactly this plan with \`wsc apply ${opts.out}\`.\n`);
    }
    const stepSummary = ctx.settings.stepSummary;
    if (stepSummary !== undefined) {
      // The job summary is a courtesy: failing to add to it does not fail the plan.
      await appendFile(stepSummary, redact(`${markdown(plan, semantic, opts)}\n`), 'utf8').catch((e: unknown) => {
        ctx.err(
          `${ctx.style.c.yellow('warning')} could not add the plan to ` +
            `GITHUB_STEP_SUMMARY (${stepSummary}): ` +
            `${(e as NodeJS.ErrnoException).code ?? String(e)}.\n`,
        );
      });
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
