// resolveEnvironment: precedence flags > env vars > wsc.yaml > defaults, and
// each configuration error (exit 3, a hint, never the token).
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { tempDir, writeTree } from '../helpers/temp-dir.js';
import { describe, expect, it } from 'vitest';
import { errorOf } from '../helpers/error-of.js';
import { normalizeBaseUrl } from '../../src/config/base-url.js';
import { resolveConfig, type ConfigFlags } from '../../src/config/resolve.js';
import { readSettings } from '../../src/env.js';
import { BundleError, ConfigError } from '../../src/errors.js';

function dirWith(wscYaml?: string): string {
  return writeTree(tempDir('wsc-env-'), wscYaml === undefined ? {} : { 'wsc.yaml': wscYaml });
}

const CONFIG = `
defaultEnvironment: local
environments:
  local:
    embedded: true
    vars: { folder: null }
  staging:
    baseUrl: https://acme.cubecloud.dev/
    deploymentId: 12
    token: \${env.WSC_STAGING_TOKEN}
    publicIds: per-deployment
    authScheme: api-key
    vars: { folder: 7, owner: "\${env.OWNER}" }
  production:
    baseUrl: https://acme.cubecloud.dev
    deploymentId: 3
    token: \${env.WSC_PRODUCTION_TOKEN}
  notoken:
    baseUrl: https://acme.cubecloud.dev
    deploymentId: 4
  nodeployment:
    baseUrl: https://acme.cubecloud.dev
    token: \${env.T}
  insecure:
    baseUrl: http://acme.cubecloud.dev
    deploymentId: 4
    token: \${env.T}
`;
const cfgDir = dirWith(CONFIG);
const bareDir = dirWith();

const resolveIn = (dir: string, flags: ConfigFlags, env: Record<string, string | undefined>, requireToken?: boolean) =>
  resolveConfig({
    dir,
    flags,
    settings: readSettings(env),
    ...(requireToken === undefined ? {} : { connects: requireToken }),
  }).then((c) => c.environment);

describe('resolveEnvironment: precedence', () => {
  it('no wsc.yaml, no base URL: the embedded `local` environment', async () => {
    expect(await resolveIn(bareDir, {}, {})).toEqual({
      name: 'local',
      embedded: true,
      stateFile: join(bareDir, '.wsc/state/local.json'),
      deploymentId: 1,
      authScheme: 'bearer',
      publicIds: 'as-is',
      vars: {},
      mayHoldUnknownRefs: false,
    });
  });

  type Row = [string, string, ConfigFlags, Record<string, string>, Partial<Awaited<ReturnType<typeof resolveIn>>>];
  const rows: Row[] = [
    ['bare', 'flag deployment', { deployment: 2 }, {}, { name: 'local', embedded: true, deploymentId: 2 }],
    ['bare', 'WSC_DEPLOYMENT_ID', {}, { WSC_DEPLOYMENT_ID: '5' }, { deploymentId: 5 }],
    ['bare', 'flag beats WSC_DEPLOYMENT_ID', { deployment: 2 }, { WSC_DEPLOYMENT_ID: '5' }, { deploymentId: 2 }],
    [
      'bare',
      'WSC_BASE_URL makes a remote env; /api/v1 and the slash stripped',
      {},
      { WSC_BASE_URL: 'https://x.example.com/api/v1/', WSC_DEPLOYMENT_ID: '5', WSC_TOKEN: 'tok' },
      {
        name: 'default',
        embedded: false,
        baseUrl: 'https://x.example.com',
        deploymentId: 5,
        token: 'tok',
        mayHoldUnknownRefs: true,
      },
    ],
    [
      'bare',
      '--base-url beats WSC_BASE_URL',
      { baseUrl: 'https://a.example.com', deployment: 1 },
      { WSC_BASE_URL: 'https://b.example.com', WSC_TOKEN: 't' },
      { baseUrl: 'https://a.example.com' },
    ],
    ['cfg', 'defaultEnvironment', {}, {}, { name: 'local', embedded: true, deploymentId: 1, vars: { folder: null } }],
    [
      'cfg',
      'WSC_ENV selects; token from the variable wsc.yaml names',
      {},
      { WSC_ENV: 'staging', WSC_STAGING_TOKEN: 'st', OWNER: 'ana' },
      {
        name: 'staging',
        embedded: false,
        baseUrl: 'https://acme.cubecloud.dev',
        deploymentId: 12,
        token: 'st',
        authScheme: 'api-key',
        publicIds: 'per-deployment',
        vars: { folder: 7, owner: 'ana' },
      },
    ],
    [
      'cfg',
      '--env beats WSC_ENV',
      { env: 'production' },
      { WSC_ENV: 'staging', WSC_PRODUCTION_TOKEN: 'pt' },
      { name: 'production', token: 'pt', deploymentId: 3, authScheme: 'bearer', publicIds: 'as-is' },
    ],
    [
      'cfg',
      'WSC_TOKEN beats wsc.yaml token',
      { env: 'staging' },
      { WSC_TOKEN: 'env-tok', WSC_STAGING_TOKEN: 'st', OWNER: 'a' },
      { token: 'env-tok' },
    ],
    [
      'cfg',
      'WSC_AUTH_SCHEME beats wsc.yaml',
      { env: 'staging' },
      { WSC_AUTH_SCHEME: 'raw', WSC_STAGING_TOKEN: 'st', OWNER: 'a' },
      { authScheme: 'raw' },
    ],
    [
      'cfg',
      'WSC_DEPLOYMENT_ID beats wsc.yaml',
      { env: 'staging' },
      { WSC_DEPLOYMENT_ID: '99', WSC_STAGING_TOKEN: 'st', OWNER: 'a' },
      { deploymentId: 99 },
    ],
    [
      'cfg',
      '--base-url beats wsc.yaml, even for an embedded env',
      { baseUrl: 'http://127.0.0.1:4010', deployment: 1 },
      { WSC_TOKEN: 't' },
      { name: 'local', embedded: false, baseUrl: 'http://127.0.0.1:4010', deploymentId: 1 },
    ],
    ['cfg', 'no token needed when requireToken is false', { env: 'notoken' }, {}, { name: 'notoken', embedded: false }],
  ];
  it.each(rows)('%s: %s', async (which, _what, flags, env, expected) => {
    const requireToken = _what.startsWith('no token needed') ? false : undefined;
    const got = await resolveIn(which === 'cfg' ? cfgDir : bareDir, flags, env, requireToken);
    expect(got).toMatchObject(expected);
    if (requireToken === false) expect(got.token).toBeUndefined();
  });

  it('an embedded environment with a state file may hold resources the bundle does not define', async () => {
    const d = dirWith('environments:\n  dev:\n    embedded: true\n');
    expect(await resolveIn(d, {}, {})).toMatchObject({
      name: 'dev',
      stateFile: join(d, '.wsc/state/dev.json'),
      mayHoldUnknownRefs: false,
    });
    mkdirSync(join(d, '.wsc/state'), { recursive: true });
    writeFileSync(join(d, '.wsc/state/dev.json'), '{}');
    expect(await resolveIn(d, {}, {})).toMatchObject({ mayHoldUnknownRefs: true });
  });

  it('an unselected environment does not fail because its variables are unset', async () => {
    await expect(resolveIn(cfgDir, { env: 'local' }, {})).resolves.toMatchObject({ name: 'local' });
  });
});

describe('resolveEnvironment: errors', () => {
  const SECRET = 'sk_secret_value_123';
  type Case = [string, string, ConfigFlags, Record<string, string>, string, RegExp, RegExp];
  const cases: Case[] = [
    [
      'cfg',
      'unknown environment',
      { env: 'stagin' },
      {},
      'env_unknown',
      /environment `stagin` is not defined in wsc.yaml \(did you mean `staging`\?\)/,
      /Defined environments: local, staging, production/,
    ],
    [
      'cfg',
      'unknown environment from WSC_ENV: said so, and how to mend it',
      {},
      { WSC_ENV: 'stagin' },
      'env_unknown',
      /environment `stagin` \(from WSC_ENV\) is not defined in wsc.yaml \(did you mean `staging`\?\)/,
      /Defined environments: local, staging, production, .*\. Set WSC_ENV to one of them, or unset it\./,
    ],
    ['bare', '--env without wsc.yaml', { env: 'staging' }, {}, 'env_unknown', /no wsc.yaml/, /Create wsc.yaml/],
    ['bare', 'WSC_ENV without wsc.yaml', {}, { WSC_ENV: 'staging' }, 'env_unknown', /`staging` \(from WSC_ENV\)/, /./],
    [
      'cfg',
      'token variable unset',
      { env: 'staging' },
      { OWNER: 'a' },
      'env_var_unset',
      /wsc.yaml:10:12: environment `staging` reads its token from \$\{env.WSC_STAGING_TOKEN\}, but WSC_STAGING_TOKEN is not set/,
      /Set WSC_STAGING_TOKEN/,
    ],
    [
      'cfg',
      'vars variable unset',
      { env: 'staging' },
      { WSC_STAGING_TOKEN: SECRET },
      'env_var_unset',
      /reads `vars.owner` from \$\{env.OWNER\}/,
      /Set OWNER/,
    ],
    [
      'cfg',
      'remote without any token',
      { env: 'notoken' },
      {},
      'token_missing',
      /no API token for environment `notoken`/,
      /WSC_TOKEN.*token: \$\{env/,
    ],
    [
      'cfg',
      'remote without deployment',
      { env: 'nodeployment' },
      { T: SECRET },
      'deployment_missing',
      /no deployment id for environment `nodeployment`/,
      /deploymentId/,
    ],
    [
      'cfg',
      'http:// to a non-loopback host',
      { env: 'insecure' },
      { T: SECRET },
      'base_url_insecure',
      /refusing http:\/\/ for acme.cubecloud.dev/,
      /Use https:\/\//,
    ],
    [
      'bare',
      'malformed URL',
      { baseUrl: 'not a url', deployment: 1 },
      { WSC_TOKEN: SECRET },
      'base_url_invalid',
      /--base-url: "not a url" is not a valid URL/,
      /https:\/\/acme/,
    ],
    [
      'bare',
      'http:// flag',
      { baseUrl: 'http://10.0.0.5:4010', deployment: 1 },
      { WSC_TOKEN: SECRET },
      'base_url_insecure',
      /--base-url: refusing http:\/\/ for 10.0.0.5/,
      /loopback/,
    ],
    [
      'bare',
      'bad WSC_DEPLOYMENT_ID',
      {},
      { WSC_DEPLOYMENT_ID: 'twelve' },
      'deployment_invalid',
      /WSC_DEPLOYMENT_ID must be a positive whole number/,
      /.*/,
    ],
    [
      'bare',
      'bad WSC_AUTH_SCHEME',
      {},
      { WSC_AUTH_SCHEME: 'basic' },
      'auth_scheme_invalid',
      /WSC_AUTH_SCHEME must be one of bearer, api-key, raw/,
      /.*/,
    ],
  ];
  it.each(cases)('%s: %s', async (which, _what, flags, env, code, message, hint) => {
    const e = await resolveIn(which === 'cfg' ? cfgDir : bareDir, flags, { ...env, WSC_SECRET_PROBE: SECRET }).catch(
      (x: unknown) => x,
    );
    expect(e).toBeInstanceOf(ConfigError);
    const err = e as ConfigError;
    expect(err.code).toBe(code);
    expect(err.exitCode).toBe(3);
    expect(err.message).toMatch(message);
    expect(err.hint ?? '').toMatch(hint);
    expect(`${err.message} ${err.hint}`).not.toContain(SECRET);
  });

  it('vars may not read a secret from the environment', async () => {
    const d = dirWith('environments:\n  a:\n    embedded: true\n    vars: { t: "${env.WSC_TOKEN}" }\n');
    const e = (await resolveIn(d, {}, { WSC_TOKEN: SECRET }).catch((x: unknown) => x)) as ConfigError;
    expect(e).toBeInstanceOf(ConfigError);
    expect(e.code).toBe('config_secret');
    expect(e.message).toBe('wsc.yaml:4:16: `vars.t` reads ${env.WSC_TOKEN}; only `token:` may read a secret');
    expect(`${e.message} ${e.hint}`).not.toContain(SECRET);
  });

  it('several environments and no default: choose one', async () => {
    const d = dirWith('environments:\n  a: { embedded: true }\n  b: { embedded: true }\n');
    await expect(resolveIn(d, {}, {})).rejects.toMatchObject({ code: 'env_required', exitCode: 3 });
  });

  it('an invalid wsc.yaml is a BundleError with its diagnostics', async () => {
    const d = dirWith('defaultEnvironment: nope\nenvironments:\n  a: { embedded: true }\n');
    const e = (await resolveIn(d, {}, {}).catch((x: unknown) => x)) as BundleError;
    expect(e).toBeInstanceOf(BundleError);
    expect(e.diagnostics.map((x) => `${x.pos.file}:${x.pos.line}:${x.pos.col} ${x.message}`)).toEqual([
      'wsc.yaml:1:21 defaultEnvironment `nope` is not one of the environments (a)',
    ]);
  });

  it('an environment both embedded and remote is refused', async () => {
    const d = dirWith('environments:\n  a:\n    embedded: true\n    baseUrl: https://x.example.com\n');
    const e = (await resolveIn(d, {}, {}).catch((x: unknown) => x)) as BundleError;
    expect(e.diagnostics.map((x) => `${x.pos.line}:${x.pos.col} ${x.rule}`)).toEqual(['4:5 environment-conflict']);
  });
});

describe('normalizeBaseUrl', () => {
  it.each([
    ['https://acme.cubecloud.dev', 'https://acme.cubecloud.dev'],
    ['https://acme.cubecloud.dev/', 'https://acme.cubecloud.dev'],
    ['https://acme.cubecloud.dev/api/v1', 'https://acme.cubecloud.dev'],
    ['https://acme.cubecloud.dev/api/v1/', 'https://acme.cubecloud.dev'],
    ['https://example.com/prefix/', 'https://example.com/prefix'],
    ['http://127.0.0.1:4010', 'http://127.0.0.1:4010'],
    ['http://127.5.6.7', 'http://127.5.6.7'],
    ['http://localhost:8080/api/v1', 'http://localhost:8080'],
    ['http://[::1]:4010', 'http://[::1]:4010'],
  ])('%s -> %s', (raw, expected) => {
    expect(normalizeBaseUrl(raw, 'test')).toBe(expected);
  });

  it.each([
    ['http://example.com', 'base_url_insecure'],
    ['http://128.0.0.1', 'base_url_insecure'],
    ['http://localhost.evil.com', 'base_url_insecure'],
    ['ftp://example.com', 'base_url_invalid'],
    ['example.com', 'base_url_invalid'],
    ['https://example.com/?a=1', 'base_url_invalid'],
    ['https://user:pw@example.com', 'base_url_credentials'],
  ])('%s is refused (%s)', (raw, code) => {
    const err = errorOf(() => normalizeBaseUrl(raw, 'test'), ConfigError);
    expect(err.code).toBe(code);
    expect(err.message).not.toContain('pw@');
  });
});
