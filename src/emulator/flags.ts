// `wsc emulator`'s flags as the emulator's options: the side of the emulator
// that faces its command line, not the oracle. Each flag is checked here
// (loopback only, latency, faults, files that must exist, one seed); a bad one
// is a FlagError with a hint, which the command turns into a usage error (the
// emulator imports nothing of wsc but domain/, so not errors.ts).
import { existsSync, statSync } from 'node:fs';
import { isLoopbackHost } from '../domain/loopback.js';
import { FaultSpecError, parseFaults } from './faults.js';
import type { EmulatorOptions, Latency } from './index.js';
import type { RequestLogEntry } from './log.js';
import { uiMadeSeed } from './seed-ui.js';

/** A flag the emulator cannot start with: what is wrong, and an example of what it takes. */
export class FlagError extends Error {
  constructor(
    message: string,
    readonly hint?: string,
  ) {
    super(message);
  }
}

/** The flags of `wsc emulator` (src/command-options.ts's EmulatorOptions). */
export interface EmulatorFlags {
  port: number;
  host: string;
  state?: string | undefined;
  seed?: string | undefined;
  uiMade: boolean;
  latency?: string | undefined;
  faults?: string | undefined;
  workbookListing: 'all' | 'root-only';
  model?: string | undefined;
  devMode: boolean;
  coreDataApiUrl?: string | undefined;
  cubeApiSecret?: string | undefined;
}

/** `--latency N` or `MIN-MAX` milliseconds. */
export function parseLatency(value: string | undefined): Latency | undefined {
  if (value === undefined) return undefined;
  const m = /^\s*(\d+)\s*(?:-\s*(\d+)\s*)?$/.exec(value);
  if (!m)
    throw new FlagError(
      `--latency: expected N or MIN-MAX milliseconds, got "${value}".`,
      'e.g. --latency 50 or --latency 20-80',
    );
  const min = Number(m[1]);
  if (m[2] === undefined) return min;
  const max = Number(m[2]);
  if (max < min) throw new FlagError(`--latency: MIN must not exceed MAX in "${value}".`);
  return { min, max };
}

function faultsOf(spec: string): ReturnType<typeof parseFaults> {
  try {
    return parseFaults(spec);
  } catch (e) {
    if (!(e instanceof FaultSpecError)) throw e;
    throw new FlagError(`--faults: ${e.message}`, 'e.g. --faults "409=0.1,429=0.05,reset-after=0.02,retry-after=1"');
  }
}

/** A file the flag reads: there, and not a directory. */
function isFile(flag: string, path: string): void {
  if (!existsSync(path)) throw new FlagError(`${flag}: no such file "${path}".`);
  if (statSync(path).isDirectory()) throw new FlagError(`${flag}: "${path}" is a directory, not a file.`);
}

/** The other flags, checked before anything starts. */
function checkFlags(f: EmulatorFlags): void {
  if (f.seed !== undefined) isFile('--seed', f.seed);
  if (f.seed !== undefined && f.uiMade)
    throw new FlagError('--seed and --ui-made both seed the emulator: give one of them.');
  if (f.model !== undefined) isFile('--model', f.model);
  if (f.coreDataApiUrl !== undefined && !/^https?:\/\/[^/]/.test(f.coreDataApiUrl))
    throw new FlagError(
      `--core-data-api-url: expected an http(s) URL, got "${f.coreDataApiUrl}".`,
      'e.g. --core-data-api-url http://127.0.0.1:4000/cubejs-api/v1',
    );
  if (f.cubeApiSecret === '') throw new FlagError('--cube-api-secret: the secret is empty.');
}

/**
 * The emulator's options from its flags (a FlagError for a bad one); `print` gets a line for each request
 * answered, and for the state file when its writes begin to fail and when one succeeds again.
 */
export function emulatorOptionsOf(f: EmulatorFlags, print: (line: string) => void): EmulatorOptions {
  if (!isLoopbackHost(f.host))
    throw new FlagError(`--host: the emulator serves loopback only, not "${f.host}".`, 'use 127.0.0.1 (the default)');
  const latencyMs = parseLatency(f.latency);
  const faults = f.faults !== undefined ? faultsOf(f.faults) : undefined;
  checkFlags(f);
  return {
    port: f.port,
    host: f.host,
    ...(f.state !== undefined
      ? { stateFile: f.state, onStateFile: (failure: Error | undefined) => print(stateLine(f.state!, failure)) }
      : {}),
    ...(f.seed !== undefined ? { seed: f.seed } : f.uiMade ? { seed: uiMadeSeed() } : {}),
    ...(latencyMs !== undefined ? { latencyMs } : {}),
    ...(faults !== undefined ? { faults } : {}),
    workbookListing: f.workbookListing,
    ...(f.model !== undefined ? { model: f.model } : {}),
    devMode: f.devMode,
    ...(f.coreDataApiUrl !== undefined ? { coreDataApiUrl: f.coreDataApiUrl } : {}),
    ...(f.cubeApiSecret !== undefined ? { cubeApiSecret: f.cubeApiSecret } : {}),
    logLimit: 1000,
    logResponses: false,
    onRequest: (e) => print(requestLine(e)),
  };
}

/** A line (on stderr) when writes of the state file begin to fail, and when one succeeds again. */
function stateLine(file: string, failure: Error | undefined): string {
  return failure !== undefined
    ? `state: ${failure.message}; the state is kept in memory and written at the next change\n`
    : `state: written to ${file} again\n`;
}

/** One line per request (on stderr): what a CI log of a test run wants to show. */
export function requestLine(e: RequestLogEntry): string {
  const query = Object.keys(e.query).length ? `?${new URLSearchParams(e.query)}` : '';
  const fault = e.fault ? ` [fault ${e.fault}]` : '';
  return `${e.method} ${e.path}${query} ${e.status === 0 ? 'reset' : e.status}${fault} ${e.durationMs}ms\n`;
}
