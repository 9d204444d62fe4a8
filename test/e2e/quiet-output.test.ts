// Quiet, pipe-safe output (issue 38, item 8). A reader that goes away
// (`wsc plan --help | head -1`) ends wsc quietly with exit 0, as git and gh
// end, never with an unhandled EPIPE and its stack trace; the semantic
// check's "Not checked" note is one line, once per run. The built CLI runs
// in a child process behind a real shell pipe; the emulator is a real server.
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { namedExample } from './helpers/bundles.js';
import { e2eSuite, ensureBuilt, root, runCli, target, withEmulator } from './helpers/index.js';

e2eSuite();

const launcher = join(root, 'bin/wsc.js');

/**
 * `wsc ARGS | READER` in bash with pipefail (wsc's own exit status counts), and what it wrote to
 * stderr. Asynchronous: the emulator answering it runs in this process.
 */
function piped(args: string[], reader: string): Promise<{ code: number; stdout: string; stderr: string }> {
  ensureBuilt();
  const quoted = args.map((a) => `'${a}'`).join(' ');
  const child = spawn('bash', ['-c', `set -o pipefail; "${process.execPath}" '${launcher}' ${quoted} | ${reader}`], {
    env: { PATH: process.env['PATH'] ?? '', HOME: process.env['HOME'] ?? '', WSC_TOKEN: 'dev-token', NO_COLOR: '1' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.setEncoding('utf8').on('data', (d: string) => (stdout += d));
  child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d));
  return new Promise((resolve) => child.on('close', (code) => resolve({ code: code ?? -1, stdout, stderr })));
}

describe('a closed pipe', () => {
  // `true` reads nothing and is gone before wsc writes: every write meets a closed pipe (EPIPE).
  test.each([
    ['plan --help', 'head -1'],
    ['plan --help', 'true'],
    ['--help', 'true'],
  ])('`wsc %s | %s` ends quietly with exit 0', async (args, reader) => {
    for (let i = 0; i < 3; i++) {
      const r = await piped(args.split(' '), reader);
      expect(r.stderr).toBe('');
      expect(r.code).toBe(0);
      if (reader === 'head -1') expect(r.stdout).toBe('Usage: wsc plan [options]\n');
    }
  });

  test('`wsc plan … | head -1` against a deployment: the first line, exit 0, no stack trace', async () => {
    const dir = namedExample();
    await withEmulator({}, async (emu) => {
      const args = ['plan', '--dir', dir, '--env', 'local', ...target(emu), '--no-compact'];
      for (const reader of ['head -1', 'true']) {
        const r = await piped(args, reader);
        expect(r.code, r.stderr).toBe(0);
        expect(r.stderr).not.toMatch(/EPIPE|node:events|\n\s+at /);
        if (reader === 'head -1')
          expect(r.stdout).toBe('wsc will make these changes to deployment 1 (environment local):\n');
      }
    });
  });
});

describe('a note is one line, once per run', () => {
  test('"Not checked: month (a column of the SQL result)" from plan and apply: one line each run', async () => {
    const dir = namedExample();
    await withEmulator({}, async (emu) => {
      for (const args of [['plan'], ['apply', '--auto-approve'], ['plan']]) {
        const r = await runCli([...args, '--dir', dir, '--env', 'local', ...target(emu)], {
          env: { WSC_TOKEN: 'dev-token' },
        });
        expect(r.code, r.stderr).toBe(0);
        const all = `${r.stdout}${r.stderr}`;
        const notes = all.split('\n').filter((l) => l.includes('month (a column of the SQL result'));
        expect(notes).toEqual([
          '  Not checked: month (a column of the SQL result, not a member) at reports/mrr-trend.yaml:22:10',
        ]);
        expect(all).not.toMatch(/^\s*Not checked:\s*$/m);
      }
    });
  });
});
