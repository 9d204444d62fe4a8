// Ownership, prune and UI edits end to end: the built CLI against the
// emulator, checked by exit codes, output, the emulator's state and its
// request log.
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { writes } from '../../src/emulator/index.js';
import { api, pid, reportsIn, workbooksIn, writeBundle } from './helpers/bundles.js';
import { e2eSuite, type Emulator, emulatorEnv, runCli, target, tempDir, withEmulator } from './helpers/index.js';

e2eSuite();

const named = (bundle: string, extra = '') =>
  `bundle: ${bundle}\nenvironments:\n  test:\n    deploymentId: 1\n${extra}`;
const deletes = (emu: Emulator) =>
  writes(emu.log)
    .filter((e) => e.method === 'DELETE')
    .map((e) => e.path);

async function cli(args: string[], dir: string, emu: Emulator) {
  return runCli([...args, '--dir', dir, ...target(emu)], { env: emulatorEnv });
}

describe('prune', () => {
  test("a deleted file plans one delete; nothing is deleted without --prune; with it exactly that one; another bundle's and an unrecorded report survive", async () => {
    const dir = writeBundle({ looseReports: 3, wscYaml: named('team-a') });
    const other = writeBundle({
      wscYaml: named('team-b'),
      files: { 'reports/b.yaml': `kind: Report\npublicId: ${pid(2000)}\nname: B\nsqlQuery: select 'b'\n` },
    });
    await withEmulator({}, async (emu) => {
      expect((await cli(['apply', '--auto-approve'], dir, emu)).code).toBe(0);
      expect((await cli(['apply', '--auto-approve'], other, emu)).code).toBe(0);
      const unrecorded = await api(emu, 'POST', '/api/v1/deployments/1/reports', {
        name: 'made in the UI',
        publicId: pid(3000),
      });
      expect(unrecorded.status).toBe(200);
      const doomed = reportsIn(emu).find((r) => r.publicId === pid(1001))!;
      expect(doomed.meta).toMatchObject({ wsc: { bundle: 'team-a' } });

      // re-applying an applied bundle sends nothing
      emu.clearLog();
      const again = await cli(['apply', '--auto-approve'], dir, emu);
      expect(again.stdout).toContain('No changes');
      expect(writes(emu.log)).toEqual([]);

      rmSync(join(dir, 'reports/loose-1.yaml'));
      const quiet = await cli(['plan', '--detailed-exitcode'], dir, emu);
      expect(quiet.code).toBe(0);
      expect(quiet.stdout).toContain(
        '1 resource recorded for bundle "team-a" is no longer in it; nothing is deleted without --prune',
      );

      const shown = await cli(['plan', '--prune', '--detailed-exitcode'], dir, emu);
      expect(shown.code).toBe(2);
      expect(shown.stdout).toContain(`- report/${pid(1001)} will be deleted`);
      expect(shown.stdout).toContain('1 to delete');
      expect(shown.stdout.match(/will be deleted/g)).toHaveLength(1);

      emu.clearLog();
      const without = await cli(['apply', '--auto-approve'], dir, emu);
      expect(without.code).toBe(0);
      expect(deletes(emu)).toEqual([]);

      emu.clearLog();
      const withPrune = await cli(['apply', '--auto-approve', '--prune'], dir, emu);
      expect(withPrune.code).toBe(0);
      expect(withPrune.stdout).toContain('1 deleted');
      expect(deletes(emu)).toEqual([`/api/v1/deployments/1/reports/${doomed.id}`]);
      const left = reportsIn(emu)
        .map((r) => r.publicId)
        .sort();
      expect(left).toEqual([pid(1000), pid(1002), pid(2000), pid(3000)]);

      // and converged: nothing more to prune
      const after = await cli(['plan', '--prune', '--detailed-exitcode'], dir, emu);
      expect(after.code).toBe(0);
    });
  });

  test('prune: true on the environment prunes; --max-deletes refuses a plan deleting more, naming the count, and deletes nothing', async () => {
    const dir = writeBundle({ looseReports: 4, wscYaml: named('team-a', '    prune: true\n') });
    await withEmulator({}, async (emu) => {
      expect((await cli(['apply', '--auto-approve'], dir, emu)).code).toBe(0);
      rmSync(join(dir, 'reports/loose-0.yaml'));
      rmSync(join(dir, 'reports/loose-1.yaml'));
      emu.clearLog();
      const refused = await cli(['apply', '--auto-approve', '--max-deletes', '1'], dir, emu);
      expect(refused.code).toBe(1);
      expect(refused.stderr).toContain(
        'would delete 2 resources recorded for bundle "team-a", more than --max-deletes 1',
      );
      expect(refused.stderr).toContain('[too_many_deletes]');
      expect(writes(emu.log)).toEqual([]);
      const ok = await cli(['apply', '--auto-approve', '--max-deletes', '2'], dir, emu);
      expect(ok.code).toBe(0);
      expect(deletes(emu)).toHaveLength(2);
      expect(reportsIn(emu)).toHaveLength(2);
    });
  });

  test('a saved plan with a delete is refused when the resource changed since, and deletes nothing', async () => {
    const dir = writeBundle({ looseReports: 2, wscYaml: named('team-a') });
    const planFile = join(tempDir(), 'plan.json');
    await withEmulator({}, async (emu) => {
      expect((await cli(['apply', '--auto-approve'], dir, emu)).code).toBe(0);
      rmSync(join(dir, 'reports/loose-1.yaml'));
      expect((await cli(['plan', '--prune', '--out', planFile], dir, emu)).code).toBe(0);
      const saved = JSON.parse(readFileSync(planFile, 'utf8')) as {
        plan: { fingerprints: { address: string; by?: string }[] };
      };
      expect(saved.plan.fingerprints).toContainEqual(
        expect.objectContaining({ address: `report/${pid(1001)}`, by: 'id' }),
      );
      const doomed = reportsIn(emu).find((r) => r.publicId === pid(1001))!;
      expect(
        (await api(emu, 'PUT', `/api/v1/deployments/1/reports/${doomed.id}`, { title: 'edited meanwhile' })).status,
      ).toBe(200);
      emu.clearLog();
      const r = await runCli(['apply', planFile, '--dir', dir, ...target(emu)], { env: emulatorEnv });
      expect(r.code).toBe(1);
      expect(r.stderr).toContain(`report/${pid(1001)}: changed since it was planned`);
      expect(writes(emu.log)).toEqual([]);
    });
  });

  test('a renamed workbook slug: the new workbook is created, its reports move to it, then the old one is deleted', async () => {
    const dir = writeBundle({ workbook: true, dashboard: true, reports: 2, wscYaml: named('team-a') });
    await withEmulator({}, async (emu) => {
      expect((await cli(['apply', '--auto-approve'], dir, emu)).code).toBe(0);
      const old = workbooksIn(emu).find((w) => w.slug === 'sales')!;
      const wb = readFileSync(join(dir, 'workbooks/sales.yaml'), 'utf8').replace('slug: sales', 'slug: sales-2025');
      rmSync(join(dir, 'workbooks/sales.yaml'));
      writeFileSync(join(dir, 'workbooks/sales-2025.yaml'), wb);
      for (const i of [0, 1]) {
        const f = join(dir, `reports/report-${i}.yaml`);
        writeFileSync(f, readFileSync(f, 'utf8').replace('{ $workbook: sales }', '{ $workbook: sales-2025 }'));
      }
      const shown = await cli(['plan', '--prune'], dir, emu);
      expect(shown.stdout).toContain('+ workbook/sales-2025 will be created');
      expect(shown.stdout).toContain('- workbook/sales will be deleted');
      expect(shown.stdout).toContain('the workbook of the new slug is created and the reports move to it first');
      emu.clearLog();
      const r = await cli(['apply', '--auto-approve', '--prune'], dir, emu);
      expect(r.code).toBe(0);
      const order = writes(emu.log).map((e) => `${e.method} ${e.path}`);
      const del = order.indexOf(`DELETE /api/v1/deployments/1/workbooks/${old.id}`);
      expect(del).toBe(order.length - 1);
      expect(order.filter((x) => x.startsWith('PUT /api/v1/deployments/1/reports/'))).toHaveLength(2);
      const now = workbooksIn(emu);
      expect(now.map((w) => w.slug)).toEqual(['sales-2025']);
      expect(reportsIn(emu).every((rep) => rep.workbookId === now[0]!.id)).toBe(true);
    });
  });

  test('prune: true without a bundle name: validate refuses wsc.yaml and says how to add it', async () => {
    const dir = writeBundle({
      looseReports: 1,
      wscYaml: 'environments:\n  local:\n    embedded: true\n    prune: true\n',
    });
    const r = await runCli(['validate', '--dir', dir]);
    expect(r.code).toBe(3);
    expect(r.stdout + r.stderr).toContain(
      "wsc.yaml:4:5 error environment `local` has `prune: true`, which needs the bundle's name",
    );
    expect(r.stdout + r.stderr).toContain('Add `bundle: <name>` at the top of wsc.yaml');
  });

  test('--prune without a bundle name is refused before anything is read (exit 3)', async () => {
    const dir = writeBundle({ looseReports: 1, wscYaml: 'environments:\n  test:\n    deploymentId: 1\n' });
    await withEmulator({}, async (emu) => {
      const r = await cli(['plan', '--prune'], dir, emu);
      expect(r.code).toBe(3);
      expect(r.stderr).toContain('[bundle_name_required]');
      expect(emu.log).toEqual([]);
    });
  });
});

describe('UI edits', () => {
  test('a field changed in the UI and in the bundle blocks that report (exit 5) and the rest applies; --overwrite-ui-edits ADDR applies it', async () => {
    const dir = writeBundle({ looseReports: 2, wscYaml: named('team-a') });
    await withEmulator({}, async (emu) => {
      expect((await cli(['apply', '--auto-approve'], dir, emu)).code).toBe(0);
      const edited = reportsIn(emu).find((r) => r.publicId === pid(1000))!;
      // as the UI would: the fields it changes, meta (and its record) untouched
      expect(
        (await api(emu, 'PUT', `/api/v1/deployments/1/reports/${edited.id}`, { name: 'Renamed in the UI' })).status,
      ).toBe(200);
      writeFileSync(
        join(dir, 'reports/loose-0.yaml'),
        `kind: Report\npublicId: ${pid(1000)}\nname: Loose 0 v2\nsqlQuery: select 0\n`,
      );
      writeFileSync(
        join(dir, 'reports/loose-1.yaml'),
        `kind: Report\npublicId: ${pid(1001)}\nname: Loose 1 v2\nsqlQuery: select 1\n`,
      );

      const shown = await cli(['plan'], dir, emu);
      expect(shown.stdout).toContain(`! report/${pid(1000)}`);
      expect(shown.stdout).toContain('! changed outside wsc and in the bundle since the last apply: name');
      expect(shown.stdout).toContain(`wsc export --only report/${pid(1000)} --into ${dir}`);
      expect(shown.stdout).toContain(`wsc apply --overwrite-ui-edits report/${pid(1000)}`);
      expect(shown.stdout).toContain('name: "Renamed in the UI" → "Loose 0 v2"');
      expect(shown.stdout).toContain(
        'Plan: 0 to create, 1 to update, 0 to adopt, 0 to publish, 0 to delete, 1 blocked by a UI edit.',
      );
      const json = JSON.parse((await cli(['plan', '--output', 'json'], dir, emu)).stdout) as {
        changes: { address: string; actions: string[]; uiEdits?: string[]; blocked?: { reason: string } }[];
        summary: { update: number; blocked?: number };
      };
      const blockedJson = json.changes.find((c) => c.address === `report/${pid(1000)}`)!;
      expect(blockedJson).toMatchObject({ actions: ['blocked'], uiEdits: ['name'], blocked: { reason: 'ui-edit' } });
      expect(json.changes.find((c) => c.address === `report/${pid(1001)}`)?.uiEdits).toBeUndefined();
      expect(json.summary).toMatchObject({ update: 1, blocked: 1 });
      const md = (await cli(['plan', '--output', 'markdown'], dir, emu)).stdout;
      expect(md).toContain('! changed outside wsc and in the bundle since the last apply');
      expect(md).toContain('| blocked | 1 |');

      emu.clearLog();
      const partial = await cli(['apply', '--auto-approve'], dir, emu);
      expect(partial.code).toBe(5);
      expect(partial.stdout).toContain('Apply complete but for what is blocked');
      expect(partial.stdout).toContain(
        `report/${pid(1000)} (update report ${edited.id}): changed outside wsc and in the bundle since the last apply: name; left alone`,
      );
      expect(partial.stdout).toContain('1 resource is blocked: re-running apply alone leaves it as it is');
      expect(partial.stdout).not.toContain('converges');
      expect(writes(emu.log).map((e) => e.path)).toEqual([
        `/api/v1/deployments/1/reports/${reportsIn(emu).find((r) => r.publicId === pid(1001))!.id}`,
      ]);
      expect(reportsIn(emu).find((r) => r.id === edited.id)!.name).toBe('Renamed in the UI');
      // a re-run is blocked the same way: the same exit code, not a failure
      expect((await cli(['apply', '--auto-approve'], dir, emu)).code).toBe(5);

      const forced = await cli(['apply', '--auto-approve', '--overwrite-ui-edits', `report/${pid(1000)}`], dir, emu);
      expect(forced.code).toBe(0);
      expect(reportsIn(emu).find((r) => r.id === edited.id)!.name).toBe('Loose 0 v2');
      expect((await cli(['plan', '--detailed-exitcode'], dir, emu)).code).toBe(0);
    });
  });

  test('a field changed in the UI that the bundle did not change is kept: nothing to apply, the plan says so', async () => {
    const dir = writeBundle({ looseReports: 1, wscYaml: named('team-a') });
    await withEmulator({}, async (emu) => {
      expect((await cli(['apply', '--auto-approve'], dir, emu)).code).toBe(0);
      const edited = reportsIn(emu).find((r) => r.publicId === pid(1000))!;
      await api(emu, 'PUT', `/api/v1/deployments/1/reports/${edited.id}`, { name: 'Renamed in the UI' });
      const p = await cli(['plan', '--detailed-exitcode'], dir, emu);
      expect(p.code).toBe(0);
      expect(p.stdout).toContain('No changes');
      expect(p.stdout).toContain(
        `report/${pid(1000)} name: "Renamed in the UI" → "Loose 0"  (reports/loose-0.yaml:3:1): kept, edited outside wsc`,
      );
      emu.clearLog();
      expect((await cli(['apply', '--auto-approve'], dir, emu)).code).toBe(0);
      expect(writes(emu.log)).toEqual([]);
      expect(reportsIn(emu).find((r) => r.id === edited.id)!.name).toBe('Renamed in the UI');
    });
  });

  test('a UI edit and nothing else: apply keeps it (exit 0); export --only takes it into the file, keeping the rest; the next plan writes the record alone, then is empty', async () => {
    const dir = writeBundle({ looseReports: 2, wscYaml: named('team-a') });
    const file = join(dir, 'reports/loose-0.yaml');
    writeFileSync(
      file,
      `# kept comment\nkind: Report\npublicId: ${pid(1000)}\nname: Loose 0 # trailing\ntitle: T\nsqlQuery: select 0\nmeta: { chart: line }\n`,
    );
    await withEmulator({}, async (emu) => {
      expect((await cli(['apply', '--auto-approve'], dir, emu)).code).toBe(0);
      const edited = reportsIn(emu).find((r) => r.publicId === pid(1000))!;
      expect(
        (
          await api(emu, 'PUT', `/api/v1/deployments/1/reports/${edited.id}`, {
            title: 'From the UI',
            meta: { ...edited.meta, chart: 'bar' },
          })
        ).status,
      ).toBe(200);
      const kept = await cli(['apply', '--auto-approve'], dir, emu);
      expect(kept.code).toBe(0);
      const untouched = readFileSync(join(dir, 'reports/loose-1.yaml'), 'utf8');

      emu.clearLog();
      const pulled = await runCli(
        ['export', '--only', `report/${pid(1000)}`, '--out', dir, '--dir', dir, ...target(emu)],
        { env: emulatorEnv },
      );
      expect(pulled.stderr).toBe('');
      expect(pulled.code).toBe(0);
      expect(pulled.stdout).toBe(`~ report/${pid(1000)}: took title, meta.chart into reports/loose-0.yaml\n`);
      expect(writes(emu.log)).toEqual([]);
      const text = readFileSync(file, 'utf8');
      expect(text).toContain('# kept comment');
      expect(text).toContain('name: Loose 0 # trailing');
      expect(text).toContain('title: From the UI');
      expect(text).toContain('chart: bar');
      expect(text).not.toContain('wsc');
      expect(readFileSync(join(dir, 'reports/loose-1.yaml'), 'utf8')).toBe(untouched);

      // the record still holds the bundle's old values: the plan writes it alone (apply sends it, exit 2)
      const next = await cli(['plan', '--detailed-exitcode'], dir, emu);
      expect(next.code).toBe(2);
      expect(next.stdout).toContain('Plan: 1 ownership record to write, no content to change.');
      expect((await cli(['apply', '--auto-approve'], dir, emu)).code).toBe(0);
      const empty = await cli(['plan', '--detailed-exitcode'], dir, emu);
      expect(empty.code).toBe(0);
      expect(empty.stdout).toContain('No changes');
    });
  });

  test('export never writes the ownership record, and its bundle plans clean against the deployment', async () => {
    const dir = writeBundle({ workbook: true, dashboard: true, reports: 2, wscYaml: named('team-a') });
    await withEmulator({}, async (emu) => {
      expect((await cli(['apply', '--auto-approve'], dir, emu)).code).toBe(0);
      expect(workbooksIn(emu)[0]!.meta).toHaveProperty('wsc');
      const out = tempDir();
      const r = await runCli(['export', '--out', out, ...target(emu)], { env: emulatorEnv });
      expect(r.code).toBe(0);
      for (const f of ['workbooks/sales.yaml', 'reports/report-0.yaml'])
        expect(readFileSync(join(out, f), 'utf8')).not.toMatch(/^\s*wsc:/m);
      writeFileSync(join(out, 'wsc.yaml'), named('team-a'));
      const p = await cli(['plan', '--detailed-exitcode'], out, emu);
      expect(p.code).toBe(0);
    });
  });

  test('a bundle file cannot set meta.wsc (validate refuses it, exit 3)', async () => {
    const dir = writeBundle({
      wscYaml: 'bundle: team-a\nenvironments:\n  local:\n    embedded: true\n',
      files: { 'reports/x.yaml': `kind: Report\npublicId: ${pid(1)}\nname: X\nmeta:\n  wsc: { bundle: team-a }\n` },
    });
    const r = await runCli(['validate', '--dir', dir]);
    expect(r.code).toBe(3);
    expect(r.stdout + r.stderr).toContain('reports/x.yaml:5:3 error `meta.wsc` is reserved');
  });
});
