// Whether dist/ is as new as what it is built from: src/, the build script,
// the TypeScript settings and the installed dependencies (the bundle holds
// them; npm rewrites node_modules/.package-lock.json on every install). The
// one rule for "is the build fresh", for `npm test` (its pretest builds only
// when stale: `node scripts/build.mjs --if-stale`) and for the tests that run
// the built CLI (test/e2e/helpers).
import { readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const repoRoot = fileURLToPath(new URL('..', import.meta.url));
const INPUTS = ['src', 'scripts/build.mjs', 'tsconfig.json', 'package.json', 'node_modules/.package-lock.json'];
/**
 * The time the last completed build started, in a dot file (a build clears dist/ but those): an input changed
 * while a build ran is newer than its start, so the next check builds again.
 */
const builtAt = (root) => join(root, 'dist/.built-at');

/** The newest modification time of `path`, a file or everything under a directory (0: not there). */
function newest(path) {
  const st = statSync(path, { throwIfNoEntry: false });
  if (st === undefined) return 0;
  if (!st.isDirectory()) return st.mtimeMs;
  let out = 0;
  for (const e of readdirSync(path)) out = Math.max(out, newest(join(path, e)));
  return out;
}

/** Whether the last build completed, dist/main.js is there, and no input changed since that build started. */
export function distIsFresh(root = repoRoot) {
  let started;
  try {
    started = Number(readFileSync(builtAt(root), 'utf8'));
  } catch {
    return false;
  }
  if (!Number.isFinite(started) || statSync(join(root, 'dist/main.js'), { throwIfNoEntry: false }) === undefined)
    return false;
  return INPUTS.every((p) => newest(join(root, p)) < started);
}

/** Around a build: no record while it runs (a failed build leaves none), its start recorded once it completed. */
export async function recordBuild(build, root = repoRoot) {
  const started = Date.now();
  rmSync(builtAt(root), { force: true });
  await build();
  writeFileSync(builtAt(root), String(started));
}
