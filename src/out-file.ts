// The one rule of every file wsc writes where a user points it (export,
// `preview --out`, `schema --out`, `plan --out`): a symbolic link where a
// file is to be written is never written through, nor replaced, whatever it
// points at; it is refused with one message and code (`output_link`, exit 3).
// A checkout can hold links a pull request planted beside the pictures or
// the bundle; the directory a user names is theirs, a link inside it is not
// wsc's to follow. Writers call `writeOutFile` once per file (the check is
// in the open itself, O_NOFOLLOW, so a link planted after a check is refused
// too) and may call `refuseLink` first to refuse before anything is written.
import { closeSync, constants, lstatSync, openSync, writeFileSync } from 'node:fs';
import { UsageError } from './errors.js';

/** Open flags that refuse a link as the last component of the path. */
export const NO_FOLLOW = constants.O_NOFOLLOW;

/** The refusal of a link where wsc would write. */
export function linkRefused(abs: string): UsageError {
  return new UsageError(`${abs} is a symbolic link; wsc will not write through it.`, {
    code: 'output_link',
    hint: 'Remove the link, or write into another directory.',
  });
}

/** Refuses `abs` when it is a symbolic link (a dangling one too). */
export function refuseLink(abs: string): void {
  if (lstatSync(abs, { throwIfNoEntry: false })?.isSymbolicLink()) throw linkRefused(abs);
}

/**
 * Writes `data` to the regular file `abs`, new or truncated (or, with
 * `exclusive`, only new), never through a link. Synchronous on purpose: the
 * writers write many small files, and the promise API costs more per file
 * than the three system calls themselves.
 */
export function writeOutFile(abs: string, data: string | Uint8Array, opts: { exclusive?: boolean } = {}): void {
  const flags =
    constants.O_WRONLY | constants.O_CREAT | (opts.exclusive === true ? constants.O_EXCL : constants.O_TRUNC);
  let fd: number;
  try {
    fd = openSync(abs, flags | NO_FOLLOW, 0o644);
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ELOOP') throw linkRefused(abs);
    throw e;
  }
  try {
    writeFileSync(fd, data); // loops until every byte is written
  } finally {
    closeSync(fd);
  }
}
