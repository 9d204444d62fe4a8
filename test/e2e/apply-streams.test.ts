// What apply prints where: the plan and the result on stdout (so `wsc apply |
// tee apply.log` keeps both), progress, waits and retries on stderr; and a
// summary that says "partly failed" when some of it applied.
import { describe, expect, test } from 'vitest';
import { writes } from '../../src/emulator/index.js';
import { pid, reportsIn, writeBundle } from './helpers/bundles.js';
import { e2eSuite, emulatorEnv, runCli, target, withEmulator } from './helpers/index.js';

e2eSuite();

describe('apply streams', () => {
  test('stdout holds the plan then the result; progress and retries only on stderr', async () => {
    const dir = writeBundle({ workbook: true, dashboard: true, publish: true, reports: 2 });
    await withEmulator({}, async (emu) => {
      // One retried answer, so that stderr has a wait to report.
      emu.setFaults({ script: [{ method: 'POST', path: /\/reports$/, fault: '503', retryAfter: 0 }] });
      const r = await runCli(['apply', '--auto-approve', '--verbose', '--dir', dir, ...target(emu)], {
        env: emulatorEnv,
      });
      expect(r.code, r.stderr).toBe(0);
      const plan = r.stdout.indexOf('wsc will make these changes to deployment 1');
      const summary = r.stdout.indexOf('Plan: 3 to create, 0 to update, 0 to adopt, 1 to publish.');
      const result = r.stdout.indexOf('Apply complete: 3 created, 0 updated, 0 adopted, 1 published.');
      expect(
        [plan, summary, result].every((i) => i >= 0),
        r.stdout,
      ).toBe(true);
      expect(plan < summary && summary < result).toBe(true);
      expect(r.stdout).toMatch(/left alone\.\n\nApply complete: [^\n]*\n$/);
      // Progress is not on stdout...
      expect(r.stdout).not.toMatch(/ done |Reports: \d+ of \d+ applied|Reading deployment|503|retry/i);
      // ...but on stderr, with the retry.
      expect(r.stderr).toMatch(/ {2}done {4}workbook\/sales \(upsert workbook, id \d+\)/);
      expect(r.stderr).toMatch(/Reports: 2 of 2 applied/);
      expect(r.stderr).toMatch(/503/);
      expect(r.stderr).not.toContain('wsc will make these changes');
    });
  });

  test('--output json: stdout is the result as JSON alone; the plan goes to stderr', async () => {
    const dir = writeBundle({ looseReports: 1 });
    await withEmulator({}, async (emu) => {
      const r = await runCli(['apply', '--auto-approve', '--output', 'json', '--dir', dir, ...target(emu)], {
        env: emulatorEnv,
      });
      expect(r.code, r.stderr).toBe(0);
      expect(JSON.parse(r.stdout)).toMatchObject({ status: 'applied', counts: { created: 1 } });
      expect(r.stderr).toContain('Plan: 1 to create');
    });
  });
});

describe('apply partly failed', () => {
  test('one report create fails: "Apply partly failed", exit 4, the Applied list without the publish that was skipped', async () => {
    const dir = writeBundle({ workbook: true, dashboard: true, publish: true, reports: 2 });
    await withEmulator({}, async (emu) => {
      emu.setFaults({ script: [{ method: 'POST', path: /\/reports$/, fault: '500' }] });
      const r = await runCli(
        ['apply', '--auto-approve', '--max-retries', '0', '--concurrency', '1', '--dir', dir, ...target(emu)],
        {
          env: emulatorEnv,
        },
      );
      expect(r.code, r.stderr).toBe(4);
      expect(reportsIn(emu)).toHaveLength(1);
      const ok = reportsIn(emu)[0]!.publicId;
      const failed = ok === pid(0) ? pid(1) : pid(0);
      const result = r.stdout.slice(r.stdout.indexOf('Apply partly failed'));
      expect(result.split('\n')[0]).toBe(
        'Apply partly failed: 2 requests applied, 1 failed, 2 skipped (2 created, 0 updated, 0 adopted, 0 published).',
      );
      expect(r.stdout).not.toContain('Apply failed');
      const applied = result.slice(result.indexOf('Applied:\n'), result.indexOf('\nFailed:'));
      expect(applied).toMatch(
        new RegExp(
          `^Applied:\\n {2}workbook/sales \\(create, id \\d+\\) — partly, see below\\n {2}report/${ok} \\(create, id \\d+\\)\\n$`,
        ),
      );
      expect(result).toContain(`report/${failed}  reports/report-`);
      expect(result).toContain(`workbook/sales (publish dashboard): depends on report/${failed}#create which failed`);
      expect(result).toContain('Re-running apply converges (every failure was transient)');

      // Nothing written again but what was missing.
      emu.setFaults(undefined);
      emu.clearLog();
      const again = await runCli(['apply', '--auto-approve', '--dir', dir, ...target(emu)], { env: emulatorEnv });
      expect(again.code, again.stderr).toBe(0);
      expect(again.stdout).toMatch(/Apply complete: 1 created, 1 updated, 0 adopted, 1 published\.\n$/);
      expect(writes(emu.log).filter((e) => e.method === 'POST' && e.path.endsWith('/reports'))).toHaveLength(1);
    });
  });

  test('nothing applied: "Apply failed", exit 1', async () => {
    const dir = writeBundle({ looseReports: 1 });
    await withEmulator({}, async (emu) => {
      emu.setFaults({ script: [{ method: 'POST', path: /\/reports$/, fault: '500' }] });
      const r = await runCli(['apply', '--auto-approve', '--max-retries', '0', '--dir', dir, ...target(emu)], {
        env: emulatorEnv,
      });
      expect(r.code, r.stderr).toBe(1);
      expect(r.stdout).toContain('\nApply failed: 0 requests applied, 1 failed, 0 skipped');
      expect(r.stdout).not.toContain('Applied:');
    });
  });
});
