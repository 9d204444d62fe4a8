// Four pipelines applying one bundle to one deployment at the same moment:
// all succeed, and the deployment holds one workbook per slug and one report
// per publicId (slug upserts retry 409 upsert_branch_changed; a report
// created by another run is recognised as ours by reading it back).
import { afterAll, describe, expect, test } from 'vitest';
import { writes } from '../../src/emulator/index.js';
import { pid, reportsIn, workbooksIn, writeBundle } from './helpers/bundles.js';
import { cleanupTemp, emulatorEnv, runCli, target, withEmulator } from './helpers/index.js';

afterAll(cleanupTemp);

describe('concurrent pipelines', () => {
  test('four `wsc apply --auto-approve` at once all exit 0; exactly one workbook per slug and one report per publicId', async () => {
    const dir = writeBundle({ workbook: true, dashboard: true, publish: true, reports: 8, looseReports: 4 });
    // a little latency widens the windows in which the runs overlap
    await withEmulator({ latencyMs: { min: 2, max: 15 }, randomSeed: 4 }, async (emu) => {
      const args = ['apply', '--auto-approve', '--dir', dir, ...target(emu)];
      const runs = await Promise.all([0, 1, 2, 3].map(() => runCli(args, { env: emulatorEnv, timeoutMs: 120_000 })));
      for (const r of runs) {
        expect(r.stderr).not.toMatch(/internal error/i);
        expect(r.code, r.stdout + r.stderr).toBe(0);
      }
      expect(workbooksIn(emu).filter((w) => w.slug === 'sales')).toHaveLength(1);
      const pids = reportsIn(emu).map((r) => r.publicId).sort();
      expect(pids).toEqual([...Array.from({ length: 8 }, (_, i) => pid(i)), ...Array.from({ length: 4 }, (_, i) => pid(1000 + i))].sort());
      // the runs did overlap: more report creates were sent than reports exist
      const posts = writes(emu.log).filter((e) => e.method === 'POST' && e.path.endsWith('/reports'));
      expect(posts.length).toBeGreaterThan(12);

      emu.clearLog();
      const plan = await runCli(['plan', '--detailed-exitcode', '--dir', dir, ...target(emu)], { env: emulatorEnv });
      expect(plan.code).toBe(0);
    });
  });
});
