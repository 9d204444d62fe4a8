// Four pipelines applying one bundle to one deployment at the same moment:
// all succeed, and the deployment holds one workbook per slug, one report per
// publicId and one user attribute per name (slug upserts retry 409
// upsert_branch_changed; a report or user attribute created by another run is
// read back and taken as the one the file means).
import { describe, expect, test } from 'vitest';
import { requests } from '../../src/emulator/index.js';
import { pid, reportsIn, workbooksIn, writeBundle } from './helpers/bundles.js';
import { e2eSuite, emulatorEnv, runCli, target, withEmulator } from './helpers/index.js';

// Spawning CLIs on a busy 2-core machine: generous limits; dist/ is built once up front.
e2eSuite();

describe('concurrent pipelines', () => {
  test('four `wsc apply --auto-approve` at once all exit 0; exactly one workbook per slug, report per publicId, attribute per name', async () => {
    const attrs: Record<string, string> = {};
    for (let i = 0; i < 3; i++) {
      attrs[`user-attributes/attr-${i}.yaml`] =
        `kind: UserAttribute\nname: region_${i}\ntype: string\ndisplayName: Region ${i}\ndefaultValue: emea\n`;
    }
    const dir = writeBundle({
      workbook: true,
      dashboard: true,
      publish: true,
      reports: 8,
      looseReports: 4,
      files: attrs,
    });
    // Every answer is slow until all four runs have asked for the reports, so
    // all four read an empty deployment and plan the same creates: the runs
    // really race on every slug and publicId.
    await withEmulator({ latencyMs: 3_000, randomSeed: 4 }, async (emu) => {
      const args = ['apply', '--auto-approve', '--dir', dir, ...target(emu)];
      let settled = false;
      const pending = Promise.all(
        [0, 1, 2, 3].map(() => runCli(args, { env: emulatorEnv, timeoutMs: 120_000 })),
      ).finally(() => (settled = true));
      while (!settled && requests(emu.log, 'GET', '/api/v1/deployments/1/reports').length < 4)
        await new Promise((r) => setTimeout(r, 20));
      emu.setLatency({ min: 2, max: 15 });
      const runs = await pending;
      for (const r of runs) {
        expect(r.stderr).not.toMatch(/internal error/i);
        expect(r.code, r.stdout + r.stderr).toBe(0);
      }
      expect(workbooksIn(emu).filter((w) => w.slug === 'sales')).toHaveLength(1);
      const pids = reportsIn(emu)
        .map((r) => r.publicId)
        .sort();
      expect(pids).toEqual(
        [...Array.from({ length: 8 }, (_, i) => pid(i)), ...Array.from({ length: 4 }, (_, i) => pid(1000 + i))].sort(),
      );
      // The runs raced on the creates (normally all four send all twelve): one POST per
      // publicId succeeded, every other met 409 and was resolved by reading the report back.
      const posts = requests(emu.log, 'POST', '/api/v1/deployments/1/reports');
      expect(posts.length).toBeGreaterThan(12);
      expect(posts.filter((e) => e.status === 200)).toHaveLength(12);
      expect(posts.filter((e) => e.status === 409)).toHaveLength(posts.length - 12);
      expect(runs.map((r) => r.stdout).join('')).toMatch(/already there with the same content/);
      // Every run read the attributes before any was made, so all four sent each create: one
      // per name succeeded, the others met 409 and took the attribute made by another run.
      const attrPosts = requests(emu.log, 'POST', '/api/v1/user-attributes');
      expect(attrPosts.filter((e) => e.status === 200)).toHaveLength(3);
      expect(attrPosts.filter((e) => e.status === 409).length).toBeGreaterThan(0);
      const names = (emu.snapshot().userAttributes ?? []).map((a) => (a as { name: string }).name).sort();
      expect(names).toEqual(['region_0', 'region_1', 'region_2']);
      expect(runs.map((r) => r.stdout).join('')).toMatch(/user attributes? (was|were) already made by another run/);

      emu.clearLog();
      const plan = await runCli(['plan', '--detailed-exitcode', '--dir', dir, ...target(emu)], { env: emulatorEnv });
      expect(plan.code).toBe(0);
    });
  }, 120_000);
});
