// Where the API description is silent, wsc detects what the server does:
// the page size it takes (--verbose says so; --page-size / WSC_PAGE_SIZE set
// it), and user attributes are read only when the bundle manages one.
import { afterAll, describe, expect, test } from 'vitest';
import { generateSeed, requests } from '../../src/emulator/index.js';
import { cleanupTemp, emulatorEnv, runCli, target, withEmulator, writeFiles } from './helpers/index.js';

afterAll(cleanupTemp);

const reportsOnly = () =>
  writeFiles({ 'reports/a.yaml': 'kind: Report\npublicId: detectRep001\nname: A\nsqlQuery: select 1\n' });

describe('page size', () => {
  test('a server that refuses first=500: the plan reads everything with smaller pages, and --verbose says so', async () => {
    await withEmulator(
      { seed: generateSeed({ reports: 130, workbooks: 3 }), maxPageSize: 50, overMaxPageSize: 'refuse' },
      async (emu) => {
        const r = await runCli(['plan', '--dir', reportsOnly(), ...target(emu), '--verbose', '--output', 'json'], {
          env: emulatorEnv,
        });
        expect(r.code, r.stderr).toBe(0);
        expect(r.stderr).toMatch(
          /page size: the server refused first=500 .*first must not be greater than 50.*asking for 50 per page of GET \/api\/v1\/deployments\/1\/reports for the rest of this run/,
        );
        expect(JSON.parse(r.stdout).summary.unmanaged).toMatchObject({ reports: 130, workbooks: 3 });
        // Remembered: after the refusals of the first pages, every request asks for 50.
        const refused = emu.log.filter((e) => e.status === 400);
        expect(refused.length).toBeGreaterThan(0);
        expect(refused.length).toBeLessThanOrEqual(3);
        const last = emu.log.filter((e) => e.status === 200).slice(-3);
        expect(last.every((e) => Number(e.query['first']) <= 50)).toBe(true);
      },
    );
  }, 60_000);

  test('--page-size and WSC_PAGE_SIZE set it; a bad WSC_PAGE_SIZE is exit 3 with nothing sent', async () => {
    await withEmulator({ seed: generateSeed({ reports: 45, workbooks: 1 }) }, async (emu) => {
      const flag = await runCli(['plan', '--dir', reportsOnly(), ...target(emu), '--page-size', '20'], {
        env: emulatorEnv,
      });
      expect(flag.code, flag.stderr).toBe(0);
      expect(
        requests(emu.log, 'GET', '/api/v1/deployments/1/reports').every((e) => Number(e.query['first']) <= 20),
      ).toBe(true);
      emu.clearLog();
      const env = await runCli(['plan', '--dir', reportsOnly(), ...target(emu)], {
        env: { ...emulatorEnv, WSC_PAGE_SIZE: '15' },
      });
      expect(env.code, env.stderr).toBe(0);
      expect(requests(emu.log, 'GET', '/api/v1/deployments/1/reports').map((e) => e.query['first'])).toContain('15');
      emu.clearLog();
      const bad = await runCli(['plan', '--dir', reportsOnly(), ...target(emu)], {
        env: { ...emulatorEnv, WSC_PAGE_SIZE: 'lots' },
      });
      expect(bad.code).toBe(3);
      expect(bad.stderr).toContain('WSC_PAGE_SIZE must be a whole number');
      expect(emu.log).toEqual([]);
    });
  }, 60_000);
});

describe('user attributes', () => {
  test('not read when the bundle manages none: a token that may not read them (403) plans fine', async () => {
    await withEmulator({ userAttributeReads: 'admin' }, async (emu) => {
      const creator = { WSC_TOKEN: 'creator-token' };
      const r = await runCli(['plan', '--dir', reportsOnly(), ...target(emu), '--detailed-exitcode'], { env: creator });
      expect(r.code, r.stderr).toBe(2);
      expect(requests(emu.log, 'GET', '/api/v1/user-attributes')).toEqual([]);

      const withUa = writeFiles({ 'user-attributes/region.yaml': 'kind: UserAttribute\nname: region\n' });
      const u = await runCli(['plan', '--dir', withUa, ...target(emu)], { env: creator });
      expect(u.code).toBe(1);
      expect(u.stderr).toMatch(/403/);
    });
  }, 60_000);
});
