import { defineConfig } from 'vitest/config';

// End-to-end tests spawn the built CLI and real servers on loopback; they
// need more time than unit tests, and a 2-core CI machine runs them in few
// workers to stay fast without starving the emulators.
export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    testTimeout: 30_000,
    hookTimeout: 30_000,
    pool: 'forks',
    maxWorkers: 2,
  },
});
