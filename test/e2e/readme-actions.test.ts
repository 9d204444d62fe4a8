// The README's GitHub Actions workflow, run as written: each `run:` step of
// the plan job (a pull request; its wsc action's steps as helpers/action.ts
// runs them, on a shallow checkout of a pull request branch), then of the
// apply job (a push to main), in bash -e as Actions runs them, with the
// step's own `env:` (secrets given the emulator's token). Only the host and deployment are redirected to an emulator
// (WSC_BASE_URL, WSC_DEPLOYMENT_ID: production is deployment 1, staging 2),
// `npx wsc` is the built CLI and `npm ci` is skipped; uses: steps are the
// runner's.
import { cpSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'yaml';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { bash, fakeGitHub, repositories, runAction } from './helpers/action.js';
import { cleanupTemp, ensureBuilt, root, runCli, tempDir, withEmulator } from './helpers/index.js';

beforeAll(ensureBuilt, 180_000);
afterAll(cleanupTemp);

interface Step {
  run?: string;
  uses?: string;
  id?: string;
  if?: string;
  env?: Record<string, string>;
  with?: Record<string, unknown>;
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

// Side by side: each test has its own emulator and folders; their time is the CLI's, in child processes.
describe.concurrent("the README's GitHub Actions workflow", () => {
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
      // Production holds the bundle (set up in this process: not a step of the workflow).
      const applied = await runCli(['apply', '--dir', 'dashboards', '--env', 'production', '--auto-approve'], {
        cwd: repo,
        env,
      });
      expect(applied.code, applied.stderr).toBe(0);
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
      // Its ways forward name the job's environment: run from the repository's root, they act on production.
      expect(issue).toContain(
        '`wsc export --only report/revArrRgn001 --into dashboards --env production` takes the live values',
      );
    });
  }, 240_000);

  test('runs as written: the action on the pull request (plan, pictures, one comment), then apply to staging and production', async () => {
    const { checkout: repo } = repositories();
    const gh = await fakeGitHub();
    const event = join(tempDir('wsc-event-'), 'event.json');
    writeFileSync(event, JSON.stringify({ pull_request: { number: 7 } }));
    const summary = join(repo, '..', 'step-summary.md');
    writeFileSync(summary, '');
    const secret = (v: string) => v.replace(/\$\{\{ secrets\.\w+ \}\}/, 'dev-token');
    try {
      await withEmulator({}, async (emu) => {
        for (const job of ['plan', 'apply']) {
          for (const step of workflow().jobs[job]!.steps) {
            const deployment = /--env staging\b/.test(step.run ?? '') ? '2' : '1';
            const base = {
              GITHUB_STEP_SUMMARY: summary,
              GITHUB_API_URL: gh.url,
              GITHUB_SERVER_URL: 'http://127.0.0.1:9',
              GITHUB_REPOSITORY: 'acme/dashboards',
              GITHUB_EVENT_PATH: event,
              WSC_BASE_URL: emu.url,
              WSC_DEPLOYMENT_ID: deployment,
            };
            if (step.uses !== undefined && /^<owner>\/wsc@/.test(step.uses)) {
              const inputs = Object.fromEntries(
                Object.entries(step.with ?? {}).map(([k, v]) => [k, secret(String(v))]),
              );
              await runAction(repo, inputs, base);
              continue;
            }
            if (step.run === undefined) {
              expect(step.uses).toMatch(/^actions\/(checkout|setup-node|upload-artifact)@v4$/);
              continue;
            }
            if (step.run.trim() === 'npm ci') continue;
            const script = step.run.replaceAll('npx wsc ', `node ${join(root, 'bin/wsc.js')} `);
            const env = {
              ...Object.fromEntries(Object.entries(step.env ?? {}).map(([k, v]) => [k, secret(v)])),
              ...base,
            };
            const r = await bash(script, repo, env);
            expect(r.code, `${job}: ${step.run}\n${r.out}`).toBe(0);
          }
          if (job !== 'plan') continue;
          // The pull request: the markdown plan in the job summary and in one comment, with the pictures.
          const md = readFileSync(summary, 'utf8');
          expect(md).toContain('workbook/revenue-overview');
          expect(gh.comments).toHaveLength(1);
          const body = gh.comments[0]!.body;
          expect(body).toContain('workbook/revenue-overview');
          expect(body).toContain('/acme/dashboards/raw/wsc-pictures/pr-7/revenue-overview.lg.png)');
        }
        // The apply job: both deployments hold the bundle, and a plan of each is now empty (the two plans
        // side by side, in this process: each reads its own deployment, and they are this test's check, not
        // steps of the workflow).
        const plans = (
          [
            ['staging', '2', 'WSC_STAGING_TOKEN'],
            ['production', '1', 'WSC_PRODUCTION_TOKEN'],
          ] as const
        ).map(([envName, deployment, secretName]) =>
          runCli(['plan', '--dir', 'dashboards', '--env', envName, '--detailed-exitcode'], {
            cwd: repo,
            env: { [secretName]: 'dev-token', WSC_BASE_URL: emu.url, WSC_DEPLOYMENT_ID: deployment },
          }),
        );
        for (const r of await Promise.all(plans)) {
          expect(r.code, r.stderr).toBe(0);
          expect(r.stdout).toContain('No changes.');
        }
        expect(existsSync(join(repo, 'dashboards/.wsc'))).toBe(false);
      });
    } finally {
      gh.close();
    }
  }, 240_000);
});
