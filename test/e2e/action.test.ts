// The repository's GitHub Action (action.yml), its steps run as written: each `run:` step in bash -e with
// its own `env:` (the `${{ … }}` expressions filled in as Actions fills them: inputs with their defaults,
// runner.temp, the outputs earlier steps wrote), against the emulator (the host and deployment redirected
// with WSC_BASE_URL and WSC_DEPLOYMENT_ID, as the README workflow test does), a git origin on disk and a
// GitHub API on loopback that records the comments. The checkout is shallow and has no origin/main, as
// actions/checkout leaves it: the action fetches the base itself. The install step (npm ci in the action's
// directory) and upload-artifact (the runner's) are the only steps not run.
import { execFileSync, spawn } from 'node:child_process';
import { cpSync, mkdirSync, readFileSync, writeFileSync, existsSync, readdirSync } from 'node:fs';
import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { parse } from 'yaml';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { cleanupTemp, ensureBuilt, root, tempDir, withEmulator } from './helpers/index.js';

beforeAll(ensureBuilt, 180_000);
afterAll(cleanupTemp);

interface Step {
  id: string;
  run?: string;
  uses?: string;
  if?: string;
  env?: Record<string, string>;
  with?: Record<string, string>;
}
const action = parse(readFileSync(join(root, 'action.yml'), 'utf8')) as {
  runs: { using: string; steps: Step[] };
  inputs: Record<string, { default?: string; required?: boolean }>;
};

const git = (cwd: string, ...args: string[]) =>
  execFileSync('git', ['-c', 'user.email=t@example.com', '-c', 'user.name=t', ...args], { cwd, encoding: 'utf8' });

/** An origin holding fixtures/example on main, a pull request branch that edits it, and its shallow checkout. */
function repositories(): { origin: string; checkout: string } {
  const base = tempDir('wsc-action-');
  const origin = join(base, 'origin.git');
  execFileSync('git', ['init', '-q', '--bare', '-b', 'main', origin]);
  const work = join(base, 'work');
  mkdirSync(work);
  cpSync(join(root, 'fixtures/example'), join(work, 'dashboards'), { recursive: true });
  git(work, 'init', '-q', '-b', 'main');
  git(work, 'add', '.');
  git(work, 'commit', '-qm', 'dashboards');
  git(work, 'push', '-q', `file://${origin}`, 'main');
  git(work, 'checkout', '-qb', 'feature');
  const wb = join(work, 'dashboards/workbooks/revenue-overview.yaml');
  writeFileSync(wb, readFileSync(wb, 'utf8').replace('visualization: table', 'visualization: bar'));
  git(work, 'commit', '-qam', 'top accounts as bars');
  git(work, 'push', '-q', `file://${origin}`, 'feature');
  // What actions/checkout leaves: the pull request's commit, depth 1, no remote-tracking branch.
  const checkout = join(base, 'checkout');
  mkdirSync(checkout);
  git(checkout, 'init', '-q');
  git(checkout, 'remote', 'add', 'origin', `file://${origin}`);
  git(checkout, 'fetch', '-q', '--depth=1', 'origin', 'feature');
  git(checkout, 'checkout', '-q', 'FETCH_HEAD');
  return { origin, checkout };
}

/** A GitHub API that keeps the comments of pull request 7 and records each request. */
async function fakeGitHub() {
  const comments: { id: number; body: string }[] = [];
  const requests: string[] = [];
  const read = (req: IncomingMessage) =>
    new Promise<string>((r) => {
      let s = '';
      req.on('data', (d: Buffer) => (s += d.toString()));
      req.on('end', () => r(s));
    });
  const server = createServer((req, res) => {
    void read(req).then((text) => {
      requests.push(`${req.method} ${req.url} ${req.headers.authorization}`);
      const json = (status: number, v: unknown) =>
        res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(v));
      if (req.method === 'GET' && req.url!.startsWith('/repos/acme/dashboards/issues/7/comments'))
        return json(200, comments);
      if (req.method === 'POST' && req.url === '/repos/acme/dashboards/issues/7/comments') {
        const c = { id: 100 + comments.length, body: (JSON.parse(text) as { body: string }).body };
        comments.push(c);
        return json(201, c);
      }
      const m = /^\/repos\/acme\/dashboards\/issues\/comments\/(\d+)$/.exec(req.url!);
      const c = comments.find((x) => x.id === Number(m?.[1]));
      if (req.method === 'PATCH' && c) {
        c.body = (JSON.parse(text) as { body: string }).body;
        return json(200, c);
      }
      json(404, { message: 'Not Found' });
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    comments,
    requests,
    close: () => server.close(),
  };
}

function bash(script: string, cwd: string, env: Record<string, string>): Promise<{ code: number; out: string }> {
  return new Promise((resolve) => {
    const child = spawn('bash', ['-e', '-c', script], { cwd, env: { ...process.env, NO_COLOR: '1', ...env } });
    let out = '';
    child.stdout.on('data', (d: Buffer) => (out += d.toString()));
    child.stderr.on('data', (d: Buffer) => (out += d.toString()));
    child.on('close', (code) => resolve({ code: code ?? 1, out }));
  });
}

/** Runs the action's steps as a runner would, with `given` inputs; the outputs of each step by id. */
async function runAction(checkout: string, given: Record<string, string>, base: Record<string, string>) {
  const temp = tempDir('wsc-runner-');
  const inputs = {
    ...Object.fromEntries(Object.entries(action.inputs).map(([k, v]) => [k, v.default ?? ''])),
    ...given,
  };
  inputs['base-ref'] = given['base-ref'] ?? 'main';
  inputs['github-token'] = given['github-token'] ?? 'gh-token';
  const outputs: Record<string, Record<string, string>> = {
    upload: { 'artifact-url': `${base['GITHUB_SERVER_URL']}/artifacts/1` },
  };
  const fill = (s: string) =>
    s.replace(/\$\{\{\s*([^}]+?)\s*\}\}/g, (_, expr: string) => {
      const input = /^inputs\.([\w-]+)$/.exec(expr);
      if (input) return inputs[input[1]!] ?? '';
      if (expr === 'runner.temp') return temp;
      const out = /^steps\.([\w-]+)\.outputs\.([\w-]+)$/.exec(expr);
      if (out) return outputs[out[1]!]?.[out[2]!] ?? '';
      throw new Error(`an expression this test does not fill: ${expr}`);
    });
  const logs: Record<string, string> = {};
  for (const step of action.runs.steps) {
    if (step.if !== undefined) {
      const m = /^inputs\.([\w-]+) != ''$/.exec(step.if);
      expect(m, `a condition this test reads: ${step.if}`).not.toBeNull();
      if (inputs[m![1]!] === '') continue;
    }
    if (step.id === 'install') {
      expect(step.run).toBe('cd "$GITHUB_ACTION_PATH" && npm ci --no-audit --no-fund');
      continue;
    }
    if (step.run === undefined) {
      expect(step.uses).toBe('actions/upload-artifact@v4');
      continue;
    }
    const out = join(temp, `output-${step.id}`);
    writeFileSync(out, '');
    const env = Object.fromEntries(Object.entries(step.env ?? {}).map(([k, v]) => [k, fill(v)]));
    const r = await bash(fill(step.run), checkout, {
      ...base,
      ...env,
      GITHUB_ACTION_PATH: root,
      RUNNER_TEMP: temp,
      GITHUB_OUTPUT: out,
    });
    logs[step.id] = r.out;
    expect(r.code, `${step.id}\n${r.out}`).toBe(0);
    outputs[step.id] = Object.fromEntries(
      readFileSync(out, 'utf8')
        .split('\n')
        .filter((l) => l.includes('='))
        .map((l) => [l.slice(0, l.indexOf('=')), l.slice(l.indexOf('=') + 1)]),
    );
  }
  return { outputs, logs, temp };
}

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
