// `wsc plan --out FILE` then `wsc apply FILE`: exactly the saved requests are
// made (derived again from the bundle); a plan whose fingerprinted resources changed or
// appeared since is refused (exit 1, each named) and nothing is written.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { writes, type RequestLogEntry } from '../../src/emulator/index.js';
import { api, pid, reportsIn, writeBundle } from './helpers/bundles.js';
import { copyFixture, e2eSuite, emulatorEnv, runCli, target, tempDir, withEmulator } from './helpers/index.js';

// Spawning CLIs on a busy 2-core machine: generous limits; dist/ is built once up front.
e2eSuite();

interface SavedRequest {
  operation: { op: string; slug?: string; reportId?: number; body?: { publicId?: string } };
}
function plannedWrites(file: string): string[] {
  const saved = JSON.parse(readFileSync(file, 'utf8')) as { plan: { changes: { requests: SavedRequest[] }[] } };
  return saved.plan.changes
    .flatMap((c) => c.requests)
    .map(({ operation: o }) => {
      switch (o.op) {
        case 'upsertWorkbook':
          return `PUT /api/v1/deployments/1/workbooks/by-slug/${o.slug}`;
        case 'createReport':
          return `POST /api/v1/deployments/1/reports ${o.body?.publicId}`;
        case 'updateReport':
          return `PUT /api/v1/deployments/1/reports/${o.reportId}`;
        case 'publishWorkbook':
          return 'POST /api/v1/deployments/1/workbooks/N/publish';
        default:
          return o.op;
      }
    })
    .sort();
}
function loggedWrites(log: RequestLogEntry[]): string[] {
  return writes(log)
    .map((e) => {
      const path = e.path.replace(/\/workbooks\/\d+\/publish$/, '/workbooks/N/publish');
      const pidPart =
        e.method === 'POST' && path.endsWith('/reports') ? ` ${(e.requestBody as { publicId: string }).publicId}` : '';
      return `${e.method} ${path}${pidPart}`;
    })
    .sort();
}

describe('saved plans', () => {
  test('apply FILE makes exactly the saved requests, derived again from the bundle; the file holds no token', async () => {
    const dir = writeBundle({ workbook: true, dashboard: true, publish: true, reports: 2, looseReports: 1 });
    const planFile = join(tempDir(), 'plan.json');
    await withEmulator({}, async (emu) => {
      const made = await runCli(['plan', '--out', planFile, '--dir', dir, ...target(emu)], { env: emulatorEnv });
      expect(made.code).toBe(0);
      const text = readFileSync(planFile, 'utf8');
      expect(text).not.toContain('dev-token');
      expect(text).not.toMatch(/token/i);

      emu.clearLog();
      // without --base-url the plan cannot be applied: the file never names the host
      const noHost = await runCli(['apply', planFile, '--dir', dir], { env: emulatorEnv });
      expect(noHost.code).toBe(3);
      expect(emu.log).toEqual([]);
      const r = await runCli(['apply', planFile, '--dir', dir, ...target(emu)], { env: emulatorEnv });
      expect(r.stderr).not.toMatch(/internal error/i);
      expect(r.code).toBe(0);
      expect(r.stdout).toBe('Apply complete: 4 created, 0 updated, 0 adopted, 1 published.\n');
      expect(loggedWrites(emu.log)).toEqual(plannedWrites(planFile));
      expect(reportsIn(emu)).toHaveLength(3);
    });
  });

  test('a resource changed through the API since the plan: exit 1 naming it, and no write at all', async () => {
    const dir = writeBundle({ looseReports: 2 });
    const planFile = join(tempDir(), 'plan.json');
    await withEmulator({}, async (emu) => {
      const args = ['--dir', dir, ...target(emu)];
      expect((await runCli(['apply', '--auto-approve', ...args], { env: emulatorEnv })).code).toBe(0);
      writeBundle(
        {
          looseReports: 2,
          files: {
            'reports/loose-0.yaml': `kind: Report\npublicId: ${pid(1000)}\nname: Renamed\nsqlQuery: select 0\n`,
          },
        },
        dir,
      );
      expect((await runCli(['plan', '--out', planFile, ...args], { env: emulatorEnv })).code).toBe(0);

      const other = reportsIn(emu).find((r) => r.publicId === pid(1001))!;
      expect(
        (await api(emu, 'PUT', `/api/v1/deployments/1/reports/${other.id}`, { name: 'Edited in the UI' })).status,
      ).toBe(200);
      emu.clearLog();
      const r = await runCli(['apply', planFile, ...args], { env: emulatorEnv });
      expect(r.code).toBe(1);
      expect(r.stderr).toMatch(new RegExp(`report/${pid(1001)}: changed since`));
      expect(r.stderr).not.toContain(`report/${pid(1000)}:`);
      expect(r.stderr).toMatch(/stale/);
      expect(r.stdout).toBe('');
      expect(writes(emu.log)).toEqual([]);
    });
  });

  test('a resource that was absent when planned and exists now: refused too', async () => {
    const dir = writeBundle({ looseReports: 1 });
    const planFile = join(tempDir(), 'plan.json');
    await withEmulator({}, async (emu) => {
      const args = ['--dir', dir, ...target(emu)];
      expect((await runCli(['plan', '--out', planFile, ...args], { env: emulatorEnv })).code).toBe(0);
      expect(
        (await api(emu, 'POST', '/api/v1/deployments/1/reports', { publicId: pid(1000), name: 'Made by someone else' }))
          .status,
      ).toBe(200);
      emu.clearLog();
      const r = await runCli(['apply', planFile, ...args], { env: emulatorEnv });
      expect(r.code).toBe(1);
      expect(r.stderr).toMatch(new RegExp(`report/${pid(1000)}: was absent when planned and now exists`));
      expect(writes(emu.log)).toEqual([]);
      expect(reportsIn(emu)).toHaveLength(1);
    });
  });

  test('a saved plan applied to another deployment: exit 3 before anything is sent', async () => {
    const dir = writeBundle({ looseReports: 1 });
    const planFile = join(tempDir(), 'plan.json');
    await withEmulator({}, async (emu) => {
      expect((await runCli(['plan', '--out', planFile, '--dir', dir, ...target(emu)], { env: emulatorEnv })).code).toBe(
        0,
      );
      emu.clearLog();
      const r = await runCli(['apply', planFile, '--dir', dir, ...target(emu, 2)], { env: emulatorEnv });
      expect(r.code).toBe(3);
      expect(r.stderr).toMatch(/made for deployment 1 .* but this run targets deployment 2/);
      expect(emu.log).toEqual([]);
    });
  });

  test('on the embedded default: plan --out, then apply FILE, then the plan is empty', async () => {
    const dir = copyFixture('example');
    const env = { WSC_TOKEN: undefined };
    expect((await runCli(['plan', '--out', 'plan.json'], { cwd: dir, env })).code).toBe(0);
    const r = await runCli(['apply', 'plan.json'], { cwd: dir, env });
    expect(r.stderr).not.toMatch(/internal error/i);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/^Apply complete: [1-9]\d* created/);
    expect((await runCli(['plan', '--detailed-exitcode'], { cwd: dir, env })).code).toBe(0);
    // applied already: the same saved plan is now stale (its creates exist)
    const again = await runCli(['apply', 'plan.json'], { cwd: dir, env });
    expect(again.code).toBe(1);
    expect(again.stderr).toMatch(/was absent when planned and now exists/);
  });
});
