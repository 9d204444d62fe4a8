// A bundle can never read or print a token, and a token that cannot go in
// an HTTP header is a usage error before any request. Every variable that an
// environment's `token:` reads is refused in the bundle and in wsc.yaml's
// vars, whatever its name; the token's value is redacted from everything wsc
// prints or writes, also when the server echoes it back.
import { readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { api, pid, writeBundle } from './helpers/bundles.js';
import {
  copyFixture,
  e2eSuite,
  emulatorEnv,
  runCli,
  target,
  tempDir,
  withEmulator,
  writeFiles,
} from './helpers/index.js';

e2eSuite();

const PAT = 'ghp_0123456789abcdefSECRET';

function filesUnder(dir: string): string[] {
  return readdirSync(dir).flatMap((n) => {
    const p = join(dir, n);
    return statSync(p).isDirectory() ? filesUnder(p) : [p];
  });
}

describe('a bundle cannot read a token variable', () => {
  test.each(['MY_PAT', 'DB_PASS'])(
    'token: ${env.%s} and the same variable in a report name: exit 3 at the use, nothing sent',
    async (name) => {
      await withEmulator({}, async (emu) => {
        const dir = writeFiles({
          'wsc.yaml': `environments:\n  dev:\n    baseUrl: ${emu.url}\n    deploymentId: 1\n    token: \${env.${name}}\n`,
          'reports/r.yaml': `kind: Report\npublicId: ${pid(1)}\nname: \${env.${name}}\nsqlQuery: select 1\n`,
        });
        const env = { [name]: PAT };
        for (const cmd of [['validate'], ['plan'], ['apply', '--auto-approve']]) {
          const r = await runCli([...cmd, '--dir', dir], { env });
          expect(r.code, r.stderr + r.stdout).toBe(3);
          expect(r.stdout + r.stderr).toMatch(
            new RegExp(`reports/r\\.yaml:3:7 error .*\\$\\{env\\.${name}\\}.*wsc\\.yaml reads the API token from it`),
          );
          expect(r.stdout + r.stderr).not.toContain(PAT);
        }
        expect(emu.log).toEqual([]);
      });
    },
  );

  test('preview reads the bundle as validate does: the token variable refused, in no picture written', async () => {
    const dir = copyFixture('example');
    const yaml = join(dir, 'wsc.yaml');
    writeFileSync(
      yaml,
      readFileSync(yaml, 'utf8').replace('    embedded: true\n', '    embedded: true\n    token: ${env.MY_PAT}\n'),
    );
    const wb = join(dir, 'workbooks/sales-pipeline.yaml');
    writeFileSync(
      wb,
      readFileSync(wb, 'utf8').replace('content: Open pipeline', 'content: ${env.MY_PAT} Open pipeline'),
    );
    const out = tempDir('wsc-token-pictures-');
    const r = await runCli(['preview', '--dir', dir, '--out', out], { env: { MY_PAT: PAT } });
    expect(r.code, r.stderr + r.stdout).toBe(3);
    expect(r.stderr).toMatch(
      /workbooks\/sales-pipeline\.yaml:20:20 error .*\$\{env\.MY_PAT\}.*wsc\.yaml reads the API token from it/,
    );
    expect(r.stdout + r.stderr).not.toContain(PAT);
    const written = filesUnder(out);
    expect(written.length).toBeGreaterThan(0);
    for (const f of written) expect(readFileSync(f).includes(PAT), f).toBe(false);
  });

  test("a token variable read into wsc.yaml's vars is refused too", async () => {
    const dir = writeFiles({
      'wsc.yaml':
        'environments:\n  dev:\n    embedded: true\n    token: ${env.MY_PAT}\n    vars:\n      leak: ${env.MY_PAT}\n',
      'reports/r.yaml': `kind: Report\npublicId: ${pid(1)}\nname: \${vars.leak}\n`,
    });
    const r = await runCli(['plan', '--dir', dir], { env: { MY_PAT: PAT } });
    expect(r.code).toBe(3);
    expect(r.stderr).toMatch(/wsc\.yaml:6:13: `vars\.leak` reads \$\{env\.MY_PAT\}; only `token:` may read a secret/);
    expect(r.stderr).not.toContain(PAT);
  });

  test('a literal token in wsc.yaml is not echoed by the error that refuses it', async () => {
    const dir = writeFiles({
      'wsc.yaml': `environments:\n  prod:\n    baseUrl: https://acme.cubecloud.dev\n    deploymentId: 3\n    token: ${PAT}\n`,
    });
    for (const cmd of ['validate', 'plan']) {
      const r = await runCli([cmd, '--dir', dir]);
      expect(r.code).toBe(3);
      expect(r.stdout + r.stderr).toMatch(/wsc\.yaml:5:12 error `environments\.prod\.token`/);
      expect(r.stdout + r.stderr).not.toContain(PAT);
    }
  });
});

describe('a token the server echoes is redacted everywhere', () => {
  test('plan (human, json, markdown, --out, step summary, --verbose), apply and export', async () => {
    const token = emulatorEnv.WSC_TOKEN;
    await withEmulator({}, async (emu) => {
      const made = await api(emu, 'POST', '/api/v1/deployments/1/reports', {
        publicId: pid(1),
        name: `Revenue ${token}`,
        sqlQuery: 'select 1',
      });
      expect(made.status).toBe(200);
      const dir = writeBundle({
        files: { 'reports/r.yaml': `kind: Report\npublicId: ${pid(1)}\nname: Revenue\nsqlQuery: select 1\n` },
      });
      const work = tempDir();
      const env = { WSC_TOKEN: token, GITHUB_STEP_SUMMARY: join(work, 'summary.md') };
      const texts: string[] = [];
      for (const output of ['human', 'json', 'markdown']) {
        const r = await runCli(
          [
            'plan',
            '--verbose',
            '--output',
            output,
            '--out',
            join(work, `plan-${output}.json`),
            '--dir',
            dir,
            ...target(emu),
          ],
          { env },
        );
        expect(r.code, r.stderr).toBe(0);
        expect(r.stdout).toContain('Revenue ***');
        texts.push(r.stdout, r.stderr, readFileSync(join(work, `plan-${output}.json`), 'utf8'));
      }
      const exported = await runCli(['export', '--out', join(work, 'export'), ...target(emu)], { env });
      expect(exported.code, exported.stderr).toBe(0);
      const files = filesUnder(join(work, 'export')).map((f) => readFileSync(f, 'utf8'));
      expect(files.join('\n')).toContain('Revenue ***');
      const applied = await runCli(['apply', join(work, 'plan-json.json'), '--dir', dir, ...target(emu)], { env });
      expect(applied.code, applied.stderr).toBe(0);
      texts.push(
        exported.stdout,
        exported.stderr,
        applied.stdout,
        applied.stderr,
        readFileSync(join(work, 'summary.md'), 'utf8'),
        ...files,
      );
      for (const t of texts) expect(t).not.toContain(token);
    });
  });
});

describe('a token that cannot be sent is a usage error before any request', () => {
  test.each([
    ['a trailing newline', 'dev-token\n', /ends with a line break/],
    ['a trailing carriage return', 'dev-token\r', /ends with a line break/],
    ['a control character', 'dev\u0007token', /control character \(U\+0007\) at position 4/],
    ['a character outside Latin-1', 'dev-tøkenΩ', /outside Latin-1 \(U\+03A9\) at position 10/],
  ])(
    '%s: plan, apply and export exit 3 at once, the environment named, the token not shown',
    async (_name, token, why) => {
      await withEmulator({}, async (emu) => {
        const dir = writeBundle({ looseReports: 1 });
        for (const cmd of [
          ['plan', '--dir', dir],
          ['apply', '--auto-approve', '--dir', dir],
          ['export', '--out', join(tempDir(), 'x')],
        ]) {
          const started = Date.now();
          const r = await runCli([...cmd, ...target(emu)], { env: { WSC_TOKEN: token } });
          expect(r.code, r.stderr).toBe(3);
          expect(r.stderr).toMatch(/the API token of environment `default` \(from WSC_TOKEN\)/);
          expect(r.stderr).toMatch(why);
          expect(r.stderr).toContain('[token_invalid]');
          expect(r.stderr).not.toContain(token.trim());
          expect(Date.now() - started).toBeLessThan(15_000);
        }
        expect(emu.log).toEqual([]);
      });
    },
  );
});

describe('a token the API refuses: the hint names where the one sent came from', () => {
  test("WSC_TOKEN, which wins over wsc.yaml's token (said so), or the variable wsc.yaml names, at its place", async () => {
    await withEmulator({}, async (emu) => {
      const yaml = `environments:\n  prod:\n    baseUrl: ${emu.url}\n    deploymentId: 1\n    token: \${env.PROD_TOKEN}\n`;
      const dir = writeFiles({
        'wsc.yaml': yaml,
        'reports/r.yaml': 'kind: Report\npublicId: tokRep000001\nname: r\nsqlQuery: select 1\n',
      });
      const both = await runCli(['plan', '--dir', dir], { env: { WSC_TOKEN: 'stale-token', PROD_TOKEN: 'dev-token' } });
      expect(both.code).toBe(1);
      expect(both.stderr).toContain(
        "Hint: The token sent came from WSC_TOKEN (it is used before the environment's `token:` in wsc.yaml): check it",
      );
      const named = await runCli(['plan', '--dir', dir], { env: { PROD_TOKEN: 'wrong-token' } });
      expect(named.code).toBe(1);
      expect(named.stderr).toContain('Hint: The token sent came from ${env.PROD_TOKEN} (wsc.yaml:5:12): check it');
      expect(both.stderr + named.stderr).not.toMatch(/stale-token|wrong-token/);
      // With the token wsc.yaml names alone, the same plan runs.
      expect((await runCli(['plan', '--dir', dir], { env: { PROD_TOKEN: 'dev-token' } })).code).toBe(0);
    });
  });
});
