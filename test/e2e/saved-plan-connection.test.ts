// `wsc apply PLANFILE` against a tampered plan file: the file never chooses
// where the token goes (host, deployment and token come from wsc.yaml, flags
// and the environment), and its requests are derived again from the bundle,
// so an edited file cannot add, widen or redirect a request. Each refusal is
// exit 3 with nothing sent. Without --dir or --env, the plan's environment
// and bundle directory are used.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { writes } from '../../src/emulator/index.js';
import { api, pid, reportsIn, writeBundle } from './helpers/bundles.js';
import { e2eSuite, emulatorEnv, runCli, target, tempDir, withEmulator } from './helpers/index.js';

e2eSuite();

type Saved = {
  environment: { name: string; baseUrl?: string; deploymentId: number };
  bundleDir?: string;
  plan: {
    changes: {
      address: string;
      requests: {
        id: string;
        address: string;
        operation: Record<string, unknown>;
        dependsOn: string[];
        phase: number;
      }[];
    }[];
  };
};
const readPlan = (f: string) => JSON.parse(readFileSync(f, 'utf8')) as Saved;
const writePlan = (f: string, p: Saved) => writeFileSync(f, JSON.stringify(p, null, 2));

const wscYaml = (url: string) =>
  'defaultEnvironment: prod\nenvironments:\n' +
  `  dev:\n    baseUrl: ${url}\n    deploymentId: 1\n    token: \${env.DEV_TOKEN}\n` +
  `  prod:\n    baseUrl: ${url}\n    deploymentId: 2\n    token: \${env.PROD_TOKEN}\n`;

describe('a saved plan never chooses the connection', () => {
  test('an environment the wsc.yaml does not have, with a foreign host: exit 3, the foreign host sees nothing', async () => {
    const dir = writeBundle({ looseReports: 1 });
    const planFile = join(tempDir(), 'plan.json');
    await withEmulator({}, async (emu) => {
      await withEmulator({}, async (foreign) => {
        expect(
          (await runCli(['plan', '--out', planFile, '--dir', dir, ...target(emu)], { env: emulatorEnv })).code,
        ).toBe(0);
        const p = readPlan(planFile);
        p.environment = { ...p.environment, name: 'exfiltrate', baseUrl: foreign.url };
        writePlan(planFile, p);
        emu.clearLog();
        const r = await runCli(['apply', planFile, '--dir', dir], { env: emulatorEnv });
        expect(r.code, r.stderr).toBe(3);
        expect(r.stderr).toContain('environment `exfiltrate` (from the saved plan) is not defined');
        expect(foreign.log).toEqual([]);
        expect(emu.log).toEqual([]);
        expect(r.stderr + r.stdout).not.toContain(emulatorEnv.WSC_TOKEN);
      });
    });
  });

  test('a recorded host that differs from the environment of wsc.yaml: exit 3, nothing sent anywhere', async () => {
    await withEmulator({}, async (emu) => {
      await withEmulator({}, async (foreign) => {
        const dir = writeBundle({ looseReports: 1, wscYaml: wscYaml(emu.url) });
        const planFile = join(tempDir(), 'plan.json');
        const env = { DEV_TOKEN: 'dev-token', PROD_TOKEN: 'prod-token-7' };
        expect((await runCli(['plan', '--env', 'dev', '--out', planFile, '--dir', dir], { env })).code).toBe(0);
        const p = readPlan(planFile);
        p.environment.baseUrl = foreign.url;
        writePlan(planFile, p);
        emu.clearLog();
        const r = await runCli(['apply', planFile, '--dir', dir], { env });
        expect(r.code, r.stderr).toBe(3);
        expect(r.stderr).toMatch(/made for deployment 1 at http:\/\/127\.0\.0\.1:\d+ \(environment dev\)/);
        expect(r.stderr).toContain('[plan_target_mismatch]');
        expect(foreign.log).toEqual([]);
        expect(emu.log).toEqual([]);
      });
    });
  });

  test('a bundle directory outside the working directory is not taken from the file', async () => {
    const dir = writeBundle({ looseReports: 1 });
    const work = tempDir();
    await withEmulator({}, async (emu) => {
      expect(
        (await runCli(['plan', '--out', 'plan.json', '--dir', dir, ...target(emu)], { env: emulatorEnv, cwd: work }))
          .code,
      ).toBe(0);
      emu.clearLog();
      const r = await runCli(['apply', 'plan.json', ...target(emu)], { env: emulatorEnv, cwd: work });
      expect(r.code, r.stderr).toBe(3);
      expect(r.stderr).toMatch(/outside the directory wsc runs in.*\[plan_dir_outside\]/s);
      expect(emu.log).toEqual([]);
    });
  });
});

describe("a saved plan's requests are derived again", () => {
  async function planned(emu: { url: string }, dir: string): Promise<string> {
    const planFile = join(tempDir(), 'plan.json');
    const args = ['--dir', dir, ...target(emu)];
    expect((await runCli(['apply', '--auto-approve', ...args], { env: emulatorEnv })).code).toBe(0);
    writeBundle(
      {
        looseReports: 2,
        files: { 'reports/loose-0.yaml': `kind: Report\npublicId: ${pid(1000)}\nname: Renamed\nsqlQuery: select 0\n` },
      },
      dir,
    );
    expect((await runCli(['plan', '--out', planFile, ...args], { env: emulatorEnv })).code).toBe(0);
    return planFile;
  }

  test('a request added to the file: exit 3 naming it, nothing written', async () => {
    const dir = writeBundle({ looseReports: 2 });
    await withEmulator({}, async (emu) => {
      const planFile = await planned(emu, dir);
      const other = reportsIn(emu).find((r) => r.publicId === pid(1001))!;
      const p = readPlan(planFile);
      const change = p.plan.changes.find((c) => c.address === `report/${pid(1000)}`)!;
      // an update of another report, filed under the renamed one
      change.requests.push({
        id: `report/${pid(1000)}#sneak`,
        address: `report/${pid(1000)}`,
        phase: 2,
        operation: { op: 'updateReport', reportId: other.id, body: { name: 'pwned' } },
        dependsOn: [],
      });
      writePlan(planFile, p);
      emu.clearLog();
      const r = await runCli(['apply', planFile, '--dir', dir, ...target(emu)], { env: emulatorEnv });
      expect(r.code, r.stderr).toBe(3);
      expect(r.stderr).toContain(
        `report/${pid(1000)}#sneak: the file holds a update of report id ${other.id} that the bundle does not give`,
      );
      expect(r.stderr).toContain('[saved_plan_differs]');
      expect(writes(emu.log)).toEqual([]);
      expect(reportsIn(emu).find((x) => x.id === other.id)!.name).toBe('Loose 1');
    });
  });

  test('a widened or redirected request: exit 3 naming the member, nothing written', async () => {
    const dir = writeBundle({ looseReports: 2 });
    await withEmulator({}, async (emu) => {
      const planFile = await planned(emu, dir);
      const other = reportsIn(emu).find((r) => r.publicId === pid(1001))!;
      const original = readFileSync(planFile, 'utf8');
      for (const [edit, member] of [
        [
          (o: Record<string, unknown>) => void ((o['body'] as Record<string, unknown>)['sqlQuery'] = 'drop table x'),
          'operation.body.sqlQuery',
        ],
        [(o: Record<string, unknown>) => void (o['reportId'] = other.id), 'operation.reportId'],
      ] as const) {
        const p = JSON.parse(original) as Saved;
        edit(p.plan.changes.find((c) => c.address === `report/${pid(1000)}`)!.requests[0]!.operation);
        writePlan(planFile, p);
        emu.clearLog();
        const r = await runCli(['apply', planFile, '--dir', dir, ...target(emu)], { env: emulatorEnv });
        expect(r.code, r.stderr).toBe(3);
        expect(r.stderr).toContain(`differs from the bundle's (${member})`);
        expect(writes(emu.log)).toEqual([]);
      }
      // unchanged, the same file applies
      writeFileSync(planFile, original);
      const ok = await runCli(['apply', planFile, '--dir', dir, ...target(emu)], { env: emulatorEnv });
      expect(ok.code, ok.stderr).toBe(0);
      expect(reportsIn(emu).find((x) => x.publicId === pid(1000))!.name).toBe('Renamed');
      expect(reportsIn(emu).find((x) => x.id === other.id)!.name).toBe('Loose 1');
    });
  });

  test('the bundle changed since the plan was saved: exit 3 naming the request', async () => {
    const dir = writeBundle({ looseReports: 1 });
    const planFile = join(tempDir(), 'plan.json');
    await withEmulator({}, async (emu) => {
      expect((await runCli(['plan', '--out', planFile, '--dir', dir, ...target(emu)], { env: emulatorEnv })).code).toBe(
        0,
      );
      writeBundle(
        {
          looseReports: 1,
          files: { 'reports/loose-0.yaml': `kind: Report\npublicId: ${pid(1000)}\nname: Other\nsqlQuery: select 0\n` },
        },
        dir,
      );
      emu.clearLog();
      const r = await runCli(['apply', planFile, '--dir', dir, ...target(emu)], { env: emulatorEnv });
      expect(r.code, r.stderr).toBe(3);
      expect(r.stderr).toContain(
        `report/${pid(1000)}#create: the file's report create differs from the bundle's (operation.body.name)`,
      );
      expect(writes(emu.log)).toEqual([]);
      expect(await api(emu, 'GET', '/api/v1/deployments/1/reports')).toMatchObject({ status: 200 });
    });
  });
});

describe('apply PLANFILE takes its environment from the plan', () => {
  test('without --dir or --env: the environment and bundle directory the plan names, the token from the process', async () => {
    await withEmulator({}, async (emu) => {
      const work = tempDir();
      writeBundle({ looseReports: 1, wscYaml: wscYaml(emu.url) }, join(work, 'bundle'));
      const env = { DEV_TOKEN: 'dev-token' };
      const made = await runCli(['plan', '--env', 'dev', '--dir', 'bundle', '--out', 'plan.json'], { env, cwd: work });
      expect(made.code, made.stderr).toBe(0);
      expect(readPlan(join(work, 'plan.json')).bundleDir).toBe('bundle');
      emu.clearLog();
      const r = await runCli(['apply', 'plan.json'], { env, cwd: work });
      expect(r.stderr).not.toMatch(/no API token/);
      expect(r.code, r.stderr).toBe(0);
      expect(r.stdout).toBe('Apply complete: 1 created, 0 updated, 0 adopted, 0 published.\n');
      expect(writes(emu.log).map((e) => `${e.method} ${e.path}`)).toEqual(['POST /api/v1/deployments/1/reports']);
      expect(reportsIn(emu, 1)).toHaveLength(1);
      expect(reportsIn(emu, 2)).toHaveLength(0);
    });
  });
});
