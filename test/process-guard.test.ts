// The guarded end of the process: a command whose promise never settles (the
// event loop empties while it waits) ends with exit 1 and a message, never
// with exit 0 and silence; a command that settles is left alone.
import { spawnSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { transformSync } from 'esbuild';
import { beforeAll, describe, expect, test } from 'vitest';
import { tempDir } from './helpers/temp-dir.js';

/**
 * src/process-guard.ts (it imports nothing) as JavaScript, once: each run is a bare node process, without
 * a TypeScript loader's start-up in it.
 */
let guard: string;
beforeAll(() => {
  const ts = readFileSync(new URL('../src/process-guard.ts', import.meta.url), 'utf8');
  guard = join(tempDir('wsc-guard-'), 'process-guard.mjs');
  writeFileSync(guard, transformSync(ts, { loader: 'ts', format: 'esm' }).code);
});

function run(body: string): { status: number | null; stderr: string } {
  const script =
    `import { guardUnfinished } from ${JSON.stringify(pathToFileURL(guard).href)};\n` +
    'const g = guardUnfinished(process, (t) => process.stderr.write(t));\n' +
    body;
  const r = spawnSync(process.execPath, ['--input-type=module', '-e', script], {
    encoding: 'utf8',
    timeout: 30_000,
  });
  return { status: r.status, stderr: r.stderr };
}

describe('guardUnfinished', () => {
  test('a promise that never settles: exit 1 and the message', () => {
    const r = run('await new Promise(() => {});\ng.done();\n');
    expect(r.status).toBe(1);
    expect(r.stderr).toMatch(/internal error: wsc stopped before the command finished/);
  });

  test('a command that finished keeps its exit code and prints nothing', () => {
    const r = run('await new Promise((r) => setTimeout(r, 10));\nprocess.exitCode = 2;\ng.done();\n');
    expect(r.status).toBe(2);
    expect(r.stderr).toBe('');
  });
});
