// Temporary bundle directories for loader tests (removed after each test file: test/helpers/temp-dir.ts).
import { tempDir, writeTree } from '../helpers/temp-dir.js';

/** A new directory holding `files` (path -> text or bytes). */
export function bundle(files: Record<string, string | Uint8Array> = {}): string {
  return writeTree(tempDir('wsc-bundle-'), files);
}
