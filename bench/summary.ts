// The bench's figures: a scenario's runs summed up as medians, each figure on
// its own, and the rows the report and the targets are made from.
import { parseTimings, type PhaseTiming } from '../src/timings.js';
import type { CliRun } from './measure.js';

/** The medians of repeated runs of one scenario, each figure on its own. */
export interface Summary {
  runs: CliRun[];
  /** The first exit code that was not 0, else 0. */
  code: number;
  wallMs: number;
  cpuMs: number;
  maxRssMb: number;
  readMs: number;
  writeMs: number;
  requests: number;
  writes: number;
  longestChain: number;
}

export interface Row {
  /** Reports in the deployment. */
  size: number;
  /** What the table's first column shows, when not the size. */
  label?: string;
  scenario: string;
  s: Summary;
  /** Lower bound of the reads: pages of the longest list x (latency + serving a page) (ms); 0 = none expected. */
  readBound: number;
  /** Lower bound of the writes: writes x latency / concurrency (ms); 0 = no writes expected. */
  writeBound: number;
  /** The naive client's estimated time for the same work (ms). */
  naiveMs?: number;
  expectedCode: number;
  /** What the run had to print on stdout (the scripts' counts of what they read), when checked. */
  expectedOut?: string;
}

/** The median (the upper one of an even count). */
const mid = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

export const fmtMs = (ms: number): string => (ms >= 10_000 ? `${(ms / 1000).toFixed(1)} s` : `${Math.round(ms)} ms`);

export const ratio = (a: number, b: number): string => (b > 0 ? `${(a / b).toFixed(2)}x` : '-');

export function summarize(runs: CliRun[]): Summary {
  const m = (key: (r: CliRun) => number) => mid(runs.map(key));
  return {
    runs,
    code: runs.find((r) => r.code !== 0)?.code ?? 0,
    wallMs: m((r) => r.wallMs),
    cpuMs: m((r) => r.cpuMs),
    maxRssMb: m((r) => r.maxRssMb),
    readMs: m((r) => r.readMs),
    writeMs: m((r) => r.writeMs),
    requests: m((r) => r.requests),
    writes: m((r) => r.writes),
    longestChain: m((r) => r.longestChain),
  };
}

/**
 * A row proves something only when every run exited as expected, printed
 * what it had to, and (when reads were expected) made requests.
 */
export function valid(r: Row | undefined): r is Row {
  return (
    r !== undefined &&
    r.s.runs.every((x) => x.code === r.expectedCode) &&
    (r.expectedOut === undefined || r.s.runs.every((x) => x.stdout.trim() === r.expectedOut)) &&
    (r.readBound === 0 || r.s.requests > 0)
  );
}

/** Each phase's median over runs that printed the same phases (undefined if a run printed none). */
export function medianPhases(runs: CliRun[]): PhaseTiming[] | undefined {
  const all = runs.map((r) => parseTimings(r.stderr));
  if (all.some((t) => t === undefined)) return undefined;
  return all[0]!.map((p, i) => ({
    phase: p.phase,
    wallMs: mid(all.map((t) => t![i]?.wallMs ?? NaN)),
    cpuMs: mid(all.map((t) => t![i]?.cpuMs ?? NaN)),
  }));
}
