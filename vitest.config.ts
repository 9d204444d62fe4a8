import { defineConfig } from 'vitest/config';

// Most end-to-end tests run the CLI in the test process (test/e2e/helpers
// runCli) against emulators on loopback; a few spawn the built launcher. Three
// workers on a 2-core CI machine: a quarter of the suite's time is spent
// waiting by design (timeouts, signals, stalled servers), and a third worker
// fills it (measured: 53 s with two workers, 40 s with three, 38 s with four). Test files share their worker's module
// graph (isolate: false): each file no longer loads src/ afresh, which halved
// the suite's CPU time. Nothing in src/ keeps a run's state between runs
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
  },
});
