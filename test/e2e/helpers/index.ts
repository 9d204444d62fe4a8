// Shared end-to-end helpers: run the CLI (a clean environment: no inherited
// WSC_* variables, CI=true, NO_COLOR=1), make temporary bundles, and start an
// emulator on a free loopback port. Small and stable on purpose: other e2e
// suites use them.
//
// runCli runs wsc in this process by default (src/main.ts runWsc with a
// captured context: the same parsing, commands, exit codes and redaction, with
// no process to start); spawnCli, or runCli with `spawn: true` or `onSpawn`,
// runs the BUILT launcher as a child process, for what only a process has:
// signals, being killed, the exit guard, a terminal, bin/wsc.js itself.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, expect, vi } from 'vitest';
import { distIsFresh } from '../../../scripts/build-inputs.mjs';
import { createEmulator, type Emulator, type EmulatorOptions } from '../../../src/emulator/index.js';
import { capturedContext, type Captured } from '../../helpers/captured-context.js';
import { runWsc } from '../../../src/main.js';
import { removeTempDirs, tempDir as sharedTempDir, writeTree } from '../../helpers/temp-dir.js';
import { coreApiServer, type CoreApiOptions, type CoreApiServer } from '../../helpers/core-api-server.js';

export const root = fileURLToPath(new URL('../../..', import.meta.url));
const launcher = join(root, 'bin/wsc.js');

let built: boolean | undefined;
/**
 * Builds dist/ when it is missing or older than what it is built from (scripts/build-inputs.mjs; `npm test`
 * builds first, so this is then only a check). Parallel test workers share one build
 * through a lock directory.
 */
export function ensureBuilt(): void {
  if (built) return;
  const main = join(root, 'dist/main.js');
  const fresh = distIsFresh;
  if (!fresh()) {
    const lock = join(root, 'dist/.e2e-build-lock');
    mkdirSync(join(root, 'dist'), { recursive: true });
    let mine = false;
    for (let i = 0; i < 1200 && !mine; i++) {
      try {
        mkdirSync(lock);
        mine = true;
      } catch {
        if (!existsSync(lock)) continue;
        Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 100);
        if (fresh()) break;
      }
    }
    try {
      // esbuild does not type-check: a type error elsewhere does not stop the end-to-end tests.
      if (!fresh()) spawnSync(process.execPath, [join(root, 'scripts/build.mjs')], { cwd: root, stdio: 'ignore' });
    } finally {
      if (mine) rmSync(lock, { recursive: true, force: true });
    }
    if (!existsSync(main)) throw new Error('dist/main.js is missing: `npm run build` failed');
  }
  built = true;
}

export interface CliResult {
  code: number;
  stdout: string;
  stderr: string;
}

export interface RunOptions {
  /** Added to a clean environment (PATH, HOME, CI=true, NO_COLOR=1). */
  env?: Record<string, string | undefined>;
  cwd?: string;
  /** Written to stdin, which is then closed (stdin is never a TTY). */
  input?: string;
  timeoutMs?: number;
  /** Sees the child once spawned (to signal it); implies `spawn`. */
  onSpawn?: (child: ChildProcess) => void;
  /** Run the built launcher in a child process instead of in this one. */
  spawn?: boolean;
}

/** Variables that act on a process (its start, what it preloads), not on what wsc reads: such a run is spawned. */
const PROCESS_ENV = ['WSC_TIMINGS', 'NODE_OPTIONS'];

/** A command that serves until stopped: its test also checks that nothing is left running, i.e. the process ends. */
const serves = (args: string[]) => args[0] === 'emulator' || (args[0] === 'preview' && !args.includes('--out'));

/**
 * Runs `wsc ...args` and resolves with its exit code and output: in this
 * process, unless the run needs one of its own (`spawn`, `onSpawn`, a serving
 * command, or one of PROCESS_ENV: WSC_TIMINGS measures the process from its start).
 */
export function runCli(args: string[], opts: RunOptions = {}): Promise<CliResult> {
  const env = cleanEnv(opts.env);
  const needsProcess =
    opts.spawn === true || opts.onSpawn !== undefined || serves(args) || PROCESS_ENV.some((k) => env[k] !== undefined);
  if (needsProcess) return spawnCli(args, opts);
  const captured: Captured = { stdout: '', stderr: '' };
  const input = opts.input !== undefined ? { input: opts.input } : {};
  const context = capturedContext(captured, { env, cwd: opts.cwd ?? root, ...input });
  const ms = opts.timeoutMs ?? 60_000;
  let timer: NodeJS.Timeout | undefined;
  // Nothing can kill a run in this process: past the limit the test fails, as a killed child would.
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      const out = `stdout:\n${captured.stdout}\nstderr:\n${captured.stderr}`;
      reject(new Error(`wsc ${args.join(' ')} did not finish in ${ms} ms (in-process).\n${out}`));
    }, ms);
  });
  const run = runWsc([process.execPath, launcher, ...args], context).then((code) => ({ code, ...captured }));
  return Promise.race([run, late]).finally(() => clearTimeout(timer));
}

/** A clean environment (PATH, HOME, TMPDIR, CI=true, NO_COLOR=1) with `extra` on top; undefined removes. */
function cleanEnv(extra: Record<string, string | undefined> = {}): Record<string, string> {
  const env: Record<string, string> = { CI: 'true', NO_COLOR: '1' };
  for (const k of ['PATH', 'HOME', 'TMPDIR', 'SYSTEMROOT']) if (process.env[k]) env[k] = process.env[k]!;
  for (const [k, v] of Object.entries(extra)) {
    if (v === undefined) delete env[k];
    else env[k] = v;
  }
  return env;
}

/** Runs `node bin/wsc.js ...args` (the built CLI) in a child process and resolves with its exit code and output. */
export function spawnCli(args: string[], opts: RunOptions = {}): Promise<CliResult> {
  ensureBuilt();
  const env = cleanEnv(opts.env);
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [launcher, ...args], {
      cwd: opts.cwd ?? root,
      env,
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (d: string) => (stdout += d));
    child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d));
    const timer = setTimeout(() => child.kill('SIGKILL'), opts.timeoutMs ?? 60_000);
    child.on('error', reject);
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      if (code === null)
        reject(new Error(`wsc ${args.join(' ')} was killed (${signal}).\nstdout:\n${stdout}\nstderr:\n${stderr}`));
      else resolve({ code, stdout, stderr });
    });
    child.stdin.end(opts.input ?? '');
    opts.onSpawn?.(child);
  });
}

/** A fresh temporary directory, removed after the test file (test/helpers/temp-dir.ts). */
export function tempDir(prefix = 'wsc-e2e-'): string {
  return sharedTempDir(prefix);
}
/** Removes the temporary directories made so far (the setup file does it after every test file as well). */
export const cleanupTemp = removeTempDirs;

/** A temporary copy of fixtures/<name>. */
export function copyFixture(name: string): string {
  const d = tempDir();
  cpSync(join(root, 'fixtures', name), d, { recursive: true });
  return d;
}

/** Writes files (relative path -> content) under dir (a new temp dir by default); returns dir. */
export function writeFiles(files: Record<string, string>, dir = tempDir()): string {
  return writeTree(dir, files);
}

export type { Emulator, EmulatorOptions };

/**
 * Starts a Core Data API of the test suite (test/helpers/core-api-server.ts) and an emulator that sends the
 * semantic check to it, runs fn, and always closes both.
 */
export async function withCoreDataApi<T>(
  opts: CoreApiOptions,
  fn: (emu: Emulator, cube: CoreApiServer) => Promise<T>,
): Promise<T> {
  const cube = await coreApiServer(opts);
  try {
    return await withEmulator({ coreDataApiUrl: cube.restUrl }, (emu) => fn(emu, cube));
  } finally {
    await cube.close();
  }
}

/** Starts an emulator on 127.0.0.1 (port 0 unless given), runs fn, and always closes it. */
export async function withEmulator<T>(opts: EmulatorOptions, fn: (emu: Emulator) => Promise<T>): Promise<T> {
  const emu = await createEmulator({ port: 0, ...opts });
  try {
    return await fn(emu);
  } finally {
    await emu.close();
  }
}

/** The flags that point the CLI at an emulator's deployment. */
export function target(emu: { url: string }, deployment = 1): string[] {
  return ['--base-url', emu.url, '--deployment', String(deployment)];
}

/** The environment that authenticates against an emulator started without a seed. */
export const emulatorEnv = { WSC_TOKEN: 'dev-token' } as const;

/**
 * `wsc ARGS --dir dir` against a new emulator is refused before any request: exit 3, `said` on stderr, nothing
 * on stdout, the emulator's log empty; `then` checks more of the emulator.
 */
export async function expectRefusedUnsent(
  args: string[],
  dir: string,
  said: string,
  then?: (emu: Emulator) => void,
): Promise<void> {
  await withEmulator({}, async (emu) => {
    const r = await runCli([...args, '--dir', dir, ...target(emu)], { env: emulatorEnv });
    expect(r.code).toBe(3);
    expect(r.stderr).toContain(said);
    expect(r.stdout).toBe('');
    expect(emu.log).toEqual([]);
    then?.(emu);
  });
}

/**
 * The set-up of an end-to-end file: generous time per test (CLIs on a busy
 * machine), dist/ built once up front, temporary directories removed after.
 */
export function e2eSuite(testTimeout = 120_000): void {
  vi.setConfig({ testTimeout });
  beforeAll(ensureBuilt, 180_000);
  afterAll(cleanupTemp);
}
