// `wsc doctor` against the emulator and a server that is not the API: one
// ✓/✗ line per check, read-only, --output json, exit 0 when all pass, 1 not.
import { createServer, type Server } from 'node:http';
import { afterAll, describe, expect, test } from 'vitest';
import { generateSeed } from '../../src/emulator/index.js';
import { cleanupTemp, emulatorEnv, runCli, target, tempDir, withEmulator, writeFiles } from './helpers/index.js';

afterAll(cleanupTemp);

/** A small bundle with no environment of its own (flags give it). */
function bundle(withUserAttributes = true): string {
  return writeFiles({
    'workbooks/sales.yaml': 'kind: Workbook\nslug: workbook-1\nname: Workbook 1\n',
    'workbooks/new.yaml': 'kind: Workbook\nslug: brand-new\nname: Brand new\n',
    'reports/a.yaml': 'kind: Report\npublicId: doctorRepA01\nname: A\nsqlQuery: select 1\n',
    ...(withUserAttributes
      ? { 'user-attributes/region.yaml': 'kind: UserAttribute\nname: region\ndisplayName: Region\n' }
      : {}),
  });
}

/** The checks doctor runs, in the order it prints them. */
const CHECKS = [
  'host',
  'token',
  'deployment',
  'page size',
  'user attributes',
  'workbook listing',
  'API description',
  'routes: workbook upsert',
  'routes: workbooks',
  'routes: reports',
  'routes: publish',
  'routes: folders',
  'routes: deletes',
  'routes: user attributes',
  'enum: widget types',
  'enum: report source',
  'enum: dashboard kinds',
  'bundle',
  'data model',
];
/** Lines after the header, before the closing line. */
const checkLines = (stdout: string) => stdout.split('\n').slice(1, -2);

describe('wsc doctor', () => {
  test('every check passes against the emulator: exit 0, GETs only, what the bundle would manage', async () => {
    await withEmulator({ seed: generateSeed({ reports: 12, workbooks: 3 }) }, async (emu) => {
      const dir = bundle();
      const r = await runCli(['doctor', '--dir', dir, ...target(emu)], { env: emulatorEnv });
      expect(r.code, r.stdout + r.stderr).toBe(0);
      const lines = r.stdout.split('\n');
      for (const name of CHECKS) {
        expect(
          lines.some((l) => l.startsWith(`✓ ${name}: `)),
          `${name} in\n${r.stdout}`,
        ).toBe(true);
      }
      expect(r.stdout).toContain('✓ API description: GET /api/v1/spec: OpenAPI 3.1.0, version 0.19.1');
      expect(r.stdout).toContain(
        "✓ routes: workbook upsert: PUT …/workbooks/by-slug/{slug}: in the tenant's description",
      );
      expect(r.stdout).toContain(
        '✓ bundle: would manage 2 workbooks, 1 report, 1 user attribute (3 to create, 0 to adopt); leaves alone 2 workbooks, 12 reports, 0 user attributes',
      );
      expect(r.stdout).toMatch(
        /✓ data model: the model is valid with 9 cubes; readable \(8 cubes and views at http:\/\/127\.0\.0\.1:\d+\/cubejs-api\/v1\); 0 member use\(s\) of the bundle checked: no error\n/,
      );
      expect(r.stdout).toContain('All 19 checks passed.');
      // GETs only, but for the deployment token the data-model check needs.
      expect(emu.log.filter((e) => e.method !== 'GET').map((e) => e.path)).toEqual(['/api/v1/deployments/1/token']);

      const j = await runCli(['doctor', '--dir', dir, ...target(emu), '--output', 'json'], { env: emulatorEnv });
      expect(j.code).toBe(0);
      const json = JSON.parse(j.stdout) as { ok: boolean; checks: { name: string; ok: boolean }[] };
      expect(json.ok).toBe(true);
      expect(json.checks.map((c) => c.name)).toEqual(CHECKS);
    });
  }, 60_000);

  test('data model: the first refused member with its place; a deployment without a model is ✗ with why', async () => {
    const dir = writeFiles({
      'reports/a.yaml':
        'kind: Report\npublicId: doctorRepA01\nname: A\njsonQuery:\n  measures: [orders.count.month, orders.cnt]\n',
    });
    await withEmulator({}, async (emu) => {
      const r = await runCli(['doctor', '--dir', dir, ...target(emu)], { env: emulatorEnv });
      expect(r.code).toBe(1);
      // What /v1/meta decides is refused; a name it does not list is counted, for plan to ask Cube about.
      expect(r.stdout).toContain(
        '2 member use(s) of the bundle checked: 1 refused, first reports/a.yaml:5:14 report/doctorRepA01 ' +
          'jsonQuery.measures[0]: `orders.count.month`: a granularity suffix is allowed only in `dimensions` and ' +
          "`order`, not in `measures`; 1 not public in /v1/meta (plan asks Cube's planner about them)",
      );
    });
    await withEmulator({ model: null }, async (emu) => {
      const r = await runCli(['doctor', '--dir', dir, ...target(emu)], { env: emulatorEnv });
      expect(r.code).toBe(1);
      expect(r.stdout).toContain(
        '✗ data model: the model does not compile: The deployment has no data model; not readable: its production ' +
          'environment has no `rest` API credentials',
      );
    });
  }, 60_000);

  test('a rejected token: ✗ token with its hint, every later line not checked (no word of the spec or of rights)', async () => {
    await withEmulator({}, async (emu) => {
      const r = await runCli(['doctor', '--dir', bundle(), ...target(emu)], { env: { WSC_TOKEN: 'wrong-token' } });
      expect(r.code).toBe(1);
      const lines = checkLines(r.stdout);
      expect(lines[0]).toMatch(/^✓ host: /);
      expect(lines[1]).toMatch(/^✗ token: the token is rejected: .*401/);
      expect(lines[2]).toMatch(/hint: .*WSC_AUTH_SCHEME/);
      const later = lines.slice(3);
      expect(later).toHaveLength(CHECKS.length - 2);
      for (const l of later) expect(l).toMatch(/^– [^:]+(: [^:]+)?: not checked: token failed$/);
      expect(r.stdout).not.toMatch(/not served|admin|user attributes: not readable/);
      expect(r.stdout).toMatch(/1 of 19 checks failed, 17 not checked\.\n$/);
      // Nothing asked after the token was refused but the one probe (and its retry, none for a 401).
      expect(emu.log.map((e) => e.path)).toEqual(['/api/v1/deployments/1/workbooks']);
    });
  }, 60_000);

  for (const [what, status] of [
    ['a web page for every address (200)', 200],
    ['a plain web server (404 pages)', 404],
    ['a web page refusing the token (401 page)', 401],
  ] as const) {
    test(`${what}: ✗ host, and no line after it is ✓`, async () => {
      const server: Server = createServer((_req, res) => {
        res.writeHead(status, { 'content-type': 'text/html' });
        res.end('<!doctype html><html><body>Not the API</body></html>');
      });
      await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
      try {
        const port = (server.address() as { port: number }).port;
        const r = await runCli(
          ['doctor', '--dir', bundle(), '--base-url', `http://127.0.0.1:${port}`, '--deployment', '1'],
          { env: emulatorEnv },
        );
        expect(r.code).toBe(1);
        expect(r.stdout).toMatch(/✗ host: http:\/\/127\.0\.0\.1:\d+ does not answer as the Workspace Content API: /);
        // The hint is about the URL, never a deployment or a token a web page knows nothing of.
        expect(r.stdout).toContain('hint: Check the base URL');
        expect(r.stdout).not.toMatch(/hint: .*(Deployment 1|token)/);
        const lines = checkLines(r.stdout).filter((l) => !l.startsWith('    '));
        expect(lines).toHaveLength(CHECKS.length);
        for (const l of lines.slice(1)) expect(l).toMatch(/^– .*: not checked: host failed$/);
      } finally {
        await new Promise((r) => server.close(r));
      }
    }, 60_000);
  }

  test('the page size the server takes, detected', async () => {
    await withEmulator(
      { seed: generateSeed({ reports: 120, workbooks: 2 }), maxPageSize: 50, overMaxPageSize: 'refuse' },
      async (emu) => {
        const r = await runCli(['doctor', '--dir', bundle(), ...target(emu)], { env: emulatorEnv });
        expect(r.code, r.stdout).toBe(0);
        expect(r.stdout).toContain('✓ page size: the server takes first=50 (first=500 was refused or cut short)');
      },
    );
  }, 60_000);

  test('user attributes unreadable (403): fine when the bundle manages none, ✗ when it manages one', async () => {
    await withEmulator({ userAttributeReads: 'admin' }, async (emu) => {
      const creator = { WSC_TOKEN: 'creator-token' };
      const none = await runCli(['doctor', '--dir', bundle(false), ...target(emu)], { env: creator });
      expect(none.stdout).toContain(
        '✓ user attributes: not readable with this token (403); fine: the bundle manages none',
      );
      expect(none.code, none.stdout).toBe(0);
      const some = await runCli(['doctor', '--dir', bundle(true), ...target(emu)], { env: creator });
      expect(some.code).toBe(1);
      expect(some.stdout).toMatch(/✗ user attributes: not readable: .*403/);
      expect(some.stdout).toContain('The bundle manages 1');
    });
  }, 60_000);

  test('a config problem is exit 3 with nothing sent', async () => {
    const r = await runCli(['doctor', '--dir', tempDir(), '--base-url', 'http://127.0.0.1:9', '--deployment', '1'], {
      env: {},
    });
    expect(r.code).toBe(3);
    expect(r.stderr).toContain('[token_missing]');
  });
});
