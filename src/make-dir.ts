// `mkdir -p` for the directories wsc creates (export --out, schema --out, the
// emulator's state file). Node's own recursive mkdir loops forever where
// mkdir answers ENOENT under a directory that exists (procfs and similar
// mounts: `wsc export --out /proc/x` never returned); this makes one mkdir per
// missing component, so it ends after as many calls as the path has parts.
// Errors are Node's (with `code`), for the callers to word.
import { mkdir, stat } from 'node:fs/promises';
import { dirname, resolve } from 'node:path';

function notADirectory(path: string): NodeJS.ErrnoException {
  return Object.assign(new Error(`ENOTDIR: not a directory, mkdir '${path}'`), { code: 'ENOTDIR', path });
}

/**
 * The directories `path` lacks, itself first, without making any; an ENOTDIR naming the file in the way (a
 * part of the path that is not a directory). Found by going up from `path` to what exists.
 */
export async function missingDirectories(path: string): Promise<string[]> {
  const missing: string[] = [];
  for (let p = resolve(path); ; p = dirname(p)) {
    // ENOTDIR: a parent is a file; going up finds which, and names it.
    const st = await stat(p).catch((e: NodeJS.ErrnoException) => {
      if (e.code === 'ENOENT' || e.code === 'ENOTDIR') return undefined;
      throw e;
    });
    if (st) {
      if (!st.isDirectory()) throw notADirectory(p);
      return missing;
    }
    missing.push(p);
    if (dirname(p) === p) return missing;
  }
}

/** Creates `path` and its missing parents; resolves once `path` is a directory (links followed). */
export async function makeDirectory(path: string): Promise<void> {
  for (const d of (await missingDirectories(path)).reverse()) {
    try {
      await mkdir(d);
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'EEXIST') throw e;
      // Made meanwhile by someone else: fine if it is a directory.
      if (!(await stat(d)).isDirectory()) throw notADirectory(d);
    }
  }
}
