// Apply under failure: transient answers are retried (409
// upsert_branch_changed, 429 with Retry-After, 5xx), a 400 is sent once and
// reported with its file, and a connection reset after the server committed
// a report create never yields a duplicate (exactly once).
import { describe, expect, test } from 'vitest';
import { defaultSeed, requests, writes, type RequestLogEntry } from '../../src/emulator/index.js';
import { pid, reportsIn, workbooksIn, writeBundle } from './helpers/bundles.js';
import { e2eSuite, emulatorEnv, runCli, target, withEmulator } from './helpers/index.js';

// Spawning CLIs on a busy 2-core machine: generous limits; dist/ is built once up front.
e2eSuite();

const publicIdOf = (e: RequestLogEntry) => (e.requestBody as { publicId?: string } | undefined)?.publicId;

describe('apply retries', () => {
  test('409 upsert_branch_changed, 429 with Retry-After, 502/503/504 on writes are retried; the result equals the bundle', async () => {
    const dir = writeBundle({ workbook: true, dashboard: true, publish: true, reports: 2 });
    await withEmulator({}, async (emu) => {
      emu.setFaults({
        script: [
          { method: 'PUT', path: /\/workbooks\/by-slug\/sales$/, fault: '409' },
          { method: 'POST', path: /\/reports$/, fault: '429', retryAfter: 1 },
          { method: 'POST', path: /\/reports$/, fault: '503', retryAfter: 0 },
          { method: 'PUT', path: /\/workbooks\/by-slug\/sales$/, fault: '502' },
          { method: 'POST', path: /\/publish$/, fault: '504' },
        ],
      });
      const args = ['--dir', dir, ...target(emu)];
      const r = await runCli(['apply', '--auto-approve', ...args], { env: emulatorEnv });
      expect(r.stderr).not.toMatch(/internal error/i);
      expect(r.code).toBe(0);
      expect(r.stdout.split('\n\n').at(-1)).toBe('Apply complete: 3 created, 0 updated, 0 adopted, 1 published.\n');
      expect(
        emu.log
          .filter((e) => e.fault)
          .map((e) => e.fault)
          .sort(),
      ).toEqual(['409', '429', '502', '503', '504']);

      // every faulted write was sent again, and the 429's Retry-After (1 s) was waited for
      for (const f of emu.log.filter((e) => e.fault)) {
        const retry = emu.log.find(
          (e) =>
            e.seq > f.seq && e.method === f.method && e.path === f.path && publicIdOf(e) === publicIdOf(f) && !e.fault,
        );
        expect(retry, `retry of ${f.method} ${f.path}`).toBeDefined();
        if (f.fault === '429')
          expect(Date.parse(retry!.startedAt) - Date.parse(f.startedAt)).toBeGreaterThanOrEqual(950);
      }
      expect(workbooksIn(emu).filter((w) => w.slug === 'sales')).toHaveLength(1);
      expect(
        reportsIn(emu)
          .map((x) => x.publicId)
          .sort(),
      ).toEqual([pid(0), pid(1)]);

      emu.setFaults(undefined);
      expect((await runCli(['plan', '--detailed-exitcode', ...args], { env: emulatorEnv })).code).toBe(0);
    });
  });

  test('--verbose: each retried write names the resource address it is for, and so do its request lines', async () => {
    const dir = writeBundle({ workbook: true, reports: 1 });
    await withEmulator({}, async (emu) => {
      emu.setFaults({
        script: [
          { method: 'PUT', path: /\/workbooks\/by-slug\/sales$/, fault: '503', retryAfter: 0 },
          { method: 'POST', path: /\/reports$/, fault: '503', retryAfter: 0 },
        ],
      });
      const r = await runCli(['apply', '--auto-approve', '--verbose', '--dir', dir, ...target(emu)], {
        env: emulatorEnv,
      });
      expect(r.code).toBe(0);
      const lines = r.stderr.split('\n');
      const retries = lines.filter((l) => l.startsWith('↻ '));
      expect(retries).toHaveLength(2);
      expect(retries).toContainEqual(
        expect.stringMatching(
          /^↻ PUT \/api\/v1\/deployments\/1\/workbooks\/by-slug\/sales: 503: .* for workbook\/sales$/,
        ),
      );
      const report = `report/${pid(0)}`;
      expect(retries).toContainEqual(expect.stringMatching(/^↻ POST \/api\/v1\/deployments\/1\/reports: 503: /));
      expect(retries.find((l) => l.startsWith('↻ POST'))).toMatch(new RegExp(` for ${report}$`));
      // The request and answer lines of a write name it too; the reads of the plan (and the semantic check's
      // deployment token) are for no one resource.
      expect(lines.filter((l) => l.startsWith('→ POST') && !l.includes('/token '))).toEqual([
        `→ POST /api/v1/deployments/1/reports for ${report} (Authorization: Bearer ***)`,
        `→ POST /api/v1/deployments/1/reports for ${report} (Authorization: Bearer ***)`,
      ]);
      expect(lines.filter((l) => l.startsWith('← 503 PUT'))).toEqual([
        expect.stringMatching(
          /^← 503 PUT \/api\/v1\/deployments\/1\/workbooks\/by-slug\/sales \d+ms for workbook\/sales/,
        ),
      ]);
      // (The semantic check's /v1/meta names what it is for: the data model.)
      const reads = lines.filter((l) => l.startsWith('→ GET') && !l.includes(' for the data model '));
      expect(reads.every((l) => !l.includes(' for '))).toBe(true);
    });
  });

  test('adopting a report that already has a stable publicId is refused before any write (exit 3), not sent to meet 400', async () => {
    const seed = defaultSeed();
    seed.reports = [{ id: 500, deploymentId: 1, publicId: 'stableAAAAA1', name: 'Already managed' }];
    const dir = writeBundle({
      looseReports: 1,
      files: {
        'reports/bad.yaml':
          'kind: Report\npublicId: adoptMeAAAA1\nname: Already managed\nadopt: { deploymentId: 1, id: 500 }\n',
      },
    });
    await withEmulator({ seed }, async (emu) => {
      const r = await runCli(['apply', '--auto-approve', '--dir', dir, ...target(emu)], { env: emulatorEnv });
      expect(r.code).toBe(3);
      expect(r.stderr).toMatch(
        /reports\/bad\.yaml:2:1: .*report 500 .* already has the publicId stableAAAAA1; .* cannot be given adoptMeAAAA1/,
      );
      expect(emu.log.filter((e) => e.method !== 'GET')).toEqual([]);
    });
  });

  test('--max-retries 0: a 503 fails at once (one attempt, exit 1 when nothing applied)', async () => {
    const dir = writeBundle({ looseReports: 1 });
    await withEmulator({}, async (emu) => {
      emu.setFaults({ script: [{ method: 'POST', path: /\/reports$/, fault: '503', retryAfter: 0 }] });
      const r = await runCli(['apply', '--auto-approve', '--max-retries', '0', '--dir', dir, ...target(emu)], {
        env: emulatorEnv,
      });
      expect(r.code).toBe(1);
      expect(requests(emu.log, 'POST', /\/reports$/)).toHaveLength(1);
      expect(r.stdout).toMatch(/POST \/api\/v1\/deployments\/1\/reports -> 503/);
      expect(r.stdout).toContain('reports/loose-0.yaml');
      expect(reportsIn(emu)).toEqual([]);
    });
  });
});

describe('apply creates each report exactly once', () => {
  test('30% of POSTs reset after the server committed: 50 new reports, exactly 50 exist, none duplicated, plan empty', async () => {
    const dir = writeBundle({ looseReports: 50 });
    await withEmulator({ faults: 'reset-after=0.3,methods=POST', randomSeed: 20261122 }, async (emu) => {
      const args = ['--dir', dir, ...target(emu)];
      // a generous retry budget: 0.3^11 per report makes running out negligible
      const r = await runCli(['apply', '--auto-approve', '--max-retries', '10', ...args], {
        env: emulatorEnv,
        timeoutMs: 120_000,
      });
      expect(r.stderr).not.toMatch(/internal error/i);
      expect(r.code).toBe(0);
      const resets = requests(emu.log, 'POST', /\/reports$/).filter((e) => e.fault === 'reset-after');
      expect(resets.length).toBeGreaterThanOrEqual(3); // ~15 expected; the test must have exercised the lost answers
      // Each report counted once: created, or found already there (read back after a lost answer).
      const counted =
        /\nApply complete: (\d+) created, 0 updated, 0 adopted, 0 published, ([1-9]\d*) found already there\. \2 reports? (was|were) found already there with the same content \(an earlier attempt whose answer was lost, or another run\): read back, not duplicated\.\n$/.exec(
          r.stdout,
        );
      expect(counted, r.stdout).not.toBeNull();
      expect(Number(counted![1]) + Number(counted![2])).toBe(50);

      const reports = reportsIn(emu);
      expect(reports).toHaveLength(50);
      expect(new Set(reports.map((x) => x.publicId)).size).toBe(50);
      expect(reports.map((x) => x.publicId).sort()).toEqual(Array.from({ length: 50 }, (_, i) => pid(1000 + i)).sort());

      emu.setFaults(undefined);
      emu.clearLog();
      expect((await runCli(['plan', '--detailed-exitcode', ...args], { env: emulatorEnv })).code).toBe(0);
      expect(writes(emu.log)).toEqual([]);
    });
  });
});
