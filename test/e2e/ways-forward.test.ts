// Every way forward wsc prints works when followed literally (issue 38, item
// 3), and is printed once (item 8). A field changed in the bundle and in the
// UI blocks apply (exit 5) with two ways forward; the first, `wsc export
// --only ADDR --into DIR`, is taken from the output as printed and run: the
// file takes the live value (said as replacing the bundle's unapplied one),
// and the next apply writes nothing but the record. A value the file writes
// with a variable is named for a hand edit with both values in full, however
// long. The emulator is a real server.
import { readFileSync, writeFileSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { writes } from '../../src/emulator/index.js';
import { api, namedExample, plannedFields, reportsIn, workbooksIn } from './helpers/bundles.js';
import { copyFixture, e2eSuite, type Emulator, runCli, target, withEmulator } from './helpers/index.js';

e2eSuite();

const TOP = 'reports/top-accounts.yaml';
const OVERVIEW = 'workbooks/revenue-overview.yaml';

const cli = (args: string[], dir: string, emu: Emulator) =>
  runCli([...args, '--dir', dir, '--env', 'local', ...target(emu)], { env: { WSC_TOKEN: 'dev-token' } });

function edit(dir: string, file: string, from: string, to: string): void {
  const text = readFileSync(join(dir, file), 'utf8');
  expect(text).toContain(from);
  writeFileSync(join(dir, file), text.replace(from, to));
}

const read = (dir: string, file: string) => readFileSync(join(dir, file), 'utf8');

/** How many times `needle` stands in `text`. */
const count = (text: string, needle: string) => text.split(needle).length - 1;

/** The `wsc export --only …` (or `wsc apply …`) command an output prints, as its arguments (without `wsc`). */
function printed(text: string, command = 'export --only'): string[] {
  const m = new RegExp(`\`wsc (${command} [^\`]+)\``).exec(text);
  expect(m, text).not.toBeNull();
  return m![1]!.split(' ');
}

/** A printed command run as printed: no flag added (the token is in the environment, as a user's is). */
const followed = (args: string[]) => runCli(args, { env: { WSC_TOKEN: 'dev-token' } });

/** The flags of the runs here that chose the deployment: the printed commands repeat them. */
const chosen = (emu: Emulator) => ['--env', 'local', ...target(emu)];

async function uiTitle(emu: Emulator, publicId: string, title: string): Promise<void> {
  const r = reportsIn(emu).find((x) => x.publicId === publicId)!;
  expect((await api(emu, 'PUT', `/api/v1/deployments/1/reports/${r.id}`, { title })).status).toBe(200);
}

/** The example applied, then report/revTopAcct01's title changed both in the bundle and in the UI: a conflict. */
async function conflictOnTopTitle(emu: Emulator): Promise<string> {
  const dir = namedExample();
  expect((await cli(['apply', '--auto-approve'], dir, emu)).code).toBe(0);
  edit(dir, TOP, 'title: Top 25 accounts by ARR', 'title: Top accounts (Git)');
  await uiTitle(emu, 'revTopAcct01', 'Top accounts (UI)');
  return dir;
}

describe('a conflict: the printed ways forward, followed as printed', () => {
  test('`wsc export --only ADDR --into DIR` takes the live value of the conflicted field; the ways forward are printed once', async () => {
    await withEmulator({}, async (emu) => {
      const dir = await conflictOnTopTitle(emu);

      const plan = await cli(['plan'], dir, emu);
      expect(count(plan.stdout + plan.stderr, 'wsc export --only report/revTopAcct01')).toBe(1);
      const blocked = await cli(['apply', '--auto-approve'], dir, emu);
      expect(blocked.code).toBe(5);
      const all = blocked.stdout + blocked.stderr;
      expect(count(all, 'wsc export --only report/revTopAcct01')).toBe(1);
      expect(count(all, 'wsc apply --overwrite-ui-edits report/revTopAcct01')).toBe(1);
      // A saved plan's apply shows no plan: its summary names them, once.
      expect((await cli(['plan', '--out', join(dir, 'p.json')], dir, emu)).code).toBe(0);
      const saved = await cli(['apply', join(dir, 'p.json')], dir, emu);
      expect(saved.code).toBe(5);
      expect(count(saved.stdout + saved.stderr, 'wsc export --only report/revTopAcct01')).toBe(1);

      const args = printed(all);
      expect(args).toEqual(['export', '--only', 'report/revTopAcct01', '--into', dir, ...chosen(emu)]);
      emu.clearLog();
      const took = await followed(args);
      expect(took.code, took.stderr).toBe(0);
      expect(writes(emu.log)).toEqual([]);
      expect(took.stdout).toContain('~ report/revTopAcct01: took title into reports/top-accounts.yaml');
      expect(took.stdout).toContain(
        "    replaced title: the bundle's value, changed since the last apply and not applied, " +
          "is replaced by the deployment's",
      );
      expect(read(dir, TOP)).toContain('\ntitle: Top accounts (UI)\n');
      // The UI's value is now the bundle's: the next apply is no longer blocked and changes no field.
      emu.clearLog();
      const next = await cli(['apply', '--auto-approve'], dir, emu);
      expect(next.code, next.stdout + next.stderr).toBe(0);
      expect(reportsIn(emu).find((r) => r.publicId === 'revTopAcct01')!.title).toBe('Top accounts (UI)');
      const plan2 = await cli(['plan', '--output', 'json'], dir, emu);
      const changes = (JSON.parse(plan2.stdout) as { changes: { fields: unknown[]; actions: string[] }[] }).changes;
      expect(changes.filter((c) => c.fields.length > 0 || c.actions.includes('blocked'))).toEqual([]);
    });
  });

  test('the other way forward, `wsc apply --overwrite-ui-edits ADDR`, followed as printed: the bundle wins', async () => {
    await withEmulator({}, async (emu) => {
      const dir = await conflictOnTopTitle(emu);
      const blocked = await cli(['apply', '--auto-approve'], dir, emu);
      expect(blocked.code).toBe(5);
      const args = printed(blocked.stdout, 'apply --overwrite-ui-edits');
      expect(args).toEqual(['apply', '--overwrite-ui-edits', 'report/revTopAcct01', '--dir', dir, ...chosen(emu)]);
      // Not on a terminal: the confirmation is given as a flag.
      const over = await followed([...args, '--auto-approve']);
      expect(over.code, over.stdout + over.stderr).toBe(0);
      expect(reportsIn(emu).find((r) => r.publicId === 'revTopAcct01')!.title).toBe('Top accounts (Git)');
      expect(read(dir, TOP)).toContain('\ntitle: Top accounts (Git)\n');
    });
  });

  test('`export --into` leaves a conflict, naming the command that takes it; that command takes it', async () => {
    const dir = namedExample();
    await withEmulator({}, async (emu) => {
      expect((await cli(['apply', '--auto-approve'], dir, emu)).code).toBe(0);
      edit(dir, OVERVIEW, 'visualization: line', 'visualization: area');
      const w = workbooksIn(emu).find((x) => x.slug === 'revenue-overview')!;
      const draft = structuredClone((w.meta as Record<string, any>)['dashboardDraft']);
      const mrr = (draft.widgets as Record<string, any>[]).find((x) => x['id'] === 'mrr-trend')!;
      mrr['position'] = { x: 0, y: 4, w: 8, h: 9 };
      const put = await api(emu, 'PUT', '/api/v1/deployments/1/workbooks/by-slug/revenue-overview', {
        meta: { dashboardDraft: draft },
      });
      expect(put.status).toBe(200);

      const into = await cli(['export', '--into', dir], dir, emu);
      expect(into.code, into.stderr).toBe(0);
      expect(into.stdout).toContain('! left meta.dashboardDraft.widgets[mrr-trend]');
      expect(into.stdout).not.toContain('merge by hand');
      const args = printed(into.stdout);
      expect(args).toEqual(['export', '--only', 'workbook/revenue-overview', '--into', dir, ...chosen(emu)]);
      const took = await followed(args);
      expect(took.code, took.stderr).toBe(0);
      expect(took.stdout).toContain('replaced meta.dashboardDraft.widgets[mrr-trend]');
      const text = read(dir, OVERVIEW);
      expect(text).toContain('position: { x: 0, y: 4, w: 8, h: 9 }');
      expect(text).not.toContain('visualization: area');
      const p = await cli(['plan', '--output', 'json'], dir, emu);
      // The draft matches the deployment's now; only publishing it remains (the UI changed the draft alone).
      expect(plannedFields(p)).toEqual(['workbook/revenue-overview dashboardPublished']);
    });
  });

  test('a value written with a variable is named for a hand edit with both values in full, wrapped, never cut', async () => {
    const dir = namedExample();
    const long = (end: string) =>
      `Top accounts by annual recurring revenue in \${vars.currency}, every region and segment, ${end}`;
    edit(dir, TOP, 'title: Top 25 accounts by ARR', `title: "${long('as of the last close')}"`);
    await withEmulator({}, async (emu) => {
      expect((await cli(['apply', '--auto-approve'], dir, emu)).code).toBe(0);
      edit(dir, TOP, long('as of the last close'), long('as of the last quarter close'));
      const ui = long('as of the last close (checked by finance)').replace('${vars.currency}', 'USD');
      await uiTitle(emu, 'revTopAcct01', ui);
      expect((await cli(['apply', '--auto-approve'], dir, emu)).code).toBe(5);

      const before = read(dir, TOP);
      const r = await cli(['export', '--only', 'report/revTopAcct01', '--into', dir], dir, emu);
      expect(r.code, r.stderr).toBe(0);
      expect(read(dir, TOP)).toBe(before);
      const lines = r.stdout.split('\n');
      const at = lines.findIndex((l) => l.includes('! edit by hand title at reports/top-accounts.yaml:5:8'));
      expect(at, r.stdout).toBeGreaterThan(0);
      const heard = lines.indexOf('      the deployment now has:');
      expect(heard).toBeGreaterThan(at);
      const value = (from: number, to: number) =>
        lines
          .slice(from, to)
          .map((l) => l.replace(/^ {8}/, ''))
          .join('');
      const end = lines.findIndex((l, i) => i > heard && !l.startsWith('        '));
      expect(value(at + 1, heard)).toBe(JSON.stringify(long('as of the last quarter close')));
      expect(value(heard + 1, end)).toBe(JSON.stringify(ui));
      for (const l of lines.slice(at + 1, end)) expect(l.length).toBeLessThanOrEqual(8 + 72);
      expect(r.stdout).not.toContain('...');
    });
  });
});

/**
 * The conflict of conflictOnTopTitle, with an environment `prod` of wsc.yaml for the same deployment (the default
 * stays `local`, embedded, as in the example: a command without --env acts on another deployment), and `run`: a
 * command run from the directory above the bundle, as from a repository's root.
 */
async function prodConflict(emu: Emulator) {
  const dir = await conflictOnTopTitle(emu);
  const prod = `  prod:\n    baseUrl: ${emu.url}\n    deploymentId: 1\n    vars: { currency: USD, fiscalYearStartMonth: 2 }\n`;
  edit(dir, 'wsc.yaml', 'environments:\n', `environments:\n${prod}`);
  const run = (args: string[]) => runCli(args, { cwd: dirname(dir), env: { WSC_TOKEN: 'dev-token' } });
  // The two ways forward, as a run of `--dir <bundle> --env prod` from there must print them.
  const named = ['--env', 'prod'];
  const take = ['export', '--only', 'report/revTopAcct01', '--into', basename(dir), ...named];
  const over = ['apply', '--overwrite-ui-edits', 'report/revTopAcct01', '--dir', basename(dir), ...named];
  return { dir, run, take, over };
}

describe("a pull request's plan (--dir dashboards --env prod, from the repository's root): its ways forward too", () => {
  test('the markdown names the bundle and the environment; each command, run from the root as printed, works', async () => {
    await withEmulator({}, async (emu) => {
      const { dir, run, take, over } = await prodConflict(emu);
      const md = await run(['plan', '--dir', basename(dir), '--env', 'prod', '--output', 'markdown']);
      expect(md.code, md.stderr).toBe(0);
      expect(printed(md.stdout)).toEqual(take);
      expect(printed(md.stdout, 'apply --overwrite-ui-edits')).toEqual(over);
      emu.clearLog();
      const took = await run(take);
      expect(took.code, took.stderr).toBe(0);
      expect(read(dir, TOP)).toContain('\ntitle: Top accounts (UI)\n');
      expect(writes(emu.log)).toEqual([]);
      // Back to the bundle's value, then the other way forward wins it back.
      edit(dir, TOP, 'title: Top accounts (UI)', 'title: Top accounts (Git)');
      await uiTitle(emu, 'revTopAcct01', 'Top accounts (UI again)');
      const applied = await run([...over, '--auto-approve']);
      expect(applied.code, applied.stdout + applied.stderr).toBe(0);
      expect(reportsIn(emu).find((r) => r.publicId === 'revTopAcct01')!.title).toBe('Top accounts (Git)');
    });
  });

  test("a saved plan applied without --dir or --env: the ways forward name the plan's bundle and environment", async () => {
    await withEmulator({}, async (emu) => {
      const { dir, run, take, over } = await prodConflict(emu);
      // The plan file inside the bundle: the directory above it is the test run's shared temporary directory.
      const file = join(basename(dir), 'p.json');
      expect((await run(['plan', '--dir', basename(dir), '--env', 'prod', '--out', file])).code).toBe(0);
      const saved = await run(['apply', file]);
      expect(saved.code, saved.stdout + saved.stderr).toBe(5);
      expect(printed(saved.stdout + saved.stderr)).toEqual(take);
      expect(printed(saved.stdout + saved.stderr, 'apply --overwrite-ui-edits')).toEqual(over);
      expect((await run([...over, '--auto-approve'])).code).toBe(0);
      expect(reportsIn(emu).find((r) => r.publicId === 'revTopAcct01')!.title).toBe('Top accounts (Git)');
    });
  });
});

describe("an invalid bundle: the `wsc validate` printed is the run's, followed as printed", () => {
  test.each([
    ['a report', TOP, 'title: Top 25 accounts by ARR', 'titel: Top 25 accounts by ARR'],
    ['wsc.yaml', 'wsc.yaml', 'defaultEnvironment: local', 'defaultEnvironmnt: local'],
  ])(
    '%s with an error, planned from the parent directory with --dir and --env: the same errors',
    async (_, file, from, to) => {
      const dir = copyFixture('example');
      edit(dir, file, from, to);
      await withEmulator({}, async (emu) => {
        const cwd = dirname(dir);
        const env = { WSC_TOKEN: 'dev-token' };
        const r = await runCli(['plan', '--dir', basename(dir), '--env', 'local', ...target(emu)], { cwd, env });
        expect(r.code).toBe(3);
        expect(emu.log).toEqual([]);
        const printed = /run `wsc (validate[^`]*)` again/.exec(r.stderr)?.[1];
        expect(printed).toBe(`validate --dir ${basename(dir)} --env local`);
        const v = await runCli(printed!.split(' '), { cwd, env });
        expect(v.code).toBe(3);
        const errors = (text: string) => text.split('\n').filter((l) => / error /.test(l));
        expect(errors(r.stderr).length).toBeGreaterThan(0);
        expect(errors(v.stdout)).toEqual(errors(r.stderr));
      });
    },
  );
});
