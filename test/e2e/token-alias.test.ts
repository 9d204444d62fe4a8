// No token value leaves through a variable: a value of `vars` or of
// `${env.X}` that equals or contains the value of a token wsc resolved is
// refused at validate, plan and apply (exit 3, the file and the variable
// named, never the value), whatever the variable is called. Redaction would
// show `***` in the plan while apply stored the token on the server.
import { describe, expect, test } from 'vitest';
import { pid } from './helpers/bundles.js';
import { e2eSuite, emulatorEnv, runCli, target, withEmulator, writeFiles } from './helpers/index.js';

e2eSuite();

const COMMANDS = [['validate'], ['plan'], ['apply', '--auto-approve']];

/** Neither the value nor its redacted form: the message names the variable, not what it holds. */
function expectNoValue(out: string, value: string): void {
  expect(out).not.toContain(value);
  expect(out).not.toContain('***');
}

describe('a token value under another variable name', () => {
  test.each([
    ['equals', emulatorEnv.WSC_TOKEN],
    ['contains', `Board ${emulatorEnv.WSC_TOKEN} 2`],
  ])('${env.ALIAS_VALUE} that %s WSC_TOKEN in a workbook name: exit 3 at the use, nothing sent', async (_, alias) => {
    await withEmulator({}, async (emu) => {
      const dir = writeFiles({
        'workbooks/w.yaml': 'kind: Workbook\nslug: w\nname: ${env.ALIAS_VALUE}\n',
      });
      for (const cmd of COMMANDS) {
        const r = await runCli([...cmd, '--dir', dir, ...target(emu)], { env: { ...emulatorEnv, ALIAS_VALUE: alias } });
        expect(r.code, r.stderr + r.stdout).toBe(3);
        expect(r.stdout + r.stderr).toMatch(
          /workbooks\/w\.yaml:3:7 error `\$\{env\.ALIAS_VALUE\}` cannot be used in a bundle: its value holds an API token/,
        );
        expectNoValue(r.stdout + r.stderr, emulatorEnv.WSC_TOKEN);
      }
      expect(emu.log).toEqual([]);
    });
  });

  test('the token read by wsc.yaml `token:` under one name and by a report under another', async () => {
    await withEmulator({}, async (emu) => {
      const dir = writeFiles({
        'wsc.yaml': `environments:\n  dev:\n    baseUrl: ${emu.url}\n    deploymentId: 1\n    token: \${env.DEPLOY_AUTH}\n`,
        'reports/r.yaml': `kind: Report\npublicId: ${pid(1)}\nname: r\nsqlQuery: select '\${env.COPY}'\n`,
      });
      const env = { DEPLOY_AUTH: emulatorEnv.WSC_TOKEN, COPY: emulatorEnv.WSC_TOKEN };
      for (const cmd of COMMANDS) {
        const r = await runCli([...cmd, '--dir', dir], { env });
        expect(r.code, r.stderr + r.stdout).toBe(3);
        expect(r.stdout + r.stderr).toMatch(
          /reports\/r\.yaml:4:\d+ error `\$\{env\.COPY\}` cannot be used in a bundle/,
        );
        expectNoValue(r.stdout + r.stderr, emulatorEnv.WSC_TOKEN);
      }
      expect(emu.log).toEqual([]);
    });
  });

  test("wsc.yaml's vars: a value holding the token, read from an alias or written literally, is refused", async () => {
    await withEmulator({}, async (emu) => {
      for (const value of ['${env.ALIAS_VALUE}', `"prefix-${emulatorEnv.WSC_TOKEN}"`]) {
        const dir = writeFiles({
          'wsc.yaml': `environments:\n  dev:\n    baseUrl: ${emu.url}\n    deploymentId: 1\n    vars:\n      title: ${value}\n`,
          'workbooks/w.yaml': 'kind: Workbook\nslug: w\nname: ${vars.title}\n',
        });
        for (const cmd of COMMANDS) {
          const r = await runCli([...cmd, '--dir', dir], {
            env: { ...emulatorEnv, ALIAS_VALUE: emulatorEnv.WSC_TOKEN },
          });
          expect(r.code, r.stderr + r.stdout).toBe(3);
          expect(r.stderr).toMatch(
            /wsc\.yaml:6:14: `vars\.title` holds the value of an API token wsc uses \[config_secret\]/,
          );
          expectNoValue(r.stdout + r.stderr, emulatorEnv.WSC_TOKEN);
        }
      }
      expect(emu.log).toEqual([]);
    });
  });

  test('a variable that holds no token still works (the guard is on the value, not the name)', async () => {
    await withEmulator({}, async (emu) => {
      const dir = writeFiles({ 'workbooks/w.yaml': 'kind: Workbook\nslug: w\nname: ${env.ALIAS_VALUE}\n' });
      const r = await runCli(['apply', '--auto-approve', '--dir', dir, ...target(emu)], {
        env: { ...emulatorEnv, ALIAS_VALUE: 'dev-tok' },
      });
      expect(r.code, r.stderr).toBe(0);
      expect(emu.log.some((l) => l.method === 'POST' || l.method === 'PUT')).toBe(true);
    });
  });
});
