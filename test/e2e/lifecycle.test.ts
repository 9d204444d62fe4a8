// The lifecycle's promises end to end (issue 29 items 2-4): prune never
// deletes a report a dashboard still charts, every delete says what it was,
// and a UI edit blocks only what it touched: the built CLI against the
// emulator as a real server, checked by exit codes, output and the request log.
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { writes } from '../../src/emulator/index.js';
import { api, namedExample, pid, reportsIn, workbooksIn, writeBundle } from './helpers/bundles.js';
import { e2eSuite, type Emulator, emulatorEnv, runCli, target, withEmulator } from './helpers/index.js';
import { editFile } from '../helpers/edit-file.js';

e2eSuite();

const named = (bundle: string) => `bundle: ${bundle}\nenvironments:\n  test:\n    deploymentId: 1\n`;
const cli = (args: string[], dir: string, emu: Emulator) =>
  runCli([...args, '--dir', dir, ...target(emu)], { env: emulatorEnv });
const deletes = (emu: Emulator) => writes(emu.log).filter((e) => e.method === 'DELETE');

describe('prune is safe by construction', () => {
  test("a report the bundle's dashboard still charts: plan and apply --prune refuse, naming report, dashboard, widget and file:line; nothing is deleted", async () => {
    const dir = namedExample();
    await withEmulator({}, async (emu) => {
      expect((await cli(['apply', '--auto-approve'], dir, emu)).code).toBe(0);
      rmSync(join(dir, 'reports/nrr-kpi.yaml'));
      const p = await cli(['plan', '--prune'], dir, emu);
      expect(p.code).toBe(1);
      expect(p.stderr).toContain('[prune_still_charted]');
      expect(p.stderr).toContain(
        'report/revNrrKpi001 "Net revenue retention (trailing 12 months)" is charted by workbook/revenue-overview, ' +
          'widget nrr-kpi (workbooks/revenue-overview.yaml:53:',
      );
      expect(p.stderr).toContain('Remove the widget from the dashboard');
      emu.clearLog();
      const a = await cli(['apply', '--auto-approve', '--prune'], dir, emu);
      expect(a.code).toBe(1);
      expect(writes(emu.log)).toEqual([]);
      expect(reportsIn(emu).some((r) => r.publicId === 'revNrrKpi001')).toBe(true);
    });
  });

  test('a report a dashboard the bundle does not manage charts: refused, naming that dashboard and widget', async () => {
    const dir = writeBundle({ looseReports: 2, wscYaml: named('team-a') });
    await withEmulator({}, async (emu) => {
      expect((await cli(['apply', '--auto-approve'], dir, emu)).code).toBe(0);
      const charted = reportsIn(emu).find((r) => r.publicId === pid(1001))!;
      const draft = {
        widgets: [{ id: 'kpi', type: 'CHART', position: { x: 0, y: 0, w: 4, h: 4 }, config: { reportId: charted.id } }],
      };
      const made = await api(emu, 'PUT', '/api/v1/deployments/1/workbooks/by-slug/ui-board', {
        name: 'Made in the UI',
        meta: { dashboardDraft: draft },
      });
      expect(made.status).toBeLessThan(300);
      rmSync(join(dir, 'reports/loose-1.yaml'));
      emu.clearLog();
      const a = await cli(['apply', '--auto-approve', '--prune'], dir, emu);
      expect(a.code).toBe(1);
      expect(a.stderr).toContain(`report/${pid(1001)} "Loose 1" is charted by workbook/ui-board, widget kpi`);
      expect(deletes(emu)).toEqual([]);
    });
  });

  test('every delete is shown with the name it had and the file it came from, in human, markdown and JSON; not as unmanaged', async () => {
    const dir = writeBundle({ looseReports: 2, wscYaml: named('team-a') });
    await withEmulator({}, async (emu) => {
      expect((await cli(['apply', '--auto-approve'], dir, emu)).code).toBe(0);
      rmSync(join(dir, 'reports/loose-1.yaml'));
      const human = await cli(['plan', '--prune'], dir, emu);
      expect(human.stdout).toContain(`- report/${pid(1001)}  (was "Loose 1", reports/loose-1.yaml)  not in the bundle`);
      expect(human.stdout).toContain('0 unmanaged resources left alone');
      const md = await cli(['plan', '--prune', '--output', 'markdown'], dir, emu);
      expect(md.stdout).toContain('was "Loose 1", reports/loose-1.yaml');
      expect(md.stdout).toContain('| unmanaged (left alone) | 0 |');
      const json = JSON.parse((await cli(['plan', '--prune', '--output', 'json'], dir, emu)).stdout) as {
        changes: { address: string; was?: unknown }[];
        summary: { unmanaged: { reports: number } };
      };
      expect(json.changes.find((c) => c.address === `report/${pid(1001)}`)?.was).toEqual({
        name: 'Loose 1',
        file: 'reports/loose-1.yaml',
      });
      expect(json.summary.unmanaged.reports).toBe(0);
      // without --prune too: a candidate is this bundle's, not unmanaged
      expect((await cli(['plan'], dir, emu)).stdout).toContain('0 unmanaged resources left alone');
    });
  });
});

describe('a UI edit blocks only what it touched', () => {
  test('a widget moved in the UI and another changed in the bundle: one apply keeps both (exit 0), then nothing to do', async () => {
    const dir = writeBundle({ workbook: true, dashboard: true, reports: 2, wscYaml: named('team-a') });
    await withEmulator({}, async (emu) => {
      expect((await cli(['apply', '--auto-approve'], dir, emu)).code).toBe(0);
      const wb = workbooksIn(emu)[0]!;
      const draft = JSON.parse(JSON.stringify((wb.meta as { dashboardDraft: unknown }).dashboardDraft)) as {
        widgets: { id: string; position: { x: number } }[];
      };
      draft.widgets.find((w) => w.id === 'w0')!.position.x = 6;
      // as the UI saves a draft: meta merged by the upsert, the record untouched
      expect(
        (await api(emu, 'PUT', '/api/v1/deployments/1/workbooks/by-slug/sales', { meta: { dashboardDraft: draft } }))
          .status,
      ).toBeLessThan(300);
      const file = join(dir, 'workbooks/sales.yaml');
      editFile(file, 'position: { x: 0, y: 4, w: 6, h: 4 }', 'position: { x: 0, y: 4, w: 6, h: 5 }');

      const p = await cli(['plan'], dir, emu);
      expect(p.stdout).toContain('~ widget w1 "Report 1" resized');
      expect(p.stdout).not.toContain('widget w0 moved');
      expect(p.stdout).toContain(
        'workbook/sales meta.dashboardDraft widget w0 position: { x: 6, y: 0, w: 6, h: 4 } → { x: 0, y: 0, w: 6, h: 4 }' +
          '  (workbooks/sales.yaml:9:9): kept, edited outside wsc',
      );
      emu.clearLog();
      const a = await cli(['apply', '--auto-approve'], dir, emu);
      expect(a.code).toBe(0);
      expect(a.stdout).not.toContain('converges');
      const sent = writes(emu.log);
      expect(sent).toHaveLength(1);
      const body = sent[0]!.requestBody as {
        meta: { dashboardDraft: { widgets: { id: string; position: object }[] } };
      };
      expect(body.meta.dashboardDraft.widgets.map((w) => [w.id, w.position])).toEqual([
        ['w0', { x: 6, y: 0, w: 6, h: 4 }],
        ['w1', { x: 0, y: 4, w: 6, h: 5 }],
      ]);
      const after = await cli(['plan', '--detailed-exitcode'], dir, emu);
      expect(after.code).toBe(0);
      emu.clearLog();
      expect((await cli(['apply', '--auto-approve'], dir, emu)).code).toBe(0);
      expect(writes(emu.log)).toEqual([]);
    });
  });
});
