// `wsc plan --out FILE`: where the saved plan goes, checked before the
// deployment is read (a plan that cannot be saved is not worth reading it
// for), refused when `wsc apply` would not read it back, and written so that
// a reader never sees half a plan.
import { rename, rm, stat } from 'node:fs/promises';
import { dirname, relative, resolve, sep } from 'node:path';
import type { Plan } from '../core/plan-model.js';
import { causeOf } from '../domain/fs-cause.js';
import { serializeSavedPlan, type SavedPlanEnvironment } from '../core/saved-plan.js';
import { savedSemantic, type SemanticOutcome } from '../core/semantic/outcome.js';
import { UsageError } from '../errors.js';
import { VERSION } from '../version.js';
import { MAX_SAVED_PLAN_BYTES, planTooLargeToSave } from './read.js';
import { refuseLink, writeOutFile } from '../out-file.js';
import { redact } from '../redact.js';

function planOutError(shown: string, e: unknown): UsageError {
  if (e instanceof UsageError) return e; // a link where the plan goes (out-file.ts)
  return new UsageError(`cannot save the plan to ${shown}: ${causeOf(e)}.`, {
    code: 'plan_out_unwritable',
    hint: 'Give --out a file name in a directory that exists and that you can write to.',
  });
}

/** Checked before anything is read: `file` (shown as `shown`) can be written. */
export async function checkPlanOut(file: string, shown: string): Promise<void> {
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

/** What `wsc plan --out` saves: the plan, where it was made for, from which bundle, and the semantic check. */
export interface PlanToSave {
  /** The directory wsc runs in, and the bundle directory (--dir), recorded relative to it. */
  cwd: string;
  dir: string;
  /** A ResolvedEnvironment may be passed: core/saved-plan.ts copies only what a saved plan records. */
  environment: SavedPlanEnvironment;
  targets: readonly string[];
  semantic: SemanticOutcome;
  plan: Plan;
}

/** The saved plan into `file` (shown as `shown`), or a UsageError that says why not. */
export async function savePlan(file: string, shown: string, p: PlanToSave): Promise<void> {
  // Relative and with `/` whatever the system, so that the plan can be applied from another checkout.
  const bundleDir = relative(p.cwd, resolve(p.cwd, p.dir)).split(sep).join('/') || '.';
  const text = serializeSavedPlan({
    wscVersion: VERSION,
    createdAt: new Date().toISOString(),
    environment: p.environment,
    bundleDir,
    targets: p.targets,
    semanticCheck: savedSemantic(p.semantic),
    plan: p.plan,
  });
  const bytes = Buffer.byteLength(text);
  if (bytes > MAX_SAVED_PLAN_BYTES) throw planTooLargeToSave(shown, bytes);
  await writeAtomic(file, text).catch((e: unknown) => {
    throw planOutError(shown, e);
  });
}
