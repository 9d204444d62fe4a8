// Addresses given on the command line are checked against the bundle before
// any request, in the words of the flag that gave them: `--overwrite-ui-edits`
// as `--target` is (exit 3, did you mean), `export --only` speaking of
// `--only`. A hint that lists what exists lists ten and counts the rest.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { api, pid, writeBundle } from './helpers/bundles.js';
import { e2eSuite, emulatorEnv, runCli, target, withEmulator, writeFiles } from './helpers/index.js';

e2eSuite();

describe('--overwrite-ui-edits addresses', () => {
  test('an address the bundle does not hold: exit 3, did you mean, no request (apply and apply PLANFILE)', async () => {
    await withEmulator({}, async (emu) => {
      const dir = writeBundle({ looseReports: 2 });
      const typo = `report/${pid(1000).replace('rep', 'rpe')}`;
      const r = await runCli(['apply', '--auto-approve', '--dir', dir, ...target(emu), '--overwrite-ui-edits', typo], {
        env: emulatorEnv,
      });
      expect(r.code, r.stderr).toBe(3);
      expect(r.stderr).toContain(
        `Error: --overwrite-ui-edits ${typo}: no such resource in the bundle. [unknown_target]`,
      );
      expect(r.stderr).toContain(`Hint: Did you mean \`report/${pid(1000)}\`?`);
      expect(emu.log).toEqual([]);

      const planFile = `${dir}/plan.json`;
      expect((await runCli(['plan', '--out', planFile, '--dir', dir, ...target(emu)], { env: emulatorEnv })).code).toBe(
        0,
      );
      emu.clearLog();
      const saved = await runCli(
        ['apply', planFile, '--dir', dir, ...target(emu), '--overwrite-ui-edits', 'workbook/nope'],
        { env: emulatorEnv },
      );
      expect(saved.code, saved.stderr).toBe(3);
      expect(saved.stderr).toContain('--overwrite-ui-edits workbook/nope: no such resource in the bundle.');
      expect(emu.log).toEqual([]);
    });
  });

  test('an address the bundle holds is accepted (the check refuses only what is not there)', async () => {
    await withEmulator({}, async (emu) => {
      const dir = writeBundle({ looseReports: 1 });
      const r = await runCli(
        ['apply', '--auto-approve', '--dir', dir, ...target(emu), '--overwrite-ui-edits', `report/${pid(1000)}`],
        { env: emulatorEnv },
      );
      expect(r.code, r.stderr).toBe(0);
    });
  });
});

describe('export --only', () => {
  test('an unknown address is refused in terms of --only, before any request', async () => {
    await withEmulator({}, async (emu) => {
      const dir = writeBundle({ looseReports: 1 });
      const r = await runCli(['export', '--only', `report/${pid(1001)}`, '--out', dir, '--dir', dir, ...target(emu)], {
        env: emulatorEnv,
      });
      expect(r.code, r.stderr).toBe(3);
      expect(r.stderr).toContain(`Error: --only report/${pid(1001)}: no such resource in the bundle.`);
      expect(r.stderr).toContain(`Did you mean \`report/${pid(1000)}\`?`);
      expect(r.stderr).not.toContain('--target');
      expect(emu.log).toEqual([]);
    });
  });

  test('a report made in the UI: refused, the hint says how to add it (--into without --only), which does', async () => {
    await withEmulator({}, async (emu) => {
      const dir = writeBundle({ looseReports: 1 });
      expect((await runCli(['apply', '--auto-approve', '--dir', dir, ...target(emu)], { env: emulatorEnv })).code).toBe(
        0,
      );
      const made = { publicId: 'uiMadeRep001', name: 'made_in_the_ui', jsonQuery: '{"measures":["orders.count"]}' };
      expect((await api(emu, 'POST', '/api/v1/deployments/1/reports', made)).status).toBe(200);
      const only = await runCli(['export', '--only', 'report/uiMadeRep001', '--into', dir, ...target(emu)], {
        env: emulatorEnv,
      });
      expect(only.code).toBe(3);
      expect(only.stderr).toContain(
        'To add one only the deployment has (made in the UI, say), export with `--into` and without `--only`',
      );
      const into = await runCli(['export', '--into', dir, ...target(emu)], { env: emulatorEnv });
      expect(into.code, into.stderr).toBe(0);
      expect(into.stdout).toContain('+ report/uiMadeRep001: new file reports/made_in_the_ui.yaml');
      expect(readFileSync(join(dir, 'reports/made_in_the_ui.yaml'), 'utf8')).toContain('publicId: uiMadeRep001');
    });
  });
});

describe('hints list at most ten', () => {
  test('10,000 environments and an unknown --env: ten named, the rest counted', async () => {
    const envs = Array.from({ length: 10_000 }, (_, i) => `  e${i}: { embedded: true }`).join('\n');
    const dir = writeFiles({ 'wsc.yaml': `environments:\n${envs}\n` });
    const r = await runCli(['plan', '--dir', dir, '--env', 'nope']);
    expect(r.code).toBe(3);
    expect(r.stderr).toContain('Hint: Defined environments: e0, e1, e2, e3, e4, e5, e6, e7, e8, e9 and 9,990 more.');
    expect(r.stderr.length).toBeLessThan(1_000);
    const none = await runCli(['plan', '--dir', dir]);
    expect(none.code).toBe(3);
    expect(none.stderr).toContain(
      'wsc.yaml defines several environments (e0, e1, e2, e3, e4, e5, e6, e7, e8, e9 and 9,990 more)',
    );
    expect(none.stderr.length).toBeLessThan(1_000);
  });

  test('an unknown key among many allowed ones: at most ten allowed keys in the hint', async () => {
    const dir = writeFiles({ 'reports/r.yaml': `kind: Report\npublicId: ${pid(1)}\nname: r\nbogus: 1\n` });
    const r = await runCli(['validate', '--dir', dir]);
    expect(r.code).toBe(3);
    const hint = /Allowed keys: ([^\n]*)\./.exec(r.stdout + r.stderr)?.[1] ?? '';
    expect(hint).toMatch(/ and \d+ more$/);
    expect(hint.split(', ').length).toBe(10);
  });
});
