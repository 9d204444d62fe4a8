// Running the repository's GitHub Action (action.yml) as a runner does, for the tests of the action and
// of the README's workflow that uses it: each `run:` step in bash -e with its own `env:`, the `${{ … }}`
// expressions filled in as Actions fills them (inputs with their defaults, runner.temp, earlier steps'
// outputs); the install step (npm ci in the action's directory) and upload-artifact (the runner's) are
// the only steps not run. Also: a git origin on disk with a pull request branch and the shallow checkout
// actions/checkout leaves, and a GitHub API on loopback that keeps one pull request's comments.
import { execFileSync, spawn } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { expect } from 'vitest';
import { parse } from 'yaml';
import { root, tempDir } from './index.js';
import { exampleRepo, git } from './git.js';

interface Step {
  id: string;
  run?: string;
  uses?: string;
  if?: string;
  env?: Record<string, string>;
  with?: Record<string, string>;
}
export const action = parse(readFileSync(join(root, 'action.yml'), 'utf8')) as {
  runs: { using: string; steps: Step[] };
  inputs: Record<string, { default?: string; required?: boolean }>;
};

/** An origin holding fixtures/example on main, a pull request branch that edits it, and its shallow checkout. */
function makeRepositories(): { origin: string; checkout: string } {
  const base = tempDir('wsc-action-');
  const origin = join(base, 'origin.git');
  execFileSync('git', ['init', '-q', '--bare', '-b', 'main', origin]);
  const { repo: work } = exampleRepo({ repo: join(base, 'work'), under: 'dashboards' });
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

let made: { origin: string; checkout: string } | undefined;
/**
 * The origin (made once per test file, whose temporary directories go at its end: the runs push only the
 * pictures branch to it, which one test of a file at most publishes on) and a fresh copy of the shallow
 * checkout, as actions/checkout leaves it for each job: a copy of a checkout is that checkout (its remote
 * is the origin's absolute path), and a copy costs no git process where a checkout costs a dozen.
 */
export function repositories(): { origin: string; checkout: string } {
  if (made === undefined || !existsSync(made.checkout)) made = makeRepositories();
  const checkout = join(tempDir('wsc-checkout-'), 'checkout');
  cpSync(made.checkout, checkout, { recursive: true, verbatimSymlinks: true });
  return { origin: made.origin, checkout };
}

/** A GitHub API that keeps the comments of pull request 7 and records each request. */
export async function fakeGitHub() {
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

export function bash(script: string, cwd: string, env: Record<string, string>): Promise<{ code: number; out: string }> {
  return new Promise((resolve) => {
    const child = spawn('bash', ['-e', '-c', script], { cwd, env: { ...process.env, NO_COLOR: '1', ...env } });
    let out = '';
    child.stdout.on('data', (d: Buffer) => (out += d.toString()));
    child.stderr.on('data', (d: Buffer) => (out += d.toString()));
    child.on('close', (code) => resolve({ code: code ?? 1, out }));
  });
}

/**
 * Runs the action's steps as a runner would, with `given` inputs; the outputs of each step by id. A step
 * that fails stops the run, as on a runner: `failed` names it and its exit code (every step must pass
 * unless `mayFail`).
 */
export async function runAction(
  checkout: string,
  given: Record<string, string>,
  base: Record<string, string>,
  { mayFail = false }: { mayFail?: boolean } = {},
) {
  const temp = tempDir('wsc-runner-');
  // The `github` context the defaults read: a pull request into main, the job's token.
  const github: Record<string, string> = { base_ref: 'main', token: 'gh-token' };
  const fromGithub = (s: string) =>
    s.replace(/\$\{\{\s*github\.(\w+)\s*\}\}/g, (_, k: string) => {
      expect(github, `a github context value this test does not fill: ${k}`).toHaveProperty(k);
      return github[k]!;
    });
  const inputs: Record<string, string> = {
    ...Object.fromEntries(Object.entries(action.inputs).map(([k, v]) => [k, fromGithub(v.default ?? '')])),
    ...given,
  };
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
      const m = /^inputs\.([\w-]+) (==|!=) '([^']*)'$/.exec(step.if);
      expect(m, `a condition this test reads: ${step.if}`).not.toBeNull();
      if ((inputs[m![1]!] === m![3]) !== (m![2] === '==')) continue;
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
    if (!mayFail) expect(r.code, `${step.id}\n${r.out}`).toBe(0);
    if (r.code !== 0) return { outputs, logs, temp, failed: { step: step.id, code: r.code } };
    outputs[step.id] = Object.fromEntries(
      readFileSync(out, 'utf8')
        .split('\n')
        .filter((l) => l.includes('='))
        .map((l) => [l.slice(0, l.indexOf('=')), l.slice(l.indexOf('=') + 1)]),
    );
  }
  return { outputs, logs, temp, failed: undefined };
}

/** The event file GitHub writes for a run on pull request 7. */
export function pullRequestEvent(): string {
  const event = join(tempDir('wsc-event-'), 'event.json');
  writeFileSync(event, JSON.stringify({ pull_request: { number: 7 } }));
  return event;
}

/** What the runner gives the action's steps: the (fake) GitHub API, the event, the emulator's deployment. */
export function actionEnv(gh: { url: string }, event: string, emu: { url: string }): Record<string, string> {
  return {
    GITHUB_API_URL: gh.url,
    GITHUB_SERVER_URL: 'http://127.0.0.1:9',
    GITHUB_REPOSITORY: 'acme/dashboards',
    GITHUB_EVENT_PATH: event,
    WSC_BASE_URL: emu.url,
    WSC_DEPLOYMENT_ID: '1',
  };
}

/** The action's inputs for the environment `production`, its token in WSC_PRODUCTION_TOKEN; then `more`. */
export function productionInputs(more: Record<string, string> = {}): Record<string, string> {
  return { environment: 'production', token: 'dev-token', 'token-variable': 'WSC_PRODUCTION_TOKEN', ...more };
}
