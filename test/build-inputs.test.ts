// When `npm test` (pretest: `node scripts/build.mjs --if-stale`) and the tests that run the built CLI skip
// the build: only when no input changed since the last completed build started. Shown on a tree of its own
// (the repository's dist/ is in use by the other test files), its files' times set by hand.
import { mkdirSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { distIsFresh, recordBuild } from '../scripts/build-inputs.mjs';
import { tempDir } from './helpers/temp-dir.js';

/** A repository's inputs, each written `secondsAgo` before now. */
function tree(secondsAgo = 60): string {
  const root = tempDir('wsc-build-inputs-');
  const files = ['src/main.ts', 'src/api/client.ts', 'scripts/build.mjs', 'tsconfig.json', 'package.json'];
  files.push('node_modules/.package-lock.json');
  for (const f of files) {
    mkdirSync(join(root, f, '..'), { recursive: true });
    writeFileSync(join(root, f), '');
    age(join(root, f), secondsAgo);
  }
  return root;
}

function age(file: string, secondsAgo: number): void {
  const t = (Date.now() - secondsAgo * 1000) / 1000;
  utimesSync(file, t, t);
}

/** A build that writes dist/main.js, and does `during` while it runs. */
const build = (root: string, during: () => void = () => {}) =>
  recordBuild(async () => {
    mkdirSync(join(root, 'dist'), { recursive: true });
    during();
    writeFileSync(join(root, 'dist/main.js'), '');
  }, root);

describe('is the build fresh (scripts/build-inputs.mjs)', () => {
  test('never built: stale; after a completed build: fresh, and again on a second look', async () => {
    const root = tree();
    expect(distIsFresh(root)).toBe(false);
    await build(root);
    expect(distIsFresh(root)).toBe(true);
    expect(distIsFresh(root)).toBe(true);
  });

  test.each([
    'src/api/client.ts',
    'scripts/build.mjs',
    'tsconfig.json',
    'package.json',
    'node_modules/.package-lock.json',
  ])('%s changed after the build: stale', async (input) => {
    const root = tree();
    await build(root);
    age(join(root, input), -1);
    expect(distIsFresh(root)).toBe(false);
  });

  test('a file added to src/ after the build: stale', async () => {
    const root = tree();
    await build(root);
    mkdirSync(join(root, 'src/new'));
    writeFileSync(join(root, 'src/new/module.ts'), '');
    age(join(root, 'src/new/module.ts'), -1);
    expect(distIsFresh(root)).toBe(false);
  });

  test('an input saved while the build ran: stale (the build may have read it before)', async () => {
    const root = tree();
    // Saved 10 ms into the build, which goes on 30 ms more: newer than the build's start, older than its end.
    const sleep = (ms: number) => Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);
    await build(root, () => {
      sleep(10);
      age(join(root, 'src/main.ts'), 0);
      sleep(30);
    });
    expect(distIsFresh(root)).toBe(false);
  });

  test('a build that failed: stale, though an older one had completed; the failure is not swallowed', async () => {
    const root = tree();
    await build(root);
    const failing = recordBuild(() => Promise.reject(new Error('esbuild: syntax error')), root);
    await expect(failing).rejects.toThrow('esbuild: syntax error');
    expect(distIsFresh(root)).toBe(false);
  });

  test('dist/main.js gone: stale', async () => {
    const root = tree();
    await build(root);
    rmSync(join(root, 'dist/main.js'));
    expect(distIsFresh(root)).toBe(false);
  });
});
