import { accessSync, constants, statfsSync } from 'node:fs';
import { defineConfig } from 'vitest/config';

/**
 * Where the suite's temporary directories go: a memory file system (/dev/shm) when the machine has a
 * writable one with room to spare and TMPDIR is not set, else the system's temp folder. The suite creates
 * tens of thousands of small files (bundles, exports, a 5,000-file bundle, git repositories); on a slow
 * disk creating them is a sixth of its time (CONTRIBUTING gives the figures). The workers, the CLIs they
 * spawn and git read it as TMPDIR (os.tmpdir()); a TMPDIR of the user's own is kept.
 */
function memoryTmpDir(): string | undefined {
  if (process.env['TMPDIR'] !== undefined) return undefined;
  const dir = '/dev/shm';
  try {
    accessSync(dir, constants.W_OK);
    const fs = statfsSync(dir);
    // A small one (a container's default is 64 MB) could fill while three workers write.
    return fs.bavail * fs.bsize >= 2 ** 30 ? dir : undefined;
  } catch {
    return undefined;
  }
}
const tmp = memoryTmpDir();

// Most end-to-end tests run the CLI in the test process (test/e2e/helpers
// runCli) against emulators on loopback; a few spawn the built launcher. Three
// workers on a 2-core CI machine: part of the suite waits by design (timeouts,
// signals, stalled servers), and a third worker keeps both cores busy
// meanwhile; a fourth adds nothing (CONTRIBUTING gives the figures). Test
// files share their worker's module graph (isolate: false): each file does
// not load src/ afresh, which halves the suite's CPU time. Nothing in src/ keeps a run's state between runs
// (runWsc clears the secrets registry; contexts carry env and cwd), no test
// mocks modules, and spies are restored after each test. The time limits
// are for a CI machine shared with other jobs, where the heaviest property
// tests (thousands of cases) take several times their usual 5 to 15 s.
export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    testTimeout: 60_000,
    hookTimeout: 30_000,
    pool: 'forks',
    maxWorkers: 3,
    isolate: false,
    restoreMocks: true,
    ...(tmp !== undefined ? { env: { TMPDIR: tmp } } : {}),
    // Removes the temporary directories of test/helpers/temp-dir.ts after each test file.
    setupFiles: ['test/helpers/remove-temp-dirs.ts'],
    // Transformed modules kept on disk (node_modules/.experimental-vitest-cache, keyed by each file's content
    // and the config) for the next run: a run after the first skips most of vite's transforms (collecting the
    // suite: 9.9 -> 6.8 s of CPU). Vitest 5 turns it on by default; `npx vitest --clearCache` empties it.
    experimental: { fsModuleCache: true },
  },
});
