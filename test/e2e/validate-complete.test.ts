// Validation reports everything in one run: an error in wsc.yaml does not hide
// the bundle files' errors; a document with a schema error still takes part in
// the cross-file checks; an unknown reference has the same (true) position in
// plan and validate.
import { describe, expect, test } from 'vitest';
import { writes } from '../../src/emulator/index.js';
import { e2eSuite, emulatorEnv, runCli, target, withEmulator, writeFiles } from './helpers/index.js';

e2eSuite();

describe('validate reports everything in one run', () => {
  test('an error in wsc.yaml (an environment not in use) and errors of the bundle files are all reported', async () => {
    const dir = writeFiles({
      'wsc.yaml':
        'defaultEnvironment: local\nenvironments:\n  local: { embedded: true, vars: { folder: 7 } }\n  staging: { baseUrl: "https://x.example", deploymentID: 3 }\n',
      'reports/churn.yaml': 'kind: Report\npublicId: revChurn0001\ntitel: Churn\n',
      'workbooks/sales.yaml': 'kind: Workbook\nslug: sales\nfolderId: ${vars.folder}\n',
    });
    const r = await runCli(['validate', '--dir', dir]);
    expect(r.code).toBe(3);
    expect(r.stdout).toMatch(
      /wsc\.yaml:4:\d+ error unknown key `deploymentID` in `environments.staging` \(did you mean `deploymentId`\?\)/,
    );
    expect(r.stdout).toMatch(/reports\/churn\.yaml:3:1 error unknown key `titel` \(did you mean `title`\?\)/);
    // The environment's vars are unknown while wsc.yaml is invalid: not an error of the bundle.
    expect(r.stdout).not.toMatch(/undefined variable/);
    expect(r.stdout).toMatch(/^2 errors/m);
  });

  test('a document with a schema error still takes part in the cross-file checks', async () => {
    const dir = writeFiles({
      'workbooks/a.yaml': 'kind: Workbook\nslug: sales\nname: Sales\n',
      'workbooks/b.yaml': 'kind: Workbook\nslug: Sales\nname: 5\n',
      'reports/one.yaml': 'kind: Report\npublicId: revChurn0001\nname: one\n',
      'reports/two.yaml': 'kind: Report\npublicId: revChurn0001\nsqlQuery: 42\n',
      'reports/three.yaml': 'kind: Report\npublicId: revChurn0003\ntitle: 3\nworkbookId: { $workbook: sales }\n',
    });
    const r = await runCli(['validate', '--dir', dir, '--output', 'json']);
    expect(r.code).toBe(3);
    const found = (JSON.parse(r.stdout).diagnostics as { rule: string; pos: { file: string; line: number } }[]).map(
      (d) => `${d.pos.file}:${d.pos.line} ${d.rule}`,
    );
    expect(found.sort()).toEqual(
      [
        'workbooks/b.yaml:3 wrong-type',
        'workbooks/b.yaml:2 duplicate-slug',
        'reports/two.yaml:3 wrong-type',
        'reports/two.yaml:2 duplicate-public-id',
        'reports/three.yaml:3 wrong-type',
      ].sort(),
    );
  });

  test('an unknown reference: plan names the position validate names', async () => {
    const dir = writeFiles({
      'workbooks/sales.yaml':
        'kind: Workbook\nslug: sales\nname: Sales\nmeta:\n  dashboardDraft:\n    widgets:\n      - id: w1\n        type: CHART\n' +
        '        position: { x: 0, y: 0, w: 6, h: 4 }\n        config: { reportId: { $report: missing0001x } }\n',
      'reports/churn.yaml': 'kind: Report\npublicId: revChurn0001\nname: churn\nworkbookId: { $workbook: elsewhere }\n',
    });
    await withEmulator({}, async (emu) => {
      const v = await runCli(['validate', '--dir', dir, ...target(emu)]);
      expect(v.code).toBe(0);
      expect(v.stdout).toContain(
        'workbooks/sales.yaml:10:40 warning report `missing0001x` is not in the bundle; plan will check the target',
      );
      expect(v.stdout).toContain(
        'reports/churn.yaml:4:26 warning workbook `elsewhere` is not in the bundle; plan will check the target',
      );
      const p = await runCli(['plan', '--dir', dir, ...target(emu)], { env: emulatorEnv });
      expect(p.code).toBe(3);
      expect(p.stderr).toMatch(
        /Error: (workbooks\/sales\.yaml:10:40: workbook\/sales meta\.dashboardDraft refers to report "missing0001x"|reports\/churn\.yaml:4:26: report\/revChurn0001 workbookId refers to workbook "elsewhere")/,
      );
      writeFiles({ 'reports/churn.yaml': 'kind: Report\npublicId: revChurn0001\nname: churn\n' }, dir);
      const p2 = await runCli(['plan', '--dir', dir, ...target(emu)], { env: emulatorEnv });
      expect(p2.code).toBe(3);
      expect(p2.stderr).toContain(
        'Error: workbooks/sales.yaml:10:40: workbook/sales meta.dashboardDraft refers to report "missing0001x", which is neither in the bundle nor in the deployment.',
      );
      expect(writes(emu.log)).toEqual([]);
    });
  });
});
