// The environment variables are read once, by src/env.ts, into typed
// Settings; config/resolve.ts merges them with flags and wsc.yaml. For each
// variable that has a flag: the flag beats the variable, which beats
// wsc.yaml, which beats the default. A malformed value is an error that names
// the variable (exit 3), raised by the command that uses it.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { tempDir, writeTree } from '../helpers/temp-dir.js';
import { describe, expect, it } from 'vitest';
import { resolveConfig, type ConfigFlags, type ResolvedConfig } from '../../src/config/resolve.js';
import { ENV_VARS, readSettings } from '../../src/env.js';
import { ConfigError, EXIT } from '../../src/errors.js';
import { decideStyle } from '../../src/render/style.js';

function dirWith(wscYaml?: string): string {
  return writeTree(tempDir('wsc-settings-'), wscYaml === undefined ? {} : { 'wsc.yaml': wscYaml });
}

const remote = (url: string) => `{ baseUrl: ${url}, deploymentId: 3, token: "\${env.T}" }`;
/** wsc.yaml says: environment `fromyaml`, host yaml.example.com, deployment 3. */
const yamlDir = dirWith(`
defaultEnvironment: fromyaml
environments:
  fromyaml: ${remote('https://yaml.example.com')}
  fromenv: ${remote('https://yaml.example.com')}
  fromflag: ${remote('https://yaml.example.com')}
  local: { embedded: true }
`);
/** wsc.yaml names no default: `local` is chosen. */
const noDefaultDir = dirWith(`
environments:
  fromyaml: ${remote('https://yaml.example.com')}
  local: { embedded: true }
`);
/** No wsc.yaml: the embedded environment, deployment 1. */
const bareDir = dirWith();

const TOKEN = { T: 'tok-1234' };

function resolveWith(dir: string, flags: ConfigFlags, env: Record<string, string>): Promise<ResolvedConfig> {
  return resolveConfig({ dir, flags, settings: readSettings({ ...TOKEN, ...env }) });
}

interface Case {
  variable: string;
  flag: keyof ConfigFlags;
  values: { flag: string | number; env: string };
  /** The directory whose wsc.yaml sets it, and the one that leaves it to the default (no wsc.yaml level: null). */
  yaml: string | null;
  /** What was chosen. */
  pick: (c: ResolvedConfig) => unknown;
  /** What each level gives. */
  expect: { flag: unknown; env: unknown; yaml?: unknown; default: unknown };
  defaultDir: string;
}

/** A limit of the API client: no wsc.yaml level; unset, undefined in the config (the client's default: 500 a page). */
function clientLimit(
  variable: string,
  flag: keyof ConfigFlags,
  values: { flag: number; env: string },
  envGives: number,
  pick: Case['pick'],
): Case {
  return {
    variable,
    flag,
    values,
    yaml: null,
    defaultDir: bareDir,
    pick,
    expect: { flag: values.flag, env: envGives, default: undefined },
  };
}

const CASES: Case[] = [
  {
    variable: 'WSC_ENV',
    flag: 'env',
    values: { flag: 'fromflag', env: 'fromenv' },
    yaml: yamlDir,
    defaultDir: noDefaultDir,
    pick: (c) => c.environment.name,
    expect: { flag: 'fromflag', env: 'fromenv', yaml: 'fromyaml', default: 'local' },
  },
  {
    variable: 'WSC_BASE_URL',
    flag: 'baseUrl',
    values: { flag: 'https://flag.example.com', env: 'https://env.example.com' },
    yaml: yamlDir,
    defaultDir: bareDir,
    pick: (c) => c.environment.baseUrl,
    expect: {
      flag: 'https://flag.example.com',
      env: 'https://env.example.com',
      yaml: 'https://yaml.example.com',
      // No host at all: the embedded emulator.
      default: undefined,
    },
  },
  {
    variable: 'WSC_DEPLOYMENT_ID',
    flag: 'deployment',
    values: { flag: 7, env: '5' },
    yaml: yamlDir,
    defaultDir: bareDir,
    pick: (c) => c.environment.deploymentId,
    expect: { flag: 7, env: 5, yaml: 3, default: 1 },
  },
  clientLimit('WSC_PAGE_SIZE', 'pageSize', { flag: 100, env: '200' }, 200, (c) => c.client.pageSize),
  clientLimit('WSC_MAX_LIST_ITEMS', 'maxListItems', { flag: 1000, env: '2000' }, 2000, (c) => c.client.maxListItems),
  clientLimit(
    'WSC_MAX_LIST_BYTES',
    'maxListBytes',
    { flag: 4096, env: '2M' },
    2 * 1024 * 1024,
    (c) => c.client.maxListBytes,
  ),
];

describe('precedence: flag > environment variable > wsc.yaml > default', () => {
  for (const c of CASES) {
    describe(c.variable, () => {
      const dir = c.yaml ?? c.defaultDir;
      it('the flag beats the variable (and wsc.yaml)', async () => {
        const got = await resolveWith(dir, { [c.flag]: c.values.flag }, { [c.variable]: c.values.env });
        expect(c.pick(got)).toEqual(c.expect.flag);
      });
      it('the variable beats wsc.yaml', async () => {
        expect(c.pick(await resolveWith(dir, {}, { [c.variable]: c.values.env }))).toEqual(c.expect.env);
      });
      if (c.yaml !== null) {
        it('wsc.yaml beats the default', async () => {
          expect(c.pick(await resolveWith(c.yaml!, {}, {}))).toEqual(c.expect.yaml);
        });
      }
      it('the default when nothing says', async () => {
        expect(c.pick(await resolveWith(c.defaultDir, {}, {}))).toEqual(c.expect.default);
      });
      it('an empty variable counts as unset', async () => {
        expect(c.pick(await resolveWith(c.defaultDir, {}, { [c.variable]: '' }))).toEqual(c.expect.default);
      });
    });
  }

  it('NO_COLOR: the flag or the variable turns colour off; else the terminal decides', () => {
    const style = (env: Record<string, string>, noColorFlag: boolean) =>
      decideStyle({ isTTY: true, columns: 100, settings: readSettings(env), noColorFlag }).color;
    expect(style({}, true)).toBe(false);
    expect(style({ NO_COLOR: '1' }, false)).toBe(false);
    expect(style({ NO_COLOR: '' }, false)).toBe(true);
    expect(style({}, false)).toBe(true);
  });
});

describe('a malformed value names its variable', () => {
  const BAD: [string, string, string][] = [
    ['WSC_DEPLOYMENT_ID', 'twelve', 'deployment_invalid'],
    ['WSC_AUTH_SCHEME', 'basic', 'auth_scheme_invalid'],
    ['WSC_REQUEST_TIMEOUT', '-3', 'request_timeout_invalid'],
    ['WSC_SEMANTIC_TIMEOUT', 'soon', 'semantic_timeout_invalid'],
    ['WSC_PAGE_SIZE', '20000', 'page_size_invalid'],
    ['WSC_MAX_LIST_ITEMS', '1.5', 'max_list_items_invalid'],
    ['WSC_MAX_LIST_BYTES', 'lots', 'max_list_bytes_invalid'],
  ];
  for (const [variable, value, code] of BAD) {
    it(`${variable}=${value}: ${code}, exit 3, before anything is resolved`, async () => {
      const e = await resolveWith(yamlDir, { env: 'fromyaml' }, { [variable]: value }).then(
        () => undefined,
        (err: unknown) => err,
      );
      expect(e).toBeInstanceOf(ConfigError);
      const err = e as ConfigError;
      expect([err.code, err.exitCode]).toEqual([code, EXIT.invalid]);
      expect(err.message).toContain(variable);
      expect(err.message).toContain(value);
    });
  }

  it("WSC_SEMANTIC_TIMEOUT: seconds in the connection settings, unset when not given (the check's 10 s)", async () => {
    expect((await resolveWith(bareDir, {}, { WSC_SEMANTIC_TIMEOUT: '2.5' })).client.semanticTimeoutMs).toBe(2500);
    expect((await resolveWith(bareDir, {}, {})).client.semanticTimeoutMs).toBeUndefined();
    expect((await resolveWith(bareDir, {}, { WSC_SEMANTIC_TIMEOUT: '' })).client.semanticTimeoutMs).toBeUndefined();
  });

  it('WSC_DOCTOR_TIMEOUT=0: doctor_timeout_invalid when doctor reads it (no flag, not part of resolveConfig)', () => {
    const settings = readSettings({ WSC_DOCTOR_TIMEOUT: '0' });
    expect(() => settings.doctorTimeoutMs).toThrow(/WSC_DOCTOR_TIMEOUT must be a number of seconds above 0, got "0"/);
    expect(readSettings({ WSC_DOCTOR_TIMEOUT: '2.5' }).doctorTimeoutMs).toBe(2500);
  });

  it('a flag given for it makes a malformed variable irrelevant', async () => {
    const got = await resolveWith(
      bareDir,
      { pageSize: 50, deployment: 2 },
      { WSC_PAGE_SIZE: 'x', WSC_DEPLOYMENT_ID: 'y' },
    );
    expect([got.client.pageSize, got.environment.deploymentId]).toEqual([50, 2]);
  });

  it('an offline command does not read the client settings, so a bad one does not stop it', async () => {
    const settings = readSettings({ WSC_PAGE_SIZE: 'x', WSC_REQUEST_TIMEOUT: 'soon' });
    const got = await resolveConfig({ dir: bareDir, flags: {}, settings, connects: false });
    expect(got.client).toEqual({});
    await expect(resolveConfig({ dir: bareDir, flags: {}, settings })).rejects.toMatchObject({
      code: 'request_timeout_invalid',
    });
  });
});

describe('read once', () => {
  it('later changes to the environment object are not seen', () => {
    const env: Record<string, string | undefined> = { WSC_ENV: 'a', WSC_TOKEN: 'tok-1' };
    const s = readSettings(env);
    env['WSC_ENV'] = 'b';
    env['WSC_TOKEN'] = 'tok-2';
    env['OTHER'] = 'x';
    expect([s.envName, s.token, s.variables['WSC_ENV'], s.variables['OTHER']]).toEqual(['a', 'tok-1', 'a', undefined]);
  });

  it('only src/env.ts reads the process environment', () => {
    const src = resolve(import.meta.dirname, '../../src');
    const files = (dir: string): string[] =>
      readdirSync(dir).flatMap((n) => {
        const p = join(dir, n);
        return statSync(p).isDirectory() ? files(p) : p.endsWith('.ts') ? [p] : [];
      });
    const readers = files(src)
      .filter((f) => /\bprocess\.env\b/.test(readFileSync(f, 'utf8').replace(/\/\/.*$/gm, '')))
      .map((f) => relative(src, f));
    expect(readers).toEqual(['env.ts']);
  });

  it('every variable of the table is read by readSettings', () => {
    const text = readFileSync(resolve(import.meta.dirname, '../../src/env.ts'), 'utf8');
    const reader = text.slice(text.indexOf('export function readSettings'));
    for (const v of ENV_VARS) expect(reader, v.name).toContain(`get('${v.name}')`);
  });
});
