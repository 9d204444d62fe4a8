// Convergence with ownership on: after a successful apply the plan is empty
// and a second apply sends nothing, for every kind, embedded and against a
// server (issue 29, item 1: the example bundle with `bundle:` set planned
// three ownership records after its first apply).
import { describe, expect, test } from 'vitest';
import { writes } from '../../src/emulator/index.js';
import { namedExample } from './helpers/bundles.js';
import { e2eSuite, emulatorEnv, runCli, target, withEmulator } from './helpers/index.js';

e2eSuite();

describe('with bundle: set, apply converges at once', () => {
  test('against a server: plan is empty and the second apply sends no request', async () => {
    const dir = namedExample();
    await withEmulator({}, async (emu) => {
      const cli = (args: string[]) => runCli([...args, '--dir', dir, ...target(emu)], { env: emulatorEnv });
      const first = await cli(['apply', '--auto-approve']);
      expect(first.code).toBe(0);
      const p = await cli(['plan', '--detailed-exitcode']);
      expect(p.stdout).not.toContain('ownership record');
      expect(p.stdout).not.toContain('will be recorded');
      expect(p.code).toBe(0);
      emu.clearLog();
      const again = await cli(['apply', '--auto-approve']);
      expect(again.code).toBe(0);
      expect(again.stdout).toContain('No changes');
      expect(writes(emu.log)).toEqual([]);
    });
  });

  test('embedded: plan after apply is empty', async () => {
    const dir = namedExample();
    expect((await runCli(['apply', '--auto-approve', '--dir', dir])).code).toBe(0);
    const p = await runCli(['plan', '--detailed-exitcode', '--dir', dir]);
    expect(p.stdout).not.toContain('ownership record');
    expect(p.code).toBe(0);
  });
});
