// The ways forward that name a whole command carry the run's flags: its bundle (--dir), its deployment (--env)
// and what it planned (--target, --prune, --ui-edits, ...). Each is run here as printed, from the directory the
// run started in (a repository's root, the bundle in `dashboards/`), and must act on the same bundle, the same
// deployment and the same resources: an `apply` without a terminal, `export --into` leaving lines to merge,
// doctor's refused members, a pull request's plan cut to fit a comment. The emulator is a real server.
import { spawnSync } from 'node:child_process';
import { cpSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { api, reportsIn, workbooksIn } from './helpers/bundles.js';
import { e2eSuite, type Emulator, root, runCli, tempDir, withEmulator } from './helpers/index.js';

e2eSuite();

const TOP = 'reports/top-accounts.yaml';
const CHURN = 'reports/churn.yaml';

/** Every `wsc …` command an output names in backticks, as its arguments (without `wsc`). */
function commands(text: string): string[][] {
  return [...text.matchAll(/`wsc ([^`]+)`/g)].map((m) => m[1]!.split(' '));
}

function edit(file: string, from: string, to: string): void {
  const text = readFileSync(file, 'utf8');
  expect(text).toContain(from);
  writeFileSync(file, text.replace(from, to));
}

const titleOf = (emu: Emulator, publicId: string) => reportsIn(emu).find((r) => r.publicId === publicId)!.title;

/** The top accounts report edited as the UI edits it (its fields, not its record). */
async function inTheUi(emu: Emulator, fields: Record<string, string>): Promise<void> {
  const top = reportsIn(emu).find((x) => x.publicId === 'revTopAcct01')!;
  expect((await api(emu, 'PUT', `/api/v1/deployments/1/reports/${top.id}`, fields)).status).toBe(200);
}

/**
 * A repository: fixtures/example in `dashboards/` (ownership on), with an environment `prod` for `emu`'s
 * deployment 1 beside the example's default (embedded: a command that drops --env acts elsewhere), applied.
 * `run` runs wsc from the repository's root, as a user or CI does.
 */
async function repository(emu: Emulator, name = 'dashboards') {
  const repo = tempDir();
  const dir = join(repo, name);
  cpSync(join(root, 'fixtures/example'), dir, { recursive: true });
  const prod = `  prod:\n    baseUrl: ${emu.url}\n    deploymentId: 1\n    vars: { currency: USD, fiscalYearStartMonth: 2 }\n`;
  writeFileSync(
    join(dir, 'wsc.yaml'),
    `bundle: demo\n${readFileSync(join(dir, 'wsc.yaml'), 'utf8').replace('environments:\n', `environments:\n${prod}`)}`,
  );
  const run = (args: string[]) => runCli(args, { cwd: repo, env: { WSC_TOKEN: 'dev-token' } });
  expect((await run(['apply', '--auto-approve', '--dir', name, '--env', 'prod'])).code).toBe(0);
  return { repo, dir, run, at: ['--dir', name, '--env', 'prod'] };
}

/** `fn` with an emulator and the repository of `repository` applied to it. */
function inRepository(
  fn: (r: Awaited<ReturnType<typeof repository>> & { emu: Emulator }) => Promise<void>,
  name?: string,
): Promise<void> {
  return withEmulator({}, async (emu) => fn({ ...(await repository(emu, name)), emu }));
}

/**
 * The top accounts' title edited to `title` and the churn report's too; the flags of a run that targets the
 * first (and prunes): what it prints must leave the second alone.
 */
function targetedEdit(dir: string, title: string): string[] {
  edit(join(dir, TOP), 'title: Top 25 accounts by ARR', `title: ${title}`);
  edit(join(dir, CHURN), 'title: Revenue retention by signup cohort', 'title: Retention (not targeted)');
  return ['--target', 'report/revTopAcct01', '--prune'];
}

describe('apply without a terminal: the commands of its hint are the run with its flags', () => {
  test('--target and --prune: the plan to review, the apply, and the saved plan act on the target alone', async () => {
    await inRepository(async ({ emu, dir, run, at }) => {
      const shape = targetedEdit(dir, 'Top accounts (saved plan)');
      emu.clearLog();
      const r = await run(['apply', ...shape, ...at]);
      expect(r.code).toBe(3);
      expect(r.stderr).toContain('apply needs confirmation');
      expect(emu.log).toEqual([]);
      const [plan, apply, save, applySaved, ...more] = commands(r.stderr);
      expect(more).toEqual([]);
      expect(plan).toEqual(['plan', ...shape, ...at]);
      expect(apply).toEqual(['apply', ...shape, '--auto-approve', ...at]);
      expect(save).toEqual(['plan', ...shape, '--out', 'plan.json', ...at]);
      expect(applySaved).toEqual(['apply', 'plan.json']);

      const reviewed = await run(plan!);
      expect(reviewed.code, reviewed.stderr).toBe(0);
      expect(reviewed.stdout).toContain('~ report/revTopAcct01');
      expect(reviewed.stdout).not.toContain('report/chrnCohort01');
      // The saved plan, applied as printed: the target only.
      expect((await run(save!)).code).toBe(0);
      const saved = await run(applySaved!);
      expect(saved.code, saved.stdout + saved.stderr).toBe(0);
      expect(titleOf(emu, 'revTopAcct01')).toBe('Top accounts (saved plan)');
      expect(titleOf(emu, 'chrnCohort01')).toBe('Revenue retention by signup cohort');
      // The apply, as printed: the target only again.
      edit(join(dir, TOP), 'title: Top accounts (saved plan)', 'title: Top accounts (applied)');
      const applied = await run(apply!);
      expect(applied.code, applied.stdout + applied.stderr).toBe(0);
      expect(titleOf(emu, 'revTopAcct01')).toBe('Top accounts (applied)');
      expect(titleOf(emu, 'chrnCohort01')).toBe('Revenue retention by signup cohort');
    });
  });

  test('--overwrite-ui-edits ADDR: the apply printed writes over the edit; no saved plan is offered (it cannot)', async () => {
    await inRepository(async ({ emu, run, at }) => {
      await inTheUi(emu, { title: 'Edited in the UI' });
      const over = ['--overwrite-ui-edits', 'report/revTopAcct01'];
      const r = await run(['apply', ...over, ...at]);
      expect(r.code).toBe(3);
      const printed = commands(r.stderr);
      expect(printed).toEqual([
        ['plan', ...at],
        ['apply', ...over, '--auto-approve', ...at],
      ]);
      const reviewed = await run(printed[0]!);
      expect(reviewed.code).toBe(0);
      expect(reviewed.stdout).toContain('report/revTopAcct01 title: "Edited in the UI" → "Top 25 accounts by ARR"');
      const applied = await run(printed[1]!);
      expect(applied.code, applied.stdout + applied.stderr).toBe(0);
      expect(titleOf(emu, 'revTopAcct01')).toBe('Top 25 accounts by ARR');
    });
  });
});

describe('a targeted run blocked by a UI edit: its ways forward stay targeted', () => {
  test('`wsc apply --target … --overwrite-ui-edits …` printed, followed: the target written over, nothing else applied', async () => {
    await inRepository(async ({ emu, dir, run, at }) => {
      const shape = targetedEdit(dir, 'Top accounts (Git)');
      await inTheUi(emu, { title: 'Top (UI)' });
      const blocked = await run(['apply', ...shape, '--auto-approve', ...at]);
      expect(blocked.code, blocked.stdout + blocked.stderr).toBe(5);
      const over = commands(blocked.stdout).find((c) => c.includes('--overwrite-ui-edits'));
      expect(over).toEqual(['apply', ...shape, '--overwrite-ui-edits', 'report/revTopAcct01', ...at]);
      const followed = await run([...over!, '--auto-approve']);
      expect(followed.code, followed.stdout + followed.stderr).toBe(0);
      expect(titleOf(emu, 'revTopAcct01')).toBe('Top accounts (Git)');
      expect(titleOf(emu, 'chrnCohort01')).toBe('Revenue retention by signup cohort');
    });
  });
});

describe('a saved plan refused: the plan made again is the saved one (its bundle, environment, target)', () => {
  test('the bundle changed since (saved_plan_differs), then the deployment (stale): each hint, followed, applies', async () => {
    await inRepository(async ({ emu, dir, run, at }) => {
      const shape = targetedEdit(dir, 'Top accounts (first)');
      expect((await run(['plan', ...shape, '--out', 'p.json', ...at])).code).toBe(0);
      const again = [
        ['plan', ...shape, '--out', 'p.json', ...at],
        ['apply', 'p.json'],
      ];
      // The bundle changed since the plan was saved.
      edit(join(dir, TOP), 'title: Top accounts (first)', 'title: Top accounts (second)');
      const differs = await run(['apply', 'p.json']);
      expect(differs.code).toBe(3);
      expect(differs.stderr).toContain('[saved_plan_differs]');
      expect(commands(differs.stderr)).toEqual(again);
      // Made again as printed; then the deployment changes before it is applied: stale, the same way forward.
      expect((await run(again[0]!)).code).toBe(0);
      await inTheUi(emu, { name: 'renamed_in_ui' });
      const stale = await run(again[1]!);
      expect(stale.code, stale.stderr).toBe(1);
      expect(stale.stderr).toContain('is stale');
      expect(commands(stale.stderr)).toEqual(again);
      for (const c of again) expect((await run(c)).code).toBe(0);
      expect(titleOf(emu, 'revTopAcct01')).toBe('Top accounts (second)');
      expect(titleOf(emu, 'chrnCohort01')).toBe('Revenue retention by signup cohort');
    });
  });

  test('a plan file not saved yet: the hint saves it for this bundle and environment; then it applies', async () => {
    await inRepository(async ({ emu, dir, run, at }) => {
      edit(join(dir, TOP), 'title: Top 25 accounts by ARR', 'title: Top accounts (saved first)');
      const missing = await run(['apply', 'later.json', ...at]);
      expect(missing.code).toBe(3);
      expect(missing.stderr).toContain(
        'Cannot read the saved plan later.json: no such file or directory (ENOENT). [plan_file_unreadable]',
      );
      expect(commands(missing.stderr)).toEqual([['plan', '--out', 'later.json', ...at]]);
      expect((await run(commands(missing.stderr)[0]!)).code).toBe(0);
      expect((await run(['apply', 'later.json'])).code).toBe(0);
      expect(titleOf(emu, 'revTopAcct01')).toBe('Top accounts (saved first)');
    });
  });
});

describe('the plan commands other outputs print, followed from the root', () => {
  test('`export --into` leaving lines to merge: the `wsc plan` it names shows what still differs', async () => {
    await inRepository(async ({ emu, dir, run, at }) => {
      edit(join(dir, 'workbooks/revenue-overview.yaml'), 'visualization: line', 'visualization: area');
      const w = workbooksIn(emu).find((x) => x.slug === 'revenue-overview')!;
      const draft = structuredClone((w.meta as Record<string, any>)['dashboardDraft']);
      (draft.widgets as Record<string, any>[]).find((x) => x['id'] === 'mrr-trend')!['position'] = {
        x: 0,
        y: 4,
        w: 8,
        h: 9,
      };
      const put = await api(emu, 'PUT', '/api/v1/deployments/1/workbooks/by-slug/revenue-overview', {
        meta: { dashboardDraft: draft },
      });
      expect(put.status).toBe(200);
      const into = await run(['export', '--into', 'dashboards', '--env', 'prod']);
      expect(into.code, into.stderr).toBe(0);
      expect(into.stdout).toContain('Lines marked ! are left for you to merge: `wsc plan --dir dashboards --env prod`');
      const plan = commands(into.stdout).find((c) => c[0] === 'plan')!;
      expect(plan).toEqual(['plan', ...at]);
      const p = await run(plan);
      expect(p.code, p.stderr).toBe(0);
      expect(p.stdout).toContain(
        'changed outside wsc and in the bundle since the last apply: meta.dashboardDraft widget mrr-trend',
      );
    });
  });

  test("doctor's refused members: the `wsc plan` it names lists each at its file:line:col", async () => {
    await inRepository(async ({ dir, run, at }) => {
      // A time dimension where Cube takes measures: the model read alone refuses it.
      edit(
        join(dir, 'reports/nrr-kpi.yaml'),
        '"measures": ["retention.net_revenue_retention"]',
        '"measures": ["retention.period_end"]',
      );
      const doctor = await run(['doctor', ...at]);
      expect(doctor.code).toBe(1);
      const plan = commands(doctor.stdout).find((c) => c[0] === 'plan');
      expect(plan, doctor.stdout).toEqual(['plan', ...at]);
      const p = await run(plan!);
      expect(p.code).toBe(3);
      const refused = 'reports/nrr-kpi.yaml:10:19 report/revNrrKpi001 jsonQuery.measures[0]: `retention.period_end`';
      expect(doctor.stdout).toContain(`1 refused, first ${refused} is a time dimension, not a measure`);
      expect(p.stdout).toContain(`✗ ${refused} is a time dimension, not a measure`);
    });
  });

  test("a pull request's plan cut to fit a comment: the commands where the rest is plan the same", async () => {
    await inRepository(async ({ dir, run, at }) => {
      // Forty new reports whose details (a long note of each) are past a comment's limit.
      const long = 'x'.repeat(2_000);
      for (let i = 0; i < 40; i++) {
        const id = `longRep${String(i).padStart(5, '0')}`;
        writeFileSync(
          join(dir, `reports/long-${i}.yaml`),
          `kind: Report\npublicId: ${id}\nname: long_${i}\njsonQuery:\n  measures: [subscriptions.mrr]\nmeta:\n  note: ${long}\n`,
        );
      }
      const all = await run(['plan', '--prune', '--no-compact', ...at, '--output', 'markdown']);
      expect(all.code, all.stderr).toBe(0);
      expect(all.stdout).toContain('are left out to fit a comment');
      const printed = commands(all.stdout).filter((c) => c[0] === 'plan');
      expect(printed).toEqual([
        ['plan', '--prune', '--output', 'human', '--no-compact', ...at],
        ['plan', '--prune', '--output', 'json', ...at],
      ]);
      const human = await run(printed[0]!);
      expect(human.code, human.stderr).toBe(0);
      for (let i = 0; i < 40; i++) expect(human.stdout).toContain(`+ report/longRep${String(i).padStart(5, '0')}`);
      expect(human.stdout).toContain(long);
      const json = await run(printed[1]!);
      expect(json.code).toBe(0);
      expect((JSON.parse(json.stdout) as { changes: unknown[] }).changes).toHaveLength(40);
    });
  });
});

/** The words bash makes of a printed command (none is run), without the leading `wsc`. */
function shellWords(command: string): string[] {
  const r = spawnSync('bash', ['-c', `printf '%s\\0' ${command}`], { encoding: 'utf8' });
  expect(r.status, r.stderr).toBe(0);
  const words = r.stdout.split('\0').slice(0, -1);
  expect(words[0]).toBe('wsc');
  return words.slice(1);
}

describe('a directory with a space in its name: the commands printed, read by a shell, act on it', () => {
  test('apply without a terminal, and export --out: each command, as bash reads it, works', async () => {
    await inRepository(async ({ emu, dir, run }) => {
      edit(join(dir, TOP), 'title: Top 25 accounts by ARR', 'title: Top accounts (spaced)');
      const refused = await run(['apply', '--dir', 'My dashboards', '--env', 'prod']);
      expect(refused.code).toBe(3);
      const apply = [...refused.stderr.matchAll(/`(wsc apply [^`]+)`/g)].map((m) => m[1]!)[0]!;
      expect(apply).toBe("wsc apply --auto-approve --dir 'My dashboards' --env prod");
      expect((await run(shellWords(apply))).code).toBe(0);
      expect(titleOf(emu, 'revTopAcct01')).toBe('Top accounts (spaced)');

      const exported = await run(['export', '--out', 'My export', '--env', 'prod', '--dir', 'My dashboards']);
      expect(exported.code, exported.stderr).toBe(0);
      const next = /Next: (wsc plan [^\n]+)/.exec(exported.stdout)![1]!;
      expect(next).toBe("wsc plan --dir 'My export'");
      const planned = await run(shellWords(next));
      expect(planned.code, planned.stderr).toBe(0);
      expect(planned.stdout).toContain('No changes.');
    }, 'My dashboards');
  });
});
