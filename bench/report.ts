// The bench's report as markdown: the conditions of the run (with the load
// average, which moves every figure), one row per scenario, `wsc plan`'s
// phases, the targets with their verdicts, notes and problems.
import { cpus, totalmem } from 'node:os';
import type { PhaseTiming } from '../src/timings.js';
import { fmtMs, ratio, type Row } from './summary.js';
import type { Target } from './targets.js';
import { MIN_RUNS, NOISE_BAND } from './verdict.js';

export interface ReportInput {
  rows: Row[];
  targets: Target[];
  /** `wsc plan`'s phases per size: each phase's median over the runs. */
  planPhases: Map<number, PhaseTiming[]>;
  notes: string[];
  problems: string[];
  conditions: { latency: number; concurrency: number; maxPage: number; repeat: number };
  load: { start: number; end: number };
  elapsedMs: number;
}

const show = (v: number, when: boolean) => (when ? fmtMs(v) : '-');

export function renderReport(r: ReportInput): string {
  const { latency, concurrency, maxPage, repeat } = r.conditions;
  const lines: string[] = [];
  lines.push('# wsc benchmark');
  lines.push('');
  lines.push(
    `${new Date().toISOString()} · node ${process.version} · ${cpus().length} CPUs (${cpus()[0]?.model ?? '?'}) · ` +
      `${(totalmem() / 2 ** 30).toFixed(0)} GiB · load average ${r.load.start.toFixed(1)} at start, ` +
      `${r.load.end.toFixed(1)} at end · latency ${latency} ms per request · concurrency ${concurrency} · ` +
      `page size ${maxPage} · every figure the median of ${repeat} runs · ${fmtMs(r.elapsedMs)} in all`,
  );
  lines.push('');
  lines.push('Command: `npm run bench` (`node --import tsx bench/run.ts`, after `npm run build`).');
  lines.push('');
  lines.push(...rowTable(r.rows));
  lines.push('');
  lines.push(...phaseTable(r.planPhases, repeat));
  lines.push('| target | verdict | measured |');
  lines.push('|---|---|---|');
  for (const t of r.targets) lines.push(`| ${t.name} | ${t.verdict} | ${t.detail} |`);
  if (r.targets.length === 0) lines.push('| (none at these sizes) | - | - |');
  lines.push('');
  lines.push(
    `A figure within ${NOISE_BAND * 100}% of its limit is *within noise*, neither a pass nor a fail; a figure ` +
      `over fewer than ${MIN_RUNS} runs gets no verdict (*too few runs*); a scenario that exited as it should ` +
      'not, or did not read what it had to, fails. `wsc plan` and the scripts ran in turn against one emulator ' +
      '(interleaved), so the hour weighs on them alike.',
  );
  lines.push('');
  for (const n of r.notes) lines.push(`- ${n}`);
  for (const p of r.problems) lines.push(`- PROBLEM: ${p.split('\n')[0]}`);
  lines.push('');
  return lines.join('\n');
}

function rowTable(rows: Row[]): string[] {
  const lines = [
    '| reports | scenario | exit | requests (writes) | wall | CPU | peak RSS | reads | pages in sequence | ' +
      'read bound | reads ÷ bound | writes | write bound | writes ÷ bound | naive client (est.) | naive ÷ wall |',
    '|---:|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|',
  ];
  for (const r of rows) {
    const x = r.s;
    const reads = r.readBound > 0;
    const writes = r.writeBound > 0;
    lines.push(
      `| ${r.label ?? r.size} | ${r.scenario} | ${x.code} | ${x.requests} ` +
        `(${x.writes}) | ${fmtMs(x.wallMs)} | ${fmtMs(x.cpuMs)} | ` +
        `${x.maxRssMb.toFixed(0)} MB | ${show(x.readMs, reads)} | ${reads ? x.longestChain : '-'} | ` +
        `${show(r.readBound, reads)} | ${ratio(x.readMs, r.readBound)} | ${show(x.writeMs, writes)} | ` +
        `${show(r.writeBound, writes)} | ${ratio(x.writeMs, r.writeBound)} | ` +
        `${r.naiveMs ? fmtMs(r.naiveMs) : '-'} | ${r.naiveMs ? ratio(r.naiveMs, x.wallMs) : '-'} |`,
    );
  }
  lines.push('');
  lines.push(
    '*wall*: the whole `node` process (start-up, reading and validating the bundle, HTTP, diff, output). ' +
      "*CPU* (user + system, waiting excluded) and *peak RSS*: the process's own getrusage, written at exit by " +
      'bench/probe.mjs (preloaded with --import). *reads* / *writes*: from the first such request reaching the ' +
      "emulator to the last answer (its request log). *pages in sequence*: the longest list's pages, each waiting " +
      "for the previous page's cursor. *read bound*: those pages x (latency + the emulator's time to answer a " +
      'page with no latency), the lists read side by side. *write bound*: changed resources x latency / ' +
      'concurrency. *same-work script*: bench/same-work.ts (bundled with esbuild as wsc is): every bundle file ' +
      "read, parsed with js-yaml and checked with wsc's zod schemas, beside the three lists paged with fetch; " +
      '*bundle then lists*: the same, one after the other. *fetch-only script*: bench/honest.mjs, the lists ' +
      'alone. *naive client*: one GET per resource in sequence (plus one request per write for apply), measured ' +
      'on a sample against the same emulator and extrapolated linearly.',
  );
  return lines;
}

function phaseTable(planPhases: Map<number, PhaseTiming[]>, repeat: number): string[] {
  if (planPhases.size === 0) return [];
  const lines = [
    `Where \`wsc plan\` (no changes) spends its time, by phase (\`WSC_TIMINGS=1\`; median of ${repeat} runs ` +
      'per phase; CPU of the whole process, helper threads included):',
    '',
  ];
  const shown = [...planPhases.keys()];
  lines.push(`| phase | ${shown.map((n) => `${n}: wall | ${n}: CPU`).join(' | ')} |`);
  lines.push(`|---|${shown.map(() => '---:|---:').join('|')}|`);
  const names = planPhases.get(shown[0]!)!.map((p) => p.phase);
  for (const name of [...names, 'total']) {
    const cells = shown.map((n) => {
      const ps = planPhases.get(n)!;
      const sum = (key: (p: PhaseTiming) => number) => ps.reduce((a, p) => a + key(p), 0);
      const pick =
        name === 'total'
          ? { wallMs: sum((p) => p.wallMs), cpuMs: sum((p) => p.cpuMs) }
          : ps.find((p) => p.phase === name);
      return pick ? `${fmtMs(pick.wallMs)} | ${fmtMs(pick.cpuMs)}` : '- | -';
    });
    lines.push(`| ${name} | ${cells.join(' | ')} |`);
  }
  lines.push('');
  lines.push(
    "*start-up*: node and wsc's modules until the command runs. *bundle*: reading wsc.yaml and every bundle " +
      "file, parsing, validating (the client's modules load meanwhile). *read deployment*: connecting and reading " +
      'every list. *plan*: matching and comparing. *output*: rendering and writing the result. The total of the ' +
      'medians is not the median of the totals.',
  );
  lines.push('');
  return lines;
}
