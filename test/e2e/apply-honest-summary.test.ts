// The apply summary says "re-running converges" only when every failure was
// transient; failures of one cause are one message naming every resource.
import { describe, expect, test } from 'vitest';
import { api, pid, reportsIn, writeBundle } from './helpers/bundles.js';
import { e2eSuite, emulatorEnv, runCli, target, withEmulator } from './helpers/index.js';

e2eSuite();

describe('the apply summary is honest about re-running', () => {
  test('three reports whose publicIds another deployment uses: one message with three names, no false "converges"', async () => {
    await withEmulator({}, async (emu) => {
      for (let i = 0; i < 3; i++) {
        expect(
          (await api(emu, 'POST', '/api/v1/deployments/2/reports', { publicId: pid(1000 + i), name: `Other ${i}` }))
            .status,
        ).toBe(200);
      }
      const dir = writeBundle({ looseReports: 3 });
      const r = await runCli(['apply', '--auto-approve', '--dir', dir, ...target(emu)], { env: emulatorEnv });
      expect(r.code, r.stderr).toBe(1);
      expect(r.stdout).toContain('3 requests failed for one reason:');
      for (let i = 0; i < 3; i++) expect(r.stdout).toContain(`report/${pid(1000 + i)}  reports/loose-${i}.yaml:2:1`);
      expect(r.stdout.match(/Hint:/g)).toHaveLength(1);
      expect(r.stdout).not.toMatch(/Re-running apply converges/);
      expect(r.stdout).toMatch(
        /Re-running apply alone will fail the same way for 3 requests: change what the messages above say first/,
      );
      expect(reportsIn(emu, 1)).toHaveLength(0);
    });
  });

  test('a server that answers 503 to every create: "re-running converges", and it does', async () => {
    await withEmulator({}, async (emu) => {
      const dir = writeBundle({ looseReports: 2 });
      emu.setFaults({ script: [{ method: 'POST', path: /\/reports$/, fault: '503', retryAfter: 0, times: 100 }] });
      const r = await runCli(['apply', '--auto-approve', '--max-retries', '0', '--dir', dir, ...target(emu)], {
        env: emulatorEnv,
      });
      expect(r.code, r.stderr).toBe(1);
      expect(r.stdout).toContain(
        'Re-running apply converges (every failure was transient): what was applied is not repeated.',
      );
      emu.setFaults(undefined);
      const again = await runCli(['apply', '--auto-approve', '--dir', dir, ...target(emu)], { env: emulatorEnv });
      expect(again.code, again.stderr).toBe(0);
      expect(reportsIn(emu, 1)).toHaveLength(2);
    });
  });
});
