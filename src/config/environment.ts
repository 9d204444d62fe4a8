// Which environment a command runs against, and how to reach it.
// Precedence: flags > environment variables > wsc.yaml > defaults.
import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { envValue } from '../env.js';
import { BundleError, ConfigError } from '../errors.js';
import { closest } from '../suggest.js';
import { normalizeBaseUrl } from './base-url.js';
import type { EnvironmentConfig } from './schema.js';
import type { AuthScheme, ResolvedEnvironment } from './types.js';
import { interpolate, SECRET_ENV_RE, type VarLookup } from '../yaml/variables.js';
import { loadWscConfig } from './wsc-yaml.js';
import { addSecret } from '../redact.js';

export interface EnvironmentFlags {
  env?: string;
  baseUrl?: string;
  deployment?: number;
}

export interface ResolveInput {
  dir: string;
  flags: EnvironmentFlags;
  env: Record<string, string | undefined>;
  /**
   * false: a missing token is not an error (`wsc validate` never calls the
   * API, so CI can validate without secrets). Default true.
   */
  requireToken?: boolean;
}

const AUTH_SCHEMES: readonly AuthScheme[] = ['bearer', 'api-key', 'raw'];
export const IMPLICIT_ENV = 'local';

export async function resolveEnvironment(input: ResolveInput): Promise<ResolvedEnvironment> {
  const dir = resolve(input.dir);
  const penv = input.env;
  const requireToken = input.requireToken !== false;
  const loaded = await loadWscConfig(dir);
  // Every token any environment could use is a secret from here on, before anything can print it.
  const tokenVariables = loaded?.tokenVariables ?? [];
  const withTokenVariables = (e: ResolvedEnvironment): ResolvedEnvironment => (tokenVariables.length > 0 ? { ...e, tokenVariables } : e);
  addSecret(envValue(penv, 'WSC_TOKEN'));
  for (const v of tokenVariables) addSecret(Object.hasOwn(penv, v) ? penv[v] : undefined);
  if (loaded && !loaded.config) throw new BundleError(loaded.diagnostics);

  const flagEnv = input.flags.env ?? envValue(penv, 'WSC_ENV');
  const baseUrlOverride =
    input.flags.baseUrl !== undefined
      ? { raw: input.flags.baseUrl, source: '--base-url' }
      : envValue(penv, 'WSC_BASE_URL') !== undefined
        ? { raw: envValue(penv, 'WSC_BASE_URL')!, source: 'WSC_BASE_URL' }
        : undefined;
  const deploymentOverride = input.flags.deployment ?? deploymentFromEnv(penv);
  const authScheme = authSchemeFromEnv(penv);

  // No wsc.yaml: the embedded environment, or the host the flags name.
  if (!loaded?.config) {
    if (!baseUrlOverride) {
      if (flagEnv !== undefined && flagEnv !== IMPLICIT_ENV) {
        throw new ConfigError('env_unknown', `environment \`${flagEnv}\` is not defined: there is no wsc.yaml in ${dir}`, {
          hint: 'Create wsc.yaml with `environments:`, or give --base-url and --deployment.',
        });
      }
      return embedded(IMPLICIT_ENV, dir, deploymentOverride ?? 1, {}, 'as-is', authScheme ?? 'bearer');
    }
    const name = flagEnv ?? 'default';
    return remote({
      name,
      baseUrl: normalizeBaseUrl(baseUrlOverride.raw, baseUrlOverride.source),
      deploymentId: requireDeployment(name, deploymentOverride),
      token: tokenOrFail(name, envValue(penv, 'WSC_TOKEN'), requireToken, 'WSC_TOKEN'),
      authScheme: authScheme ?? 'bearer',
      publicIds: 'as-is',
      vars: {},
    });
  }

  const config = loaded.config;
  const positions = loaded.positions!;
  const names = Object.keys(config.environments);
  const name = flagEnv ?? config.defaultEnvironment ?? (names.length === 1 ? names[0] : names.includes(IMPLICIT_ENV) ? IMPLICIT_ENV : undefined);
  if (name === undefined) {
    throw new ConfigError('env_required', `wsc.yaml defines several environments (${names.join(', ')}) and no defaultEnvironment`, {
      hint: 'Choose one with --env NAME (or WSC_ENV), or set `defaultEnvironment:` in wsc.yaml.',
    });
  }
  if (!Object.hasOwn(config.environments, name)) {
    const near = closest(name, names);
    throw new ConfigError('env_unknown', `environment \`${name}\` is not defined in wsc.yaml${near ? ` (did you mean \`${near}\`?)` : ''}`, {
      hint: names.length ? `Defined environments: ${names.join(', ')}.` : 'Add it under `environments:` in wsc.yaml.',
    });
  }
  const cfg = config.environments[name]!;
  const at = (path: (string | number)[]) => {
    const p = positions.find(['environments', name, ...path], 'value');
    return `wsc.yaml:${p.line}:${p.col}`;
  };
  const lookup =
    (allowSecrets: boolean): VarLookup =>
    (ns, varName) => {
      if (ns !== 'env') return { found: false };
      if (!allowSecrets && (SECRET_ENV_RE.test(varName) || tokenVariables.includes(varName))) {
        return { found: false, refused: 'only `token:` may read a secret' };
      }
      const v = Object.hasOwn(penv, varName) ? penv[varName] : undefined;
      return v === undefined ? { found: false } : { found: true, value: v };
    };
  const expand = (text: string, path: (string | number)[], what: string): string | unknown => {
    const r = interpolate(text, lookup(path[0] === 'token'));
    const problem = r.problems[0];
    if (!problem) return r.value;
    if (problem.kind === 'refused') {
      throw new ConfigError('config_secret', `${at(path)}: ${what} reads ${problem.ref}; ${problem.reason}`, {
        hint: 'A secret read into `vars` or `baseUrl` could reach dashboards and printed plans.',
      });
    }
    if (problem.kind === 'malformed' || problem.ns !== 'env') {
      throw new ConfigError('config_variable', `${at(path)}: ${what} uses \`${problem.ref}\`; wsc.yaml can only read \${env.NAME}`, {
        hint: 'Variables of the bundle (${vars.NAME}) are defined here, under `vars:`; they cannot be used in wsc.yaml itself.',
      });
    }
    throw new ConfigError('env_var_unset', `${at(path)}: environment \`${name}\` reads ${what} from ${problem.ref}, but ${problem.name} is not set`, {
      hint: `Set ${problem.name} in the environment wsc runs in.`,
    });
  };
  const vars = expandVars(cfg.vars ?? {}, (text, path) => expand(text, ['vars', ...path], `\`vars.${path.join('.')}\``));
  const publicIds = cfg.publicIds ?? 'as-is';
  const scheme = authScheme ?? cfg.authScheme ?? 'bearer';

  if (!baseUrlOverride) {
    if (cfg.embedded === true) {
      const env = embedded(name, dir, deploymentOverride ?? cfg.deploymentId ?? 1, vars, publicIds, scheme);
      return owned(withTokenVariables(env), config.bundle, cfg.prune);
    }
    if (cfg.baseUrl === undefined) {
      throw new ConfigError('env_no_target', `environment \`${name}\` has neither \`baseUrl\` nor \`embedded: true\` (${at([])})`, {
        hint: 'Give it `baseUrl: https://...`, or `embedded: true` for the local emulator.',
      });
    }
  }
  const baseUrl = baseUrlOverride
    ? normalizeBaseUrl(baseUrlOverride.raw, baseUrlOverride.source)
    : normalizeBaseUrl(String(expand(cfg.baseUrl!, ['baseUrl'], '`baseUrl`')), `${at(['baseUrl'])}: environment \`${name}\``);
  let token = envValue(penv, 'WSC_TOKEN');
  let source = 'WSC_TOKEN';
  if (token === undefined && cfg.token !== undefined && requireToken) {
    token = String(expand(cfg.token, ['token'], 'its token'));
    source = `${cfg.token} (${at(['token'])})`;
  }
  const env = remote({
    name,
    baseUrl,
    deploymentId: requireDeployment(name, deploymentOverride ?? cfg.deploymentId),
    token: tokenOrFail(name, token, requireToken, source),
    authScheme: scheme,
    publicIds,
    vars,
  });
  return owned(withTokenVariables(env), config.bundle, cfg.prune);
}

/** The bundle's name (wsc.yaml `bundle:`) and the environment's `prune:`. */
function owned(env: ResolvedEnvironment, bundle: string | undefined, prune: boolean | undefined): ResolvedEnvironment {
  if (bundle !== undefined) env.bundle = bundle;
  if (prune === true) env.prune = true;
  return env;
}

function embedded(
  name: string,
  dir: string,
  deploymentId: number,
  vars: Record<string, unknown>,
  publicIds: ResolvedEnvironment['publicIds'],
  authScheme: AuthScheme,
): ResolvedEnvironment {
  const stateFile = resolve(dir, '.wsc', 'state', `${name}.json`);
  return {
    name,
    embedded: true,
    stateFile,
    deploymentId,
    authScheme,
    publicIds,
    vars,
    // A fresh emulator holds nothing the bundle does not define; one with state may.
    mayHoldUnknownRefs: existsSync(stateFile),
  };
}

function remote(e: Omit<ResolvedEnvironment, 'embedded' | 'mayHoldUnknownRefs' | 'stateFile'>): ResolvedEnvironment {
  const out: ResolvedEnvironment = { ...e, embedded: false, mayHoldUnknownRefs: true };
  if (out.token === undefined) delete out.token;
  return out;
}

function requireDeployment(name: string, id: number | undefined): number {
  if (id !== undefined) return id;
  throw new ConfigError('deployment_missing', `no deployment id for environment \`${name}\``, {
    hint: 'Give `deploymentId:` in wsc.yaml, --deployment ID, or WSC_DEPLOYMENT_ID.',
  });
}

function tokenOrFail(name: string, token: string | undefined, required: boolean, source: string): string | undefined {
  if (token !== undefined && token !== '') {
    const problem = tokenProblem(token);
    if (problem === undefined || !required) return token;
    // The token is never shown: only what is wrong with it and where it came from.
    throw new ConfigError('token_invalid', `the API token of environment \`${name}\` (from ${source}) ${problem}; it cannot be sent in an HTTP header`, {
      hint: 'Set the variable to the token alone: no line break, no space or tab around it, no character outside Latin-1 (a copy from a file or a terminal often ends in a newline).',
    });
  }
  if (!required) return undefined;
  throw new ConfigError('token_missing', `no API token for environment \`${name}\``, {
    hint: 'Set WSC_TOKEN, or give the environment `token: ${env.YOUR_TOKEN_VARIABLE}` in wsc.yaml.',
  });
}

/** What makes a token unusable in an Authorization header, or undefined. */
export function tokenProblem(token: string): string | undefined {
  if (/^\s|\s$/.test(token)) {
    const at = /\s$/.test(token) ? 'ends' : 'starts';
    const what = /[\r\n]/.test(at === 'ends' ? token.slice(-1) : token[0]!) ? 'a line break' : 'white space';
    return `${at} with ${what}`;
  }
  for (let i = 0; i < token.length; i++) {
    const c = token.charCodeAt(i);
    if (c < 0x20 || c === 0x7f) return `holds a control character (U+${c.toString(16).toUpperCase().padStart(4, '0')}) at position ${i + 1}`;
    if (c > 0xff) return `holds a character outside Latin-1 (U+${c.toString(16).toUpperCase().padStart(4, '0')}) at position ${i + 1}`;
  }
  return undefined;
}

function deploymentFromEnv(env: Record<string, string | undefined>): number | undefined {
  const raw = envValue(env, 'WSC_DEPLOYMENT_ID');
  if (raw === undefined) return undefined;
  if (!/^\s*\d+\s*$/.test(raw) || Number(raw) < 1 || !Number.isSafeInteger(Number(raw))) {
    throw new ConfigError('deployment_invalid', `WSC_DEPLOYMENT_ID must be a positive whole number, got ${JSON.stringify(raw.slice(0, 40))}`);
  }
  return Number(raw);
}

function authSchemeFromEnv(env: Record<string, string | undefined>): AuthScheme | undefined {
  const raw = envValue(env, 'WSC_AUTH_SCHEME');
  if (raw === undefined) return undefined;
  if ((AUTH_SCHEMES as readonly string[]).includes(raw)) return raw as AuthScheme;
  throw new ConfigError('auth_scheme_invalid', `WSC_AUTH_SCHEME must be one of ${AUTH_SCHEMES.join(', ')}, got ${JSON.stringify(raw.slice(0, 40))}`);
}

/** `${env.NAME}` in the string values of `vars`, recursively. */
function expandVars(
  value: Record<string, unknown>,
  expand: (text: string, path: (string | number)[]) => unknown,
): Record<string, unknown> {
  const walk = (v: unknown, path: (string | number)[]): unknown => {
    if (typeof v === 'string') return expand(v, path);
    if (Array.isArray(v)) return v.map((x, i) => walk(x, [...path, i]));
    if (v !== null && typeof v === 'object') {
      const out: Record<string, unknown> = {};
      for (const [k, x] of Object.entries(v)) Object.defineProperty(out, k, { value: walk(x, [...path, k]), enumerable: true, writable: true, configurable: true });
      return out;
    }
    return v;
  };
  return walk(value, []) as Record<string, unknown>;
}

export type { EnvironmentConfig };
