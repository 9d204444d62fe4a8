// The repository's GitHub Action (action.yml), its steps run as written: each `run:` step in bash -e with
// its own `env:` (the `${{ … }}` expressions filled in as Actions fills them: inputs with their defaults,
// runner.temp, the outputs earlier steps wrote), against the emulator (the host and deployment redirected
// with WSC_BASE_URL and WSC_DEPLOYMENT_ID, as the README workflow test does), a git origin on disk and a
// GitHub API on loopback that records the comments. The checkout is shallow, as actions/checkout leaves it:
// the pictures are the plan's, against the environment, so no base branch is needed — unless
// `pictures-against: base`, when the action fetches the base itself and draws against it. A plan that blocks
// (exit 5) or refuses with a plan printed (exit 3) is posted, then the action fails with its code.
// The install step (npm ci in the action's directory) and upload-artifact (the runner's) are the only
// steps not run.
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import {
  action,
  actionEnv,
  fakeGitHub,
  productionInputs,
  pullRequestEvent,
  repositories,
  runAction,
} from './helpers/action.js';
import { git } from './helpers/git.js';
import { api, REVENUE_OVERVIEW_PICTURES, reportsIn } from './helpers/bundles.js';
import {
  cleanupTemp,
  copyFixture,
  ensureBuilt,
  root,
  runCli,
  tempDir,
  withEmulator,
  type Emulator,
} from './helpers/index.js';

beforeAll(ensureBuilt, 180_000);
afterAll(cleanupTemp);

// The tests run side by side: each has its own emulator, GitHub API and copy of the checkout (the origin
// is shared: only the first test publishes a pictures branch on it); their time is the CLI's, in child
// processes.
describe.concurrent('the GitHub Action (action.yml)', () => {
  test('is composite, and the README example uses it', () => {
    expect(action.runs.using).toBe('composite');
    const readme = readFileSync(join(root, 'README.md'), 'utf8');
    expect(readme).toMatch(/uses: <owner>\/wsc@\S+/);
  });

  test('on a shallow checkout: plans, draws with data against the environment, posts one comment and then updates it', async () => {
    const { origin, checkout } = repositories();
    const gh = await fakeGitHub();
    const event = pullRequestEvent();
    try {
      await withEmulator({}, async (emu) => {
        const base = {
          ...actionEnv(gh, event, emu),
          GITHUB_STEP_SUMMARY: join(tempDir('wsc-summary-'), 'summary.md'),
        };
        writeFileSync(base.GITHUB_STEP_SUMMARY, '');
        // Production holds main's dashboards (applied): the pull request changes one visualization.
        const env = { WSC_BASE_URL: emu.url, WSC_DEPLOYMENT_ID: '1', WSC_PRODUCTION_TOKEN: 'dev-token' };
        const main = copyFixture('example');
        const applied = await runCli(['apply', '--auto-approve', '--dir', main, '--env', 'production'], { env });
        expect(applied.code, applied.stderr).toBe(0);
        const inputs = productionInputs({
          'with-data': 'true',
          'pictures-branch': 'wsc-pictures',
        });
        const first = await runAction(checkout, inputs, base);
        expect(first.failed).toBeUndefined();
        expect(first.outputs['plan']).toEqual({ 'exit-code': '2', against: 'env:production' });
        // The pictures: the changed dashboard only, SVG and PNG, drawn with data, the change badged.
        const pics = join(first.temp, 'dashboard-pictures');
        expect(readdirSync(pics).sort()).toEqual(REVENUE_OVERVIEW_PICTURES);
        const svg = readFileSync(join(pics, 'revenue-overview.lg.svg'), 'utf8');
        expect(svg).toContain('>visualization table → bar<');
        expect(svg).toContain('<g class="chart"><svg ');
        // Published on the branch, under the pull request's number.
        expect(git(origin, 'ls-tree', '--name-only', 'wsc-pictures', 'pr-7/').trim().split('\n')).toEqual([
          'pr-7/revenue-overview.lg.png',
          'pr-7/revenue-overview.sm.png',
        ]);
        // One comment: the plan with its layout maps, the pictures inline from the branch, the artifact linked.
        expect(gh.comments).toHaveLength(1);
        const body = gh.comments[0]!.body;
        expect(body.startsWith('<!-- wsc plan review -->\n')).toBe(true);
        expect(body).toContain('workbook/revenue-overview');
        expect(body).toContain(
          '![revenue-overview.lg.png](http://127.0.0.1:9/acme/dashboards/raw/wsc-pictures/pr-7/revenue-overview.lg.png)',
        );
        expect(body).toContain('(http://127.0.0.1:9/artifacts/1)');
        expect(gh.requests.every((r) => r.endsWith('Bearer gh-token'))).toBe(true);
        // The platform token never reached GitHub, nor the comment.
        expect(body).not.toContain('dev-token');
        // A second run (a new push): the same comment updated, not a second one, and the pictures published
        // again on the branch that now exists. Drawn without data: the data was the first run's point.
        await runAction(checkout, { ...inputs, 'with-data': 'false' }, base);
        expect(gh.comments).toHaveLength(1);
        expect(gh.requests.filter((r) => r.startsWith('PATCH '))).toHaveLength(1);
        expect(existsSync(join(checkout, 'dashboards/.wsc'))).toBe(false);
      });
    } finally {
      gh.close();
    }
  }, 240_000);

  test('pictures-against: base: fetches the base branch itself on a shallow checkout and draws what the pull request changes against it', async () => {
    const { checkout } = repositories();
    // The shallow checkout has no origin/main: `--against git:origin/main` would fail without the fetch.
    expect(() => git(checkout, 'rev-parse', '--verify', '-q', 'origin/main')).toThrow();
    const gh = await fakeGitHub();
    const event = pullRequestEvent();
    try {
      await withEmulator({}, async (emu) => {
        const base = actionEnv(gh, event, emu);
        // Production is empty: against it every dashboard is new; against the base, one visualization changed.
        const inputs = productionInputs({ 'pictures-against': 'base' });
        const run = await runAction(checkout, inputs, base);
        expect(run.outputs['plan']).toEqual({ 'exit-code': '2', against: 'git:origin/main' });
        // The action fetched the base: origin/main is main's commit in the origin.
        expect(git(checkout, 'rev-parse', 'origin/main')).toBe(
          git(checkout, 'ls-remote', 'origin', 'refs/heads/main').split('\t')[0] + '\n',
        );
        const pics = join(run.temp, 'dashboard-pictures');
        expect(readdirSync(pics).sort()).toEqual(REVENUE_OVERVIEW_PICTURES);
        expect(readFileSync(join(pics, 'revenue-overview.lg.svg'), 'utf8')).toContain('>visualization table → bar<');
        expect(gh.comments).toHaveLength(1);
        const body = gh.comments[0]!.body;
        expect(body).toContain('**Pictures of the changed dashboards** (against `git:origin/main`)');
        expect(body).toContain('- `revenue-overview.lg.png`\n- `revenue-overview.sm.png`\n');
        expect(body).toContain('(http://127.0.0.1:9/artifacts/1)');
      });
    } finally {
      gh.close();
    }
  }, 240_000);

  test('pictures-against: anything else is refused before planning', async () => {
    const { run, comments } = await failingRun(() => Promise.resolve(), { 'pictures-against': 'main' });
    expect(run.failed).toEqual({ step: 'plan', code: 1 });
    expect(run.logs['plan']).toContain("pictures-against: environment or base, not 'main'");
    expect(comments).toHaveLength(0);
  }, 240_000);

  /** The action run on a pull request whose plan `edit` makes fail; the run, the comments. */
  async function failingRun(edit: (bundle: string, emu: Emulator) => Promise<void>, more: Record<string, string> = {}) {
    const { checkout } = repositories();
    const gh = await fakeGitHub();
    const event = pullRequestEvent();
    try {
      return await withEmulator({}, async (emu) => {
        await edit(join(checkout, 'dashboards'), emu);
        const base = actionEnv(gh, event, emu);
        const inputs = productionInputs(more);
        const run = await runAction(checkout, inputs, base, { mayFail: true });
        return { run, comments: [...gh.comments] };
      });
    } finally {
      gh.close();
    }
  }

  const replaceIn = (file: string, from: string | RegExp, to: string) => {
    const text = readFileSync(file, 'utf8');
    expect(text.replace(from, to)).not.toBe(text);
    writeFileSync(file, text.replace(from, to));
  };

  test('a plan that blocks (exit 5: a UI edit needs a decision): the comment is posted, then the action fails with 5', async () => {
    const { run, comments } = await failingRun(async (bundle, emu) => {
      const yaml = join(bundle, 'wsc.yaml');
      writeFileSync(yaml, `bundle: revenue\n${readFileSync(yaml, 'utf8')}`);
      replaceIn(yaml, '  production:\n', '  production:\n    uiEdits: block\n');
      const env = { WSC_BASE_URL: emu.url, WSC_DEPLOYMENT_ID: '1', WSC_PRODUCTION_TOKEN: 'dev-token' };
      const applied = await runCli(['apply', '--auto-approve', '--dir', bundle, '--env', 'production'], { env });
      expect(applied.code, applied.stderr).toBe(0);
      // Edited in the UI, and in the pull request too: the plan blocks the report.
      const r = reportsIn(emu).find((x) => x.title === 'ARR by region')!;
      expect((await api(emu, 'PUT', `/api/v1/deployments/1/reports/${r.id}`, { title: 'Edited' })).status).toBe(200);
      replaceIn(join(bundle, 'reports/arr-by-region.yaml'), 'title: ARR by region', 'title: ARR per region');
    });
    expect(run.outputs['plan']).toEqual({ 'exit-code': '5', against: 'env:production' });
    expect(comments).toHaveLength(1);
    expect(comments[0]!.body).toContain('| blocked | 1 |');
    expect(run.failed).toEqual({ step: 'result', code: 5 });
    expect(run.logs['result']).toContain('wsc plan exited 5: see the pull request comment');
  }, 240_000);

  test.each([
    ['environment', 'env:production'],
    ['base', 'git:origin/main'],
  ])(
    'a plan refused with a plan printed (exit 3: a member the data model lacks; pictures-against: %s): posted, then exit 3',
    async (picturesAgainst, against) => {
      const { run, comments } = await failingRun(
        (bundle) => {
          replaceIn(
            join(bundle, 'reports/arr-by-region.yaml'),
            'measures: [subscriptions.arr]',
            'measures: [subscriptions.nope]',
          );
          return Promise.resolve();
        },
        { 'pictures-against': picturesAgainst },
      );
      expect(run.outputs['plan']).toEqual({ 'exit-code': '3', against });
      expect(comments).toHaveLength(1);
      expect(comments[0]!.body).toContain('subscriptions.nope');
      expect(comments[0]!.body).toContain(`against \`${against}\``);
      expect(run.failed).toEqual({ step: 'result', code: 3 });
    },
    240_000,
  );
});
