// Where a run's time goes, for `WSC_TIMINGS=1`: wall and CPU time per phase
// (start-up, bundle, read deployment, plan, ...), printed to stderr when wsc
// exits. For a slow CI job, and for `npm run bench`, which reports the CPU of
// validating and planning apart from reading the deployment.
//
// CPU is the whole process's (process.cpuUsage): every thread, so work of the
// garbage collector's and the optimising compiler's helper threads counts in
// the phase it happened in. Off unless enabled: a mark then costs nothing.

export interface PhaseTiming {
  phase: string;
  wallMs: number;
  cpuMs: number;
}

interface Mark {
  phase: string;
  wall: number;
  cpu: number;
}

const marks: Mark[] = [];
let enabled = false;

export function enableTimings(): void {
  enabled = true;
  marks.length = 0;
}

/**
 * Ends the phase named: it ran from the previous mark, or for the first from
 * the process's start (performance.now() and process.cpuUsage() both count
 * from there), to now.
 */
export function endPhase(phase: string): void {
  if (!enabled) return;
  const u = process.cpuUsage();
  marks.push({ phase, wall: performance.now(), cpu: (u.user + u.system) / 1000 });
}

/** The phases so far, in order (the same name twice is two phases). */
export function phaseTimings(): PhaseTiming[] {
  let wall = 0;
  let cpu = 0;
  return marks.map((m) => {
    const t = { phase: m.phase, wallMs: m.wall - wall, cpuMs: m.cpu - cpu };
    wall = m.wall;
    cpu = m.cpu;
    return t;
  });
}

/** The table printed at exit; parseTimings reads it back. */
export function renderTimings(timings: readonly PhaseTiming[]): string {
  if (timings.length === 0) return '';
  const rows: Array<[string, string, string]> = timings.map((t) => [t.phase, ms(t.wallMs), ms(t.cpuMs)]);
  rows.push(['total', ms(timings.reduce((s, t) => s + t.wallMs, 0)), ms(timings.reduce((s, t) => s + t.cpuMs, 0))]);
  const w0 = Math.max(...rows.map((r) => r[0].length));
  const w1 = Math.max(4, ...rows.map((r) => r[1].length));
  const w2 = Math.max(3, ...rows.map((r) => r[2].length));
  const line = (a: string, b: string, c: string) => `  ${a.padEnd(w0)}  ${b.padStart(w1)}  ${c.padStart(w2)}\n`;
  return `timings (WSC_TIMINGS):\n${line('', 'wall', 'CPU')}${rows.map((r) => line(...r)).join('')}`;
}

const ms = (x: number) => `${Math.round(x)} ms`;

/** The phases of a renderTimings table found in a text (stderr), or undefined if there is none. */
export function parseTimings(text: string): PhaseTiming[] | undefined {
  const at = text.lastIndexOf('timings (WSC_TIMINGS):\n');
  if (at < 0) return undefined;
  const out: PhaseTiming[] = [];
  for (const l of text.slice(at).split('\n').slice(2)) {
    const m = /^ {2}(\S(?:.*\S)?) +(\d+) ms +(\d+) ms$/.exec(l);
    if (!m) break;
    if (m[1] === 'total') return out;
    out.push({ phase: m[1]!, wallMs: Number(m[2]), cpuMs: Number(m[3]) });
  }
  return undefined;
}
