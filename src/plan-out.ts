// `wsc plan --out FILE`: where the saved plan goes, checked before the
// deployment is read (a plan that cannot be saved is not worth reading it
// for), and written so that a reader never sees half a plan.
import { rename, rm, stat } from 'node:fs/promises';
import { dirname } from 'node:path';
import { UsageError } from './errors.js';
import { refuseLink, writeOutFile } from './out-file.js';
import { redact } from './redact.js';

function planOutError(shown: string, e: unknown): UsageError {
  if (e instanceof UsageError) return e; // a link where the plan goes (out-file.ts)
  const code = (e as NodeJS.ErrnoException).code ?? String(e);
  return new UsageError(`cannot save the plan to ${shown}: ${code}.`, {
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

/** The saved plan's text into `file` (shown as `shown`), or a UsageError that says why not. */
export function writePlanOut(file: string, shown: string, text: string): Promise<void> {
  return writeAtomic(file, text).catch((e: unknown) => {
    throw planOutError(shown, e);
  });
}
