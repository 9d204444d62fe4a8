// Small edges of the CLI, end to end: a --dir that does not exist (or is a
// file) is named and never created; plan against a server creates no .wsc/; an exported
// bundle keeps .wsc/ out of Git; --no-color on a real terminal (util-linux
// `script`) writes no escape sequence, the confirmation prompt included.
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { writeBundle } from './helpers/bundles.js';
import { e2eSuite, emulatorEnv, runCli, target, tempDir, withEmulator } from './helpers/index.js';
import { applyOnTerminal, hasScript } from './helpers/terminal.js';

e2eSuite();

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

  test.each([['validate'], ['plan'], ['preview', '--out', 'OUT']])(
    '%s: a file where the bundle directory was meant is said to be a file, and left as it is',
    async (...cmd) => {
      const file = join(tempDir(), 'dashboards');
      writeFileSync(file, 'x');
      const args = cmd.map((a) => (a === 'OUT' ? join(tempDir(), 'out') : a));
      const r = await runCli([...args, '--dir', file]);
      expect(r.code).toBe(3);
      expect(r.stderr).toContain(
        `bundle directory not found: ${file} (a file is there, not a directory) [bundle_dir_missing]`,
      );
      expect(readFileSync(file, 'utf8')).toBe('x');
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

describe.skipIf(!hasScript)('--no-color on a terminal', () => {
  test('apply asks, applies, and writes no escape sequence at all', async () => {
    const dir = writeBundle({ looseReports: 2 });
    await withEmulator({}, async (emu) => {
      const { code, screen } = await applyOnTerminal(emu, dir, 'yes', ['--no-color']);
      expect(code).toBe(0);
      expect(screen).toContain('Apply these changes? (yes/no)');
      expect(screen).toContain('2 created');
      expect(screen).not.toContain('\u001b');
    });
  });
});
