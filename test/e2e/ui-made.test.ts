// A deployment built by hand in the UI (the emulator's --ui-made seed):
// slugless workbooks with dashboards (one with its draft at the top level
// only), reports inside them with a shared legacy placeholder or a
// server-made publicId, FIELD and PARENT widgets, the sheets source under its
// older name, pivot display members, report references in every shape. Export
// it, apply the export to the same deployment: nothing is created, every
// workbook is adopted by PUT /workbooks/{id} with its slug, the ids stay, and
// the plan after is empty.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'yaml';
import { afterAll, describe, expect, test } from 'vitest';
import { uiMadeSeed } from '../../src/emulator/index.js';
import { cleanupTemp, emulatorEnv, runCli, target, tempDir, withEmulator } from './helpers/index.js';

afterAll(cleanupTemp);

const read = (dir: string, file: string) => parse(readFileSync(join(dir, file), 'utf8')) as Record<string, any>;

describe('UI-made content: export, then apply the export to the same deployment', () => {
  test('0 created, every workbook adopted with its ids unchanged, then the plan is empty', async () => {
    await withEmulator({ seed: uiMadeSeed() }, async (emu) => {
      const before = emu.snapshot();
      const out = tempDir();
      const ex = await runCli(['export', '--out', out, ...target(emu)], { env: emulatorEnv, cwd: tempDir() });
      expect(ex.code, ex.stderr).toBe(0);

      // Every kind of UI-made content is read and written faithfully.
      const sales = read(out, 'workbooks/sales-board.yaml');
      const ops = read(out, 'workbooks/ops-board.yaml');
      expect(sales.adopt).toEqual({ deploymentId: 1, id: 500 });
      expect(ops.adopt).toEqual({ deploymentId: 1, id: 501 });
      const salesWidgets = sales.meta.dashboardDraft.widgets;
      expect(salesWidgets.map((w: { type: string }) => w.type)).toEqual(['CHART', 'CHART', 'FIELD', 'PARENT', 'TEXT']);
      expect(salesWidgets[0].config.reportId).toEqual({ $report: expect.any(String) });
      expect(salesWidgets[1].config.report.id).toEqual({ $report: expect.any(String) });
      // The draft kept at the top level only is exported (meta.dashboardDraft in
      // the file), its widget-level reportId rewritten.
      expect(ops.meta.owner).toBe('ops');
      expect(ops.meta.dashboardDraft.widgets[0].reportId).toEqual({ $report: expect.any(String) });
      expect(ops.meta.dashboardDraft.widgets[1].config.reportId).toBe('603');
      expect(ex.stderr).toContain('widget "w-age": the report id is written as a string ("603")');
      const revenue = read(out, 'reports/revenue-by-region.yaml');
      expect(revenue.source).toBe('GOOGLE_SHEETS');
      expect(revenue.pivotItems).toMatchObject({
        displayScale: 'thousands',
        measuresAxis: 'columns',
        showRowTotals: false,
      });
      expect(revenue.adopt).toEqual({ deploymentId: 1, id: 600 });

      const plan = await runCli(['plan', '--dir', out, ...target(emu), '--detailed-exitcode'], { env: emulatorEnv });
      expect(plan.code, plan.stderr).toBe(2);
      expect(plan.stdout).toMatch(/workbook\/sales-board[^\n]*adopt/);
      expect(plan.stdout).toMatch(/Plan: 0 to create, 0 to update, 7 to adopt/);

      emu.clearLog();
      const apply = await runCli(['apply', '--dir', out, ...target(emu), '--auto-approve'], { env: emulatorEnv });
      expect(apply.code, apply.stderr).toBe(0);
      // The deployment token the semantic check mints is no write of content.
      const writes = emu.log.filter((e) => e.method !== 'GET' && !e.path.endsWith('/token'));
      expect(writes.filter((e) => e.method === 'POST')).toEqual([]);
      const adopts = writes.filter((e) => /\/workbooks\/\d+$/.test(e.path));
      expect(adopts.map((e) => [e.method, e.path, e.requestBody]).sort()).toEqual([
        ['PUT', '/api/v1/deployments/1/workbooks/500', { slug: 'sales-board' }],
        ['PUT', '/api/v1/deployments/1/workbooks/501', { slug: 'ops-board' }],
        ['PUT', '/api/v1/deployments/1/workbooks/503', { slug: 'q1-q2-plans' }],
      ]);
      // Each workbook got its slug before any by-slug upsert of it.
      for (const e of writes.filter((x) => x.path.includes('/workbooks/by-slug/'))) {
        const slug = e.path.split('/').pop()!;
        expect(adopts.find((a) => (a.requestBody as { slug: string }).slug === slug)!.seq).toBeLessThan(e.seq);
      }

      const after = emu.snapshot();
      expect(after.workbooks!.map((w) => [w.id, w.slug])).toEqual([
        [500, 'sales-board'],
        [501, 'ops-board'],
        [502, 'finance-board'],
        [503, 'q1-q2-plans'],
      ]);
      expect(after.reports!.map((r) => [r.id, r.workbookId])).toEqual(before.reports!.map((r) => [r.id, r.workbookId]));

      const again = await runCli(['plan', '--dir', out, ...target(emu), '--detailed-exitcode'], { env: emulatorEnv });
      expect(again.code, again.stdout + again.stderr).toBe(0);
    });
  }, 120_000);
});
