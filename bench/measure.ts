// Runs the BUILT CLI (or the honest alternative, bench/honest.mjs) as a child
// process, as a user would, and measures it: wall time around the process,
// peak RSS and CPU of the process itself (bench/probe.mjs), and from the
// emulator's request log the requests it made and the span from the first
// request's arrival to the last answer.
import { spawn } from 'node:child_process';
import { existsSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Emulator, RequestLogEntry } from '../src/emulator/index.js';

export const root = fileURLToPath(new URL('..', import.meta.url));
const launcher = join(root, 'bin/wsc.js');
const probe = join(root, 'bench/probe.mjs');

export interface CliRun {
  code: number;
  stdout: string;
  stderr: string;
  wallMs: number;
  maxRssMb: number;
  cpuMs: number;
  requests: number;
  writes: number;
  /** GETs of list endpoints (pages). */
  listPages: number;
  /** List pages that had to follow one another: the pages of the longest list (see longestChain). */
  longestChain: number;
  /** First request arrived → last answer sent (ms); 0 without requests. */
  netMs: number;
  /** The same over the reads only (GETs, and the token the semantic check mints), and over the writes only. */
  readMs: number;
  writeMs: number;
  log: RequestLogEntry[];
}

let runSeq = 0;

export function runWsc(emu: Emulator | undefined, args: string[], env: Record<string, string> = {}): Promise<CliRun> {
  return runNode(emu, launcher, args, env);
}

/** `node --import bench/probe.mjs SCRIPT ARGS`, measured; the emulator's log is cleared first. */
export async function runNode(
  emu: Emulator | undefined,
  script: string,
  args: string[],
  env: Record<string, string> = {},
): Promise<CliRun> {
  const probeOut = join(tmpdir(), `wsc-bench-probe-${process.pid}-${++runSeq}.json`);
  emu?.clearLog();
  const childEnv: Record<string, string> = {
    PATH: process.env['PATH'] ?? '',
    HOME: process.env['HOME'] ?? '',
    CI: 'true',
    NO_COLOR: '1',
    BENCH_PROBE_OUT: probeOut,
    ...env,
  };
  const started = performance.now();
  const { code, stdout, stderr } = await new Promise<{ code: number; stdout: string; stderr: string }>(
    (resolve, reject) => {
      const child = spawn(process.execPath, ['--import', probe, script, ...args], {
        cwd: root,
        env: childEnv,
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      let stdout = '';
      let stderr = '';
      child.stdout.setEncoding('utf8').on('data', (d: string) => (stdout += d));
      child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d));
      const timer = setTimeout(() => child.kill('SIGKILL'), 15 * 60_000);
      child.on('error', reject);
      child.on('close', (c, signal) => {
        clearTimeout(timer);
        resolve({ code: c ?? (signal ? 128 : 1), stdout, stderr });
      });
    },
  );
  const wallMs = performance.now() - started;
  let maxRssMb = NaN;
  let cpuMs = NaN;
  if (existsSync(probeOut)) {
    const u = JSON.parse(readFileSync(probeOut, 'utf8')) as { maxRssKb: number; userUs: number; systemUs: number };
    maxRssMb = u.maxRssKb / 1024;
    cpuMs = (u.userUs + u.systemUs) / 1000;
    rmSync(probeOut, { force: true });
  }
  const log = emu ? [...emu.log] : [];
  return { code, stdout, stderr, wallMs, maxRssMb, cpuMs, ...logFigures(log), log };
}

const LIST_RE = /\/(reports|workbooks|user-attributes)$/;
/** The deployment token the semantic check mints to read the data model: a POST that changes no content. */
const TOKEN_RE = /^\/api\/v1\/deployments\/[^/]+\/token$/;

/** From the first request's arrival to the last answer, in ms (0 for none). */
function span(entries: RequestLogEntry[]): number {
  let first = Infinity;
  let last = -Infinity;
  for (const e of entries) {
    const t = Date.parse(e.startedAt);
    first = Math.min(first, t);
    last = Math.max(last, t + e.durationMs);
  }
  return entries.length > 0 ? last - first : 0;
}

export function logFigures(
  log: RequestLogEntry[],
): Pick<CliRun, 'requests' | 'writes' | 'listPages' | 'longestChain' | 'netMs' | 'readMs' | 'writeMs'> {
  const isWrite = (e: RequestLogEntry) => e.method !== 'GET' && e.method !== 'HEAD' && !TOKEN_RE.test(e.path);
  const writes = log.filter(isWrite);
  const reads = log.filter((e) => !isWrite(e));
  return {
    requests: log.length,
    writes: writes.length,
    listPages: reads.filter((e) => LIST_RE.test(e.path)).length,
    longestChain: longestChain(log),
    netMs: span(log),
    readMs: span(reads),
    writeMs: span(writes),
  };
}

/**
 * Pages of the longest list: each list is one cursor chain (a page's request
 * needs the cursor of the page before), the lists are read side by side, so
 * this is how many round trips the reads wait for one after another.
 */
export function longestChain(log: RequestLogEntry[]): number {
  const pages = new Map<string, number>();
  for (const e of log) {
    if (e.method === 'GET' && LIST_RE.test(e.path)) pages.set(e.path, (pages.get(e.path) ?? 0) + 1);
  }
  return Math.max(0, ...pages.values());
}
