// Small edges of the CLI, end to end: a --dir that does not exist is named
// and never created; plan against a server creates no .wsc/; an exported
// bundle keeps .wsc/ out of Git; --no-color on a real terminal (util-linux
// `script`) writes no escape sequence, the confirmation prompt included.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test, vi } from 'vitest';
import { writeBundle } from './helpers/bundles.js';
import { cleanupTemp, emulatorEnv, ensureBuilt, root, runCli, target, tempDir, withEmulator } from './helpers/index.js';
import type { Emulator } from './helpers/index.js';

vi.setConfig({ testTimeout: 120_000 });
beforeAll(ensureBuilt, 180_000);
afterAll(cleanupTemp);

describe('a --dir that does not exist', () => {
  test.each([['plan'], ['apply', '--auto-approve'], ['export', '--out', 'OUT'], ['doctor']])(
    '%s: exit 3 naming the path; nothing is created there',
    async (...cmd) => {
      const missing = join(tempDir(), 'no-such-bundle');
      const args = cmd.map((a) => (a === 'OUT' ? join(tempDir(), 'out') : a));
      const r = await runCli([...args, '--dir', missing]);
      expect(r.code).toBe(3);
      expect(r.stderr).toContain(`bundle directory not found: ${missing} [bundle_dir_missing]`);
      expect(existsSync(missing)).toBe(false);
    },
  );
});

describe('.wsc/', () => {
  test('plan against a server creates no .wsc/ in the bundle', async () => {
    const dir = writeBundle({ looseReports: 1 });
    await withEmulator({}, async (emu) => {
      const r = await runCli(['plan', '--dir', dir, ...target(emu)], { env: emulatorEnv });
      expect(r.code).toBe(0);
      expect(existsSync(join(dir, '.wsc'))).toBe(false);
    });
  });

  test('export --out writes a .gitignore holding .wsc/', async () => {
    await withEmulator({}, async (emu) => {
      const out = join(tempDir(), 'exported');
      const r = await runCli(['export', '--out', out, ...target(emu)], { env: emulatorEnv });
      expect(r.code).toBe(0);
      expect(readFileSync(join(out, '.gitignore'), 'utf8').split('\n')).toContain('.wsc/');
    });
  });
});

const hasScript =
  process.platform === 'linux' &&
  spawnSync('script', ['--version'], { encoding: 'utf8' }).stdout?.includes('util-linux');

/** `wsc apply --no-color` in a pseudo-terminal, answering the question; everything the terminal showed. */
function applyOnTerminal(emu: Emulator, dir: string): Promise<{ code: number | null; screen: string }> {
  const wsc = `node ${root}/bin/wsc.js`;
  const cmd = `stty cols 100; exec ${wsc} apply --no-color --dir ${dir} --base-url ${emu.url} --deployment 1`;
  const child = spawn('script', ['-qec', cmd, '/dev/null'], {
    env: { PATH: process.env['PATH'] ?? '', HOME: process.env['HOME'] ?? '', WSC_TOKEN: 'dev-token', TERM: 'xterm' },
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  let screen = '';
  let answered = false;
  const onData = (d: Buffer) => {
    screen += d.toString('utf8');
    if (!answered && screen.includes('Apply these changes? (yes/no)')) {
      answered = true;
      child.stdin.write('yes\r');
    }
  };
  child.stdout.on('data', onData);
  child.stderr.on('data', onData);
  const timer = setTimeout(() => child.kill('SIGKILL'), 60_000);
  return new Promise((resolve) =>
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, screen });
    }),
  );
}

describe.skipIf(!hasScript)('--no-color on a terminal', () => {
  test('apply asks, applies, and writes no escape sequence at all', async () => {
    const dir = writeBundle({ looseReports: 2 });
    await withEmulator({}, async (emu) => {
      const { code, screen } = await applyOnTerminal(emu, dir);
      expect(code).toBe(0);
      expect(screen).toContain('Apply these changes? (yes/no)');
      expect(screen).toContain('2 created');
      expect(screen).not.toContain('\u001b');
    });
  });
});
