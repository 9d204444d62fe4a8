// Contract: the main scenario (plan, apply, re-plan, update, export, plan of
// the export, apply of the export to an empty deployment) runs through Prism
// in proxy mode with `--errors`, built from the real API's public description
// (contract/cube-platform-api.excerpt.yaml, a verbatim copy of
// ../shared/api/cube-platform-api.excerpt.yaml, patched only as
// contract/DEVIATIONS.md lists). Prism answers any request wsc sends, or any
// response the emulator gives, that violates the description with an error
// (422 / 500), so every command exiting 0 shows conformance; its log is also
// searched for violations, warnings included.
//
// Prism lives in contract/ under its own lockfile (`npm ci --prefix contract`,
// which .ci/run does); without it the suite is skipped with a message saying
// so, `CI` set or not (a fork's CI that never installed it still passes).
// WSC_REQUIRE_CONTRACT=1, which .ci/run sets, turns that skip into a failure,
// so the CI that does install Prism cannot pass without running the suite.
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { freePort } from '../helpers/listen.js';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createEmulator, uiMadeSeed, type Emulator } from '../../src/emulator/index.js';
import { contractGate, prismNeeds } from '../helpers/contract-gate.js';
import { cleanupTemp, copyFixture, root, runCli, tempDir } from './helpers/index.js';
import { editFile } from '../helpers/edit-file.js';

const prismJs = join(root, 'contract/node_modules/@stoplight/prism-cli/dist/index.js');
const excerpt = join(root, 'contract/cube-platform-api.excerpt.yaml');
const sharedExcerpt = join(root, '../shared/api/cube-platform-api.excerpt.yaml');
const dataModelExcerpt = join(root, 'contract/cube-platform-data-model.excerpt.yaml');
const sharedDataModelExcerpt = join(root, '../shared/api/cube-platform-data-model.excerpt.yaml');
const gate = contractGate(process.env, prismNeeds({ prism: prismJs, description: excerpt }));
if (gate.missing && !gate.required) {
  console.warn(`contract.test.ts skipped: ${gate.missing} (WSC_REQUIRE_CONTRACT=1 makes this a failure)`);
}

describe('contract: the vendored API description', () => {
  it.skipIf(!existsSync(sharedExcerpt))('is a verbatim copy of ../shared/api (the source of truth)', () => {
    expect(readFileSync(excerpt, 'utf8')).toBe(readFileSync(sharedExcerpt, 'utf8'));
  });
  it.skipIf(!existsSync(sharedDataModelExcerpt))('its data-model part is a verbatim copy of ../shared/api too', () => {
    expect(readFileSync(dataModelExcerpt, 'utf8')).toBe(readFileSync(sharedDataModelExcerpt, 'utf8'));
  });
  it.runIf(gate.required)(
    'Prism is installed, as WSC_REQUIRE_CONTRACT asks (.ci/run: npm ci --prefix contract)',
    () => {
      expect(gate.missing, `WSC_REQUIRE_CONTRACT is set but ${gate.missing}`).toBeUndefined();
    },
  );
});

describe.skipIf(gate.missing !== undefined)(
  'contract: wsc and the emulator conform to the API description (Prism proxy --errors)',
  () => {
    let emu: Emulator;
    let prism: ChildProcess;
    let prismUrl = '';
    let prismLog = '';
    const env = { WSC_TOKEN: 'dev-token' };
    const via = (dep = 1) => ['--base-url', prismUrl, '--deployment', String(dep)];
    const other = { WSC_TOKEN: 'other-account-token' };

    beforeAll(async () => {
      const { makeSpec } = await import('../../contract/make-spec.mjs');
      const spec = makeSpec(join(tempDir('wsc-contract-'), 'spec.yaml')).out;
      // Deployment 3 belongs to another account (publicIds are unique per account): the export is applied there.
      // Deployment 4 holds content made in the UI (emulator --ui-made), adopted in place; its user attribute is
      // left out, as the main scenario creates one of that name.
      const seed = uiMadeSeed(4);
      seed.userAttributes = [];
      // The description makes a report's publicId required in answers (the specification: optional), so the
      // report without one stays out of this check; export-every-shape.test.ts covers it.
      seed.reports = seed.reports!.filter((r) => r.publicId !== null);
      seed.deployments.push({ id: 3, accountId: 2, name: 'Other account' });
      seed.users.push({
        id: 9,
        email: 'other@example.com',
        role: 'admin',
        tokens: ['other-account-token'],
        accountId: 2,
      });
      emu = await createEmulator({ port: 0, seed, randomSeed: 7 });
      const port = await freePort();
      prismUrl = `http://127.0.0.1:${port}`;
      prism = spawn(
        process.execPath,
        [prismJs, 'proxy', spec, emu.url, '--errors', '--port', String(port), '--host', '127.0.0.1'],
        {
          cwd: join(root, 'contract'),
          env: { PATH: process.env['PATH'] ?? '', NO_COLOR: '1', FORCE_COLOR: '0' },
          stdio: ['ignore', 'pipe', 'pipe'],
        },
      );
      await new Promise<void>((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`Prism did not start within 30 s:\n${prismLog}`)), 30_000);
        const onData = (d: Buffer) => {
          prismLog += d.toString('utf8');
          if (prismLog.includes('Prism is listening')) {
            clearTimeout(timer);
            resolve();
          }
        };
        prism.stdout!.on('data', onData);
        prism.stderr!.on('data', onData);
        prism.once('exit', (code) => reject(new Error(`Prism exited (${code}) before listening:\n${prismLog}`)));
      });
    }, 60_000);

    afterAll(async () => {
      if (prism && prism.exitCode === null) {
        const exited = new Promise((r) => prism.once('exit', r));
        prism.kill('SIGTERM');
        await exited;
      }
      await emu?.close();
      cleanupTemp();
    });

    /** Everything Prism logged since `from` that names a violation (warnings too) or an error it made. */
    const violations = (from: number) =>
      prismLog
        .slice(from)
        .split('\n')
        .filter((l) => /violation|✖|error\s{2,}/i.test(l));

    it('the main scenario runs through the proxy with no violation', async () => {
      const dir = copyFixture('example');
      // A report of the sheets source, which the description names differently (DEVIATIONS.md D1).
      writeFileSync(
        join(dir, 'reports/sheet.yaml'),
        'kind: Report\npublicId: sheetReport1\nname: sheet\nsource: HOSTED_SHEETS\nsqlQuery: select 1\n',
      );
      const mark = prismLog.length;
      const steps: Array<[string, string[], number]> = [];
      const run = async (name: string, args: string[], expected: number, as: Record<string, string> = env) => {
        const r = await runCli(args, { env: as, timeoutMs: 120_000 });
        steps.push([name, args, r.code]);
        expect(
          r.code,
          `${name}: wsc ${args.join(' ')}\nstdout:\n${r.stdout}\nstderr:\n${r.stderr}\nprism:\n${violations(mark).join('\n')}`,
        ).toBe(expected);
        return r;
      };

      await run('plan (creates)', ['plan', '--dir', dir, ...via(), '--detailed-exitcode'], 2);
      await run('apply (creates, publish, user attribute)', ['apply', '--dir', dir, ...via(), '--auto-approve'], 0);
      await run('plan after apply is empty', ['plan', '--dir', dir, ...via(), '--detailed-exitcode'], 0);

      // An update of a report, a workbook draft and the user attribute.
      const reportFile = join(dir, 'reports/mrr-trend.yaml');
      editFile(reportFile, 'title: Monthly recurring revenue', 'title: MRR by month');
      const wbFile = join(dir, 'workbooks/revenue-overview.yaml');
      editFile(wbFile, 'title: Revenue overview', 'title: Revenue (contract check)');
      const uaFile = join(dir, 'user-attributes/region.yaml');
      editFile(uaFile, 'defaultValue: ALL', 'defaultValue: EMEA');
      await run(
        'plan --out (updates)',
        ['plan', '--dir', dir, ...via(), '--out', join(dir, 'plan.json'), '--detailed-exitcode'],
        2,
      );
      await run('apply saved plan', ['apply', join(dir, 'plan.json'), '--dir', dir, ...via(), '--auto-approve'], 0);
      await run('plan after update is empty', ['plan', '--dir', dir, ...via(), '--detailed-exitcode'], 0);

      const out = tempDir('wsc-contract-export-');
      await run('export', ['export', ...via(), '--out', out], 0);
      expect(readdirSync(out).length).toBeGreaterThan(0);
      await run('plan of the export is empty', ['plan', '--dir', out, ...via(), '--detailed-exitcode'], 0);
      await run(
        'apply of the export to an empty deployment of another account',
        ['apply', '--dir', out, ...via(3), '--auto-approve'],
        0,
        other,
      );
      await run(
        'plan of the export there is empty',
        ['plan', '--dir', out, ...via(3), '--detailed-exitcode'],
        0,
        other,
      );

      await new Promise((r) => setTimeout(r, 500)); // Prism logs just after it answers.
      expect(violations(mark)).toEqual([]);
      // Every request really went through Prism to the emulator; but the Core Data API's (the semantic check's
      // /v1/meta), another API, which the environments list sends straight to the emulator.
      const forwarded = prismLog.slice(mark).match(/Forwarding "/g)?.length ?? 0;
      const platform = emu.log.filter((e) => !e.path.startsWith('/cubejs-api/'));
      expect(platform.length).toBeGreaterThan(10);
      expect(forwarded).toBe(platform.length);
      expect(emu.log.some((e) => e.path === '/cubejs-api/v1/meta' && e.status === 200)).toBe(true);
      expect(new Set(emu.log.map((e) => e.method))).toEqual(new Set(['GET', 'PUT', 'POST']));
      expect(
        emu.log.some(
          (e) => e.method === 'POST' && (e.requestBody as { source?: string } | undefined)?.source === 'HOSTED_SHEETS',
        ),
      ).toBe(true);
      // The example names its folders by path: the tree was read level by level and the folders created.
      expect(
        emu.log.filter((e) => e.method === 'POST' && e.path === '/api/v1/deployments/1/folders' && e.status === 200),
      ).toHaveLength(2);
      expect(
        emu.log.some(
          (e) => e.method === 'GET' && e.path === '/api/v1/deployments/1/folders' && e.query['parentId'] !== undefined,
        ),
      ).toBe(true);
    }, 300_000);

    it('UI-made content: export, apply of the export to the same deployment (adopt by PUT /workbooks/{id}), plan empty, doctor', async () => {
      const mark = prismLog.length;
      const from = emu.log.length;
      const run = async (name: string, args: string[], expected: number) => {
        const r = await runCli(args, { env, timeoutMs: 120_000 });
        expect(
          r.code,
          `${name}: wsc ${args.join(' ')}\nstdout:\n${r.stdout}\nstderr:\n${r.stderr}\nprism:\n${violations(mark).join('\n')}`,
        ).toBe(expected);
        return r;
      };
      const out = tempDir('wsc-contract-ui-');
      await run('export of UI-made content', ['export', ...via(4), '--out', out], 0);
      await run('plan shows the adoptions', ['plan', '--dir', out, ...via(4), '--detailed-exitcode'], 2);
      await run('apply adopts', ['apply', '--dir', out, ...via(4), '--auto-approve'], 0);
      await run('plan after is empty', ['plan', '--dir', out, ...via(4), '--detailed-exitcode'], 0);
      // GET /api/v1/spec is not in the description (DEVIATIONS.md): doctor runs beside the proxy, not through it.
      const doctor = await runCli(['doctor', '--dir', out, '--base-url', emu.url, '--deployment', '4'], { env });
      expect(doctor.code, doctor.stdout).toBe(0);

      await new Promise((r) => setTimeout(r, 500)); // Prism logs just after it answers.
      expect(violations(mark)).toEqual([]);
      const adopts = emu.log
        .slice(from)
        .filter((e) => e.method === 'PUT' && /\/deployments\/4\/workbooks\/\d+$/.test(e.path));
      // The two slugless workbooks, and the one whose slug (`q1/q2 plans`) no bundle can hold.
      expect(adopts).toHaveLength(3);
      // No POST but the deployment tokens of the semantic check (and of doctor's data-model check).
      expect(emu.log.slice(from).some((e) => e.method === 'POST' && !e.path.endsWith('/token'))).toBe(false);
    }, 300_000);

    it('the folder calls conform: create under a parent, list by parent, ancestors, delete', async () => {
      const mark = prismLog.length;
      const call = async (method: string, path: string, body?: unknown) => {
        const res = await fetch(`${prismUrl}/api/v1/deployments/1${path}`, {
          method,
          headers: {
            authorization: 'Bearer dev-token',
            ...(body === undefined ? {} : { 'content-type': 'application/json' }),
          },
          ...(body === undefined ? {} : { body: JSON.stringify(body) }),
        });
        return { status: res.status, body: await res.json() };
      };
      const parent = await call('POST', '/folders', { name: 'Contract' });
      expect(parent.status).toBe(200);
      const child = await call('POST', '/folders', { name: 'Q1 / Q2 ', parentId: parent.body.id });
      expect(child.status).toBe(200);
      const list = await call('GET', `/folders?parentId=${parent.body.id}&first=1`);
      expect(list.status).toBe(200);
      expect(list.body.items.map((f: { id: number }) => f.id)).toEqual([child.body.id]);
      const ancestors = await call('GET', `/folders/${child.body.id}/ancestors`);
      expect(ancestors.body.map((f: { name: string }) => f.name)).toEqual(['Contract', 'Q1 / Q2 ']);
      expect((await call('DELETE', `/folders/${child.body.id}`)).status).toBe(200);
      await new Promise((r) => setTimeout(r, 500)); // Prism logs just after it answers.
      expect(violations(mark)).toEqual([]);
    });

    it('an error answer of the emulator conforms to the error body (D2), with no violation', async () => {
      const mark = prismLog.length;
      const res = await fetch(`${prismUrl}/api/v1/deployments/1/reports/999999`, {
        headers: { authorization: 'Bearer dev-token' },
      });
      expect(res.status).toBe(404);
      expect(await res.json()).toMatchObject({ statusCode: 404, message: expect.any(String) });
      expect(violations(mark)).toEqual([]);
    });

    it('the proxy does reject a violation (the check is live)', async () => {
      const mark = prismLog.length;
      const res = await fetch(`${prismUrl}/api/v1/deployments/1/reports`, {
        method: 'POST',
        headers: { authorization: 'Bearer dev-token', 'content-type': 'application/json' },
        body: JSON.stringify({ publicId: 'tooShort', name: 1 }),
      });
      expect(res.status).toBe(422);
      expect(JSON.stringify(await res.json())).toContain('publicId');
      // Prism logs just after it answers.
      for (let i = 0; i < 50 && violations(mark).length === 0; i++) await new Promise((r) => setTimeout(r, 100));
      expect(violations(mark).length).toBeGreaterThan(0);
    });
  },
);
