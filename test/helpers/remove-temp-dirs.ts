// A vitest setup file (vitest.config.ts setupFiles): run before each test
// file, so the hook below is registered once per file, first, and therefore
// runs after the file's own afterAll hooks (vitest runs after-hooks in
// reverse order), when nothing of the file uses its directories any more.
import { afterAll } from 'vitest';
import { removeTempDirs } from './temp-dir.js';

afterAll(removeTempDirs);
