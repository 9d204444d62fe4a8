// Which environment a command runs against, and how to reach it: what the
// flags and environment variables say (merged by config/resolve.ts, the one
// entry point), then wsc.yaml, then the defaults.
import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import type { Settings } from '../env.js';
import { BundleError, ConfigError } from '../errors.js';
import { requireBundleDir } from '../bundle-dir.js';
import { closest, listSome } from '../domain/suggest.js';
import { NOT_IN_HEADER } from '../domain/unsafe-chars.js';
import { normalizeBaseUrl } from './base-url.js';
import type { EnvironmentConfig } from './schema.js';
import type { AuthScheme, ResolvedEnvironment } from './types.js';
import { interpolate, SECRET_ENV_RE, type VarLookup } from '../yaml/variables.js';
import { loadWscConfig } from './wsc-yaml.js';
import type { Path, PositionIndex } from '../yaml/positions.js';
import { addSecret, holdsSecret } from '../redact.js';

const IMPLICIT_ENV = 'local';

/** What flags and environment variables say (the flag where both do), before wsc.yaml is consulted. */
export interface Overrides {
  /** --env, else WSC_ENV (else, for `apply PLANFILE`, the plan's environment) */
  envName?: string;
  /** Where envName came from, when not --env: `WSC_ENV`, or `the saved plan` (said when it names no environment). */
  envSource?: string;
  baseUrl?: { raw: string; source: string };
  deployment?: number;
  authScheme?: AuthScheme;
}

interface EnvironmentInput {
  dir: string;
  /** Called once wsc.yaml is known to be valid: a bad variable is reported after a missing directory or a bad file. */
  overrides: () => Overrides;
  /** WSC_TOKEN and the variables `${env.NAME}` reads. */
  settings: Pick<Settings, 'token' | 'variables'>;
  /**
   * false: a missing token is not an error (`wsc validate` never calls the
   * API, so CI can validate without secrets).
   */
  requireToken: boolean;
}

export async function resolveEnvironment(input: EnvironmentInput): Promise<ResolvedEnvironment> {
  const dir = resolve(input.dir);
  await requireBundleDir(dir);
  const { requireToken } = input;
  const penv = input.settings.variables;
  const loaded = loadWscConfig(dir);
  // Every token any environment could use is a secret from here on, before anything can print it.
  const tokenVariables = loaded?.tokenVariables ?? [];
  addSecret(input.settings.token);
  for (const v of tokenVariables) addSecret(Object.hasOwn(penv, v) ? penv[v] : undefined);
  if (loaded && !loaded.config) throw new BundleError(loaded.diagnostics);
  const over = input.overrides();
  if (!loaded?.config) return withoutConfig(dir, over, input.settings.token, requireToken);

  const config = loaded.config;
  const name = chooseEnvironment(config.environments, config.defaultEnvironment, over.envName, over.envSource);
  const cfg = config.environments[name]!;
  const { at, expand } = expanderFor(name, loaded.positions!, penv, tokenVariables);
  // What else of wsc.yaml the environment carries: token variables, `bundle:`, the environment's `prune:`.
  const owned = (env: ResolvedEnvironment): ResolvedEnvironment => {
    if (tokenVariables.length > 0) env.tokenVariables = tokenVariables;
    if (config.bundle !== undefined) env.bundle = config.bundle;
    if (config.folderLookAlikes === 'allow') env.folderLookAlikes = 'allow';
    if (cfg.prune === true) env.prune = true;
    if (cfg.uiEdits !== undefined) env.uiEdits = cfg.uiEdits;
    if (cfg.semanticCheck === false) env.semanticCheck = false;
    return env;
  };
  const vars = expandVars(cfg.vars ?? {}, (text, path) =>
    expand(text, ['vars', ...path], `\`vars.${path.join('.')}\``),
  );
  refuseTokenValues(vars, (path) => `${at(['vars', ...path])}: \`vars.${path.join('.')}\``);
  const publicIds = cfg.publicIds ?? 'as-is';
  const scheme = over.authScheme ?? cfg.authScheme ?? 'bearer';

  if (!over.baseUrl) {
    if (cfg.embedded === true) {
      const env = embedded(name, dir, over.deployment ?? cfg.deploymentId ?? 1, vars, publicIds, scheme);
      return owned(env);
    }
    if (cfg.baseUrl === undefined) {
      throw new ConfigError(
        'env_no_target',
        `environment \`${name}\` has neither \`baseUrl\` nor \`embedded: true\` (${at([])})`,
        {
          hint: 'Give it `baseUrl: https://...`, or `embedded: true` for the local emulator.',
        },
      );
    }
  }
  const baseUrl = over.baseUrl
    ? normalizeBaseUrl(over.baseUrl.raw, over.baseUrl.source)
    : normalizeBaseUrl(
        String(expand(cfg.baseUrl!, ['baseUrl'], '`baseUrl`')),
        `${at(['baseUrl'])}: environment \`${name}\``,
      );
  let token = input.settings.token;
  let source = 'WSC_TOKEN';
  if (token === undefined && cfg.token !== undefined && requireToken) {
    token = String(expand(cfg.token, ['token'], 'its token'));
    source = `${cfg.token} (${at(['token'])})`;
  }
  const env = remote({
    name,
    baseUrl,
    deploymentId: requireDeployment(name, over.deployment ?? cfg.deploymentId),
    token: tokenOrFail(name, token, requireToken, source),
    tokenSource: source,
    authScheme: scheme,
    publicIds,
    vars,
  });
  return owned(env);
}

/** No wsc.yaml: the embedded environment, or the host the flags name. */
function withoutConfig(
  dir: string,
  over: Overrides,
  wscToken: string | undefined,
  requireToken: boolean,
): ResolvedEnvironment {
  if (!over.baseUrl) {
    if (over.envName !== undefined && over.envName !== IMPLICIT_ENV) {
      const why =
        `environment \`${over.envName}\`${fromWhere(over.envName, over.envSource)} is not defined: ` +
        `there is no wsc.yaml in ${dir}`;
      throw new ConfigError('env_unknown', why, {
        hint: 'Create wsc.yaml with `environments:`, or give --base-url and --deployment.',
      });
    }
    return embedded(IMPLICIT_ENV, dir, over.deployment ?? 1, {}, 'as-is', over.authScheme ?? 'bearer');
  }
  const name = over.envName ?? 'default';
  return remote({
    name,
    baseUrl: normalizeBaseUrl(over.baseUrl.raw, over.baseUrl.source),
    deploymentId: requireDeployment(name, over.deployment),
    token: tokenOrFail(name, wscToken, requireToken, 'WSC_TOKEN'),
    tokenSource: 'WSC_TOKEN',
    authScheme: over.authScheme ?? 'bearer',
    publicIds: 'as-is',
    vars: {},
  });
}

/** Where an environment asked for came from, for its error (nothing for --env, which the user typed). */
function fromWhere(asked: string | undefined, source: string | undefined): string {
  return asked !== undefined && source !== undefined ? ` (from ${source})` : '';
}

/** The environment asked for, else wsc.yaml's default, else the only one, else `local` if defined. */
function chooseEnvironment(
  environments: Record<string, EnvironmentConfig>,
  defaultEnvironment: string | undefined,
  asked: string | undefined,
  source?: string,
): string {
  const names = Object.keys(environments);
  const implicit = names.length === 1 ? names[0] : names.includes(IMPLICIT_ENV) ? IMPLICIT_ENV : undefined;
  const name = asked ?? defaultEnvironment ?? implicit;
  if (name === undefined) {
    throw new ConfigError(
      'env_required',
      `wsc.yaml defines several environments (${listSome(names)}) and no defaultEnvironment`,
      {
        hint: 'Choose one with --env NAME (or WSC_ENV), or set `defaultEnvironment:` in wsc.yaml.',
      },
    );
  }
  if (!Object.hasOwn(environments, name)) {
    const near = closest(name, names);
    throw new ConfigError(
      'env_unknown',
      `environment \`${name}\`${fromWhere(asked, source)} is not defined in wsc.yaml` +
        `${near ? ` (did you mean \`${near}\`?)` : ''}`,
      {
        hint:
          (names.length ? `Defined environments: ${listSome(names)}.` : 'Add it under `environments:` in wsc.yaml.') +
          (asked !== undefined && source === 'WSC_ENV' ? ' Set WSC_ENV to one of them, or unset it.' : ''),
      },
    );
  }
  return name;
}

/**
 * `${env.NAME}` in the values of environment `name`: `at` gives a value's
 * wsc.yaml position, `expand` its text with the variables read (only
 * `token:` may read a secret), or throws the error that names where.
 */
function expanderFor(
  name: string,
  positions: PositionIndex,
  penv: Readonly<Record<string, string | undefined>>,
  tokenVariables: readonly string[],
): { at: (path: Path) => string; expand: (text: string, path: Path, what: string) => unknown } {
  const at = (path: Path) => {
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
  const expand = (text: string, path: Path, what: string): unknown => {
    const r = interpolate(text, lookup(path[0] === 'token'));
    const problem = r.problems[0];
    if (!problem) return r.value;
    if (problem.kind === 'refused') {
      throw new ConfigError('config_secret', `${at(path)}: ${what} reads ${problem.ref}; ${problem.reason}`, {
        hint: 'A secret read into `vars` or `baseUrl` could reach dashboards and printed plans.',
      });
    }
    if (problem.kind === 'malformed' || problem.ns !== 'env') {
      throw new ConfigError(
        'config_variable',
        `${at(path)}: ${what} uses \`${problem.ref}\`; wsc.yaml can only read \${env.NAME}`,
        {
          hint:
            'Variables of the bundle (${vars.NAME}) are defined here, under ' +
            '`vars:`; they cannot be used in wsc.yaml itself.',
        },
      );
    }
    throw new ConfigError(
      'env_var_unset',
      `${at(path)}: environment \`${name}\` reads ${what} from ${problem.ref}, but ${problem.name} is not set`,
      {
        hint: `Set ${problem.name} in the environment wsc runs in.`,
      },
    );
  };
  return { at, expand };
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
  if (out.token === undefined) {
    delete out.token;
    delete out.tokenSource;
  }
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
    throw new ConfigError(
      'token_invalid',
      `the API token of environment \`${name}\` (from ${source}) ${problem}; it cannot be sent in an HTTP header`,
      {
        hint:
          'Set the variable to the token alone: no line break, no space or tab ' +
          'around it, no character outside Latin-1 (a copy from a file or a ' +
          'terminal often ends in a newline).',
      },
    );
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
  const bad = NOT_IN_HEADER.exec(token);
  if (bad === null) return undefined;
  const c = bad[0].charCodeAt(0);
  const what = c > 0xff ? 'a character outside Latin-1' : 'a control character';
  return `holds ${what} (U+${c.toString(16).toUpperCase().padStart(4, '0')}) at position ${bad.index + 1}`;
}

/**
 * A `vars` value that equals or contains a token wsc resolved, however it got
 * there (a literal, `${env.X}` under another name): refused, naming where and
 * which variable, never the value (the plan would show `***`, the server the token).
 */
function refuseTokenValues(vars: Record<string, unknown>, where: (path: Path) => string): void {
  const walk = (v: unknown, path: Path): void => {
    if (Array.isArray(v)) v.forEach((x, i) => walk(x, [...path, i]));
    else if (v !== null && typeof v === 'object') for (const [k, x] of Object.entries(v)) walk(x, [...path, k]);
    else if (v !== null && v !== undefined && holdsSecret(String(v))) {
      throw new ConfigError('config_secret', `${where(path)} holds the value of an API token wsc uses`, {
        hint:
          'Values of `vars` reach dashboards and the server, while the plan shows a token redacted to the ' +
          'reviewer: keep tokens in `token:` only.',
      });
    }
  };
  walk(vars, []);
}

/** `${env.NAME}` in the string values of `vars`, recursively. */
function expandVars(
  value: Record<string, unknown>,
  expand: (text: string, path: Path) => unknown,
): Record<string, unknown> {
  const walk = (v: unknown, path: Path): unknown => {
    if (typeof v === 'string') return expand(v, path);
    if (Array.isArray(v)) return v.map((x, i) => walk(x, [...path, i]));
    // fromEntries defines each key as an own property: `__proto__` stays a key, not a prototype.
    if (v !== null && typeof v === 'object')
      return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, walk(x, [...path, k])]));
    return v;
  };
  return walk(value, []) as Record<string, unknown>;
}
