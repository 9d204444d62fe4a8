// runWsc: the CLI run inside another program (the end-to-end tests) with a
// captured context. It returns the exit code without touching the process's,
// redacts what it captures as bin/wsc.js redacts its streams, and keeps no
// secret of one run to blot out the next.
import { afterAll, describe, expect, test } from 'vitest';
import { capturedContext, type Captured } from '../helpers/captured-context.js';
import { runWsc } from '../../src/main.js';
import { cleanupTemp, root, target, withEmulator, writeFiles } from '../e2e/helpers/index.js';

afterAll(cleanupTemp);

async function run(args: string[], env: Record<string, string>): Promise<Captured & { code: number }> {
  const captured: Captured = { stdout: '', stderr: '' };
  const context = capturedContext(captured, { env: { CI: 'true', ...env }, cwd: root });
  const code = await runWsc(['node', 'wsc', ...args], context);
  return { code, ...captured };
}

const bundle = () =>
  writeFiles({ 'reports/r.yaml': 'kind: Report\npublicId: abcdefABCDEF\nname: leftover-secret-xyz\n' });

describe('runWsc', () => {
  test('returns the exit code and leaves process.exitCode alone', async () => {
    const before = process.exitCode;
    const r = await run(['validate', '--dir', '/nonexistent-wsc-dir'], {});
    expect(r.code).toBe(3);
    expect(r.stderr).toContain('bundle directory not found');
    expect(process.exitCode).toBe(before);
  });

  test('what it captures is redacted: the token never, the text around it as printed', async () => {
    await withEmulator({}, async (emu) => {
      const r = await run(['plan', '--verbose', '--dir', bundle(), ...target(emu)], { WSC_TOKEN: 'dev-token' });
      expect(r.code, r.stderr).toBe(0);
      expect(r.stderr).toContain('Authorization: Bearer ***');
      expect(r.stdout + r.stderr).not.toContain('dev-token');
    });
  });

  test("an earlier run's secret does not redact a later run's output", async () => {
    await withEmulator({}, async (emu) => {
      const dir = bundle();
      const first = await run(['plan', '--dir', dir, ...target(emu)], { WSC_TOKEN: 'leftover-secret-xyz' });
      expect(first.code).not.toBe(0);
      const second = await run(['plan', '--dir', dir, ...target(emu)], { WSC_TOKEN: 'dev-token' });
      expect(second.code, second.stderr).toBe(0);
      expect(second.stdout).toContain('leftover-secret-xyz');
    });
  });

  test('runs that overlap each keep their secrets hidden', async () => {
    await withEmulator({}, async (emu) => {
      const dir = bundle();
      const tokens = ['dev-token', 'other-token-1', 'other-token-2'];
      const args = ['plan', '--verbose', '--dir', dir, ...target(emu)];
      const runs = await Promise.all(tokens.map((t) => run(args, { WSC_TOKEN: t })));
      for (const [i, t] of tokens.entries()) {
        expect(runs[i]!.stdout + runs[i]!.stderr).not.toContain(t);
        expect(runs[i]!.stderr).toContain('Bearer ***');
      }
    });
  });

  test("commander's own messages are captured too", async () => {
    const r = await run(['plan', '--no-such-flag'], {});
    expect(r.code).toBe(3);
    expect(r.stderr).toContain("error: unknown option '--no-such-flag'");
    const help = await run(['validate', '--help'], {});
    expect(help.code).toBe(0);
    expect(help.stdout).toContain('Usage: wsc validate');
  });
});
