// Runs the BUILT CLI as a child process (as a user would) and measures it:
// wall time around the process, peak RSS and CPU of the process itself
// (bench/probe.mjs), and from the emulator's request log the requests it
// made and the span from the first request's arrival to the last answer.
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
  /** List pages that had to follow one another: the longest chain of cursors (see listRounds). */
  listRounds: number;
  /** First request arrived → last answer sent (ms); 0 without requests. */
  netMs: number;
  /** The same over the reads (GET) only, and over the writes only. */
  readMs: number;
  writeMs: number;
  log: RequestLogEntry[];
}

let runSeq = 0;

export async function runWsc(emu: Emulator | undefined, args: string[], env: Record<string, string> = {}): Promise<CliRun> {
  const probeOut = join(tmpdir(), `wsc-bench-probe-${process.pid}-${++runSeq}.json`);
  emu?.clearLog();
  const childEnv: Record<string, string> = { PATH: process.env['PATH'] ?? '', HOME: process.env['HOME'] ?? '', CI: 'true', NO_COLOR: '1', BENCH_PROBE_OUT: probeOut, ...env };
  const started = performance.now();
  const { code, stdout, stderr } = await new Promise<{ code: number; stdout: string; stderr: string }>((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', probe, launcher, ...args], { cwd: root, env: childEnv, stdio: ['ignore', 'pipe', 'pipe'] });
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
  });
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

export function logFigures(log: RequestLogEntry[]): Pick<CliRun, 'requests' | 'writes' | 'listPages' | 'listRounds' | 'netMs' | 'readMs' | 'writeMs'> {
  const isWrite = (e: RequestLogEntry) => e.method !== 'GET' && e.method !== 'HEAD';
  const writes = log.filter(isWrite);
  const reads = log.filter((e) => !isWrite(e));
  return {
    requests: log.length,
    writes: writes.length,
    listPages: reads.filter((e) => LIST_RE.test(e.path)).length,
    listRounds: listRounds(log),
    netMs: span(log),
    readMs: span(reads),
    writeMs: span(writes),
  };
}

/**
 * Round trips in sequence of the longest list. A list read from both ends
 * (read-both-ends.ts) is two chains side by side; the descending one starts
 * either beside the first ascending page (it arrives before that page's
 * answer has left) or after it, one round trip later. Any other list is one
 * chain.
 */
export function listRounds(log: RequestLogEntry[]): number {
  const chains = new Map<string, { asc: RequestLogEntry[]; desc: RequestLogEntry[] }>();
  for (const e of log) {
    if (e.method !== 'GET' || !LIST_RE.test(e.path)) continue;
    const c = chains.get(e.path) ?? { asc: [], desc: [] };
    (e.query['sortDirection'] === 'DESC' ? c.desc : c.asc).push(e);
    chains.set(e.path, c);
  }
  let most = 0;
  for (const { asc, desc } of chains.values()) {
    if (desc.length === 0 || asc.length === 0) {
      most = Math.max(most, asc.length + desc.length);
      continue;
    }
    const a1 = asc[0]!;
    const beside = Date.parse(desc[0]!.startedAt) < Date.parse(a1.startedAt) + a1.durationMs;
    most = Math.max(most, beside ? Math.max(asc.length, desc.length) : Math.max(asc.length, 1 + desc.length));
  }
  return most;
}
