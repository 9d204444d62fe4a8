// Fields only a create can set (a report's `source`, a user attribute's
// `type`): a file that changes one is never "no changes". plan shows the
// difference with what it means and exits 3 (--detailed-exitcode too), saves
// no plan; apply exits 3 and writes nothing.
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, test } from 'vitest';
import { writes } from '../../src/emulator/index.js';
import { writeBundle } from './helpers/bundles.js';
import { cleanupTemp, emulatorEnv, runCli, target, withEmulator, writeFiles } from './helpers/index.js';

afterAll(cleanupTemp);

const report = (source: string, title = 'Churn') =>
  `kind: Report\npublicId: revChurn0001\nname: churn\ntitle: ${title}\nsource: ${source}\nsqlQuery: select 1\n`;
const attr = (type: string) => `kind: UserAttribute\nname: region\ntype: ${type}\ndisplayName: Region\n`;

describe('create-only fields', () => {
  test('source and type changed in the files: plan shows both, exits 3 (also with --detailed-exitcode), saves nothing; apply writes nothing', async () => {
    const dir = writeBundle({
      files: { 'reports/churn.yaml': report('PLAYGROUND'), 'user-attributes/region.yaml': attr('string') },
    });
    await withEmulator({}, async (emu) => {
      const first = await runCli(['apply', '--auto-approve', '--dir', dir, ...target(emu)], { env: emulatorEnv });
      expect(first.code, first.stderr).toBe(0);
      writeFiles({ 'reports/churn.yaml': report('D3'), 'user-attributes/region.yaml': attr('number') }, dir);
      emu.clearLog();

      const plan = await runCli(['plan', '--detailed-exitcode', '--out', 'plan.json', '--dir', dir, ...target(emu)], {
        env: emulatorEnv,
        cwd: dir,
      });
      expect(plan.code, plan.stdout + plan.stderr).toBe(3);
      expect(plan.stdout).toMatch(
        /report\/revChurn0001 will be left as it is\n.*\n\s+source: "PLAYGROUND" → "D3" cannot be changed by update/,
      );
      expect(plan.stdout).toMatch(
        /user-attribute\/region will be left as it is\n.*\n\s+type: "string" → "number" cannot be changed by update/,
      );
      expect(plan.stdout).not.toMatch(/No changes/);
      expect(plan.stdout).toMatch(/2 differences only a create can make: this plan cannot be applied\./);
      expect(plan.stderr).toMatch(/\[create_only_change\]/);
      expect(plan.stderr).toMatch(
        /report\/revChurn0001 \(reports\/churn\.yaml:2:1\): source: PLAYGROUND → D3 cannot be changed by update/,
      );
      expect(plan.stderr).toMatch(/Hint: Change the file back to the live value; or give the resource a new identity/);
      expect(existsSync(join(dir, 'plan.json'))).toBe(false);

      const json = await runCli(['plan', '--output', 'json', '--dir', dir, ...target(emu)], { env: emulatorEnv });
      expect(json.code).toBe(3);
      const fields = JSON.parse(json.stdout).changes.flatMap((c: { fields: unknown[] }) => c.fields);
      expect(fields).toEqual(
        expect.arrayContaining([
          { path: 'source', before: 'PLAYGROUND', after: 'D3', createOnly: true, line: 5, col: 1 },
          { path: 'type', before: 'string', after: 'number', createOnly: true, line: 3, col: 1 },
        ]),
      );

      const apply = await runCli(['apply', '--auto-approve', '--dir', dir, ...target(emu)], { env: emulatorEnv });
      expect(apply.code, apply.stdout + apply.stderr).toBe(3);
      expect(apply.stderr).toMatch(/only a create can set .* Nothing was applied\./);
      expect(writes(emu.log)).toEqual([]);
    });
  }, 60_000);

  test('a create-only difference beside an update: the update is shown, nothing is applied', async () => {
    const dir = writeBundle({ files: { 'reports/churn.yaml': report('PLAYGROUND') } });
    await withEmulator({}, async (emu) => {
      expect((await runCli(['apply', '--auto-approve', '--dir', dir, ...target(emu)], { env: emulatorEnv })).code).toBe(
        0,
      );
      writeFiles({ 'reports/churn.yaml': report('EXCEL', 'Churn by month') }, dir);
      emu.clearLog();
      const plan = await runCli(['plan', '--detailed-exitcode', '--dir', dir, ...target(emu)], { env: emulatorEnv });
      expect(plan.code).toBe(3);
      expect(plan.stdout).toMatch(/source: "PLAYGROUND" → "EXCEL" cannot be changed by update/);
      expect(plan.stdout).toMatch(/title: "Churn" → "Churn by month"/);
      const apply = await runCli(['apply', '--auto-approve', '--dir', dir, ...target(emu)], { env: emulatorEnv });
      expect(apply.code).toBe(3);
      expect(writes(emu.log)).toEqual([]);
      // Back to the live value: the rest applies.
      writeFiles({ 'reports/churn.yaml': report('PLAYGROUND', 'Churn by month') }, dir);
      const fixed = await runCli(['apply', '--auto-approve', '--dir', dir, ...target(emu)], { env: emulatorEnv });
      expect(fixed.code, fixed.stderr).toBe(0);
      expect(fixed.stdout).toMatch(/1 updated/);
    });
  }, 60_000);
});
