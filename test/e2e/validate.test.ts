// `wsc validate` and `wsc schema`, run as the built CLI. Diagnostics are
// validate's result: they go to stdout; stderr stays empty unless the
// command itself fails (e.g. a missing directory).
import { mkdirSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { cleanupTemp, root, runCli, tempDir, writeFiles } from './helpers/index.js';

afterAll(cleanupTemp);
const fixture = (p: string) => join(root, 'fixtures', p);

describe('wsc validate (built CLI)', () => {
  it('the example bundle is valid: exit 0, a summary on stdout', async () => {
    const r = await runCli(['validate', '--dir', fixture('example')]);
    expect(r).toEqual({ code: 0, stdout: 'Bundle is valid: 3 workbooks, 10 reports, 1 user attribute.\n', stderr: '' });
  });

  it('validates a remote environment without its token (validate sends nothing)', async () => {
    const r = await runCli(['validate', '--dir', fixture('example'), '--env', 'production']);
    expect(r.code).toBe(0);
    expect(r.stdout).toBe('Bundle is valid: 3 workbooks, 10 reports, 1 user attribute.\n');
  });

  it('--output json', async () => {
    const r = await runCli(['validate', '--dir', fixture('example'), '--output', 'json']);
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout)).toEqual({
      valid: true,
      diagnostics: [],
      resources: { workbooks: 3, reports: 10, userAttributes: 1 },
    });
  });

  it.each([
    ['unknown-key', 'workbooks/revenue.yaml:3:1 error unknown key `nmae` (did you mean `name`?) [unknown-key]'],
    [
      'duplicate-slug',
      'workbooks/b.yaml:2:1 error duplicate workbook slug `revenue`, also defined at workbooks/a.yaml:2:1',
    ],
    ['yaml-syntax', 'workbooks/revenue.yaml:5:1 error YAML syntax error:'],
    [
      'unknown-reference',
      'workbooks/revenue.yaml:10:32 error report `revMrrTrnd01` is not in the bundle [unknown-reference]',
    ],
    [
      'wsc-yaml-unknown-key',
      'wsc.yaml:3:5 error unknown key `baseURL` in `environments.staging` (did you mean `baseUrl`?) [unknown-key]',
    ],
  ])('fixtures/invalid/%s: exit 3 and the diagnostic on stdout', async (name, line) => {
    const r = await runCli(['validate', '--dir', fixture(`invalid/${name}`)]);
    expect(r.code).toBe(3);
    expect(r.stdout).toContain(line);
    expect(r.stdout).toContain('1 error, 0 warnings\nBundle is invalid.');
    expect(r.stderr).toBe('');
  });

  it('reports every problem of a bundle in one run, errors before warnings per file', async () => {
    const dir = writeFiles({
      'a.yaml':
        'kind: Workbook\nslug: a\nmeta:\n  dashboardDraft:\n    widgets:\n      - { id: x, type: TEXT, position: { x: 10, y: 0, w: 4, h: 1 } }\n---\nkind: Workbook\nslug: c\nnmae: C\n',
      'b.yaml': 'kind: Report\npublicId: short\n',
    });
    const r = await runCli(['validate', '--dir', dir]);
    expect(r.code).toBe(3);
    expect(r.stdout).toBe(
      [
        'a.yaml:10:1 error unknown key `nmae` (did you mean `name`?) [unknown-key]',
        '  hint: Allowed keys: kind, slug, name, folderId, folder, meta, publish, adopt.',
        "a.yaml:6:30 warning widget `x` ends at column 14 (x 10 + w 4), beyond the dashboard's 12 columns (the default when layout.cols.lg is not set) [widget-out-of-bounds]",
        '',
        'b.yaml:2:11 error `publicId`: "short" must be exactly 12 characters of [0-9A-Za-z] [bad-value]',
        '',
        '2 errors, 1 warning',
        'Bundle is invalid. Fix the errors above; nothing was sent to any API.',
        '',
      ].join('\n'),
    );
  });

  it('--output json on an invalid bundle', async () => {
    const r = await runCli(['validate', '--dir', fixture('invalid/bad-public-id'), '--output', 'json']);
    expect(r.code).toBe(3);
    const j = JSON.parse(r.stdout);
    expect(j.valid).toBe(false);
    expect(j.diagnostics).toEqual([
      {
        severity: 'error',
        rule: 'bad-value',
        message: '`publicId`: "rev-mrr-01" must be exactly 12 characters of [0-9A-Za-z]',
        pos: { file: 'reports/mrr.yaml', line: 2, col: 11 },
      },
    ]);
  });

  it('an empty directory: a warning, exit 0', async () => {
    const r = await runCli(['validate', '--dir', tempDir()]);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('.:1:1 warning no bundle files (*.yaml, *.yml) in this directory [empty-bundle]');
    expect(r.stdout).toContain('Bundle is valid: 0 workbooks, 0 reports, 0 user attributes.');
  });

  it('a missing directory: exit 3 with a message on stderr, no stack', async () => {
    const r = await runCli(['validate', '--dir', join(tempDir(), 'nope')]);
    expect(r.code).toBe(3);
    expect(r.stdout).toBe('');
    expect(r.stderr).toMatch(/^Error: bundle directory not found: .*nope \[bundle_dir_missing\]\nHint: /);
  });

  it('an alias bomb: exit 3, a diagnostic, no stack trace', async () => {
    let text = 'kind: Workbook\nslug: bomb\nmeta:\n  a0: &a0 [x,x,x,x,x,x,x,x,x,x]\n';
    for (let i = 1; i <= 9; i++)
      text += `  a${i}: &a${i} [${Array(10)
        .fill(`*a${i - 1}`)
        .join(',')}]\n`;
    const r = await runCli(['validate', '--dir', writeFiles({ 'bomb.yaml': text })]);
    expect(r.code).toBe(3);
    expect(r.stdout).toContain(
      'error YAML aliases expand to more than 10000 values (an alias bomb?) [yaml-alias-limit]',
    );
    expect(r.stderr).toBe('');
  });

  it('an http:// base URL to a non-loopback host is refused (exit 3), and the token is never printed', async () => {
    const r = await runCli(
      ['validate', '--dir', fixture('example'), '--base-url', 'http://acme.example.com', '--deployment', '3'],
      {
        env: { WSC_TOKEN: 'tok_e2e_secret_value' },
      },
    );
    expect(r.code).toBe(3);
    expect(r.stdout).toBe('');
    expect(r.stderr).toContain(
      '--base-url: refusing http:// for acme.example.com: the token would travel unencrypted [base_url_insecure]',
    );
    expect(r.stderr).toContain('Hint: Use https://');
    expect(r.stdout + r.stderr).not.toContain('tok_e2e_secret_value');
  });

  it('an unknown --env is a configuration error (exit 3)', async () => {
    const r = await runCli(['validate', '--dir', fixture('example'), '--env', 'prod']);
    expect(r.code).toBe(3);
    expect(r.stderr).toContain('environment `prod` is not defined in wsc.yaml');
  });
});

describe('wsc schema (built CLI)', () => {
  it('--check passes on the committed schemas', async () => {
    const r = await runCli(['schema', '--check'], { cwd: root });
    expect(r.code).toBe(0);
  });

  it('writes the four schemas, identical to the committed ones; --check fails (exit 1) when one is stale', async () => {
    const out = tempDir();
    const w = await runCli(['schema', '--out', out]);
    expect(w.code).toBe(0);
    const names = readdirSync(out).sort();
    expect(names).toEqual([
      'report.schema.json',
      'user-attribute.schema.json',
      'workbook.schema.json',
      'wsc.schema.json',
    ]);
    for (const n of names)
      expect(readFileSync(join(out, n), 'utf8')).toBe(readFileSync(join(root, 'schemas', n), 'utf8'));
    writeFileSync(join(out, 'report.schema.json'), '{}\n');
    const c = await runCli(['schema', '--out', out, '--check']);
    expect(c.code).toBe(1);
    expect(c.stderr).toContain('report.schema.json is out of date');
    expect(readFileSync(join(out, 'report.schema.json'), 'utf8')).toBe('{}\n');
    // A directory not written yet: each file missing, and the command printed (followed) writes them.
    const none = join(tempDir(), 'new schemas');
    const missing = await runCli(['schema', '--out', none, '--check']);
    expect(missing.code).toBe(1);
    expect(missing.stderr).toContain(`${join(none, 'wsc.schema.json')} is missing`);
    const printed = /Run `wsc schema --out '([^']+)'` and commit the result/.exec(missing.stderr)?.[1];
    expect(printed).toBe(none);
    expect((await runCli(['schema', '--out', printed!])).code).toBe(0);
    expect((await runCli(['schema', '--out', none, '--check'])).code).toBe(0);
  });

  it('--check where a file or directory is in the way: exit 3 saying what (writing would fail too), nothing written', async () => {
    const dir = tempDir();
    const file = join(dir, 'a-file');
    writeFileSync(file, 'x');
    const r = await runCli(['schema', '--out', file, '--check']);
    expect(r.code).toBe(3);
    expect(r.stderr).toMatch(
      /cannot read the schemas in .*a-file: .*a-file\/workbook\.schema\.json: a part of the path is not a directory \(ENOTDIR\)\. \[schema_out_dir\]/,
    );
    expect(r.stderr).not.toContain('Run `wsc schema');
    expect(readFileSync(file, 'utf8')).toBe('x');
    // Its hint followed: --out a directory that can be written, then checked.
    const out = join(dir, 'schemas');
    mkdirSync(join(out, 'wsc.schema.json'), { recursive: true });
    const inTheWay = await runCli(['schema', '--out', out, '--check']);
    expect(inTheWay.code).toBe(3);
    expect(inTheWay.stderr).toContain(`${join(out, 'wsc.schema.json')}: is a directory (EISDIR)`);
    rmSync(join(out, 'wsc.schema.json'), { recursive: true });
    expect((await runCli(['schema', '--out', out])).code).toBe(0);
    expect((await runCli(['schema', '--out', out, '--check'])).code).toBe(0);
  });
});
