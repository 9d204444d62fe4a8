// `npm run bench`: the built CLI against emulators seeded with 1k, 10k and 50k
// reports (and a tenth as many workbooks, each with a dashboard charting its
// reports) at 20 ms of injected latency, and a typical bundle (50 reports, 5
// workbooks) at 100 ms. Measures validate, plan, a no-op apply, applies with
// 10% of the resources changed and export, beside two comparisons: the honest
// alternative (bench/honest.mjs: the lists paged with fetch and JSON.parse) and
// a naive client (one GET per resource). Every figure is the median of
// --repeat runs. Prints a table, checks the targets (docs/performance.md),
// writes bench-results/latest.md, and exits 1 when a target fails. Not a test:
// timings depend on the machine.
//
//   npm run bench [-- --sizes 1000,10000,50000 --apply-up-to 10000 --latency 20
//                     --concurrency 8 --repeat 5 --naive-sample 100 --max-page 500
//                     --typical-latency 100 --keep]
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, tmpdir, totalmem } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { createEmulator, generateSeed, type Emulator, type SeedState } from '../src/emulator/index.js';
import { parseTimings, type PhaseTiming } from '../src/timings.js';
import { changeTenPercent, writeBundleFromSeed } from './bundle.js';
import { root, runNode, runWsc, type CliRun } from './measure.js';
import { measureNaive, measurePageServe } from './naive.js';

const { values: opt } = parseArgs({
  options: {
    sizes: { type: 'string', default: '1000,10000,50000' },
    /** Sizes above this run validate, plan and export only (the growth and memory targets). */
    'apply-up-to': { type: 'string', default: '10000' },
    latency: { type: 'string', default: '20' },
    concurrency: { type: 'string', default: '8' },
    repeat: { type: 'string', default: '5' },
    'naive-sample': { type: 'string', default: '100' },
    'max-page': { type: 'string', default: '500' },
    /** The typical bundle's latency; 0 leaves that scenario out. */
    'typical-latency': { type: 'string', default: '100' },
    keep: { type: 'boolean', default: false },
  },
});
const sizes = opt.sizes.split(',').map((s) => Number(s.trim()));
const applyUpTo = Number(opt['apply-up-to']);
const latency = Number(opt.latency);
const concurrency = Number(opt.concurrency);
const repeat = Math.max(1, Number(opt.repeat));
const naiveSample = Number(opt['naive-sample']);
const maxPage = Number(opt['max-page']);
const typicalLatency = Number(opt['typical-latency']);
const honestScript = join(root, 'bench/honest.mjs');

/** The medians of repeated runs of one scenario, each figure on its own. */
interface Summary {
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

interface Row {
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
}

const rows: Row[] = [];
/** `wsc plan`'s phases (WSC_TIMINGS), per size: each phase's median over the runs. */
const planPhases = new Map<number, PhaseTiming[]>();
const problems: string[] = [];
const notes: string[] = [];
const temps: string[] = [];
const load0 = loadavg()[0]!;
const started = performance.now();
const mid = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const fmtMs = (ms: number) => (ms >= 10_000 ? `${(ms / 1000).toFixed(1)} s` : `${Math.round(ms)} ms`);
const log = (s: string) => process.stderr.write(`${s}\n`);
const pagesOf = (n: number) => `${n} page${n === 1 ? '' : 's'}`;

function summarize(runs: CliRun[]): Summary {
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

/** Runs `once` --repeat times, one after another. */
async function repeated(once: (i: number) => Promise<CliRun>): Promise<Summary> {
  const runs: CliRun[] = [];
  for (let i = 0; i < repeat; i++) runs.push(await once(i));
  return summarize(runs);
}

function push(row: Row): void {
  rows.push(row);
  const x = row.s;
  log(
    `  ${row.scenario}: exit ${x.code}, ${x.requests} requests (${x.writes} writes), wall ${fmtMs(x.wallMs)}, ` +
      `reads ${fmtMs(x.readMs)}, writes ${fmtMs(x.writeMs)}, rss ${x.maxRssMb.toFixed(0)} MB, cpu ${fmtMs(x.cpuMs)}`,
  );
  const bad = x.runs.find((r) => r.code !== row.expectedCode);
  if (bad) {
    problems.push(
      `${row.size}: ${row.scenario} exited ${bad.code} (expected ${row.expectedCode})\n` +
        `${bad.stderr.slice(0, 2000)}\n${bad.stdout.slice(0, 2000)}`,
    );
  }
}

async function startEmulator(seed: SeedState, latencyMs: number): Promise<Emulator> {
  return createEmulator({ port: 0, seed, latencyMs, maxPageSize: maxPage, logResponses: false, randomSeed: 1 });
}

for (const size of sizes) {
  const nWorkbooks = Math.max(1, Math.round(size / 10));
  const withApply = size <= applyUpTo;
  log(`\n== ${size} reports, ${nWorkbooks} workbooks, ${latency} ms latency, concurrency ${concurrency}`);
  const seed = generateSeed({ reports: size, workbooks: nWorkbooks, withDashboards: true, randomSeed: 20261122 });
  const emu = await startEmulator(seed, latency);
  const dir = mkdtempSync(join(tmpdir(), `wsc-bench-${size}-`));
  temps.push(dir);
  try {
    const bundle = writeBundleFromSeed(seed, dir);
    const env = { WSC_TOKEN: emu.adminToken };
    const target = ['--dir', dir, '--base-url', emu.url, '--deployment', '1', '--concurrency', String(concurrency)];
    // One cursor chain per list, the lists side by side: the longest list's pages, one after another.
    const pages = Math.max(Math.ceil(size / maxPage), Math.ceil(nWorkbooks / maxPage), 1);
    // Each page of the chain costs the latency plus the server's own time to
    // answer it (measured here, with no latency): no client can ask for a page
    // before the one before it has arrived.
    const servePageMs = await measurePageServe(emu, 1, latency, maxPage);
    const readBound = pages * (latency + servePageMs);
    const resources = size + nWorkbooks;
    notes.push(
      `${size}: the emulator takes ${servePageMs.toFixed(1)} ms to answer a page of ` +
        `${Math.min(size, maxPage)} reports with no latency (handler, JSON text, transfer), so the read bound is ` +
        `${pages} x (${latency} + ${servePageMs.toFixed(1)}) = ${fmtMs(readBound)}; on latency alone it would be ` +
        `${fmtMs(pages * latency)}.`,
    );

    // Offline validation (also warms the file cache for the runs below).
    const validate = await repeated(() => runWsc(undefined, ['validate', '--dir', dir]));
    push({ size, scenario: 'validate (offline)', s: validate, readBound: 0, writeBound: 0, expectedCode: 0 });

    const ids = { reports: seed.reports!.map((r) => r.id), workbooks: seed.workbooks!.map((w) => w.id) };
    const naive = await measureNaive(emu, 1, ids, naiveSample);
    notes.push(
      `${size}: naive client measured on ${naive.sample} sequential GETs (${fmtMs(naive.totalMs)}, ` +
        `${naive.perRequestMs.toFixed(1)} ms each), extrapolated linearly to ${resources} resources = ` +
        `${fmtMs(naive.perRequestMs * resources)} (for apply, plus one request per write).`,
    );
    const naiveMs = naive.perRequestMs * resources;

    const honest = await repeated(() => runNode(emu, honestScript, [emu.url, '1', String(maxPage)], env));
    push({
      size,
      scenario: 'honest script (fetch + JSON.parse)',
      s: honest,
      readBound,
      writeBound: 0,
      expectedCode: 0,
    });
    const counts = honest.runs[0]?.stdout.trim().split(' ').map(Number) ?? [];
    if (counts[0] !== size || counts[1] !== nWorkbooks) {
      problems.push(
        `${size}: the honest script read ${counts.join(' ')} items, not ${size} reports and ${nWorkbooks} workbooks`,
      );
    }

    // WSC_TIMINGS only adds a table to stderr: where the time goes, by phase.
    const planArgs = ['plan', ...target, '--detailed-exitcode'];
    const plan = await repeated(() => runWsc(emu, planArgs, { ...env, WSC_TIMINGS: '1' }));
    const phases = medianPhases(plan.runs);
    if (phases) planPhases.set(size, phases);
    else problems.push(`${size}: \`wsc plan\` printed no WSC_TIMINGS table`);
    push({ size, scenario: 'plan (no changes)', s: plan, readBound, writeBound: 0, expectedCode: 0, naiveMs });

    if (withApply) {
      const apply = ['apply', ...target, '--auto-approve'];
      const noop = await repeated(() => runWsc(emu, apply, env));
      push({ size, scenario: 'apply, nothing changed', s: noop, readBound, writeBound: 0, expectedCode: 0, naiveMs });
      if (noop.runs.some((r) => r.writes > 0)) {
        problems.push(`${size}: the no-op apply sent ${Math.max(...noop.runs.map((r) => r.writes))} writes`);
      }

      // Each run changes the same 10% of the resources: there, then back.
      const change = changeTenPercent(bundle);
      const changed = await repeated((i) => {
        if (i > 0 && i % 2 === 1) change.restore();
        if (i > 0 && i % 2 === 0) change.reapply();
        return runWsc(emu, apply, env);
      });
      push({
        size,
        scenario: `apply, 10% changed (${change.changed})`,
        s: changed,
        readBound,
        writeBound: (change.changed * latency) / concurrency,
        expectedCode: 0,
        naiveMs: naive.perRequestMs * (resources + change.changed),
      });
      const wrong = changed.runs.find((r) => r.writes !== change.changed);
      if (wrong) notes.push(`${size}: an apply sent ${wrong.writes} writes for ${change.changed} changed resources.`);
      const after = await runWsc(emu, planArgs, env);
      if (after.code !== 0) {
        problems.push(
          `${size}: plan after the applies is not empty (exit ${after.code})\n${after.stdout.slice(0, 2000)}`,
        );
      }
    }

    const exp = await repeated(async () => {
      const out = mkdtempSync(join(tmpdir(), `wsc-bench-export-${size}-`));
      try {
        return await runWsc(emu, ['export', '--base-url', emu.url, '--deployment', '1', '--out', out], env);
      } finally {
        rmSync(out, { recursive: true, force: true });
      }
    });
    push({ size, scenario: 'export', s: exp, readBound, writeBound: 0, expectedCode: 0, naiveMs });
  } finally {
    await emu.close();
  }
}

// The typical bundle: what most users have, at a slow remote API's latency.
const TYPICAL = { reports: 50, workbooks: 5 };
let typical: { validate: Summary; plan: Summary } | undefined;
if (typicalLatency > 0) {
  log(`\n== typical bundle: ${TYPICAL.reports} reports, ${TYPICAL.workbooks} workbooks, ${typicalLatency} ms latency`);
  const seed = generateSeed({ ...TYPICAL, withDashboards: true, randomSeed: 20261125 });
  const emu = await startEmulator(seed, typicalLatency);
  const dir = mkdtempSync(join(tmpdir(), 'wsc-bench-typical-'));
  temps.push(dir);
  try {
    writeBundleFromSeed(seed, dir);
    const env = { WSC_TOKEN: emu.adminToken };
    const validate = await repeated(() => runWsc(undefined, ['validate', '--dir', dir]));
    const planArgs = ['plan', '--dir', dir, '--base-url', emu.url, '--deployment', '1', '--detailed-exitcode'];
    const plan = await repeated(() => runWsc(emu, planArgs, env));
    const readBound = typicalLatency;
    const scenario = (s: string) => `${s}, typical bundle at ${typicalLatency} ms`;
    const at = { size: TYPICAL.reports, label: `${TYPICAL.reports} (typical)`, writeBound: 0, expectedCode: 0 };
    push({ ...at, scenario: scenario('validate'), s: validate, readBound: 0 });
    push({ ...at, scenario: scenario('plan'), s: plan, readBound });
    typical = { validate, plan };
  } finally {
    await emu.close();
  }
}

// The floor: an empty bundle planned against an empty deployment, beside the
// script reading the same empty lists, in turn. Nothing is read, parsed or
// compared, so this is what wsc costs before the first resource (start-up,
// its code, the connection, the output): what the 2x target leaves for the
// resources themselves is measured, not argued.
let floor: { plan: Summary; honest: Summary } | undefined;
if (sizes.length > 0) {
  log(`\n== floor: an empty bundle against an empty deployment, ${latency} ms latency`);
  const emu = await startEmulator(generateSeed({ reports: 1, workbooks: 1, randomSeed: 20261127 }), latency);
  const dir = mkdtempSync(join(tmpdir(), 'wsc-bench-floor-'));
  temps.push(dir);
  try {
    const env = { WSC_TOKEN: emu.adminToken };
    // Deployment 2 of every generated seed is empty.
    const planArgs = ['plan', '--dir', dir, '--base-url', emu.url, '--deployment', '2', '--detailed-exitcode'];
    const runs: { plan: CliRun[]; honest: CliRun[] } = { plan: [], honest: [] };
    for (let i = 0; i < repeat; i++) {
      runs.plan.push(await runWsc(emu, planArgs, env));
      runs.honest.push(await runNode(emu, honestScript, [emu.url, '2', String(maxPage)], env));
    }
    floor = { plan: summarize(runs.plan), honest: summarize(runs.honest) };
    const at = { size: 0, label: 'empty (floor)', readBound: 0, writeBound: 0, expectedCode: 0 };
    push({ ...at, scenario: 'honest script, empty deployment', s: floor.honest });
    push({ ...at, scenario: 'plan, empty bundle and deployment', s: floor.plan });
  } finally {
    await emu.close();
  }
}

/** Each phase's median over runs that printed the same phases (undefined if a run printed none). */
function medianPhases(runs: CliRun[]): PhaseTiming[] | undefined {
  const all = runs.map((r) => parseTimings(r.stderr));
  if (all.some((t) => t === undefined)) return undefined;
  return all[0]!.map((p, i) => ({
    phase: p.phase,
    wallMs: mid(all.map((t) => t![i]?.wallMs ?? NaN)),
    cpuMs: mid(all.map((t) => t![i]?.cpuMs ?? NaN)),
  }));
}

// ---------------------------------------------------------------------------
// Targets

interface Target {
  name: string;
  ok: boolean;
  detail: string;
}
const targets: Target[] = [];
const ratio = (a: number, b: number) => (b > 0 ? `${(a / b).toFixed(2)}x` : '-');
/** A scenario that failed or made no request proves nothing: its target fails. */
const valid = (r: Row | undefined): r is Row =>
  r !== undefined && r.s.runs.every((x) => x.code === r.expectedCode) && (r.readBound === 0 || r.s.requests > 0);
const find = (size: number, prefix: string) =>
  rows.find((r) => r.size === size && r.label === undefined && r.scenario.startsWith(prefix));
const add = (name: string, ok: boolean, detail: string) => targets.push({ name, ok, detail });

for (const size of sizes) {
  const plan = find(size, 'plan (no changes)');
  const honest = find(size, 'honest script');
  // The read and write bounds are targets from 1k to 10k reports; below, start-up and connecting dominate.
  const bounded = size >= 1000 && size <= 10_000;
  if (plan && bounded) {
    add(
      `plan's reads ≤ 1.3x the bound of one cursor chain (${size})`,
      valid(plan) && plan.s.readMs <= 1.3 * plan.readBound,
      `${ratio(plan.s.readMs, plan.readBound)}: reads ${fmtMs(plan.s.readMs)} (first request to last answer) vs ` +
        `${pagesOf(plan.s.longestChain)} x (${latency} ms + the server's time for a page) = ${fmtMs(plan.readBound)}`,
    );
  }
  const wholeLimit = size === 1000 ? 700 : size === 10_000 ? 2000 : undefined;
  if (plan && wholeLimit !== undefined) {
    add(
      `\`wsc plan\` whole process ≤ ${fmtMs(wholeLimit)} wall (${size})`,
      valid(plan) && plan.s.wallMs <= wholeLimit,
      `${fmtMs(plan.s.wallMs)}: start-up, bundle, reads, plan and output (CPU ${fmtMs(plan.s.cpuMs)}, not a target)`,
    );
  }
  if (plan && honest) {
    add(
      `\`wsc plan\` ≤ 2x the honest script's wall (${size})`,
      valid(plan) && valid(honest) && plan.s.wallMs <= 2 * honest.s.wallMs,
      `${ratio(plan.s.wallMs, honest.s.wallMs)}: ${fmtMs(plan.s.wallMs)} vs ${fmtMs(honest.s.wallMs)}`,
    );
  }
  const apply = find(size, 'apply, 10%');
  if (apply && bounded) {
    add(
      `apply (10% changed) ≤ 1.5x the writes' bound at concurrency ${concurrency} (${size})`,
      valid(apply) && apply.s.writes > 0 && apply.s.writeMs <= 1.5 * apply.writeBound,
      `${ratio(apply.s.writeMs, apply.writeBound)}: writes ${fmtMs(apply.s.writeMs)} vs ` +
        `${apply.s.writes} x ${latency} ms / ${concurrency} = ${fmtMs(apply.writeBound)}`,
    );
  }
  if (size === 10_000) {
    const own = rows.filter((r) => r.size === size && r.label === undefined && !r.scenario.startsWith('honest'));
    const worst = own.reduce((m, r) => (r.s.maxRssMb > m.s.maxRssMb ? r : m));
    add(
      `peak RSS < 300 MB (${size})`,
      own.every(valid) && worst.s.maxRssMb < 300,
      `${worst.s.maxRssMb.toFixed(0)} MB (${worst.scenario})`,
    );
  }
}

// Cost grows linearly: the two largest sizes, the plan's time and export's memory.
const [small, large] = [...new Set(sizes)].sort((a, b) => a - b).slice(-2);
if (small !== undefined && large !== undefined && large > small) {
  const k = large / small;
  const [p1, p2] = [find(small, 'plan (no changes)'), find(large, 'plan (no changes)')];
  if (p1 && p2) {
    add(
      `plan at ${large} ≤ ${(1.2 * k).toFixed(1)}x its time at ${small}`,
      valid(p1) && valid(p2) && p2.s.wallMs <= 1.2 * k * p1.s.wallMs,
      `${ratio(p2.s.wallMs, p1.s.wallMs)}: ${fmtMs(p2.s.wallMs)} vs ${fmtMs(p1.s.wallMs)} (${k}x the reports)`,
    );
  }
  const [e1, e2] = [find(small, 'export'), find(large, 'export')];
  if (e1 && e2) {
    add(
      `export's peak RSS at ${large} ≤ 1.5x its RSS at ${small}`,
      valid(e1) && valid(e2) && e2.s.maxRssMb <= 1.5 * e1.s.maxRssMb,
      `${ratio(e2.s.maxRssMb, e1.s.maxRssMb)}: ${e2.s.maxRssMb.toFixed(0)} MB vs ${e1.s.maxRssMb.toFixed(0)} MB`,
    );
  }
}

if (typical) {
  const { validate, plan } = typical;
  const ok = (s: Summary) => s.runs.every((r) => r.code === 0);
  add(
    `typical bundle: \`wsc plan\` ≤ 0.8 s wall at ${typicalLatency} ms`,
    ok(plan) && plan.requests > 0 && plan.wallMs <= 800,
    `${fmtMs(plan.wallMs)}, start-up included (${plan.requests} requests)`,
  );
  add(
    'typical bundle: `wsc validate` ≤ 0.4 s wall',
    ok(validate) && validate.wallMs <= 400,
    `${fmtMs(validate.wallMs)}, start-up included`,
  );
}

if (floor) {
  const f = floor;
  notes.push(
    `floor: with nothing to read (an empty bundle, an empty deployment), \`wsc plan\` takes ` +
      `${fmtMs(f.plan.wallMs)} and the script ${fmtMs(f.honest.wallMs)}: ${ratio(f.plan.wallMs, f.honest.wallMs)} ` +
      'before the first resource.',
  );
  for (const size of sizes) {
    const plan = find(size, 'plan (no changes)');
    const honest = find(size, 'honest script');
    if (!plan || !honest) continue;
    const room = 2 * honest.s.wallMs - f.plan.wallMs;
    notes.push(
      `${size}: 2x the script (${fmtMs(2 * honest.s.wallMs)}) less wsc's floor leaves ${fmtMs(room)} for all that ` +
        `${size} reports add to \`wsc plan\`; they add ${fmtMs(plan.s.wallMs - f.plan.wallMs)} (bundle, reads, ` +
        `checks, plan), where they add ${fmtMs(honest.s.wallMs - f.honest.wallMs)} to the script (its reads).`,
    );
  }
}

// ---------------------------------------------------------------------------
// Report

const show = (v: number, when: boolean) => (when ? fmtMs(v) : '-');
const lines: string[] = [];
const cpu0 = cpus()[0]?.model ?? '?';
lines.push('# wsc benchmark');
lines.push('');
lines.push(
  `${new Date().toISOString()} · node ${process.version} · ${cpus().length} CPUs (${cpu0}) · ` +
    `${(totalmem() / 2 ** 30).toFixed(0)} GiB · load average ${load0.toFixed(1)} at start, ` +
    `${loadavg()[0]!.toFixed(1)} at end · latency ${latency} ms per request · concurrency ${concurrency} · ` +
    `page size ${maxPage} · every figure the median of ${repeat} runs · ${fmtMs(performance.now() - started)} in all`,
);
lines.push('');
lines.push('Command: `npm run bench` (`node --import tsx bench/run.ts`, after `npm run build`).');
lines.push('');
lines.push(
  '| reports | scenario | exit | requests (writes) | wall | CPU | peak RSS | reads | pages in sequence | ' +
    'read bound | reads ÷ bound | writes | write bound | writes ÷ bound | naive client (est.) | naive ÷ wall |',
);
lines.push('|---:|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|');
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
    "for the previous page's cursor. *read bound*: those pages x (latency " +
    "+ the emulator's time to answer a page with no latency), the lists " +
    'read side by side. ' +
    '*write bound*: changed resources x latency / concurrency. *honest script*: bench/honest.mjs, the three ' +
    'lists paged with fetch and JSON.parse, nothing else. *naive client*: one GET per resource in sequence (plus ' +
    'one request per write for apply), measured on a sample against the same emulator and extrapolated linearly.',
);
lines.push('');
if (planPhases.size > 0) {
  lines.push(
    `Where \`wsc plan\` (no changes) spends its time, by phase (\`WSC_TIMINGS=1\`; median of ${repeat} runs ` +
      'per phase; CPU of the whole process, helper threads included):',
  );
  lines.push('');
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
}
lines.push('| target | result | measured |');
lines.push('|---|---|---|');
for (const t of targets) lines.push(`| ${t.name} | ${t.ok ? 'PASS' : 'FAIL'} | ${t.detail} |`);
if (targets.length === 0) lines.push('| (none at these sizes) | - | - |');
lines.push('');
for (const n of notes) lines.push(`- ${n}`);
for (const p of problems) lines.push(`- PROBLEM: ${p.split('\n')[0]}`);
lines.push('');

const text = lines.join('\n');
process.stdout.write(`\n${text}\n`);
for (const p of problems) log(`\nPROBLEM: ${p}`);
mkdirSync(join(root, 'bench-results'), { recursive: true });
writeFileSync(join(root, 'bench-results/latest.md'), text);
log('\nwritten to bench-results/latest.md');
if (!opt.keep) for (const d of temps) rmSync(d, { recursive: true, force: true });
else log(`kept: ${temps.join(' ')}`);
process.exitCode = problems.length > 0 || targets.some((t) => !t.ok) ? 1 : 0;
