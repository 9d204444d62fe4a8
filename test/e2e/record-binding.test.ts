// An ownership record belongs to the resource it was written for (issue 43,
// item 1). Duplicating a report or a workbook in the UI copies its `meta`,
// record included: the copy is not this bundle's, so `apply --prune` never
// deletes it, a bundle address that lands on it is blocked like another
// bundle's, and no plan line says it "was" a file the bundle still holds.
// Records written before the binding (no `of`) keep working after an upgrade.
// The built CLI against the emulator; the copies made through its API as the
// UI's "duplicate" makes them (the workbook's reports copied with it, its
// charts re-pointed to the copies).
import { rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { writes } from '../../src/emulator/index.js';
import { makeRecord, readRecord } from '../../src/core/ownership.js';
import { api, bundleFiles, pid, reportsIn, workbooksIn, writeBundle } from './helpers/bundles.js';
import { e2eSuite, type Emulator, emulatorEnv, runCli, target, withEmulator } from './helpers/index.js';

e2eSuite();

const DEP = '/api/v1/deployments/1';
const named = `bundle: team-a\nenvironments:\n  test:\n    deploymentId: 1\n`;
const cli = (args: string[], dir: string, emu: Emulator) =>
  runCli([...args, '--dir', dir, ...target(emu)], { env: emulatorEnv });
const deletes = (emu: Emulator) => writes(emu.log).filter((e) => e.method === 'DELETE');

/** The workbook `sales` charting two reports, and two loose reports; applied. */
async function applied(emu: Emulator): Promise<string> {
  const dir = writeBundle({ reports: 2, workbook: true, dashboard: true, looseReports: 2, wscYaml: named });
  const a = await cli(['apply', '--auto-approve'], dir, emu);
  expect(a.code, a.stderr).toBe(0);
  return dir;
}

/** A report copied as the UI does: its fields and `meta` (the record with it), a new publicId from the server. */
async function copyReport(emu: Emulator, id: number, workbookId?: number): Promise<{ id: number; publicId: string }> {
  const r = (await api(emu, 'GET', `${DEP}/reports/${id}`)).body;
  const made = await api(emu, 'POST', `${DEP}/reports`, {
    name: `${r.name} (copy)`,
    ...(r.title ? { title: r.title } : {}),
    ...(r.jsonQuery ? { jsonQuery: r.jsonQuery } : {}),
    ...(r.sqlQuery ? { sqlQuery: r.sqlQuery } : {}),
    ...(workbookId !== undefined ? { workbookId } : r.workbookId ? { workbookId: r.workbookId } : {}),
    meta: r.meta,
  });
  expect(made.status).toBe(200);
  return made.body;
}

/**
 * A workbook duplicated as the UI does (deep): a new workbook with its `meta`, with no slug or `slug`,
 * its reports copied into it and the draft's charts pointed at the copies.
 */
async function duplicateWorkbook(emu: Emulator, id: number, slug?: string): Promise<number> {
  const wb = (await api(emu, 'GET', `${DEP}/workbooks/${id}`)).body;
  const made =
    slug === undefined
      ? await api(emu, 'POST', `${DEP}/workbooks`, { name: `${wb.name} (copy)` })
      : await api(emu, 'PUT', `${DEP}/workbooks/by-slug/${slug}`, { name: `${wb.name} (copy)` });
  expect(made.status).toBe(200);
  const copyId = made.body.id as number;
  const ids = new Map<number, number>();
  for (const r of reportsIn(emu).filter((x) => x.workbookId === id))
    ids.set(r.id, (await copyReport(emu, r.id, copyId)).id);
  const meta = JSON.parse(JSON.stringify(wb.meta, (k, v) => (k === 'reportId' && ids.has(v) ? ids.get(v) : v)));
  expect((await api(emu, 'PUT', `${DEP}/workbooks/${copyId}`, { meta })).status).toBe(200);
  return copyId;
}

describe("a UI copy of a managed resource is not this bundle's", () => {
  test('a copied report and a duplicated workbook (no slug, or a new one), their reports with them: apply --prune deletes none', async () => {
    await withEmulator({}, async (emu) => {
      const dir = await applied(emu);
      const loose = reportsIn(emu).find((r) => r.publicId === pid(1000))!;
      const reportCopy = await copyReport(emu, loose.id);
      const sales = workbooksIn(emu).find((w) => w.slug === 'sales')!;
      const slugless = await duplicateWorkbook(emu, sales.id);
      const reslugged = await duplicateWorkbook(emu, sales.id, 'sales-copy');
      const before = { reports: reportsIn(emu).length, workbooks: workbooksIn(emu).length };
      expect(before).toEqual({ reports: 4 + 1 + 2 * 2, workbooks: 3 });

      const p = await cli(['plan', '--prune', '--detailed-exitcode'], dir, emu);
      expect(p.code, p.stdout).toBe(0);
      expect(p.stdout).not.toMatch(/delete|was "|reports\/loose-0\.yaml/);
      emu.clearLog();
      const a = await cli(['apply', '--auto-approve', '--prune'], dir, emu);
      expect(a.code, a.stdout + a.stderr).toBe(0);
      expect(deletes(emu)).toEqual([]);
      expect({ reports: reportsIn(emu).length, workbooks: workbooksIn(emu).length }).toEqual(before);
      expect(reportsIn(emu).some((r) => r.id === reportCopy.id)).toBe(true);
      expect(workbooksIn(emu).filter((w) => w.id === slugless || w.id === reslugged)).toHaveLength(2);

      // the originals are still this bundle's: their files removed, they (and only they) are pruned
      rmSync(join(dir, 'reports/loose-0.yaml'));
      const gone = await cli(['plan', '--prune'], dir, emu);
      expect(gone.stdout).toContain(`- report/${pid(1000)}`);
      expect(gone.stdout).toContain('(was "Loose 0", reports/loose-0.yaml)');
      expect(gone.stdout).not.toContain(reportCopy.publicId);
      emu.clearLog();
      expect((await cli(['apply', '--auto-approve', '--prune'], dir, emu)).code).toBe(0);
      expect(deletes(emu).map((e) => e.path)).toEqual([`${DEP}/reports/${loose.id}`]);
    });
  });

  test("a bundle address that lands on a copy is blocked like another bundle's (exit 5, nothing written); --take-over ADDR takes it", async () => {
    await withEmulator({}, async (emu) => {
      const dir = await applied(emu);
      const loose = reportsIn(emu).find((r) => r.publicId === pid(1000))!;
      const copy = await copyReport(emu, loose.id);
      writeFileSync(
        join(dir, 'reports/copy.yaml'),
        `kind: Report\npublicId: ${copy.publicId}\nname: Mine now\nsqlQuery: select 0\n`,
      );
      const p = await cli(['plan'], dir, emu);
      expect(p.stdout).toContain(`! not this bundle's: its record was written for report/${pid(1000)} (a copy?)`);
      const run = `--dir ${dir} ${target(emu).join(' ')}`;
      expect(p.stdout).toContain(`take it over with \`wsc apply --take-over report/${copy.publicId} ${run}\``);
      expect(p.stdout).toContain('1 blocked by a record written for another resource');
      emu.clearLog();
      expect((await cli(['apply', '--auto-approve'], dir, emu)).code).toBe(5);
      expect((await cli(['apply', '--auto-approve', '--overwrite-ui-edits'], dir, emu)).code).toBe(5);
      expect(writes(emu.log)).toEqual([]);
      const taken = await cli(['apply', '--auto-approve', '--take-over', `report/${copy.publicId}`], dir, emu);
      expect(taken.code, taken.stdout + taken.stderr).toBe(0);
      const now = reportsIn(emu).find((r) => r.id === copy.id)!;
      expect(now.name).toBe('Mine now');
      expect((now.meta as { wsc: unknown }).wsc).toMatchObject({ of: { deployment: 1, publicId: copy.publicId } });
      expect((await cli(['plan', '--detailed-exitcode'], dir, emu)).code).toBe(0);
    });
  });
});

describe('what a delete "was"', () => {
  test('never a file the bundle now holds for another address (a publicId changed in its file)', async () => {
    await withEmulator({}, async (emu) => {
      const dir = await applied(emu);
      writeFileSync(
        join(dir, 'reports/loose-0.yaml'),
        `kind: Report\npublicId: ${pid(3000)}\nname: Loose 0\nsqlQuery: select 0\n`,
      );
      const p = await cli(['plan', '--prune'], dir, emu);
      expect(p.stdout).toContain(`+ report/${pid(3000)}`);
      expect(p.stdout).toContain(`- report/${pid(1000)}  (was "Loose 0")       not in the bundle`);
      expect(p.stdout).not.toContain('was "Loose 0", reports/loose-0.yaml');
      const json = JSON.parse((await cli(['plan', '--prune', '--output', 'json'], dir, emu)).stdout);
      const gone = json.changes.find((c: { address: string }) => c.address === `report/${pid(1000)}`);
      expect(gone.was).toEqual({ name: 'Loose 0' });
    });
  });
});

/** Every record of the deployment rewritten as wsc wrote it before the binding: format 2, no `of`. */
async function downgradeRecords(emu: Emulator): Promise<void> {
  for (const r of reportsIn(emu)) {
    const read = readRecord(r);
    if (read.state !== 'record') continue;
    const { of: _of, hash: _hash, ...rest } = read.record;
    const meta = { ...(r.meta as object), wsc: makeRecord(rest) };
    expect((await api(emu, 'PUT', `${DEP}/reports/${r.id}`, { meta })).status).toBe(200);
  }
  for (const w of workbooksIn(emu)) {
    const read = readRecord(w);
    if (read.state !== 'record') continue;
    const { of: _of, hash: _hash, ...rest } = read.record;
    expect(
      (await api(emu, 'PUT', `${DEP}/workbooks/by-slug/${w.slug}`, { meta: { wsc: makeRecord(rest) } })).status,
    ).toBe(200);
  }
}

describe('records written before the binding (no `of`), after an upgrade', () => {
  test('nothing is blocked or rewritten; a copy is never pruned; a resource removed from the bundle still is', async () => {
    await withEmulator({}, async (emu) => {
      const dir = await applied(emu);
      await downgradeRecords(emu);
      expect(reportsIn(emu).every((r) => (r.meta as { wsc: { v: number } }).wsc.v === 2)).toBe(true);

      const p = await cli(['plan', '--prune', '--detailed-exitcode'], dir, emu);
      expect(p.code, p.stdout).toBe(0);

      // a copy of a report whose record names no resource: the same record on two reports
      const loose = reportsIn(emu).find((r) => r.publicId === pid(1000))!;
      const copy = await copyReport(emu, loose.id);
      const sales = workbooksIn(emu).find((w) => w.slug === 'sales')!;
      await duplicateWorkbook(emu, sales.id);
      emu.clearLog();
      const a = await cli(['apply', '--auto-approve', '--prune'], dir, emu);
      expect(a.code, a.stdout).toBe(0);
      expect(deletes(emu)).toEqual([]);

      // the original is written again (rebound); its copy keeps the old record, which names a file the bundle holds
      writeFileSync(
        join(dir, 'reports/loose-0.yaml'),
        `kind: Report\npublicId: ${pid(1000)}\nname: Loose 0\nsqlQuery: select 'changed'\n`,
      );
      expect((await cli(['apply', '--auto-approve', '--prune'], dir, emu)).code).toBe(0);
      const rebound = reportsIn(emu).find((r) => r.id === loose.id)!;
      expect((rebound.meta as { wsc: unknown }).wsc).toMatchObject({ v: 3, of: { publicId: pid(1000) } });
      const p2 = await cli(['plan', '--prune'], dir, emu);
      expect(p2.stdout).toContain(
        `report/${copy.publicId} is left alone (not surely this bundle's: its record, written by an earlier wsc, ` +
          `names reports/loose-0.yaml, which holds report/${pid(1000)} (a copy?)): if it is no copy, delete it with ` +
          `\`wsc apply --prune --overwrite-ui-edits report/${copy.publicId} --dir ${dir} ${target(emu).join(' ')}\``,
      );
      expect(p2.stdout).not.toContain('reports/loose-0.yaml)');
      emu.clearLog();
      expect((await cli(['apply', '--auto-approve', '--prune', '--overwrite-ui-edits'], dir, emu)).code).toBe(5);
      expect(deletes(emu)).toEqual([]);

      // a report removed from the bundle whose record is of the earlier format is still pruned; one that a copy
      // made before the upgrade shares its record with is pruned on neither side
      rmSync(join(dir, 'reports/loose-1.yaml'));
      rmSync(join(dir, 'reports/report-1.yaml'));
      writeFileSync(
        join(dir, 'workbooks/sales.yaml'),
        bundleFiles({ reports: 1, workbook: true, dashboard: true })['workbooks/sales.yaml']!,
      );
      const p3 = await cli(['plan', '--prune'], dir, emu);
      expect(p3.stdout).toContain(`- report/${pid(1001)}`);
      expect(p3.stdout).toContain('(was "Loose 1", reports/loose-1.yaml)');
      expect(p3.stdout).not.toContain(`report/${pid(1)}`);
      const left = reportsIn(emu).find((r) => r.publicId === pid(1001))!;
      emu.clearLog();
      expect((await cli(['apply', '--auto-approve', '--prune'], dir, emu)).code).toBe(5); // the copy still blocked
      expect(deletes(emu).map((e) => e.path)).toEqual([`${DEP}/reports/${left.id}`]);
    });
  });
});
