// Reading the file of `wsc apply PLANFILE` safely: it is checked before a
// byte is read. A FIFO or a device would block or never end (the file is
// opened without blocking and must be a regular file), and a file larger than
// any plan wsc writes is refused by its size, not after holding it in memory.
import { constants } from 'node:fs';
import { open } from 'node:fs/promises';
import { UsageError } from '../errors.js';
import { causeOf } from '../domain/fs-cause.js';

/** The largest saved plan wsc reads (and writes: `wsc plan --out` refuses a larger one). */
export const MAX_SAVED_PLAN_BYTES = 256 * 1024 * 1024;

const mib = (n: number) => `${Math.round(n / 1024 / 1024)} MiB`;

function unreadable(shown: string, why: string, hint = 'Save a plan with `wsc plan --out FILE` first.'): UsageError {
  return new UsageError(`Cannot read the saved plan ${shown}: ${why}.`, { code: 'plan_file_unreadable', hint });
}

const SMALLER = 'Plan smaller parts with `--target ADDR` and save each.';

/** A plan's text too large to be read back. */
function planTooLarge(shown: string, bytes: number): UsageError {
  return unreadable(shown, `it is ${mib(bytes)}, over the ${mib(MAX_SAVED_PLAN_BYTES)} wsc reads`, SMALLER);
}

/** `wsc plan --out` does not write a plan apply would refuse to read. */
export function planTooLargeToSave(shown: string, bytes: number): UsageError {
  return new UsageError(
    `cannot save the plan to ${shown}: it would be ${mib(bytes)}, over the ${mib(MAX_SAVED_PLAN_BYTES)} ` +
      '`wsc apply PLANFILE` reads.',
    { code: 'plan_out_unwritable', hint: SMALLER },
  );
}

/**
 * The text of the plan file at `file` (`shown` as the user gave it). `save`: the `wsc plan --out` that saves it,
 * for the hint when there is none.
 */
export async function readSavedPlanFile(file: string, shown: string, save?: string): Promise<string> {
  let handle;
  try {
    handle = await open(file, constants.O_RDONLY | constants.O_NONBLOCK);
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    const first = save !== undefined && code === 'ENOENT' ? `Save the plan first: \`${save}\`.` : undefined;
    throw unreadable(shown, causeOf(e), first);
  }
  try {
    const st = await handle.stat();
    if (!st.isFile()) throw unreadable(shown, 'not a regular file (a pipe, a device or a directory)');
    if (st.size > MAX_SAVED_PLAN_BYTES) throw planTooLarge(shown, st.size);
    // At most one byte more than allowed, whatever the file grows to while it is read.
    const buf = Buffer.alloc(Math.min(st.size, MAX_SAVED_PLAN_BYTES) + 1);
    let got = 0;
    for (;;) {
      const { bytesRead } = await handle.read(buf, got, buf.length - got, got);
      if (bytesRead === 0) break;
      got += bytesRead;
      if (got === buf.length) break;
    }
    if (got > MAX_SAVED_PLAN_BYTES) throw planTooLarge(shown, got);
    return buf.subarray(0, got).toString('utf8');
  } catch (e) {
    if (e instanceof UsageError) throw e;
    throw unreadable(shown, causeOf(e));
  } finally {
    await handle.close();
  }
}
