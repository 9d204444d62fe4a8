// An adopt block is checked at plan time: a report that already has a real
// publicId of its own cannot be given another one (the API refuses a change of
// a publicId), so plan and apply refuse it (exit 3, both ids, the way out)
// before any write. The way out for per-deployment bundles: the report's own
// publicId in the adopt block, for that deployment.
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { derivePublicId } from '../../src/core/publicid.js';
import { defaultSeed, writes, type Emulator } from '../../src/emulator/index.js';
import { api, reportsIn, writeBundle } from './helpers/bundles.js';
import { e2eSuite, emulatorEnv, runCli, withEmulator } from './helpers/index.js';

e2eSuite();

const wscYaml = (url: string, mode: string) =>
  `environments:\n  one: { baseUrl: "${url}", deploymentId: 1, publicIds: ${mode} }\n`;

/** A report made through the API with a publicId of its own; returns its id. */
async function apiReport(emu: Emulator, publicId: string): Promise<number> {
  const r = await api(emu, 'POST', '/api/v1/deployments/1/reports', {
    publicId,
    name: 'churn',
    title: 'Churn',
    sqlQuery: 'select 1',
  });
  expect(r.status).toBe(200);
  return r.body.id as number;
}

const reportFile = (adopt: string) =>
  `kind: Report\npublicId: revChurn0001\nname: churn\ntitle: Churn by month\nsqlQuery: select 1\nadopt: ${adopt}\n`;
const dashboard =
  'kind: Workbook\nslug: sales\nmeta:\n  dashboardDraft:\n    widgets:\n      - id: w1\n        type: CHART\n' +
  '        position: { x: 0, y: 0, w: 6, h: 4 }\n        config: { reportId: { $report: revChurn0001 } }\n';

describe('adopt checked at plan time', () => {
  for (const mode of ['as-is', 'per-deployment']) {
    test(`${mode}: adopting a report that has a publicId of its own is refused by plan and apply (exit 3, both ids, the way out), nothing written`, async () => {
      await withEmulator({}, async (emu) => {
        const id = await apiReport(emu, 'apiMade00001');
        const dir = writeBundle({
          wscYaml: wscYaml(emu.url, mode),
          files: { 'reports/churn.yaml': reportFile(`{ deploymentId: 1, id: ${id} }`) },
        });
        emu.clearLog();
        const given = mode === 'as-is' ? 'revChurn0001' : derivePublicId('revChurn0001', 1);
        const plan = await runCli(['plan', '--detailed-exitcode', '--dir', dir], { env: emulatorEnv });
        expect(plan.code, plan.stdout + plan.stderr).toBe(3);
        expect(plan.stderr).toContain(
          `reports/churn.yaml:2:1: report/revChurn0001: adopt names report ${id} in deployment 1, which already has the publicId apiMade00001; ` +
            `a publicId cannot be changed once set, so the report cannot be given ${given}. [adopt_public_id_set]`,
        );
        expect(plan.stderr).toMatch(
          mode === 'as-is'
            ? /Hint: Use the report's publicId in the file \(`publicId: apiMade00001`/
            : /Hint: Add `publicId: apiMade00001` to the adopt block/,
        );
        expect(plan.stdout).not.toMatch(/will be adopted/);
        const apply = await runCli(['apply', '--auto-approve', '--dir', dir], { env: emulatorEnv });
        expect(apply.code).toBe(3);
        expect(writes(emu.log)).toEqual([]);
      });
    });
  }

  test("per-deployment: the report's own publicId in the adopt block adopts it: updated under its own publicId, references resolve", async () => {
    await withEmulator({}, async (emu) => {
      const id = await apiReport(emu, 'apiMade00001');
      const dir = writeBundle({
        wscYaml: wscYaml(emu.url, 'per-deployment'),
        files: {
          'reports/churn.yaml': reportFile(`{ deploymentId: 1, id: ${id}, publicId: apiMade00001 }`),
          'workbooks/sales.yaml': dashboard,
        },
      });
      const plan = await runCli(['plan', '--detailed-exitcode', '--dir', dir], { env: emulatorEnv });
      expect(plan.code, plan.stderr).toBe(2);
      expect(plan.stdout).toMatch(
        /~ report\/revChurn0001 will be updated\n.*\n\s+live publicId apiMade00001\n\s+title: "Churn" → "Churn by month"/,
      );
      // Saved and applied: the plan finds the report again by id (its publicId is not the derived one).
      const saved = join(dir, 'plan.json');
      expect((await runCli(['plan', '--out', saved, '--dir', dir], { env: emulatorEnv })).code).toBe(0);
      emu.clearLog();
      const apply = await runCli(['apply', saved, '--dir', dir], { env: emulatorEnv });
      expect(apply.code, apply.stdout + apply.stderr).toBe(0);
      const puts = writes(emu.log).filter(
        (e) => e.method === 'PUT' && e.path === `/api/v1/deployments/1/reports/${id}`,
      );
      expect(puts.map((e) => e.requestBody)).toEqual([{ title: 'Churn by month' }]);
      expect(writes(emu.log).filter((e) => e.method === 'POST' && e.path.endsWith('/reports'))).toEqual([]);
      expect(reportsIn(emu).map((r) => [r.id, r.publicId])).toEqual([[id, 'apiMade00001']]);
      const draft = writes(emu.log).find((e) => e.path.includes('/workbooks/by-slug/sales'))!.requestBody as {
        meta: { dashboardDraft: { widgets: { config: unknown }[] } };
      };
      expect(draft.meta.dashboardDraft.widgets[0]!.config).toEqual({ reportId: id });
      expect((await runCli(['plan', '--detailed-exitcode', '--dir', dir], { env: emulatorEnv })).code).toBe(0);
    });
  });

  test("the adopt block's publicId gives a UI-made report (placeholder) that id; one held by another report is refused", async () => {
    const seed = defaultSeed();
    seed.reports = [
      { id: 500, deploymentId: 1, publicId: '000000legacy', name: 'made in the UI', sqlQuery: 'select 2' },
    ];
    await withEmulator({ seed }, async (emu) => {
      const other = await apiReport(emu, 'apiMade00002');
      const ui = { body: { id: 500 } };
      const dir = writeBundle({
        wscYaml: wscYaml(emu.url, 'per-deployment'),
        files: { 'reports/churn.yaml': reportFile(`{ deploymentId: 1, id: ${ui.body.id}, publicId: apiMade00002 }`) },
      });
      const refused = await runCli(['plan', '--dir', dir], { env: emulatorEnv });
      expect(refused.code).toBe(3);
      expect(refused.stderr).toMatch(
        new RegExp(
          `gives report ${ui.body.id} the publicId apiMade00002, but report ${other} in deployment 1 has it\\. \\[adopt_public_id_elsewhere\\]`,
        ),
      );
      writeBundle(
        {
          files: { 'reports/churn.yaml': reportFile(`{ deploymentId: 1, id: ${ui.body.id}, publicId: revChurnOwn1 }`) },
        },
        dir,
      );
      emu.clearLog();
      const apply = await runCli(['apply', '--auto-approve', '--dir', dir], { env: emulatorEnv });
      expect(apply.code, apply.stdout + apply.stderr).toBe(0);
      expect(writes(emu.log).map((e) => [e.method, e.path, e.requestBody])).toEqual([
        [
          'PUT',
          `/api/v1/deployments/1/reports/${ui.body.id}`,
          { publicId: 'revChurnOwn1', title: 'Churn by month', name: 'churn', sqlQuery: 'select 1' },
        ],
      ]);
      expect((await runCli(['plan', '--detailed-exitcode', '--dir', dir], { env: emulatorEnv })).code).toBe(0);
    });
  });
});
