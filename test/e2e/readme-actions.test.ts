// The README's GitHub Actions workflow, run as written: each `run:` step of
// the plan job (a pull request), then of the apply job (a push to main), in
// bash -e as Actions runs them, on a repository holding fixtures/example as
// `dashboards/`, with the step's own `env:` (secrets given the emulator's
// token). Only the host and deployment are redirected to an emulator
// (WSC_BASE_URL, WSC_DEPLOYMENT_ID: production is deployment 1, staging 2),
// `npx wsc` is the built CLI and `npm ci` is skipped; uses: steps are the
// runner's.
import { spawn } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'yaml';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { cleanupTemp, ensureBuilt, root, tempDir, withEmulator } from './helpers/index.js';

beforeAll(ensureBuilt, 180_000);
afterAll(cleanupTemp);

interface Step {
  run?: string;
  uses?: string;
  id?: string;
  if?: string;
  env?: Record<string, string>;
}
interface Workflow {
  on: { pull_request: unknown; push: { branches: string[] }; schedule: { cron: string }[] };
  jobs: Record<string, { if: string; steps: Step[] }>;
}

function workflow(): Workflow {
  const readme = readFileSync(join(root, 'README.md'), 'utf8');
  const at = readme.indexOf('\n### GitHub Actions\n');
  expect(at).toBeGreaterThan(-1);
  return parse(/```yaml\n([\s\S]*?)```/.exec(readme.slice(at))![1]!) as Workflow;
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

describe("the README's GitHub Actions workflow", () => {
  test('is a plan job for pull requests, an apply job for pushes to main, a drift job on a schedule', () => {
    const w = workflow();
    expect(w.on.push.branches).toEqual(['main']);
    expect(w.on.pull_request).toBeDefined();
    expect(w.on.schedule[0]!.cron).toMatch(/^[\d*]+ [\d*]+ \* \* \*$/);
    expect(Object.keys(w.jobs)).toEqual(['plan', 'apply', 'drift']);
    expect(w.jobs.plan!.if).toBe("github.event_name == 'pull_request'");
    expect(w.jobs.apply!.if).toBe("github.event_name == 'push'");
    expect(w.jobs.drift!.if).toBe("github.event_name == 'schedule'");
  });

  test('the drift job runs as written: no issue while production matches, an issue whose body names a UI edit after one', async () => {
    const repo = tempDir('wsc-actions-');
    cpSync(join(root, 'fixtures/example'), join(repo, 'dashboards'), { recursive: true });
    // `gh` as a program that records what it was asked (the runner's own is not here).
    const bin = join(repo, 'bin');
    mkdirSync(bin);
    const ghLog = join(repo, 'gh.log');
    writeFileSync(join(bin, 'gh'), `#!/bin/sh\necho "$@" >> ${ghLog}\ncat drift.md >> ${ghLog}\n`, { mode: 0o755 });
    await withEmulator({}, async (emu) => {
      const redirect = { WSC_BASE_URL: emu.url, WSC_DEPLOYMENT_ID: '1' };
      const wsc = `node ${join(root, 'bin/wsc.js')}`;
      const night = async () => {
        const output = join(repo, `output-${Date.now()}`);
        writeFileSync(output, '');
        for (const step of workflow().jobs.drift!.steps) {
          if (step.run === undefined || step.run.trim() === 'npm ci') continue;
          const outputs = readFileSync(output, 'utf8');
          if (step.if !== undefined) {
            expect(step.if).toBe("steps.drift.outputs.found == 'true'");
            if (!outputs.includes('found=true')) continue;
          }
          const secrets = Object.fromEntries(
            Object.entries(step.env ?? {}).map(([k, v]) => [k, v.replace(/\$\{\{ [\w.]+ \}\}/, 'dev-token')]),
          );
          const env = { ...secrets, ...redirect, GITHUB_OUTPUT: output, PATH: `${bin}:${process.env['PATH']}` };
          const r = await bash(step.run.replaceAll('npx wsc ', `${wsc} `), repo, env);
          expect(r.code, `drift: ${step.run}\n${r.out}`).toBe(0);
        }
      };
      const env = { WSC_PRODUCTION_TOKEN: 'dev-token', ...redirect };
      expect((await bash(`${wsc} apply --dir dashboards --env production --auto-approve`, repo, env)).code).toBe(0);
      await night();
      expect(existsSync(ghLog)).toBe(false);
      expect(readFileSync(join(repo, 'drift.md'), 'utf8')).toContain('No drift');

      // A colleague renames a report in the UI.
      const report = emu.snapshot().reports!.find((r) => r.deploymentId === 1 && r.name === 'arr_by_region')!;
      const res = await fetch(`${emu.url}/api/v1/deployments/1/reports/${report.id}`, {
        method: 'PUT',
        headers: { authorization: `Bearer ${emu.adminToken}`, 'content-type': 'application/json' },
        body: JSON.stringify({ name: 'renamed in the UI' }),
      });
      expect(res.status).toBe(200);
      await night();
      const issue = readFileSync(ghLog, 'utf8');
      expect(issue).toContain('issue create --title Dashboards drift from Git in production --body-file drift.md');
      expect(issue).toContain('### wsc drift: <code>production</code> (deployment 1)');
      expect(issue).toContain(
        '| <code>name</code> | <code>"renamed in the UI"</code> | <code>"arr_by_region"</code> |',
      );
      expect(issue).toContain('`wsc export --only report/revArrRgn001 --into dashboards` takes the live values');
    });
  }, 240_000);

  test('runs as written: plan (exit 2 accepted), pictures, then apply to staging and production', async () => {
    const repo = tempDir('wsc-actions-');
    cpSync(join(root, 'fixtures/example'), join(repo, 'dashboards'), { recursive: true });
    const summary = join(repo, 'step-summary.md');
    writeFileSync(summary, '');
    await withEmulator({}, async (emu) => {
      for (const job of ['plan', 'apply']) {
        for (const step of workflow().jobs[job]!.steps) {
          if (step.run === undefined) {
            expect(step.uses).toMatch(/^actions\/(checkout|setup-node|upload-artifact)@v4$/);
            continue;
          }
          if (step.run.trim() === 'npm ci') continue;
          const script = step.run.replaceAll('npx wsc ', `node ${join(root, 'bin/wsc.js')} `);
          const secrets = Object.fromEntries(
            Object.entries(step.env ?? {}).map(([k, v]) => [k, v.replace(/\$\{\{ secrets\.\w+ \}\}/, 'dev-token')]),
          );
          const deployment = /--env staging\b/.test(step.run) ? '2' : '1';
          const env = {
            ...secrets,
            GITHUB_STEP_SUMMARY: summary,
            WSC_BASE_URL: emu.url,
            WSC_DEPLOYMENT_ID: deployment,
          };
          const r = await bash(script, repo, env);
          expect(r.code, `${job}: ${step.run}\n${r.out}`).toBe(0);
        }
      }
      // The plan job: a saved plan, the markdown plan in the job summary naming the pictures, the pictures.
      const saved = JSON.parse(readFileSync(join(repo, 'plan.json'), 'utf8')) as {
        environment: { name: string; deploymentId: number };
        plan: { summary: { create: number } };
      };
      expect(saved.environment).toMatchObject({ name: 'production', deploymentId: 1 });
      expect(saved.plan.summary.create).toBeGreaterThan(10);
      const md = readFileSync(summary, 'utf8');
      expect(md).toContain('workbook/revenue-overview');
      expect(md).toMatch(/revenue-overview\.lg\.svg/);
      const pictures = readdirSync(join(repo, 'dashboard-pictures'));
      expect(pictures).toContain('revenue-overview.lg.svg');
      // The apply job: both deployments hold the bundle, and a plan of each is now empty.
      for (const [envName, deployment, secret] of [
        ['staging', '2', 'WSC_STAGING_TOKEN'],
        ['production', '1', 'WSC_PRODUCTION_TOKEN'],
      ] as const) {
        const r = await bash(
          `node ${join(root, 'bin/wsc.js')} plan --dir dashboards --env ${envName} --detailed-exitcode`,
          repo,
          { [secret]: 'dev-token', WSC_BASE_URL: emu.url, WSC_DEPLOYMENT_ID: deployment },
        );
        expect(r.code, r.out).toBe(0);
        expect(r.out).toContain('No changes.');
      }
      expect(existsSync(join(repo, 'dashboards/.wsc'))).toBe(false);
    });
  }, 240_000);
});
