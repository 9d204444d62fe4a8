// `wsc export --into` and `--only` are a three-way merge (issue 29, item 5):
// with the ownership record of the last apply, only what changed outside wsc
// is taken; a change of the bundle not applied yet is kept (a PR's LIMIT 50
// does not go back to LIMIT 25); a value written with `${vars.…}` stays when
// it renders as the live value, and is named for a hand edit when the UI
// changed it; a widget moved in the UI changes that widget's line of the
// file and nothing else; a widget changed in the bundle and another moved in
// the UI are both kept. The emulator is a real server; export never writes.
import { readFileSync, writeFileSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { writes } from '../../src/emulator/index.js';
import { api, plannedFields, reportsIn, workbooksIn } from './helpers/bundles.js';
import { copyFixture, e2eSuite, runCli, target, withEmulator } from './helpers/index.js';
import type { Emulator } from './helpers/index.js';

e2eSuite();

const TOP = 'reports/top-accounts.yaml';
const OVERVIEW = 'workbooks/revenue-overview.yaml';

/** fixtures/example with a bundle name (so apply records what it wrote) and this environment's currency. */
function bundle(opts: { named?: boolean; currency?: string } = {}): string {
  const dir = copyFixture('example');
  const file = join(dir, 'wsc.yaml');
  let text = readFileSync(file, 'utf8');
  if (opts.currency !== undefined) text = text.replace('currency: USD', `currency: ${opts.currency}`);
  writeFileSync(file, `${opts.named === false ? '' : 'bundle: demo\n'}${text}`);
  return dir;
}

function edit(dir: string, file: string, from: string, to: string): void {
  const text = readFileSync(join(dir, file), 'utf8');
  expect(text).toContain(from);
  writeFileSync(join(dir, file), text.replace(from, to));
}

const read = (dir: string, file: string) => readFileSync(join(dir, file), 'utf8');

/** The lines of `after` that are not the lines of `before` at the same place (both have as many lines here). */
function changedLines(before: string, after: string): { line: number; from: string; to: string }[] {
  const a = before.split('\n');
  const b = after.split('\n');
  expect(b.length).toBe(a.length);
  return a.flatMap((l, i) => (l === b[i] ? [] : [{ line: i + 1, from: l, to: b[i]! }]));
}

/** The file's one changed line is the `position:` line of widget `id` (two lines below its `- id:`). */
function expectOnlyPosition(before: string, after: string, id: string, from: string, to: string): void {
  const line = before.split('\n').indexOf(`      - id: ${id}`) + 3;
  expect(changedLines(before, after)).toEqual([
    { line, from: `        position: ${from}`, to: `        position: ${to}` },
  ]);
}

const cli = (args: string[], dir: string, emu: Emulator) =>
  runCli([...args, '--dir', dir, '--env', 'local', ...target(emu)], { env: { WSC_TOKEN: 'dev-token' } });

/** A report's title changed as the UI changes it (its `meta`, and so the record, untouched). */
async function uiTitle(emu: Emulator, publicId: string, title: string): Promise<void> {
  const r = reportsIn(emu).find((x) => x.publicId === publicId)!;
  expect((await api(emu, 'PUT', `/api/v1/deployments/1/reports/${r.id}`, { title })).status).toBe(200);
}

/** The live draft of a workbook changed as the UI changes it (the upsert merges `meta`: the record stays). */
async function uiDraft(emu: Emulator, slug: string, change: (widgets: Record<string, any>[]) => void): Promise<void> {
  const w = workbooksIn(emu).find((x) => x.slug === slug)!;
  const draft = structuredClone((w.meta as Record<string, any>)['dashboardDraft']);
  change(draft.widgets);
  const put = await api(emu, 'PUT', `/api/v1/deployments/1/workbooks/by-slug/${slug}`, {
    meta: { dashboardDraft: draft },
  });
  expect(put.status).toBe(200);
}

const widget = (widgets: Record<string, any>[], id: string) => widgets.find((x) => x['id'] === id)!;

describe('export merges, it does not overwrite', () => {
  test.each(['--into', '--only'] as const)(
    '%s: a change of the bundle not applied yet is kept (LIMIT 50 stays); the UI edit beside it is taken',
    async (how) => {
      const dir = bundle();
      await withEmulator({}, async (emu) => {
        expect((await cli(['apply', '--auto-approve'], dir, emu)).code).toBe(0);
        // A pull request raises the limit; before it is applied, someone retitles the report in the UI.
        edit(dir, TOP, 'LIMIT 25', 'LIMIT 50');
        await uiTitle(emu, 'revTopAcct01', 'Top accounts (UI)');
        const before = read(dir, TOP);

        emu.clearLog();
        const args =
          how === '--into' ? ['export', '--into', dir] : ['export', '--only', 'report/revTopAcct01', '--into', dir];
        const r = await cli(args, dir, emu);
        expect(r.code, r.stderr).toBe(0);
        expect(writes(emu.log)).toEqual([]);
        expect(r.stdout).toContain('~ report/revTopAcct01: took title into reports/top-accounts.yaml');
        expect(r.stdout).toContain('    kept sqlQuery: changed in the bundle and not applied yet');
        expect(r.stdout).not.toContain('no ownership record');
        const after = read(dir, TOP);
        expect(after).toContain('LIMIT 50');
        expect(changedLines(before, after)).toEqual([
          { line: 5, from: 'title: Top 25 accounts by ARR', to: 'title: Top accounts (UI)' },
        ]);
        // The next plan carries the bundle's change only.
        const p = await cli(['plan', '--output', 'json'], dir, emu);
        const changes = (
          JSON.parse(p.stdout) as { changes: { address: string; fields: { path: string }[] }[] }
        ).changes.filter((c) => c.fields.length > 0);
        expect(changes.map((c) => [c.address, c.fields.map((x) => x.path)])).toEqual([
          ['report/revTopAcct01', ['sqlQuery']],
        ]);
      });
    },
  );

  test("--only ADDR --into DIR, or --out DIR, from another directory without --dir: the environment is DIR's own", async () => {
    const dir = bundle();
    await withEmulator({}, async (emu) => {
      expect((await cli(['apply', '--auto-approve'], dir, emu)).code).toBe(0);
      await uiTitle(emu, 'revTopAcct01', 'Top accounts (UI)');
      await uiTitle(emu, 'revMrrTrnd01', 'MRR (UI)');
      emu.clearLog();
      // From the repository's root, as the way forward is printed: DIR's wsc.yaml names `local` and its vars.
      for (const [how, pid, file, title] of [
        ['--into', 'revTopAcct01', TOP, 'Top accounts (UI)'],
        ['--out', 'revMrrTrnd01', 'reports/mrr-trend.yaml', 'MRR (UI)'],
      ] as const) {
        const args = ['export', '--only', `report/${pid}`, how, basename(dir), '--env', 'local', ...target(emu)];
        const r = await runCli(args, { cwd: dirname(dir), env: { WSC_TOKEN: 'dev-token' } });
        expect(r.code, r.stderr).toBe(0);
        expect(r.stdout).toContain(`~ report/${pid}: took title into ${file}`);
        expect(read(dir, file)).toContain(`title: ${title}`);
      }
      expect(writes(emu.log)).toEqual([]);
    });
  });

  test.each(['--into', '--out'] as const)(
    '--only ADDR %s DIR that does not exist: exit 3 naming the flag and DIR, nothing read',
    async (how) => {
      await withEmulator({}, async (emu) => {
        emu.clearLog();
        const r = await runCli(['export', '--only', 'report/revTopAcct01', how, 'no/such/bundle', ...target(emu)], {
          env: { WSC_TOKEN: 'dev-token' },
        });
        expect(r.code).toBe(3);
        expect(r.stderr).toContain(
          `Error: ${how} no/such/bundle: no such directory. --only takes resources into the files of an existing bundle. [export_out_dir]`,
        );
        expect(r.stderr).toContain('Hint: Give the directory of the bundle that holds them');
        expect(emu.log).toEqual([]);
      });
    },
  );

  test('without a bundle name there is no record: every differing field is taken, and the output says so', async () => {
    const dir = bundle({ named: false });
    await withEmulator({}, async (emu) => {
      expect((await cli(['apply', '--auto-approve'], dir, emu)).code).toBe(0);
      edit(dir, TOP, 'LIMIT 25', 'LIMIT 50');
      await uiTitle(emu, 'revTopAcct01', 'Top accounts (UI)');
      const r = await cli(['export', '--into', dir], dir, emu);
      expect(r.code, r.stderr).toBe(0);
      expect(r.stdout).toContain('~ report/revTopAcct01: took title, sqlQuery into reports/top-accounts.yaml');
      expect(r.stdout).toContain(
        '    no ownership record of this bundle to tell UI edits from changes not applied yet: ' +
          'every field that differs was taken',
      );
      expect(read(dir, TOP)).toContain('LIMIT 25');
    });
  });

  test('a widget moved in the UI: only its line changes, `${vars.currency}` stays; a UI edit of that text is left to edit by hand', async () => {
    // This environment renders the shared file's `${vars.currency}` as EUR.
    const dir = bundle({ currency: 'EUR' });
    await withEmulator({}, async (emu) => {
      expect((await cli(['apply', '--auto-approve'], dir, emu)).code).toBe(0);
      const live = workbooksIn(emu).find((w) => w.slug === 'revenue-overview')!;
      expect(JSON.stringify(live.meta)).toContain('All amounts in EUR');
      await uiDraft(emu, 'revenue-overview', (ws) => {
        widget(ws, 'nrr-kpi')['position'] = { x: 8, y: 4, w: 4, h: 6 };
      });
      const before = read(dir, OVERVIEW);

      emu.clearLog();
      const r = await cli(['export', '--into', dir], dir, emu);
      expect(r.code, r.stderr).toBe(0);
      expect(writes(emu.log)).toEqual([]);
      expect(r.stdout).toContain(
        '~ workbook/revenue-overview: took meta.dashboardDraft.widgets[nrr-kpi] into workbooks/revenue-overview.yaml',
      );
      const after = read(dir, OVERVIEW);
      expectOnlyPosition(before, after, 'nrr-kpi', '{ x: 8, y: 4, w: 4, h: 4 }', '{ x: 8, y: 4, w: 4, h: 6 }');
      expect(after).toContain('All amounts in ${vars.currency}');
      expect(after).not.toContain('EUR');
      // The file now says what the deployment's draft has: plan only publishes it (the UI moved the draft alone),
      // and a second export changes nothing.
      const p = await cli(['plan', '--output', 'json'], dir, emu);
      expect(plannedFields(p)).toEqual(['workbook/revenue-overview dashboardPublished']);
      const again = await cli(['export', '--into', dir], dir, emu);
      expect(again.code).toBe(0);
      expect(read(dir, OVERVIEW)).toBe(after);

      // The UI rewrites the templated text: nothing is written there; the output names the place.
      await uiDraft(emu, 'revenue-overview', (ws) => {
        widget(ws, 'header')['config'] = { content: '## Revenue overview\nAll amounts in EUR.' };
      });
      const third = await cli(['export', '--into', dir], dir, emu);
      expect(third.code, third.stderr).toBe(0);
      const headerLine = before.split('\n').findIndex((l) => l.includes('content: "## Revenue overview')) + 1;
      // Both values in full (wrapped at spaces, never cut): the difference may be at the end.
      expect(third.stdout).toContain(
        `    ! edit by hand meta.dashboardDraft.widgets[header].config.content at ${OVERVIEW}:${headerLine}:20: ` +
          'the file writes it with a variable, so wsc does not rewrite it. The file writes:\n' +
          '        "## Revenue overview\\nAll amounts in ${vars.currency}; fiscal year \n' +
          '        starts in month ${vars.fiscalYearStartMonth}."\n' +
          '      the deployment now has:\n' +
          '        "## Revenue overview\\nAll amounts in EUR."\n',
      );
      expect(third.stdout).toContain('= workbook/revenue-overview: workbooks/revenue-overview.yaml left as it is');
      expect(third.stdout).toContain('Lines marked ! are left for you to merge');
      expect(read(dir, OVERVIEW)).toBe(after);
      const json = await cli(['export', '--into', dir, '--output', 'json'], dir, emu);
      expect(JSON.parse(json.stdout)).toMatchObject({
        updated: [
          {
            address: 'workbook/revenue-overview',
            file: OVERVIEW,
            fields: [],
            kept: [],
            conflicts: [],
            byHand: [
              {
                path: 'meta.dashboardDraft.widgets[header].config.content',
                line: headerLine,
                col: 20,
                live: '## Revenue overview\nAll amounts in EUR.',
              },
            ],
            noRecord: false,
          },
        ],
      });
    });
  });

  test('a widget changed in the bundle and another moved in the UI: the file keeps its change and takes the move; the same widget changed on both sides is left and named', async () => {
    const dir = bundle();
    await withEmulator({}, async (emu) => {
      expect((await cli(['apply', '--auto-approve'], dir, emu)).code).toBe(0);
      edit(dir, OVERVIEW, 'visualization: line', 'visualization: area');
      await uiDraft(emu, 'revenue-overview', (ws) => {
        widget(ws, 'arr-by-region')['position'] = { x: 8, y: 8, w: 4, h: 5 };
        widget(ws, 'mrr-trend')['position'] = { x: 0, y: 4, w: 8, h: 9 };
      });
      const before = read(dir, OVERVIEW);
      const r = await cli(['export', '--into', dir], dir, emu);
      expect(r.code, r.stderr).toBe(0);
      expect(r.stdout).toContain(
        '~ workbook/revenue-overview: took meta.dashboardDraft.widgets[arr-by-region] into workbooks/revenue-overview.yaml',
      );
      expect(r.stdout).toContain(
        '    ! left meta.dashboardDraft.widgets[mrr-trend]: changed in the bundle and outside wsc since the last apply',
      );
      const after = read(dir, OVERVIEW);
      expectOnlyPosition(before, after, 'arr-by-region', '{ x: 8, y: 8, w: 4, h: 4 }', '{ x: 8, y: 8, w: 4, h: 5 }');
      expect(after).toContain('visualization: area');
    });
  });
});

describe('export merges folders by what they stand for', () => {
  const folderId = (emu: Emulator, name: string) =>
    (emu.snapshot().folders ?? []).find((f) => f.deploymentId === 1 && f.name === name)!.id;

  test('a workbook moved in the UI takes its new folder path; a folder changed in the bundle only is kept', async () => {
    const dir = bundle();
    await withEmulator({}, async (emu) => {
      expect((await cli(['apply', '--auto-approve'], dir, emu)).code).toBe(0);
      const put = await api(emu, 'PUT', '/api/v1/deployments/1/workbooks/by-slug/sales-pipeline', {
        folderId: folderId(emu, 'Finance'),
      });
      expect(put.status).toBe(200);
      // Not applied yet: the bundle moves another workbook up to Finance too.
      edit(dir, 'workbooks/customer-health.yaml', 'folder: Finance/Revenue analytics', 'folder: Finance');
      const r = await cli(['export', '--into', dir], dir, emu);
      expect(r.code, r.stderr).toBe(0);
      expect(r.stdout).toContain('~ workbook/sales-pipeline: took folder into workbooks/sales-pipeline.yaml');
      expect(r.stdout).toContain('    kept folder: changed in the bundle and not applied yet');
      expect(read(dir, 'workbooks/sales-pipeline.yaml')).toContain('\nfolder: Finance\n');
      expect(read(dir, 'workbooks/customer-health.yaml')).toContain('\nfolder: Finance\n');
    });
  });
});
