// The built CLI on a real pseudo-terminal (util-linux `script`): apply shows
// the plan, asks, reads the answer from the terminal, and shows a spinner per
// phase. Skipped where `script` is not the util-linux one.
import { spawn, spawnSync } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, test, vi } from 'vitest';
import { writes } from '../../src/emulator/index.js';
import { reportsIn, writeBundle } from './helpers/bundles.js';
import { cleanupTemp, ensureBuilt, root, withEmulator, type Emulator } from './helpers/index.js';

vi.setConfig({ testTimeout: 120_000 });
beforeAll(ensureBuilt, 180_000);
afterAll(cleanupTemp);

const hasScript =
  process.platform === 'linux' &&
  spawnSync('script', ['--version'], { encoding: 'utf8' }).stdout?.includes('util-linux');

/** Runs `wsc apply` in a pseudo-terminal of 100 columns and answers the question. */
function applyOnTerminal(emu: Emulator, dir: string, answer: string): Promise<{ code: number | null; screen: string }> {
  const cmd = `stty cols 100; exec node ${root}/bin/wsc.js apply --dir ${dir} --base-url ${emu.url} --deployment 1`;
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
      child.stdin.write(`${answer}\r`);
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

describe.skipIf(!hasScript)('apply on a terminal', () => {
  test('answering yes applies, with a spinner and a line per kind of request once its last one ended', async () => {
    const dir = writeBundle({ looseReports: 2 });
    await withEmulator({}, async (emu) => {
      const { code, screen } = await applyOnTerminal(emu, dir, 'yes');
      expect(code).toBe(0);
      expect(screen).toContain('Plan: 2 to create, 0 to update, 0 to adopt, 0 to publish.');
      expect(screen).toMatch(/✔.*Reports:\S* 2 of 2 applied/);
      expect(screen).toContain('2 created, 0 updated, 0 adopted, 0 published.');
      expect(reportsIn(emu)).toHaveLength(2);
    });
  });

  test('answering no writes nothing', async () => {
    const dir = writeBundle({ looseReports: 2 });
    await withEmulator({}, async (emu) => {
      const { code, screen } = await applyOnTerminal(emu, dir, 'no');
      expect(code).toBe(1);
      expect(screen).toContain('Apply cancelled. Nothing was changed.');
      expect(writes(emu.log)).toEqual([]);
    });
  });
});
