// The environment variables wsc reads: one table, printed in docs/commands.md
// (a test keeps the two in step), and the one reader of them, `readSettings`.
// Everything else takes the values from the Settings it returns; flags,
// wsc.yaml and defaults are merged with them by config/resolve.ts
// (flags > environment variables > wsc.yaml > defaults).
import {
  DOCTOR_TIMEOUT_S,
  MAP_WIDTH,
  MAX_LIST_BYTES,
  MAX_LIST_ITEMS,
  PAGE_SIZE,
  PAGE_SIZE_MAX,
  REQUEST_TIMEOUT_S,
  SEMANTIC_TIMEOUT_S,
  sizeText,
} from './defaults.js';
import { ConfigError, type ConfigCode } from './errors.js';
export interface EnvVarDoc {
  name: string;
  description: string;
}

export const ENV_VARS: readonly EnvVarDoc[] = [
  { name: 'WSC_ENV', description: 'Environment of wsc.yaml to use (like `--env`).' },
  {
    name: 'WSC_BASE_URL',
    description:
      'Base URL of the API host, e.g. `https://acme.cubecloud.dev` (like `--base-url`); `/api/v1` is appended.',
  },
  { name: 'WSC_DEPLOYMENT_ID', description: 'Numeric deployment id (like `--deployment`).' },
  {
    name: 'WSC_TOKEN',
    description: 'API token, used when the environment names none. Never printed nor written to a file.',
  },
  {
    name: 'WSC_AUTH_SCHEME',
    description:
      '`bearer` (default: `Authorization: Bearer <token>`), `api-key` (`Api-Key <token>`) or `raw` (the token alone).',
  },
  {
    name: 'WSC_REQUEST_TIMEOUT',
    description: `Seconds to wait for one HTTP response before it counts as failed (default ${REQUEST_TIMEOUT_S}).`,
  },
  {
    name: 'WSC_DOCTOR_TIMEOUT',
    description:
      `Seconds \`wsc doctor\` may take for all its checks (default ${DOCTOR_TIMEOUT_S}); ` +
      'a check has at most 12 s of it (the round trip 40 s), and what is left when it runs out ' +
      'is shown as not checked.',
  },
  {
    name: 'WSC_SEMANTIC_TIMEOUT',
    description:
      `Seconds the semantic check of plan and apply (and \`validate --semantic-check\`) waits for the data model ` +
      `(default ${SEMANTIC_TIMEOUT_S}), and as much again for Cube's planner; past it, a warning and the plan goes on.`,
  },
  {
    name: 'WSC_PAGE_SIZE',
    description:
      `Items per list page wsc asks for (like \`--page-size\`; default ${PAGE_SIZE}). A ` +
      'list whose server refuses it or answers shorter pages gets smaller ones for ' +
      'the rest of the run, that list only (`--verbose` says so).',
  },
  {
    name: 'WSC_MAX_LIST_ITEMS',
    description:
      `Items one list may have (like \`--max-list-items\`; default ${MAX_LIST_ITEMS}). A ` +
      'list also stops at the count its first page gave plus a margin (10%, ' +
      'at least 1000): past either, the command stops with exit 1 and writes ' +
      'nothing, instead of reading a server that pages forever.',
  },
  {
    name: 'WSC_MAX_LIST_BYTES',
    description:
      'Bytes of list answers one command reads in all (like `--max-list-bytes`; ' +
      `default ${sizeText(MAX_LIST_BYTES)}; \`K\`, \`M\`, \`G\` are powers of 1024). Past it the command ` +
      'stops with exit 1 and writes nothing, instead of holding whatever a server sends.',
  },
  {
    name: 'WSC_TIMINGS',
    description:
      'When set, wsc prints at exit, on stderr, the wall and CPU time of ' +
      'each phase (start-up, bundle, read deployment, plan, apply, export, output).',
  },
  { name: 'NO_COLOR', description: 'Any non-empty value turns colour off (like `--no-color`).' },
  { name: 'CI', description: 'When set, no spinners and no interactive prompts.' },
  {
    name: 'COLUMNS',
    description:
      "Width the plan's layout map is drawn for when stdout is not a terminal " +
      `(a terminal's own width wins; default ${MAP_WIDTH}).`,
  },
  {
    name: 'GITHUB_STEP_SUMMARY',
    description:
      'When set (GitHub Actions), `wsc plan` appends its markdown plan to ' +
      'that file (one it cannot add to gives a warning, not a failure).',
  },
] as const;

export type AuthScheme = 'bearer' | 'api-key' | 'raw';
const AUTH_SCHEMES: readonly AuthScheme[] = ['bearer', 'api-key', 'raw'];

/**
 * The variables above, read once, typed. A malformed value is found when it
 * is read but reported (a ConfigError naming the variable, exit 3) when a
 * command uses it: `wsc validate` does not fail for a bad WSC_PAGE_SIZE it
 * never uses.
 */
export interface Settings {
  /** WSC_ENV */
  readonly envName: string | undefined;
  /** WSC_BASE_URL, as given (config/base-url.ts checks it with its source). */
  readonly baseUrl: string | undefined;
  /** WSC_DEPLOYMENT_ID */
  readonly deploymentId: number | undefined;
  /** WSC_TOKEN */
  readonly token: string | undefined;
  /** WSC_AUTH_SCHEME */
  readonly authScheme: AuthScheme | undefined;
  /** WSC_REQUEST_TIMEOUT, in milliseconds. */
  readonly requestTimeoutMs: number | undefined;
  /** WSC_DOCTOR_TIMEOUT, in milliseconds. */
  readonly doctorTimeoutMs: number | undefined;
  /** WSC_SEMANTIC_TIMEOUT, in milliseconds. */
  readonly semanticTimeoutMs: number | undefined;
  /** WSC_PAGE_SIZE */
  readonly pageSize: number | undefined;
  /** WSC_MAX_LIST_ITEMS */
  readonly maxListItems: number | undefined;
  /** WSC_MAX_LIST_BYTES, in bytes. */
  readonly maxListBytes: number | undefined;
  /** WSC_TIMINGS set. */
  readonly timings: boolean;
  /** NO_COLOR set. */
  readonly noColor: boolean;
  /** CI as set (a value of `false` turns spinners back on, but not prompts). */
  readonly ci: string | undefined;
  /** COLUMNS, a positive whole number (else undefined). */
  readonly columns: number | undefined;
  /** TERM is `dumb`: no colour. */
  readonly dumbTerminal: boolean;
  /** GITHUB_STEP_SUMMARY */
  readonly stepSummary: string | undefined;
  /** Every variable as it was, for `${env.NAME}` in wsc.yaml and the bundle files (own properties only). */
  readonly variables: Readonly<Record<string, string | undefined>>;
}

/** A size in bytes: a whole number, or one with `K`, `M` or `G` (powers of 1024; `MiB`, `MB` alike). */
export function parseBytes(text: string): number | undefined {
  const m = /^\s*(\d+)\s*(?:([kmg])(?:i?b)?|b)?\s*$/i.exec(text);
  if (!m) return undefined;
  const n = Number(m[1]) * 1024 ** ' kmg'.indexOf((m[2] ?? ' ').toLowerCase());
  return n >= 1 && Number.isSafeInteger(n) ? n : undefined;
}

type Parsed<T> = { value: T | undefined } | { error: ConfigError };

/** One variable's value, or the error that names it and what it takes. */
function parsed<T>(raw: string | undefined, parse: (raw: string) => T | ConfigError): Parsed<T> {
  if (raw === undefined) return { value: undefined };
  const v = parse(raw);
  return v instanceof ConfigError ? { error: v } : { value: v };
}

function take<T>(p: Parsed<T>): T | undefined {
  if ('error' in p) throw p.error;
  return p.value;
}

/** At most 40 characters of a bad value, quoted: enough to recognise it, never a pasted file. */
const shown = (raw: string) => JSON.stringify(raw.slice(0, 40));

function deploymentId(raw: string): number | ConfigError {
  if (/^\s*\d+\s*$/.test(raw) && Number(raw) >= 1 && Number.isSafeInteger(Number(raw))) return Number(raw);
  return new ConfigError('deployment_invalid', `WSC_DEPLOYMENT_ID must be a positive whole number, got ${shown(raw)}`);
}

function authScheme(raw: string): AuthScheme | ConfigError {
  if ((AUTH_SCHEMES as readonly string[]).includes(raw)) return raw as AuthScheme;
  return new ConfigError(
    'auth_scheme_invalid',
    `WSC_AUTH_SCHEME must be one of ${AUTH_SCHEMES.join(', ')}, got ${shown(raw)}`,
  );
}

/** A variable giving seconds above 0, in milliseconds; else the error naming it and its default. */
function seconds(name: string, code: ConfigCode, defaults: { seconds: number; example: number }) {
  return (raw: string): number | ConfigError => {
    const n = Number(raw);
    if (Number.isFinite(n) && n > 0) return Math.round(n * 1000);
    return new ConfigError(code, `${name} must be a number of seconds above 0, got "${raw}".`, {
      hint: `Unset it for the default (${defaults.seconds} s), or set e.g. ${name}=${defaults.example}.`,
    });
  };
}
const requestTimeout = seconds('WSC_REQUEST_TIMEOUT', 'request_timeout_invalid', {
  seconds: REQUEST_TIMEOUT_S,
  example: 60,
});
const doctorTimeout = seconds('WSC_DOCTOR_TIMEOUT', 'doctor_timeout_invalid', {
  seconds: DOCTOR_TIMEOUT_S,
  example: 20,
});
const semanticTimeout = seconds('WSC_SEMANTIC_TIMEOUT', 'semantic_timeout_invalid', {
  seconds: SEMANTIC_TIMEOUT_S,
  example: 30,
});

function pageSize(raw: string): number | ConfigError {
  const n = Number(raw);
  if (/^\d+$/.test(raw.trim()) && n >= 1 && n <= PAGE_SIZE_MAX) return n;
  return new ConfigError(
    'page_size_invalid',
    `WSC_PAGE_SIZE must be a whole number from 1 to ${PAGE_SIZE_MAX}, got "${raw}".`,
    {
      hint: `Unset it for the default (${PAGE_SIZE}), or set e.g. WSC_PAGE_SIZE=100.`,
    },
  );
}

function maxListItems(raw: string): number | ConfigError {
  const n = Number(raw);
  if (/^\d+$/.test(raw.trim()) && n >= 1 && Number.isSafeInteger(n)) return n;
  return new ConfigError('max_list_items_invalid', `WSC_MAX_LIST_ITEMS must be a whole number above 0, got "${raw}".`, {
    hint: `Unset it for the default (${MAX_LIST_ITEMS}), or set e.g. WSC_MAX_LIST_ITEMS=500000.`,
  });
}

function maxListBytes(raw: string): number | ConfigError {
  const n = parseBytes(raw);
  if (n !== undefined) return n;
  return new ConfigError('max_list_bytes_invalid', `WSC_MAX_LIST_BYTES must be a size above 0, got "${raw}".`, {
    hint: `Unset it for the default (${sizeText(MAX_LIST_BYTES)}), or set e.g. WSC_MAX_LIST_BYTES=2G.`,
  });
}

/** Reads the environment `env` (the process's, or a test's) once; an empty value counts as unset. */
export function readSettings(env: Readonly<Record<string, string | undefined>>): Settings {
  const variables: Record<string, string | undefined> = Object.create(null) as Record<string, string | undefined>;
  for (const [k, v] of Object.entries(env)) variables[k] = v;
  Object.freeze(variables);
  const get = (name: string): string | undefined => {
    const v = Object.hasOwn(variables, name) ? variables[name] : undefined;
    return v === undefined || v === '' ? undefined : v;
  };
  const deployment = parsed(get('WSC_DEPLOYMENT_ID'), deploymentId);
  const scheme = parsed(get('WSC_AUTH_SCHEME'), authScheme);
  const timeout = parsed(get('WSC_REQUEST_TIMEOUT'), requestTimeout);
  const doctor = parsed(get('WSC_DOCTOR_TIMEOUT'), doctorTimeout);
  const semantic = parsed(get('WSC_SEMANTIC_TIMEOUT'), semanticTimeout);
  const size = parsed(get('WSC_PAGE_SIZE'), pageSize);
  const items = parsed(get('WSC_MAX_LIST_ITEMS'), maxListItems);
  const bytes = parsed(get('WSC_MAX_LIST_BYTES'), maxListBytes);
  const columns = Number(get('COLUMNS'));
  return Object.freeze({
    envName: get('WSC_ENV'),
    baseUrl: get('WSC_BASE_URL'),
    get deploymentId() {
      return take(deployment);
    },
    token: get('WSC_TOKEN'),
    get authScheme() {
      return take(scheme);
    },
    get requestTimeoutMs() {
      return take(timeout);
    },
    get doctorTimeoutMs() {
      return take(doctor);
    },
    get semanticTimeoutMs() {
      return take(semantic);
    },
    get pageSize() {
      return take(size);
    },
    get maxListItems() {
      return take(items);
    },
    get maxListBytes() {
      return take(bytes);
    },
    timings: get('WSC_TIMINGS') !== undefined,
    noColor: get('NO_COLOR') !== undefined,
    ci: get('CI'),
    columns: Number.isInteger(columns) && columns > 0 ? columns : undefined,
    dumbTerminal: get('TERM') === 'dumb',
    stepSummary: get('GITHUB_STEP_SUMMARY'),
    variables,
  });
}

let ofProcess: Settings | undefined;

/** The process's environment, read once per process: main.ts and the command get the same values. */
export function processSettings(): Settings {
  return (ofProcess ??= readSettings(process.env));
}
