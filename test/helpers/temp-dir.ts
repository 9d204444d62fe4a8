// Temporary directories for tests. Every directory made here is removed when
// its test file ends: test/helpers/remove-temp-dirs.ts, a setup file vitest
// runs before each test file (isolate: false shares this module between the
// files of a worker, so a hook registered here once would only serve the
// first file), registers removeTempDirs() as that file's last afterAll.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';

const made: string[] = [];

/** A new, empty directory under the system's temp folder, removed after the test file. */
export function tempDir(prefix = 'wsc-test-'): string {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  made.push(dir);
  return dir;
}

/** Writes files (path relative to dir -> text or bytes) under dir, making folders as needed; returns dir. */
export function writeTree(dir: string, files: Record<string, string | Uint8Array>): string {
  for (const [rel, content] of Object.entries(files)) {
    mkdirSync(dirname(join(dir, rel)), { recursive: true });
    writeFileSync(join(dir, rel), content);
  }
  return dir;
}

/** Removes every directory tempDir() has made so far. */
export function removeTempDirs(): void {
  for (const dir of made.splice(0)) rmSync(dir, { recursive: true, force: true });
}
