// `wsc export --into DIR` end to end: the example bundle applied to the
// emulator, edited there as a user of the UI would (a changed report, a new
// report), exported back into the bundle: the same file names, wsc.yaml
// byte for byte, one new file, and a plan that is empty.
import { readFileSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { parse } from 'yaml';
import { describe, expect, test } from 'vitest';
import { writes } from '../../src/emulator/index.js';
import { api, reportsIn, workbooksIn } from './helpers/bundles.js';
import { copyFixture, e2eSuite, runCli, target, tempDir, withEmulator } from './helpers/index.js';
import type { Emulator } from './helpers/index.js';

e2eSuite();

function filesUnder(dir: string, base = dir): string[] {
  return readdirSync(dir)
    .flatMap((n) => {
      const p = join(dir, n);
      if (n.startsWith('.')) return [];
      return statSync(p).isDirectory() ? filesUnder(p, base) : [relative(base, p)];
    })
    .sort();
}

async function uiEdits(emu: Emulator, livePid: string): Promise<void> {
  const changed = reportsIn(emu).find((r) => r.publicId === livePid)!;
  const put = await api(emu, 'PUT', `/api/v1/deployments/1/reports/${changed.id}`, { title: 'MRR (edited in the UI)' });
  expect(put.status).toBe(200);
  const wb = workbooksIn(emu).find((w) => w.slug === 'revenue-overview')!;
  const made = await api(emu, 'POST', '/api/v1/deployments/1/reports', {
    publicId: 'uiNewRep0001',
    name: 'made_in_ui',
    title: 'Made in the UI',
    sqlQuery: 'select 1',
    workbookId: wb.id,
  });
  expect(made.status).toBe(200);
}

describe('wsc export --into', () => {
  test.each([
    ['local', {}],
    ['staging', { WSC_STAGING_TOKEN: 'dev-token' }],
  ] as const)(
    'environment %s: UI edits come back into the same files; wsc.yaml untouched; plan empty',
    async (envName, more) => {
      const dir = copyFixture('example');
      const env = { ...more, WSC_TOKEN: 'dev-token' };
      const cli = (args: string[], emu: Emulator) => runCli([...args, '--env', envName, ...target(emu)], { env });
      await withEmulator({}, async (emu) => {
        expect((await cli(['apply', '--auto-approve', '--dir', dir], emu)).code).toBe(0);
        const before = filesUnder(dir);
        const wscYaml = readFileSync(join(dir, 'wsc.yaml'));
        const churn = readFileSync(join(dir, 'reports/churn.yaml'), 'utf8');
        const mrrFile = readFileSync(join(dir, 'reports/mrr-trend.yaml'), 'utf8');
        // Holds ${vars.…}: a file whose resource did not change keeps its variables.
        const workbookFile = readFileSync(join(dir, 'workbooks/revenue-overview.yaml'), 'utf8');
        const mrr = reportsIn(emu).find((r) => r.name === 'mrr_trend')!;
        if (envName === 'staging') expect(mrr.publicId).not.toBe('revMrrTrnd01'); // derived for this deployment
        await uiEdits(emu, mrr.publicId!);

        emu.clearLog();
        const r = await cli(['export', '--into', dir], emu);
        expect(r.code, r.stderr).toBe(0);
        expect(writes(emu.log)).toEqual([]);
        expect(r.stdout).toContain('~ report/revMrrTrnd01: took title into reports/mrr-trend.yaml');
        expect(r.stdout).toContain('+ report/uiNewRep0001: new file reports/made_in_ui.yaml');
        expect(r.stdout).toMatch(/1 updated, 1 new, \d+ unchanged\. wsc\.yaml is left as it is\./);

        expect(filesUnder(dir)).toEqual([...before, 'reports/made_in_ui.yaml'].sort());
        expect(readFileSync(join(dir, 'wsc.yaml')).equals(wscYaml)).toBe(true);
        expect(readFileSync(join(dir, 'reports/churn.yaml'), 'utf8')).toBe(churn);
        const edited = readFileSync(join(dir, 'reports/mrr-trend.yaml'), 'utf8');
        // The bundle's own publicId stays; only the title changed, the rest of the file is as written.
        // (The yaml library writes the document back: flow sequences may gain inner spaces, comments stay.)
        expect(parse(edited)).toEqual({ ...parse(mrrFile), title: 'MRR (edited in the UI)' });
        expect(edited.split('\n')[0]).toBe(mrrFile.split('\n')[0]);
        expect(readFileSync(join(dir, 'workbooks/revenue-overview.yaml'), 'utf8')).toBe(workbookFile);
        const added = readFileSync(join(dir, 'reports/made_in_ui.yaml'), 'utf8');
        expect(added).toContain('workbookId: { $workbook: revenue-overview }');
        if (envName === 'staging') expect(added).toContain('adopt: { deploymentId: 1, id: ');

        const p = await cli(['plan', '--detailed-exitcode', '--dir', dir], emu);
        expect(p.code, p.stdout).toBe(0);
        expect(p.stdout).toContain('No changes');

        // Again: nothing left to take, no file touched.
        const snapshot = filesUnder(dir).map((f) => readFileSync(join(dir, f), 'utf8'));
        const again = await cli(['export', '--into', dir, '--output', 'json'], emu);
        expect(again.code, again.stderr).toBe(0);
        const json = JSON.parse(again.stdout) as { unchanged: number };
        expect(json).toMatchObject({ formatVersion: 1, into: dir, updated: [], created: [], notLive: [] });
        expect(json.unchanged).toBeGreaterThan(0);
        expect(filesUnder(dir).map((f) => readFileSync(join(dir, f), 'utf8'))).toEqual(snapshot);
      });
    },
  );

  test('--out into a directory holding a bundle: the files beside the snapshot named, the way forward works as printed', async () => {
    const dir = copyFixture('example');
    await withEmulator({}, async (emu) => {
      const t = ['--dir', dir, ...target(emu)];
      expect((await runCli(['apply', '--auto-approve', ...t], { env: { WSC_TOKEN: 'dev-token' } })).code).toBe(0);
      const applied = emu.log.length;
      const before = new Set(filesUnder(dir));
      const r = await runCli(['export', '--out', dir, ...t], { env: { WSC_TOKEN: 'dev-token' } });
      expect(r.code, r.stderr).toBe(0);
      // The example's reports are files of several documents, named otherwise than export names its files.
      const beside = r.stdout.split('will be read as part of the bundle:\n')[1]!.split('\n\n')[0]!.trim().split(/\s+/);
      expect(beside.length).toBeGreaterThan(0);
      for (const f of beside) expect(before.has(f)).toBe(true);
      const next = r.stdout.trimEnd().split('\n').at(-1)!;
      expect(next).toBe(
        `Next: delete those files unless they belong in the bundle, then: wsc plan --dir ${dir}. To update a bundle ` +
          `kept in Git in place, with its files, comments and names, export with \`--into ${dir}\` instead of \`--out\`.`,
      );
      // As it is, the bundle holds the same resources twice: the plan that the old line sent one to refuses it.
      expect((await runCli(['plan', ...t], { env: { WSC_TOKEN: 'dev-token' } })).code).toBe(3);
      // Followed: the files deleted, the plan has nothing to do.
      for (const f of beside) rmSync(join(dir, f));
      const plan = await runCli(['plan', '--detailed-exitcode', ...t], { env: { WSC_TOKEN: 'dev-token' } });
      expect(plan.code, plan.stdout + plan.stderr).toBe(0);
      expect(writes(emu.log.slice(applied))).toEqual([]);
    });
  });

  test('--into a directory that does not exist names it (exit 3); --out with --into is refused', async () => {
    const r = await runCli(['export', '--into', '/nonexistent/bundle']);
    expect(r.code).toBe(3);
    expect(r.stderr).toContain('--into /nonexistent/bundle: no such directory');
    // A file given for the bundle: said so, not "no such directory"; the file is left as it was.
    const file = join(tempDir(), 'wsc.yaml');
    writeFileSync(file, 'environments: {}\n');
    const onFile = await runCli(['export', '--into', file]);
    expect(onFile.code).toBe(3);
    expect(onFile.stderr).toContain(
      `--into ${file}: not a directory (a file is there). --into updates an existing bundle.`,
    );
    expect(readFileSync(file, 'utf8')).toBe('environments: {}\n');
    const both = await runCli(['export', '--into', 'a', '--out', 'b']);
    expect(both.code).toBe(3);
    expect(both.stderr).toContain('give one of --out and --into');
  });
});
