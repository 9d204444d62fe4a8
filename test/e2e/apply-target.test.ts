// `--target` against the emulator: only the named resources and what they
// need are written, never their siblings; an unknown target is refused
// before any request, with the nearest address.
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { writes } from '../../src/emulator/index.js';
import { pid, reportsIn, workbooksIn, writeBundle } from './helpers/bundles.js';
import { e2eSuite, emulatorEnv, runCli, target, withEmulator } from './helpers/index.js';

e2eSuite();

const sent = (log: Parameters<typeof writes>[0]) => writes(log).map((e) => `${e.method} ${e.path}`);

describe('apply --target', () => {
  test("a report of a new workbook: the workbook's create and the report, not the sibling, dashboard or publish", async () => {
    const dir = writeBundle({ workbook: true, dashboard: true, publish: true, reports: 2, looseReports: 1 });
    await withEmulator({}, async (emu) => {
      const r = await runCli(
        ['apply', '--auto-approve', '--target', `report/${pid(0)}`, '--dir', dir, ...target(emu)],
        {
          env: emulatorEnv,
        },
      );
      expect(r.code, r.stderr).toBe(0);
      expect(sent(emu.log)).toEqual([
        'PUT /api/v1/deployments/1/workbooks/by-slug/sales',
        'POST /api/v1/deployments/1/reports',
      ]);
      expect(reportsIn(emu).map((x) => x.publicId)).toEqual([pid(0)]);
      expect(workbooksIn(emu).find((w) => w.slug === 'sales')?.meta?.['dashboardDraft']).toBeUndefined();
      // The plan shown says the same: two creates, no publish, no sibling.
      expect(r.stdout).toContain('Plan: 2 to create, 0 to update, 0 to adopt, 0 to publish.');
      expect(r.stdout).not.toContain(pid(1));
      expect(r.stdout).not.toContain(pid(1000));
      expect(r.stdout).toMatch(/Apply complete: 2 created, 0 updated, 0 adopted, 0 published\.\n$/);
    });
  });

  test('a workbook whose reports exist: the workbook alone, though its reports changed too', async () => {
    const dir = writeBundle({ workbook: true, dashboard: true, publish: true, reports: 2 });
    await withEmulator({}, async (emu) => {
      expect((await runCli(['apply', '--auto-approve', '--dir', dir, ...target(emu)], { env: emulatorEnv })).code).toBe(
        0,
      );
      // A new dashboard title and a renamed report.
      writeBundle({ workbook: true, dashboard: true, publish: true, reports: 2, title: 'Sales 2' }, dir);
      writeBundle(
        {
          files: {
            'reports/report-1.yaml': `kind: Report\npublicId: ${pid(1)}\nname: Renamed\nworkbookId: { $workbook: sales }\n`,
          },
        },
        dir,
      );
      emu.clearLog();
      const r = await runCli(['apply', '--auto-approve', '--target', 'workbook/sales', '--dir', dir, ...target(emu)], {
        env: emulatorEnv,
      });
      expect(r.code, r.stderr).toBe(0);
      expect(sent(emu.log)).toEqual([
        'PUT /api/v1/deployments/1/workbooks/by-slug/sales',
        expect.stringMatching(/^POST \/api\/v1\/deployments\/1\/workbooks\/\d+\/publish$/),
      ]);
      expect(reportsIn(emu).find((x) => x.publicId === pid(1))?.name).toBe('Report 1');
    });
  });

  test('a saved plan made with --target applies the same selection', async () => {
    const dir = writeBundle({ workbook: true, dashboard: true, publish: true, reports: 2, looseReports: 1 });
    const planFile = join(dir, 'plan.json');
    await withEmulator({}, async (emu) => {
      const args = ['--dir', dir, ...target(emu)];
      const made = await runCli(['plan', '--target', `report/${pid(1000)}`, '--out', planFile, ...args], {
        env: emulatorEnv,
      });
      expect(made.code, made.stderr).toBe(0);
      const r = await runCli(['apply', planFile, ...args], { env: emulatorEnv });
      expect(r.code, r.stderr).toBe(0);
      expect(sent(emu.log)).toEqual(['POST /api/v1/deployments/1/reports']);
      expect(reportsIn(emu).map((x) => x.publicId)).toEqual([pid(1000)]);
    });
  });

  test('an unknown target: refused (exit 3) before any request, with the nearest address', async () => {
    const dir = writeBundle({ workbook: true, reports: 1 });
    await withEmulator({}, async (emu) => {
      for (const cmd of [['plan'], ['apply', '--auto-approve']]) {
        const r = await runCli([...cmd, '--target', 'workbook/sale', '--dir', dir, ...target(emu)], {
          env: emulatorEnv,
        });
        expect(r.code, r.stderr).toBe(3);
        expect(r.stderr).toContain('--target workbook/sale: no such resource in the bundle. [unknown_target]');
        expect(r.stderr).toContain('Did you mean `workbook/sales`?');
        expect(r.stdout).toBe('');
      }
      expect(emu.log).toEqual([]);
    });
  });

  test('a saved plan whose target the bundle no longer holds: refused before any request', async () => {
    const dir = writeBundle({ looseReports: 2 });
    const planFile = join(dir, 'plan.json');
    await withEmulator({}, async (emu) => {
      const args = ['--dir', dir, ...target(emu)];
      expect(
        (await runCli(['plan', '--target', `report/${pid(1001)}`, '--out', planFile, ...args], { env: emulatorEnv }))
          .code,
      ).toBe(0);
      rmSync(join(dir, 'reports/loose-1.yaml'));
      emu.clearLog();
      const r = await runCli(['apply', planFile, ...args], { env: emulatorEnv });
      expect(r.code, r.stderr).toBe(3);
      expect(r.stderr).toContain(`--target report/${pid(1001)}: no such resource in the bundle.`);
      expect(r.stderr).toContain(`Did you mean \`report/${pid(1000)}\`?`);
      expect(emu.log).toEqual([]);
    });
  });
});
