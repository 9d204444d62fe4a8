// The first step of every command that reads a bundle: flags, the
// environment variables (read once into ctx.settings) and wsc.yaml resolved
// into the environment and the client's settings (config/resolve.ts). Offline:
// `wsc validate` and `wsc preview` use it without loading the HTTP client.
import { resolve } from 'node:path';
import { resolveConfig, type ConfigFlags, type ResolvedConfig } from '../config/resolve.js';
import type { CommandContext } from './context.js';
import { validateAgain } from './steps.js';

interface ConfigureOptions {
  /** Whose wsc.yaml names the environment (relative to the working directory). */
  dir: string;
  /** false: no token needed and the client's settings are not read. Default true. */
  connects?: boolean;
  /** The environment below --env and WSC_ENV (a saved plan's). */
  envName?: string;
}

export function configure(flags: ConfigFlags, ctx: CommandContext, o: ConfigureOptions): Promise<ResolvedConfig> {
  const resolved = resolveConfig({
    dir: resolve(ctx.cwd, o.dir),
    flags,
    settings: ctx.settings,
    ...(o.connects === false ? { connects: false } : {}),
    ...(o.envName !== undefined ? { envName: o.envName } : {}),
  });
  // An invalid wsc.yaml: its way forward validates this directory, with this run's --env.
  return validateAgain(resolved, { dir: o.dir, env: flags.env });
}
