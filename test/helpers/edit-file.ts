// A user's edit of a bundle file, for tests that change a bundle between runs.
import { readFileSync, writeFileSync } from 'node:fs';

/**
 * Edits a file in place as a user would: `from` becomes `to`. Throws when the
 * file does not hold `from`, so a test never goes on with an edit that did nothing.
 */
export function editFile(file: string, from: string | RegExp, to: string): void {
  const text = readFileSync(file, 'utf8');
  const edited = text.replace(from, to);
  if (edited === text) throw new Error(`editFile: ${String(from)} not found in ${file}`);
  writeFileSync(file, edited);
}
