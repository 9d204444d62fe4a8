// publicIds are unique across an account. `publicIds: per-deployment` lets one
// bundle go to two deployments of one account; `as-is` there fails with an
// explanation. Adoption gives a UI-made report the bundle's publicId by PUT.
import { describe, expect, test } from 'vitest';
import { livePublicId } from '../../src/core/publicid.js';
import { defaultSeed, requests, writes } from '../../src/emulator/index.js';
import { pid, reportsIn, writeBundle } from './helpers/bundles.js';
import { e2eSuite, emulatorEnv, runCli, withEmulator } from './helpers/index.js';

// Spawning CLIs on a busy 2-core machine: generous limits; dist/ is built once up front.
e2eSuite();

const wscYaml = (url: string, mode: string) =>
  `environments:\n` +
  `  one: { baseUrl: "${url}", deploymentId: 1${mode ? `, publicIds: ${mode}` : ''} }\n` +
  `  two: { baseUrl: "${url}", deploymentId: 2${mode ? `, publicIds: ${mode}` : ''} }\n`;

describe('publicIds across deployments of one account', () => {
  test('per-deployment: one bundle applies to deployments 1 and 2 with distinct, derived ids', async () => {
    await withEmulator({}, async (emu) => {
      const dir = writeBundle({
        workbook: true,
        dashboard: true,
        reports: 2,
        wscYaml: wscYaml(emu.url, 'per-deployment'),
      });
      for (const env of ['one', 'two']) {
        const r = await runCli(['apply', '--auto-approve', '--env', env, '--dir', dir], { env: emulatorEnv });
        expect(r.stderr).not.toMatch(/internal error/i);
        expect(r.code, r.stdout + r.stderr).toBe(0);
      }
      const one = reportsIn(emu, 1)
        .map((r) => r.publicId)
        .sort();
      const two = reportsIn(emu, 2)
        .map((r) => r.publicId)
        .sort();
      expect(one).toEqual([pid(0), pid(1)].map((p) => livePublicId(p, 'per-deployment', 1)).sort());
      expect(two).toEqual([pid(0), pid(1)].map((p) => livePublicId(p, 'per-deployment', 2)).sort());
      for (const id of [...one, ...two]) expect(id).toMatch(/^[0-9A-Za-z]{12}$/);
      expect(new Set([...one, ...two, pid(0), pid(1)]).size).toBe(6);
      // and again: nothing to do in either
      for (const env of ['one', 'two']) {
        expect(
          (await runCli(['plan', '--detailed-exitcode', '--env', env, '--dir', dir], { env: emulatorEnv })).code,
        ).toBe(0);
      }
    });
  });

  test('as-is: the second deployment gets 409, explained (account-wide rule, the fix, the file); the rest still applies (exit 4)', async () => {
    await withEmulator({}, async (emu) => {
      const dir = writeBundle({ workbook: true, reports: 1, wscYaml: wscYaml(emu.url, '') });
      expect((await runCli(['apply', '--auto-approve', '--env', 'one', '--dir', dir], { env: emulatorEnv })).code).toBe(
        0,
      );
      emu.clearLog();
      const r = await runCli(['apply', '--auto-approve', '--env', 'two', '--dir', dir], { env: emulatorEnv });
      expect(r.code).toBe(4);
      expect(requests(emu.log, 'POST', '/api/v1/deployments/2/reports').map((e) => e.status)).toEqual([409]);
      expect(r.stdout).toContain('reports/report-0.yaml');
      expect(r.stdout).toMatch(/POST \/api\/v1\/deployments\/2\/reports -> 409/);
      expect(r.stdout).toMatch(/publicIds are unique across the whole account/);
      expect(r.stdout).toMatch(
        /Hint: Set `publicIds: per-deployment` for the environment "two" in wsc\.yaml.*or choose another publicId in reports\/report-0\.yaml/,
      );
      expect(reportsIn(emu, 2)).toEqual([]);
    });
  });
});

describe('adoption', () => {
  test('a UI-made report named in `adopt` gets the publicId by one PUT: no POST, no new report', async () => {
    const seed = defaultSeed();
    seed.reports = [
      { id: 500, deploymentId: 1, publicId: '000000legacy', name: 'Revenue (made in the UI)', sqlQuery: 'select 1' },
      { id: 501, deploymentId: 1, publicId: '000000legacy', name: 'Another legacy report' },
    ];
    await withEmulator({ seed }, async (emu) => {
      const dir = writeBundle({
        files: {
          'reports/revenue.yaml': `kind: Report\npublicId: revenueAdopt\nname: Revenue (made in the UI)\nsqlQuery: select 1\nadopt: { deploymentId: 1, id: 500 }\n`,
        },
      });
      const args = ['--dir', dir, '--base-url', emu.url, '--deployment', '1'];
      const r = await runCli(['apply', '--auto-approve', ...args], { env: emulatorEnv });
      expect(r.stderr).not.toMatch(/internal error/i);
      expect(r.code).toBe(0);
      expect(r.stdout.split('\n\n').at(-1)).toBe('Apply complete: 0 created, 0 updated, 1 adopted, 0 published.\n');
      expect(writes(emu.log).map((e) => [e.method, e.path, e.requestBody])).toEqual([
        ['PUT', '/api/v1/deployments/1/reports/500', { publicId: 'revenueAdopt' }],
      ]);
      const reports = reportsIn(emu);
      expect(reports).toHaveLength(2);
      expect(reports.find((x) => x.id === 500)?.publicId).toBe('revenueAdopt');
      expect((await runCli(['plan', '--detailed-exitcode', ...args], { env: emulatorEnv })).code).toBe(0);
    });
  });
});
