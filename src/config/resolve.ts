// The one place a command's configuration is resolved, as taze's
// resolveConfig does it: flags > environment variables (read once, into
// Settings, by src/env.ts) > wsc.yaml > defaults. Commands call
// resolveConfig and take every value from what it returns.
import type { Settings } from '../env.js';
import { resolveEnvironment, type Overrides } from './environment.js';
import type { ResolvedEnvironment } from './types.js';

/** The flags that choose and reach an environment, and bound what is read (connected commands only). */
export interface ConfigFlags {
  env?: string | undefined;
  baseUrl?: string | undefined;
  deployment?: number | undefined;
  pageSize?: number | undefined;
  maxListItems?: number | undefined;
  maxListBytes?: number | undefined;
}

/** What the client is given; undefined: the client's default. */
export interface ClientLimits {
  requestTimeoutMs?: number;
  pageSize?: number;
  maxListItems?: number;
  maxListBytes?: number;
  /** The semantic check's time budget (api/semantic-run.ts), not the client's: it travels with the connection. */
  semanticTimeoutMs?: number;
}

interface ConfigInput {
  /** The bundle directory, whose wsc.yaml names the environments. */
  dir: string;
  flags: ConfigFlags;
  settings: Settings;
  /** false: no token needed, and the client's settings are not read (`wsc validate`, `wsc preview`). Default true. */
  connects?: boolean;
  /** The environment below --env and WSC_ENV, above wsc.yaml's default: a saved plan's. */
  envName?: string;
}

export interface ResolvedConfig {
  environment: ResolvedEnvironment;
  client: ClientLimits;
}

/** The client's settings: each flag, else its variable, else the client's default. */
function clientLimits(flags: ConfigFlags, settings: Settings): ClientLimits {
  const out: ClientLimits = {};
  const timeout = settings.requestTimeoutMs;
  const pageSize = flags.pageSize ?? settings.pageSize;
  const maxListItems = flags.maxListItems ?? settings.maxListItems;
  const maxListBytes = flags.maxListBytes ?? settings.maxListBytes;
  const semanticTimeout = settings.semanticTimeoutMs;
  if (timeout !== undefined) out.requestTimeoutMs = timeout;
  if (pageSize !== undefined) out.pageSize = pageSize;
  if (maxListItems !== undefined) out.maxListItems = maxListItems;
  if (maxListBytes !== undefined) out.maxListBytes = maxListBytes;
  if (semanticTimeout !== undefined) out.semanticTimeoutMs = semanticTimeout;
  return out;
}

/** What flags and variables say of the environment, the flag first. */
function overridesOf(flags: ConfigFlags, settings: Settings, envName: string | undefined): Overrides {
  const over: Overrides = {};
  const name = flags.env ?? settings.envName ?? envName;
  if (name !== undefined) over.envName = name;
  if (flags.env === undefined && name !== undefined)
    over.envSource = settings.envName !== undefined ? 'WSC_ENV' : 'the saved plan';
  if (flags.baseUrl !== undefined) over.baseUrl = { raw: flags.baseUrl, source: '--base-url' };
  else if (settings.baseUrl !== undefined) over.baseUrl = { raw: settings.baseUrl, source: 'WSC_BASE_URL' };
  const deployment = flags.deployment ?? settings.deploymentId;
  if (deployment !== undefined) over.deployment = deployment;
  const scheme = settings.authScheme;
  if (scheme !== undefined) over.authScheme = scheme;
  return over;
}

export async function resolveConfig(input: ConfigInput): Promise<ResolvedConfig> {
  const connects = input.connects !== false;
  // The client's settings first: a bad WSC_REQUEST_TIMEOUT is found before wsc.yaml is read.
  const client = connects ? clientLimits(input.flags, input.settings) : {};
  const environment = await resolveEnvironment({
    dir: input.dir,
    overrides: () => overridesOf(input.flags, input.settings, input.envName),
    settings: input.settings,
    requireToken: connects,
  });
  return { environment, client };
}
