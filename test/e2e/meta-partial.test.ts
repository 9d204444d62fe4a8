// A report file that names meta.chart while the live report holds
// meta.{chart, format}: the plan shows meta.chart only, and apply keeps
// format (the emulator's PUT replaces meta, as the API may). Through a saved
// plan too, whose fingerprint covers the live meta it started from.
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { api, pid, reportsIn, writeBundle } from './helpers/bundles.js';
import { e2eSuite, emulatorEnv, runCli, target, tempDir, withEmulator } from './helpers/index.js';

e2eSuite();

const file = `kind: Report\npublicId: ${pid(1)}\nname: R\nmeta:\n  chart: line\n`;

describe('partial ownership of report meta holds on the wire', () => {
  test('apply and apply PLANFILE keep the members the file does not name', async () => {
    await withEmulator({}, async (emu) => {
      const made = await api(emu, 'POST', '/api/v1/deployments/1/reports', {
        publicId: pid(1),
        name: 'R',
        meta: { chart: 'bar', format: { decimals: 2 } },
      });
      expect(made.status).toBe(200);
      const dir = writeBundle({ files: { 'reports/r.yaml': file } });
      const args = ['--dir', dir, ...target(emu)];
      const plan = await runCli(['plan', ...args], { env: emulatorEnv });
      expect(plan.stdout).toMatch(/meta\.chart/);
      expect(plan.stdout).not.toMatch(/meta\.format/);
      const r = await runCli(['apply', '--auto-approve', ...args], { env: emulatorEnv });
      expect(r.code, r.stderr).toBe(0);
      expect(reportsIn(emu)[0]!.meta).toEqual({ chart: 'line', format: { decimals: 2 } });

      // a saved plan: the live meta it read is fingerprinted; a change to a member the file does not name is drift
      writeBundle({ files: { 'reports/r.yaml': file.replace('line', 'pie') } }, dir);
      const planFile = join(tempDir(), 'plan.json');
      expect((await runCli(['plan', '--out', planFile, ...args], { env: emulatorEnv })).code).toBe(0);
      expect(
        (
          await api(emu, 'PUT', `/api/v1/deployments/1/reports/${made.body.id}`, {
            meta: { chart: 'line', format: { decimals: 3 } },
          })
        ).status,
      ).toBe(200);
      const stale = await runCli(['apply', planFile, ...args], { env: emulatorEnv });
      expect(stale.code).toBe(1);
      expect(stale.stderr).toMatch(/changed since it was planned/);
      expect(reportsIn(emu)[0]!.meta).toEqual({ chart: 'line', format: { decimals: 3 } });
      expect((await runCli(['plan', '--out', planFile, ...args], { env: emulatorEnv })).code).toBe(0);
      const ok = await runCli(['apply', planFile, ...args], { env: emulatorEnv });
      expect(ok.code, ok.stderr).toBe(0);
      expect(reportsIn(emu)[0]!.meta).toEqual({ chart: 'pie', format: { decimals: 3 } });
    });
  });
});
