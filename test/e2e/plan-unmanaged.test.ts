// `--show-unmanaged` end to end: a report made in the UI, not in the bundle,
// is listed by kind, id and name in the human, JSON and markdown plans (and
// in apply's plan), and only when asked for.
import { afterAll, describe, expect, test } from 'vitest';
import { writes } from '../../src/emulator/index.js';
import { api, pid, writeBundle } from './helpers/bundles.js';
import { cleanupTemp, emulatorEnv, runCli, target, withEmulator } from './helpers/index.js';

afterAll(cleanupTemp);

const base = '/api/v1/deployments/1';

describe('wsc plan --show-unmanaged', () => {
  test('lists the seeded unmanaged report in human, JSON and markdown; nothing is written', async () => {
    const dir = writeBundle({ workbook: true, reports: 1 });
    await withEmulator({}, async (emu) => {
      const made = await api(emu, 'POST', `${base}/reports`, { publicId: 'uiMade00001x', name: 'Made in the UI' });
      expect(made.status).toBeLessThan(300);
      const id = made.body.id as number;
      const args = ['plan', '--show-unmanaged', '--dir', dir, ...target(emu)];
      const before = writes(emu.log).length;

      const human = await runCli(args, { env: emulatorEnv });
      expect(human.code, human.stderr).toBe(0);
      // The address list first, then (after the summary) the unmanaged report.
      expect(human.stdout).toContain(
        `+ workbook/sales       workbooks/sales.yaml\n+ report/${pid(0)}  reports/report-0.yaml\n`,
      );
      expect(human.stdout).toContain(
        `1 unmanaged resource left alone.\nUnmanaged resources (left alone):\n  report ${id}  "Made in the UI"  (publicId uiMade00001x)\n`,
      );

      const json = await runCli([...args, '--output', 'json'], { env: emulatorEnv });
      expect(json.code, json.stderr).toBe(0);
      const j = JSON.parse(json.stdout);
      expect(j.unmanaged).toEqual([{ kind: 'report', id, name: 'Made in the UI', identity: 'uiMade00001x' }]);
      expect(j.addresses.map((a: { address: string }) => a.address)).toEqual(['workbook/sales', `report/${pid(0)}`]);

      const md = await runCli([...args, '--output', 'markdown'], { env: emulatorEnv });
      expect(md.code, md.stderr).toBe(0);
      expect(md.stdout).toContain(
        '<details><summary>1 unmanaged resource (left alone)</summary>\n\n| kind | id | name | slug or publicId |\n|---|---:|---|---|\n' +
          `| report | ${id} | <code>Made in the UI</code> | <code>uiMade00001x</code> |\n`,
      );

      // Without the flag, only the count.
      const plain = await runCli(['plan', '--dir', dir, ...target(emu)], { env: emulatorEnv });
      expect(plain.stdout).toContain('1 unmanaged resource left alone.\n');
      expect(plain.stdout).not.toContain('Unmanaged resources');
      const plainJson = JSON.parse(
        (await runCli(['plan', '--output', 'json', '--dir', dir, ...target(emu)], { env: emulatorEnv })).stdout,
      );
      expect('unmanaged' in plainJson).toBe(false);
      expect(writes(emu.log).length).toBe(before);
    });
  });

  test('apply shows the same plan: compact with --compact, the unmanaged report with --show-unmanaged', async () => {
    const dir = writeBundle({ workbook: true, reports: 1 });
    await withEmulator({}, async (emu) => {
      const made = await api(emu, 'POST', `${base}/reports`, { publicId: 'uiMade00001x', name: 'Made in the UI' });
      const args = ['apply', '--auto-approve', '--compact', '--show-unmanaged', '--dir', dir, ...target(emu)];
      const r = await runCli(args, { env: emulatorEnv });
      expect(r.code, r.stderr).toBe(0);
      // Whichever stream apply prints its plan on.
      const all = r.stdout + r.stderr;
      expect(all).toContain(`+ report/${pid(0)}  reports/report-0.yaml  (name, workbookId, jsonQuery)\n`);
      expect(all).toContain('Compact plan (2 resources change)');
      expect(all).toContain(`  report ${made.body.id}  "Made in the UI"  (publicId uiMade00001x)\n`);
    });
  });

  test('--compact on a small plan and --no-compact on a large one, through the CLI', async () => {
    const dir = writeBundle({ workbook: true, reports: 22 });
    await withEmulator({}, async (emu) => {
      const auto = await runCli(['plan', '--dir', dir, ...target(emu)], { env: emulatorEnv });
      expect(auto.code, auto.stderr).toBe(0);
      expect(auto.stdout).toContain(
        'Compact plan (23 resources change): values left out; `--no-compact` shows them.\n',
      );
      expect(auto.stdout).not.toContain('will be created');
      const full = await runCli(['plan', '--no-compact', '--dir', dir, ...target(emu)], { env: emulatorEnv });
      expect(full.stdout).toContain(`+ report/${pid(21)} will be created`);
      expect(full.stdout).not.toContain('Compact plan');
      const small = writeBundle({ workbook: true, reports: 1 });
      const compact = await runCli(['plan', '--compact', '--dir', small, ...target(emu)], { env: emulatorEnv });
      expect(compact.stdout).toContain('Compact plan (2 resources change)');
      expect(compact.stdout).not.toContain('will be created');
    });
  });
});
