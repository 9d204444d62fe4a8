// `wsc doctor` checks the tenant itself: its own API description (GET
// /api/v1/spec), route by route and enum by enum, against what wsc sends and
// reads; and `--deep`, an export in memory planned against the same
// deployment. The emulator serves its description; a test reshapes it to
// play a tenant that differs.
import { afterAll, describe, expect, test } from 'vitest';
import { generateSeed, uiMadeSeed } from '../../src/emulator/index.js';
import { join } from 'node:path';
import { cleanupTemp, emulatorEnv, runCli, target, tempDir, withEmulator, writeFiles } from './helpers/index.js';
import { rewritingProxy } from './helpers/rewriting-proxy.js';

afterAll(cleanupTemp);

type Doc = { paths: Record<string, Record<string, unknown>>; components: { schemas: Record<string, unknown> } };

const reportFile = (source: string) =>
  writeFiles({
    'reports/a.yaml': `kind: Report\npublicId: tenantRep001\nname: A\nsqlQuery: select 1\nsource: ${source}\n`,
  });

describe('wsc doctor: the tenant API description', () => {
  test('a tenant without publish and deletes, with a newer widget type and its own source names: a ✗ each, saying what wsc does', async () => {
    const apiDocument = (d: unknown) => {
      const doc = structuredClone(d) as Doc;
      const D = '/api/v1/deployments/{deploymentId}';
      delete doc.paths[`${D}/workbooks/{id}/publish`];
      delete doc.paths[`${D}/reports/{id}`]!['delete'];
      delete doc.paths[`${D}/workbooks/{id}`]!['delete'];
      const widget = doc.components.schemas['DashboardWidgetDtoType'] as { enum: string[] };
      widget.enum.push('MAP');
      for (const n of ['CreateReportInputSource', 'ReportDtoSource']) {
        doc.components.schemas[n] = { oneOf: [{ type: 'string', enum: ['GOOGLE_SHEETS', 'EXCEL'] }, { type: 'null' }] };
      }
      return doc;
    };
    await withEmulator({ apiDocument }, async (emu) => {
      const r = await runCli(['doctor', '--dir', reportFile('HOSTED_SHEETS'), ...target(emu)], { env: emulatorEnv });
      expect(r.code, r.stdout).toBe(1);
      expect(r.stdout).toMatch(
        /✗ routes: publish: not in the tenant's description: POST …\/workbooks\/\{workbookId\}\/publish \(`publish: true` fails at apply \(the draft is still written\)\)/,
      );
      expect(r.stdout).toMatch(
        /✗ routes: deletes: not in the tenant's description: DELETE …\/reports\/\{reportId\} \(`apply --prune` cannot delete reports\); DELETE …\/workbooks\/\{workbookId\}/,
      );
      expect(r.stdout).toMatch(
        /✗ enum: widget types: the tenant has MAP, which this wsc does not know: a workbook whose dashboard holding one cannot be read by this wsc: plan warns and leaves it alone/,
      );
      expect(r.stdout).toMatch(
        /✗ enum: report source: report\/tenantRep001 writes HOSTED_SHEETS, which the tenant does not list: apply sends it as written and the tenant will refuse it/,
      );
      expect(r.stdout).toMatch(/hint: Use one of the tenant's values \(GOOGLE_SHEETS, EXCEL\) in the bundle/);
      // What the tenant does have still passes.
      expect(r.stdout).toContain(
        "✓ routes: workbook upsert: PUT …/workbooks/by-slug/{slug}: in the tenant's description",
      );
      expect(r.stdout).toMatch(/✓ enum: dashboard kinds: /);
      expect(r.stdout).toMatch(/4 of 19 checks failed\.\n$/);
      // GETs only, but for the deployment token of the data-model check.
      expect(emu.log.every((e) => e.method === 'GET' || e.path.endsWith('/token'))).toBe(true);
    });
  }, 60_000);

  test('the same tenant and a bundle that writes its name of the source: the source line passes', async () => {
    const apiDocument = (d: unknown) => {
      const doc = structuredClone(d) as Doc;
      doc.components.schemas['CreateReportInputSource'] = { type: 'string', enum: ['GOOGLE_SHEETS', 'EXCEL'] };
      return doc;
    };
    await withEmulator({ apiDocument }, async (emu) => {
      const r = await runCli(['doctor', '--dir', reportFile('EXCEL'), ...target(emu)], { env: emulatorEnv });
      expect(r.stdout).toMatch(/✓ enum: report source: the tenant's .*GOOGLE_SHEETS.* are all known to wsc/);
    });
  }, 60_000);

  test('a description that is not an OpenAPI document: ✗, and its route and enum lines are not checked', async () => {
    await withEmulator({ apiDocument: () => ({ hello: 'world' }) }, async (emu) => {
      const r = await runCli(['doctor', '--dir', writeFiles({}), ...target(emu)], { env: emulatorEnv });
      expect(r.code).toBe(1);
      expect(r.stdout).toMatch(
        /✗ API description: the tenant's API description cannot be read, so its routes and enums/,
      );
      const skipped = r.stdout.split('\n').filter((l) => l.endsWith('not checked: API description failed'));
      expect(skipped).toHaveLength(10);
      expect(r.stdout).toMatch(/✓ bundle: /);
    });
  }, 60_000);
});

describe('wsc doctor --deep', () => {
  test('a deployment made by wsc: exported in memory and planned, nothing to change', async () => {
    await withEmulator({ seed: generateSeed({ reports: 0, workbooks: 0 }) }, async (emu) => {
      const dir = writeFiles({
        'reports/a.yaml': 'kind: Report\npublicId: deepReport01\nname: A\nsqlQuery: select 1\n',
        'workbooks/w.yaml': 'kind: Workbook\nslug: deep-one\nname: Deep one\n',
      });
      const applied = await runCli(['apply', '--dir', dir, ...target(emu), '--auto-approve'], { env: emulatorEnv });
      expect(applied.code, applied.stderr).toBe(0);
      emu.clearLog();
      const r = await runCli(['doctor', '--dir', dir, ...target(emu), '--deep'], { env: emulatorEnv });
      expect(r.code, r.stdout).toBe(0);
      expect(r.stdout).toMatch(
        /✓ export round trip: exported 1 workbook, 1 report, 0 user attributes in memory; a plan of that export against this deployment is empty/,
      );
      // GETs only, but for the deployment token of the data-model check.
      expect(emu.log.every((e) => e.method === 'GET' || e.path.endsWith('/token'))).toBe(true);
    });
  }, 60_000);

  test('a deployment made in the UI: every adopt and what export cannot carry, listed before anything is applied', async () => {
    await withEmulator({ seed: uiMadeSeed() }, async (emu) => {
      const r = await runCli(['doctor', '--dir', writeFiles({}), ...target(emu), '--deep', '--output', 'json'], {
        env: emulatorEnv,
      });
      expect(r.code).toBe(1);
      const deep = (
        JSON.parse(r.stdout) as { checks: { name: string; ok: boolean; items?: string[]; hint?: string }[] }
      ).checks.find((c) => c.name === 'export round trip')!;
      expect(deep.ok).toBe(false);
      expect(deep.items).toEqual(expect.arrayContaining([expect.stringMatching(/^would change: workbook\/.*: adopt/)]));
      expect(deep.items).toEqual(expect.arrayContaining([expect.stringMatching(/^would change: report\/.*: adopt/)]));
      // GETs only, but for the deployment token of the data-model check.
      expect(emu.log.every((e) => e.method === 'GET' || e.path.endsWith('/token'))).toBe(true);
      // The commands of the hint, followed (DIR a directory of the test's): the export is of this deployment, and
      // the plan of it shows the same adopts.
      const named = [...deep.hint!.matchAll(/`wsc ([^`]+)`/g)].map((m) => m[1]!);
      const exportOut = named.find((c) => c.startsWith('export --out'));
      const planDir = named.find((c) => c.startsWith('plan --dir'));
      expect(exportOut).toBe(`export --out DIR ${target(emu).join(' ')}`);
      expect(planDir).toBe('plan --dir DIR');
      const dir = join(tempDir(), 'export');
      const exported = await runCli(exportOut!.replace('DIR', dir).split(' '), { env: emulatorEnv });
      expect(exported.code, exported.stderr).toBe(0);
      const planned = await runCli(planDir!.replace('DIR', dir).split(' '), { env: emulatorEnv });
      expect(planned.code, planned.stderr).toBe(0);
      expect(planned.stdout).toMatch(/Plan: \d+ to create, \d+ to update, [1-9]\d* to adopt/);
    });
  }, 60_000);

  test('an item this wsc cannot read (a newer report source) is named under "could not read"', async () => {
    await withEmulator({ seed: generateSeed({ reports: 2, workbooks: 2 }) }, async (emu) => {
      const proxy = await rewritingProxy(emu.url, {
        answer: (path, body) => {
          if (!path.endsWith('/reports') || typeof body !== 'object' || body === null) return body;
          const page = structuredClone(body) as { items: { source?: string }[] };
          if (page.items[0]) page.items[0].source = 'CARRIER_PIGEON';
          return page;
        },
      });
      try {
        const conn = ['--base-url', proxy.url, '--deployment', '1'];
        const r = await runCli(['doctor', '--dir', writeFiles({}), ...conn, '--deep'], { env: emulatorEnv });
        expect(r.code).toBe(1);
        expect(r.stdout).toMatch(/✗ export round trip: exported 2 workbooks, 1 report, .*: 1 could not read/);
        expect(r.stdout).toMatch(/ {4}could not read: report \d+ \(\w{12}\): .*CARRIER_PIGEON/);
      } finally {
        await proxy.close();
      }
    });
  }, 60_000);
});
