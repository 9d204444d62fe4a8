// `wsc emulator`: serve the local Workspace Content API until SIGINT/SIGTERM.
import { existsSync } from 'node:fs';
import type { EmulatorOptions as CliEmulatorOptions } from './options.js';
import { UsageError } from '../errors.js';
import { isLoopbackHost } from '../domain/loopback.js';
import { createEmulator, FaultSpecError, parseFaults, uiMadeSeed } from '../emulator/index.js';
import { interrupted, type CommandContext } from './context.js';

export function parseLatency(value: string | undefined): number | { min: number; max: number } | undefined {
  if (value === undefined) return undefined;
  const m = /^\s*(\d+)\s*(?:-\s*(\d+)\s*)?$/.exec(value);
  if (!m)
    throw new UsageError(`--latency: expected N or MIN-MAX milliseconds, got "${value}".`, {
      hint: 'e.g. --latency 50 or --latency 20-80',
    });
  const min = Number(m[1]);
  if (m[2] === undefined) return min;
  const max = Number(m[2]);
  if (max < min) throw new UsageError(`--latency: MIN must not exceed MAX in "${value}".`);
  return { min, max };
}

export async function run(opts: CliEmulatorOptions, ctx: CommandContext): Promise<number> {
  if (!isLoopbackHost(opts.host)) {
    throw new UsageError(`--host: the emulator serves loopback only, not "${opts.host}".`, {
      hint: 'use 127.0.0.1 (the default)',
    });
  }
  const latencyMs = parseLatency(opts.latency);
  let faults;
  if (opts.faults !== undefined) {
    try {
      faults = parseFaults(opts.faults);
    } catch (e) {
      if (e instanceof FaultSpecError) {
        throw new UsageError(`--faults: ${e.message}`, {
          hint: 'e.g. --faults "409=0.1,429=0.05,reset-after=0.02,retry-after=1"',
        });
      }
      throw e;
    }
  }
  if (opts.seed !== undefined && !existsSync(opts.seed)) throw new UsageError(`--seed: no such file "${opts.seed}".`);
  if (opts.seed !== undefined && opts.uiMade) {
    throw new UsageError('--seed and --ui-made both seed the emulator: give one of them.');
  }
  if (opts.model !== undefined && !existsSync(opts.model))
    throw new UsageError(`--model: no such file "${opts.model}".`);
  if (opts.coreDataApiUrl !== undefined && !/^https?:\/\/[^/]/.test(opts.coreDataApiUrl))
    throw new UsageError(`--core-data-api-url: expected an http(s) URL, got "${opts.coreDataApiUrl}".`, {
      hint: 'e.g. --core-data-api-url http://127.0.0.1:4000/cubejs-api/v1',
    });
  if (opts.cubeApiSecret === '') throw new UsageError('--cube-api-secret: the secret is empty.');
  let emulator;
  try {
    emulator = await createEmulator({
      port: opts.port,
      host: opts.host,
      ...(opts.state !== undefined ? { stateFile: opts.state } : {}),
      ...(opts.seed !== undefined ? { seed: opts.seed } : opts.uiMade ? { seed: uiMadeSeed() } : {}),
      ...(latencyMs !== undefined ? { latencyMs } : {}),
      ...(faults !== undefined ? { faults } : {}),
      workbookListing: opts.workbookListing,
      ...(opts.model !== undefined ? { model: opts.model } : {}),
      devMode: opts.devMode,
      ...(opts.coreDataApiUrl !== undefined ? { coreDataApiUrl: opts.coreDataApiUrl } : {}),
      ...(opts.cubeApiSecret !== undefined ? { cubeApiSecret: opts.cubeApiSecret } : {}),
      logLimit: 1000,
      logResponses: false,
      // One line per request on stderr: what a CI log of a test run wants to show.
      onRequest: (e) =>
        ctx.err(
          `${e.method} ${e.path}${Object.keys(e.query).length ? `?${new URLSearchParams(e.query)}` : ''} ` +
            `${e.status === 0 ? 'reset' : e.status}${e.fault ? ` [fault ${e.fault}]` : ''} ${e.durationMs}ms\n`,
        ),
    });
  } catch (e) {
    const err = e as NodeJS.ErrnoException;
    if (err.code === 'EADDRINUSE')
      throw new UsageError(`--port: port ${opts.port} is already in use.`, {
        hint: 'choose another port, or --port 0 for any free one',
      });
    throw new UsageError(`cannot start the emulator: ${err.message}`);
  }
  ctx.out(`wsc emulator listening on ${emulator.url}\ntoken: ${emulator.adminToken}\n`);
  ctx.err(
    `API base: ${emulator.url}/api/v1 (deployments under /api/v1/deployments/{id}); ` +
      `Core Data API: ${opts.coreDataApiUrl ?? `${emulator.url}/cubejs-api/v1`}` +
      `${opts.state ? `\nstate: ${opts.state}` : ''}\nstop with Ctrl-C\n`,
  );
  await interrupted(ctx);
  await emulator.close();
  ctx.err('wsc emulator stopped\n');
  return 0;
}
