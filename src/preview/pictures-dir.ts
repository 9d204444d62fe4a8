// The directory pictures are written into (`preview --out DIR`, `plan --pictures DIR`): refused in one
// wording, naming the flag that gave it, before anything is read or drawn when a file stands in its way, and
// at the write for any other cause. Light on purpose: `wsc plan` checks it without loading the drawing.
import { causeOf } from '../domain/fs-cause.js';
import { UsageError } from '../errors.js';
import { missingDirectories } from '../make-dir.js';

/** The flag that named the pictures' directory: `preview --out` or `plan --pictures`. */
export type DirFlag = '--out' | '--pictures';

export const dirRefusal = (shown: string, flag: DirFlag, e: unknown) =>
  new UsageError(`cannot write the pictures into ${shown}: ${causeOf(e)}.`, {
    code: 'preview_out_dir',
    hint: `Give ${flag} a directory you can write to (it is created when missing).`,
  });

/**
 * Refuses, before anything is read or drawn, a pictures directory that cannot be made: a file at its path or
 * at a part of it, or a part that cannot be looked at. (What cannot be written is found at the write.)
 */
export async function checkPicturesDir(target: string, shown: string, flag: DirFlag): Promise<void> {
  await missingDirectories(target).catch((e: unknown) => {
    throw dirRefusal(shown, flag, e);
  });
}
