// Security: the token never shows in anything wsc prints or
// writes; http:// to a host that is not loopback is refused before any
// connection; export writes only inside --out; YAML tags, merge keys and
// prototype keys neither run code nor pollute prototypes.
import {
  existsSync,
  lstatSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { join, relative } from 'node:path';
import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { loadBundle } from '../../src/bundle/load.js';
import { createEmulator, defaultSeed, type Emulator } from '../../src/emulator/index.js';
import { cleanupTemp, copyFixture, runCli, tempDir, writeFiles, type CliResult } from './helpers/index.js';
import { editFile } from '../helpers/edit-file.js';

const TOKEN = 's3cr3t-TOKEN-9f8e7d';
/** The token and fragments of it distinctive enough that any echo of it would show. */
const FRAGMENTS = [TOKEN, 's3cr3t', 'TOKEN-9f8e7d', '9f8e7d'];

function leaks(text: string): string[] {
  return FRAGMENTS.filter((f) => text.includes(f));
}

function filesUnder(dir: string): string[] {
  const out: string[] = [];
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    const p = join(dir, e.name);
    if (e.isDirectory()) out.push(...filesUnder(p));
    else out.push(p);
  }
  return out;
}

afterAll(cleanupTemp);

describe('the token never appears in output, saved plans, exported files or --verbose traces', () => {
  let emu: Emulator;
  const seen: Array<{ what: string; text: string }> = [];
  const record = (what: string, r: CliResult) => {
    seen.push({ what: `${what} (stdout)`, text: r.stdout }, { what: `${what} (stderr)`, text: r.stderr });
  };

  beforeAll(async () => {
    const seed = defaultSeed();
    seed.users[0]!.tokens = [TOKEN];
    emu = await createEmulator({ port: 0, seed });
    expect(emu.adminToken).toBe(TOKEN);
  });
  afterAll(async () => emu?.close());

  it('plan, plan --out, apply PLANFILE, apply, export (several outputs, --verbose) and a rejected token', async () => {
    const dir = copyFixture('example');
    const env = { WSC_TOKEN: TOKEN };
    const t = ['--dir', dir, '--base-url', emu.url, '--deployment', '1'];
    for (const output of ['human', 'json', 'markdown']) {
      const r = await runCli(['plan', ...t, '--output', output], { env });
      expect(r.code, r.stderr).toBe(0);
      record(`plan --output ${output}`, r);
    }
    const verbosePlan = await runCli(['plan', ...t, '--verbose'], { env });
    expect(verbosePlan.code).toBe(0);
    record('plan --verbose', verbosePlan);
    expect(verbosePlan.stderr).toContain('Bearer ***');
    expect(verbosePlan.stderr).toMatch(/GET .*\/api\/v1\/deployments\/1\/reports/);

    const planFile = join(tempDir(), 'plan.json');
    const saved = await runCli(['plan', ...t, '--out', planFile, '--verbose'], { env });
    expect(saved.code).toBe(0);
    record('plan --out', saved);
    seen.push({ what: 'saved plan', text: readFileSync(planFile, 'utf8') });

    const applied = await runCli(['apply', planFile, ...t, '--auto-approve', '--verbose'], { env });
    expect(applied.code, applied.stderr).toBe(0);
    record('apply PLANFILE --verbose', applied);
    expect(applied.stderr).toContain('Bearer ***');
    expect(applied.stderr).toMatch(/(POST|PUT) /);

    // A change, applied from the bundle, verbose, JSON result.
    const f = join(dir, 'reports/mrr-trend.yaml');
    editFile(f, 'title: Monthly recurring revenue', 'title: MRR');
    const applied2 = await runCli(['apply', ...t, '--auto-approve', '--verbose', '--output', 'json'], { env });
    expect(applied2.code, applied2.stderr).toBe(0);
    record('apply --verbose --output json', applied2);

    const out = tempDir();
    const exported = await runCli(['export', '--base-url', emu.url, '--deployment', '1', '--out', out, '--verbose'], {
      env,
    });
    expect(exported.code, exported.stderr).toBe(0);
    record('export --verbose', exported);
    const files = filesUnder(out);
    expect(files.length).toBeGreaterThan(10);
    for (const p of files) seen.push({ what: `exported ${relative(out, p)}`, text: readFileSync(p, 'utf8') });

    // The token from wsc.yaml (${env.NAME}) rather than WSC_TOKEN.
    writeFileSync(
      join(dir, 'wsc.yaml'),
      `environments:\n  acme:\n    baseUrl: ${emu.url}\n    deploymentId: 1\n    token: \${env.ACME_API_TOKEN}\n    vars: { financeFolderId: null, currency: USD, fiscalYearStartMonth: 2 }\n`,
    );
    const fromYaml = await runCli(['plan', '--dir', dir, '--env', 'acme', '--verbose', '--output', 'json'], {
      env: { ACME_API_TOKEN: TOKEN },
    });
    expect(fromYaml.code, fromYaml.stderr).toBe(0);
    record('plan --env (token from wsc.yaml) --verbose', fromYaml);
    expect(fromYaml.stderr).toContain('Bearer ***');

    // A token the server rejects is not echoed in the error either.
    const wrong = await runCli(['plan', ...t, '--verbose'], { env: { WSC_TOKEN: `${TOKEN}-revoked` } });
    expect(wrong.code).toBe(1);
    expect(wrong.stderr).toMatch(/401/);
    record('plan with a rejected token', wrong);

    // The check itself would see a leak.
    expect(leaks(`x ${TOKEN} y`)).not.toEqual([]);
    const found = seen.map((s) => ({ what: s.what, leaks: leaks(s.text) })).filter((s) => s.leaks.length > 0);
    expect(found).toEqual([]);
    expect(seen.length).toBeGreaterThan(25);
  }, 120_000);
});

describe('http:// to a host that is not loopback is refused, before any connection', () => {
  /** `wsc ...args` run in this process, every socket connect it attempts recorded (host:port). */
  const run = async (args: string[], extraEnv: Record<string, string> = {}, dir = copyFixture('example')) => {
    const connects: string[] = [];
    const connect = net.Socket.prototype.connect;
    // Restored after the test (restoreMocks). net.connect passes its normalised arguments as one array.
    vi.spyOn(net.Socket.prototype, 'connect').mockImplementation(function (this: net.Socket, ...args: unknown[]) {
      const a = (Array.isArray(args[0]) ? args[0][0] : args[0]) as { host?: string; port?: number } | undefined;
      connects.push(a !== undefined && typeof a === 'object' ? `${a.host}:${a.port}` : String(a));
      return (connect as (...x: unknown[]) => net.Socket).apply(this, args);
    });
    const r = await runCli([...args, '--dir', dir], { env: { WSC_TOKEN: TOKEN, ...extraEnv } });
    return { ...r, connects };
  };

  it('the spy sees connections (control: a loopback emulator)', async () => {
    const emu = await createEmulator({ port: 0 });
    try {
      const r = await run(['plan', '--base-url', emu.url, '--deployment', '1'], { WSC_TOKEN: 'dev-token' });
      expect(r.code, r.stderr).toBe(0);
      expect(r.connects).toContain(`127.0.0.1:${emu.port}`);
    } finally {
      await emu.close();
    }
  });

  it.each([
    ['plan', ['plan', '--base-url', 'http://example.com', '--deployment', '1'], {}],
    ['apply', ['apply', '--auto-approve', '--base-url', 'http://example.com:8080', '--deployment', '1'], {}],
    ['export', ['export', '--out', '/tmp/wsc-never-written', '--base-url', 'http://10.0.0.1', '--deployment', '1'], {}],
    ['WSC_BASE_URL', ['plan', '--deployment', '1'], { WSC_BASE_URL: 'http://acme.cubecloud.dev' }],
    ['a look-alike of localhost', ['plan', '--base-url', 'http://localhost.evil.example', '--deployment', '1'], {}],
    ['an IPv6 host that is not loopback', ['plan', '--base-url', 'http://[2001:db8::1]', '--deployment', '1'], {}],
  ] as const)('%s: exit 3, no connection, the token not shown', async (_name, args, extraEnv) => {
    const r = await run([...args], extraEnv);
    expect(r.code, r.stderr).toBe(3);
    expect(r.stderr).toMatch(/http/i);
    expect(r.connects).toEqual([]);
    expect(leaks(r.stdout + r.stderr)).toEqual([]);
    expect(existsSync('/tmp/wsc-never-written')).toBe(false);
  });

  it('a baseUrl in wsc.yaml is refused the same way', async () => {
    const dir = writeFiles({
      'wsc.yaml':
        'environments:\n  prod:\n    baseUrl: http://acme.cubecloud.dev\n    deploymentId: 3\n    token: ${env.WSC_PROD_TOKEN}\n',
      'reports/r.yaml': 'kind: Report\npublicId: abcdefABCDEF\nname: r\n',
    });
    const r = await run(['plan', '--env', 'prod'], { WSC_PROD_TOKEN: TOKEN }, dir);
    expect(r.code, r.stderr).toBe(3);
    expect(r.connects).toEqual([]);
    expect(leaks(r.stdout + r.stderr)).toEqual([]);
  });
});

describe('export never writes outside --out', () => {
  let emu: Emulator;
  beforeAll(async () => {
    const seed = defaultSeed();
    const hostile = [
      '../../escape',
      '/etc/passwd',
      '..',
      '.',
      'a/../../b',
      '..\\..\\win',
      '~root',
      '.hidden',
      'con',
      'nul.txt',
      'x'.repeat(300),
      'ümlaut ✓ ‮rtl',
      'line\nbreak',
      'tab\there',
    ];
    seed.workbooks = hostile.map((slug, i) => ({
      id: 100 + i,
      deploymentId: 1,
      slug: slug.trim().toLowerCase(),
      name: slug,
      meta: {},
    }));
    seed.reports = hostile.map((name, i) => ({
      id: 1000 + i,
      deploymentId: 1,
      publicId: `hostile${String(i).padStart(5, '0')}`,
      name,
      workbookId: 100 + i,
    }));
    emu = await createEmulator({ port: 0, seed });
  });
  afterAll(async () => emu?.close());
  const env = { WSC_TOKEN: 'dev-token' };

  it('hostile slugs and names become safe file names inside --out; nothing is written beside it', async () => {
    const parent = tempDir('wsc-export-parent-');
    const out = join(parent, 'out');
    const r = await runCli(['export', '--base-url', emu.url, '--deployment', '1', '--out', out], { env });
    expect(r.code, r.stderr).toBe(0);
    expect(readdirSync(parent)).toEqual(['out']);
    const files = filesUnder(out).map((p) => relative(out, p));
    expect(files.filter((f) => f.startsWith('workbooks/')).length).toBe(14);
    expect(files.filter((f) => f.startsWith('reports/')).length).toBe(14);
    for (const f of files) {
      expect(f).toMatch(/^(wsc\.yaml|\.gitignore|[a-z-]+\/[a-z0-9_][a-z0-9_.-]*\.(yaml|json))$/);
      expect(f.split('/')).not.toContain('..');
    }
    // The export reads back: a slug that cannot be one segment of a request path was given a safe one, with
    // an adopt block, so the plan renames those workbooks in place (PUT /workbooks/{id}) and refuses nothing.
    const plan = await runCli(
      ['plan', '--dir', out, '--base-url', emu.url, '--deployment', '1', '--detailed-exitcode', '--output', 'json'],
      { env },
    );
    expect(plan.code, plan.stdout + plan.stderr).toBe(2);
    expect(plan.stderr).not.toMatch(/ error /);
    const changes = (JSON.parse(plan.stdout) as { changes: { address: string; actions: string[] }[] }).changes;
    expect(changes.length).toBeGreaterThan(0);
    for (const c of changes) expect([c.address, c.actions]).toEqual([expect.stringMatching(/^workbook\//), ['adopt']]);
  });

  // exit 3 = refused before writing (output_link); 0 = the link was left alone.
  it.each([
    [
      'a bundle directory that is a symlink to outside',
      3,
      (out: string, outside: string) => symlinkSync(outside, join(out, 'workbooks')),
    ],
    [
      'a file that is a symlink to outside',
      3,
      (out: string, outside: string) => {
        mkdirSync(join(out, 'reports'), { recursive: true });
        symlinkSync(join(outside, 'victim.yaml'), join(out, 'reports', 'hostile00000.yaml'));
      },
    ],
    [
      'wsc.yaml that is a symlink to outside (an existing wsc.yaml is kept)',
      0,
      (out: string, outside: string) => symlinkSync(join(outside, 'victim.yaml'), join(out, 'wsc.yaml')),
    ],
    [
      'a schema file that is a symlink to outside',
      3,
      (out: string, outside: string) => {
        mkdirSync(join(out, 'schemas'), { recursive: true });
        symlinkSync(join(outside, 'victim.yaml'), join(out, 'schemas', 'report.schema.json'));
      },
    ],
  ] as const)('%s: exit %i; the outside is untouched', async (_name, expected, plant) => {
    const outside = tempDir('wsc-outside-');
    writeFileSync(join(outside, 'victim.yaml'), 'untouched\n');
    const out = tempDir('wsc-out-');
    plant(out, outside);
    const r = await runCli(['export', '--base-url', emu.url, '--deployment', '1', '--out', out], { env });
    expect(r.code, r.stderr).toBe(expected);
    if (expected === 3)
      expect(r.stderr).toMatch(/is a symbolic link; wsc will not write through it\..*\[output_link\]/s);
    expect(r.stderr).not.toMatch(/internal error/);
    expect(readdirSync(outside)).toEqual(['victim.yaml']);
    expect(readFileSync(join(outside, 'victim.yaml'), 'utf8')).toBe('untouched\n');
    // Whatever it did, every link planted is still a link (not replaced by a file written through it).
    for (const p of filesUnder(out)) {
      if (lstatSync(p).isSymbolicLink() && statSync(p).isFile()) expect(readFileSync(p, 'utf8')).toBe('untouched\n');
    }
  });
});

describe('YAML tags, merge keys and prototype keys run no code and pollute nothing', () => {
  const hostile: Record<string, string> = {
    'workbooks/js.yaml':
      'kind: Workbook\nslug: js\nname: !!js/function "function () { globalThis.__wscPwned = true; return 1 }"\n',
    'workbooks/js-undefined.yaml': 'kind: Workbook\nslug: jsu\nmeta: { x: !!js/undefined "" , y: !!js/regexp /a/g }\n',
    'reports/py.yaml':
      'kind: Report\npublicId: pyPYpyPYpy01\nmeta: !!python/object/apply:os.system ["touch /tmp/wsc-pwned"]\n',
    'reports/custom.yaml': 'kind: Report\npublicId: cuCUcuCUcu01\nname: !<tag:yaml.org,2002:js/function> "() => 1"\n',
    'workbooks/merge.yaml':
      'kind: Workbook\nslug: merge\nbase: &base { __proto__: { polluted: yes } }\nmeta:\n  <<: *base\n  other: 1\n',
    'workbooks/merge2.yaml':
      'kind: Workbook\nslug: merge2\nmeta:\n  <<: { constructor: { prototype: { polluted: yes } } }\n',
    'workbooks/proto.yaml':
      'kind: Workbook\nslug: proto\nmeta:\n  __proto__: { polluted: yes }\n  nested: { "__proto__": { polluted: yes } }\n',
    'reports/proto-top.yaml': 'kind: Report\npublicId: ppPPppPPpp01\n__proto__:\n  polluted: yes\n',
  };

  it('in-process: loadBundle refuses each with a diagnostic, runs nothing, pollutes no prototype', async () => {
    const dir = writeFiles(hostile);
    const { diagnostics, desired } = await loadBundle(dir, { vars: {}, env: {}, mayHoldUnknownRefs: false });
    const errorsByFile = new Map<string, number>();
    for (const d of diagnostics)
      if (d.severity === 'error') errorsByFile.set(d.pos.file, (errorsByFile.get(d.pos.file) ?? 0) + 1);
    for (const file of Object.keys(hostile))
      expect(
        errorsByFile.get(file),
        `${file}: ${JSON.stringify(diagnostics.filter((d) => d.pos.file === file))}`,
      ).toBeGreaterThan(0);
    expect(({} as Record<string, unknown>)['polluted']).toBeUndefined();
    expect((Object.prototype as Record<string, unknown>)['polluted']).toBeUndefined();
    expect((globalThis as Record<string, unknown>)['__wscPwned']).toBeUndefined();
    expect(existsSync('/tmp/wsc-pwned')).toBe(false);
    // Nothing loaded carries a function or an altered prototype.
    const walk = (v: unknown): void => {
      expect(typeof v).not.toBe('function');
      if (v && typeof v === 'object') {
        expect([Object.prototype, Array.prototype, null]).toContain(Object.getPrototypeOf(v));
        for (const x of Object.values(v)) walk(x);
      }
    };
    walk(desired);
  });

  it.each(Object.keys(hostile))('the CLI refuses %s with exit 3 and sends nothing', async (file) => {
    const emu = await createEmulator({ port: 0 });
    try {
      const dir = writeFiles({ [file]: hostile[file]! });
      const r = await runCli(['plan', '--dir', dir, '--base-url', emu.url, '--deployment', '1'], {
        env: { WSC_TOKEN: 'dev-token' },
      });
      expect(r.code, r.stderr).toBe(3);
      expect(r.stderr).toMatch(new RegExp(`^${file.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')}:\\d+:\\d+ error `, 'm'));
      expect(emu.log).toEqual([]);
      expect(existsSync('/tmp/wsc-pwned')).toBe(false);
    } finally {
      await emu.close();
    }
  });
});
