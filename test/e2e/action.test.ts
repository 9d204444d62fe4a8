// The repository's GitHub Action (action.yml), its steps run as written: each `run:` step in bash -e with
// its own `env:` (the `${{ … }}` expressions filled in as Actions fills them: inputs with their defaults,
// runner.temp, the outputs earlier steps wrote), against the emulator (the host and deployment redirected
// with WSC_BASE_URL and WSC_DEPLOYMENT_ID, as the README workflow test does), a git origin on disk and a
// GitHub API on loopback that records the comments. The checkout is shallow and has no origin/main, as
// actions/checkout leaves it: the action fetches the base itself. The install step (npm ci in the action's
// directory) and upload-artifact (the runner's) are the only steps not run.
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { action, fakeGitHub, git, repositories, runAction } from './helpers/action.js';
import { cleanupTemp, ensureBuilt, root, tempDir, withEmulator } from './helpers/index.js';

beforeAll(ensureBuilt, 180_000);
afterAll(cleanupTemp);

describe('the GitHub Action (action.yml)', () => {
  test('is composite, and the README example uses it', () => {
    expect(action.runs.using).toBe('composite');
    const readme = readFileSync(join(root, 'README.md'), 'utf8');
    expect(readme).toMatch(/uses: <owner>\/wsc@\S+/);
  });

  test('on a shallow checkout: plans, draws with data against origin/main, posts one comment and then updates it', async () => {
    const { origin, checkout } = repositories();
    const gh = await fakeGitHub();
    const event = join(tempDir('wsc-event-'), 'event.json');
    writeFileSync(event, JSON.stringify({ pull_request: { number: 7 } }));
    try {
      await withEmulator({}, async (emu) => {
        const base = {
          GITHUB_API_URL: gh.url,
          GITHUB_SERVER_URL: 'http://127.0.0.1:9',
          GITHUB_REPOSITORY: 'acme/dashboards',
          GITHUB_EVENT_PATH: event,
          GITHUB_STEP_SUMMARY: join(tempDir('wsc-summary-'), 'summary.md'),
          WSC_BASE_URL: emu.url,
          WSC_DEPLOYMENT_ID: '1',
        };
        writeFileSync(base.GITHUB_STEP_SUMMARY, '');
        const inputs = {
          environment: 'production',
          token: 'dev-token',
          'token-variable': 'WSC_PRODUCTION_TOKEN',
          'with-data': 'true',
          'pictures-branch': 'wsc-pictures',
        };
        const first = await runAction(checkout, inputs, base);
        expect(first.outputs['plan']).toEqual({ 'exit-code': '2' });
        // The pictures: the changed dashboard only, SVG and PNG, drawn with data, the change badged.
        const pics = join(first.temp, 'dashboard-pictures');
        expect(readdirSync(pics).sort()).toEqual([
          'revenue-overview.lg.png',
          'revenue-overview.lg.svg',
          'revenue-overview.sm.png',
          'revenue-overview.sm.svg',
        ]);
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
        // A second run (a new push): the same comment updated, not a second one.
        await runAction(checkout, inputs, base);
        expect(gh.comments).toHaveLength(1);
        expect(gh.requests.filter((r) => r.startsWith('PATCH '))).toHaveLength(1);
        expect(existsSync(join(checkout, 'dashboards/.wsc'))).toBe(false);
      });
    } finally {
      gh.close();
    }
  }, 240_000);
});
