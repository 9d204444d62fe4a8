// The state file: written whole, atomically (temp file, fsync, rename, then
// fsync of the directory), so a crash at any moment leaves either the old or
// the new state, never a torn file. Writes are coalesced: changes made while
// a write is pending or running go into the next one. A write that fails (the
// directory gone, the disk full) ends neither the server nor its state: the
// state stays in memory, the failure is told (`onFailure`), and the write is
// tried again at the next change and at flush, which fails while it cannot.
import { open, rename, unlink } from 'node:fs/promises';
import { dirname, basename, join, resolve } from 'node:path';
import { causeOf } from '../domain/fs-cause.js';
import { makeDirectory } from '../make-dir.js';
import { loadSeedFile } from './seed.js';
import type { SeedState } from './types.js';

/**
 * The state file could not be loaded (at start) or written: the file, and why in words (for a write, the part of
 * its path at fault too).
 */
export class StateFileError extends Error {
  constructor(
    readonly file: string,
    cause: unknown,
    readonly op: 'load' | 'write' = 'write',
  ) {
    const e = cause as NodeJS.ErrnoException | undefined;
    const detail = typeof e?.code === 'string' ? causeOf(e) : String(e?.message ?? cause).replace(`${file}: `, '');
    const part = e?.path !== undefined && resolve(e.path) !== resolve(file) ? `: ${e.path}` : '';
    super(`cannot ${op} the state file ${file}: ${detail}${part}`, { cause });
  }
}

const DEBOUNCE_MS = 25;

export class StateWriter {
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<void> | undefined;
  private dirty = false;
  private lastDurationMs = 0;
  private seq = 0;
  /** The last write's failure, until a write succeeds. */
  private failure: StateFileError | undefined;

  /** `onFailure`: told when writes start failing (the error) and when one succeeds again (undefined). */
  constructor(
    private readonly file: string,
    private readonly serialize: () => string,
    private readonly onFailure: (failure: StateFileError | undefined) => void = () => undefined,
  ) {}

  /** Something changed: write soon. */
  schedule(): void {
    this.dirty = true;
    if (this.timer || this.running) return;
    // Large states take longer to serialise: wait longer between writes.
    const delay = Math.max(DEBOUNCE_MS, this.lastDurationMs * 2);
    this.timer = setTimeout(() => {
      this.timer = undefined;
      void this.writeNow();
    }, delay);
  }

  private writeNow(): Promise<void> {
    if (this.running) return this.running;
    this.running = (async () => {
      while (this.dirty) {
        this.dirty = false;
        const started = Date.now();
        try {
          await writeAtomic(this.file, this.serialize(), ++this.seq);
        } catch (e) {
          // Still to write: the next change or flush tries again (not a loop of retries meanwhile).
          this.dirty = true;
          if (this.failure === undefined) this.onFailure((this.failure = new StateFileError(this.file, e)));
          else this.failure = new StateFileError(this.file, e);
          return;
        }
        this.lastDurationMs = Date.now() - started;
        if (this.failure !== undefined) this.onFailure((this.failure = undefined));
      }
    })().finally(() => {
      this.running = undefined;
    });
    return this.running;
  }

  /** Wait until everything changed so far is on disk; a StateFileError when it cannot be written. */
  async flush(): Promise<void> {
    if (this.timer) {
      clearTimeout(this.timer);
      this.timer = undefined;
    }
    if (this.running) await this.running;
    if (this.dirty) await this.writeNow();
    if (this.dirty && this.failure !== undefined) throw this.failure;
  }
}

async function writeAtomic(file: string, text: string, seq = 0): Promise<void> {
  const dir = dirname(file);
  await makeDirectory(dir);
  const tmp = join(dir, `.${basename(file)}.${process.pid}.${seq}.tmp`);
  const fh = await open(tmp, 'w', 0o600);
  try {
    await fh.writeFile(text, 'utf8');
    await fh.sync();
  } finally {
    await fh.close();
  }
  try {
    await rename(tmp, file);
  } catch (e) {
    await unlink(tmp).catch(() => undefined);
    throw e;
  }
  // Make the rename itself durable; not every platform allows fsync on a directory.
  const d = await open(dir, 'r').catch(() => undefined);
  await d?.sync().catch(() => undefined);
  await d?.close().catch(() => undefined);
}

/** The state in `file` (which exists), or a StateFileError saying why it cannot be loaded. */
export function loadState(file: string): SeedState {
  try {
    return loadSeedFile(file);
  } catch (e) {
    throw new StateFileError(file, e, 'load');
  }
}

/** Writes the state to `file` now (as the emulator starts), or a StateFileError saying why it cannot. */
export async function writeState(file: string, text: string): Promise<void> {
  await writeAtomic(file, text).catch((e: unknown) => {
    throw new StateFileError(file, e);
  });
}
