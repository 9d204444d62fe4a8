// The guarded end of the process: a command whose promise never settles (the
// event loop empties while it waits) ends with exit 1 and a message, never
// with exit 0 and silence; a command that settles is left alone.
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, test } from 'vitest';

const guard = fileURLToPath(new URL('../src/process-guard.ts', import.meta.url));

function run(body: string): { status: number | null; stderr: string } {
  const script =
    `import { guardUnfinished } from ${JSON.stringify(guard)};\n` +
    'const g = guardUnfinished(process, (t) => process.stderr.write(t));\n' +
    body;
  const r = spawnSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], {
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
