// The state file: written whole, atomically (temp file, fsync, rename, then
// fsync of the directory), so a crash at any moment leaves either the old or
// the new state, never a torn file. Writes are coalesced: changes made while
// a write is pending or running go into the next one.
import { open, rename, unlink } from 'node:fs/promises';
import { dirname, basename, join } from 'node:path';
import { makeDirectory } from '../make-dir.js';

const DEBOUNCE_MS = 25;

export class StateWriter {
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<void> | undefined;
  private dirty = false;
  private lastDurationMs = 0;
  private seq = 0;

  constructor(
    private readonly file: string,
    private readonly serialize: () => string,
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
        await writeAtomic(this.file, this.serialize(), ++this.seq);
        this.lastDurationMs = Date.now() - started;
      }
    })().finally(() => {
      this.running = undefined;
    });
    return this.running;
  }

  /** Wait until everything changed so far is on disk. */
  async flush(): Promise<void> {
    if (this.timer) {
      clearTimeout(this.timer);
      this.timer = undefined;
    }
    if (this.running) await this.running;
    if (this.dirty) await this.writeNow();
  }
}

export async function writeAtomic(file: string, text: string, seq = 0): Promise<void> {
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
