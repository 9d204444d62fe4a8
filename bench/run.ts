// `npm run bench`: the built CLI against emulators seeded with 1k, 10k and 50k
// reports (and a tenth as many workbooks, each with a dashboard charting its
// reports) at 20 ms of injected latency, and a typical bundle (50 reports, 5
// workbooks) at 100 ms. Measures validate, plan, a no-op apply, applies with
// 10% of the resources changed and export. Beside `wsc plan`, in turn against
// the same emulator: the same-work script (bench/same-work.ts, the targeted
// comparison), the same script loading the bundle before reading the lists,
// and the fetch-only script (bench/honest.mjs, reported). A naive client (one
// GET per resource) is estimated from a sample. Every figure is the median of
// --repeat runs. Prints a table, the targets' verdicts (bench/targets.ts,
// bench/verdict.ts), writes bench-results/latest.md, and exits 1 when a target
// fails. Not a test: timings depend on the machine.
//
//   npm run bench [-- --sizes 1000,10000,50000 --apply-up-to 10000 --latency 20
//                     --concurrency 8 --repeat 5 --naive-sample 100 --max-page 500
//                     --typical-latency 100 --semantic 1000 --keep]
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { createEmulator, generateSeed, type Emulator, type SeedState } from '../src/emulator/index.js';
import type { PhaseTiming } from '../src/timings.js';
import { changeTenPercent, writeBundleFromSeed } from './bundle.js';
import { buildSameWork } from './build-scripts.js';
import { root, runNode, runWsc, type CliRun } from './measure.js';
import { measureNaive, measurePageServe } from './naive.js';
import { renderReport } from './report.js';
import { fmtMs, medianPhases, ratio, summarize, type Row, type Summary } from './summary.js';
import { measureSemantic, semanticNote } from './semantic.js';
import { checkTargets, FLOOR_LABEL, SAME_WORK_LIMIT, SCENARIO } from './targets.js';

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
    /** New reports whose queries the semantic check asks Cube's planner about; 0 leaves that scenario out. */
    semantic: { type: 'string', default: '1000' },
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
const semanticReports = Number(opt.semantic);
const honestScript = join(root, 'bench/honest.mjs');
const sameWorkScript = await buildSameWork();
const sameWorkUndiciScript = await buildSameWork('undici');

const rows: Row[] = [];
const planPhases = new Map<number, PhaseTiming[]>();
const problems: string[] = [];
const notes: string[] = [];
const temps: string[] = [];
const load0 = loadavg()[0]!;
const started = performance.now();
const log = (s: string) => process.stderr.write(`${s}\n`);

/** Runs `once` --repeat times, one after another. */
async function repeated(once: (i: number) => Promise<CliRun>): Promise<Summary> {
  const runs: CliRun[] = [];
  for (let i = 0; i < repeat; i++) runs.push(await once(i));
  return summarize(runs);
}

/** Runs each scenario once per round, in turn, --repeat rounds: the machine's hour weighs on all alike. */
async function interleaved<K extends string>(scenarios: Record<K, () => Promise<CliRun>>): Promise<Record<K, Summary>> {
  const keys = Object.keys(scenarios) as K[];
  const runs = new Map<K, CliRun[]>(keys.map((k) => [k, []]));
  for (let i = 0; i < repeat; i++) for (const k of keys) runs.get(k)!.push(await scenarios[k]());
  return Object.fromEntries(keys.map((k) => [k, summarize(runs.get(k)!)])) as Record<K, Summary>;
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
      `${row.label ?? row.size}: ${row.scenario} exited ${bad.code} (expected ${row.expectedCode})\n` +
        `${bad.stderr.slice(0, 2000)}\n${bad.stdout.slice(0, 2000)}`,
    );
  }
  const wrong = row.expectedOut === undefined ? undefined : x.runs.find((r) => r.stdout.trim() !== row.expectedOut);
  if (wrong) {
    problems.push(
      `${row.label ?? row.size}: ${row.scenario} printed ${JSON.stringify(wrong.stdout.trim())}, not ` +
        `${JSON.stringify(row.expectedOut)} (documents checked, reports, workbooks, user attributes)`,
    );
  }
}

async function startEmulator(seed: SeedState, latencyMs: number): Promise<Emulator> {
  return createEmulator({ port: 0, seed, latencyMs, maxPageSize: maxPage, logResponses: false, randomSeed: 1 });
}

/** `wsc plan` and the scripts beside it, interleaved: the rows of the targeted comparison. */
async function planBesideScripts(emu: Emulator, dir: string, deployment: string, planArgs: string[]) {
  const env = { WSC_TOKEN: emu.adminToken };
  const lists = [emu.url, deployment, String(maxPage)];
  return interleaved({
    // WSC_TIMINGS only adds a table to stderr: where the time goes, by phase.
    plan: () => runWsc(emu, planArgs, { ...env, WSC_TIMINGS: '1' }),
    same: () => runNode(emu, sameWorkScript, [dir, ...lists], env),
    sequential: () => runNode(emu, sameWorkScript, [dir, ...lists, '--sequential'], env),
    fetchOnly: () => runNode(emu, honestScript, lists, env),
  });
}

const userAttributes = (seed: SeedState) => (seed.userAttributes ?? []).length;

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
    push({ size, scenario: SCENARIO.validate, s: validate, readBound: 0, writeBound: 0, expectedCode: 0 });

    const ids = { reports: seed.reports!.map((r) => r.id), workbooks: seed.workbooks!.map((w) => w.id) };
    const naive = await measureNaive(emu, 1, ids, naiveSample);
    notes.push(
      `${size}: naive client measured on ${naive.sample} sequential GETs (${fmtMs(naive.totalMs)}, ` +
        `${naive.perRequestMs.toFixed(1)} ms each), extrapolated linearly to ${resources} resources = ` +
        `${fmtMs(naive.perRequestMs * resources)} (for apply, plus one request per write).`,
    );
    const naiveMs = naive.perRequestMs * resources;

    const planArgs = ['plan', ...target, '--detailed-exitcode'];
    const c = await planBesideScripts(emu, dir, '1', planArgs);
    const lists = `${size} ${nWorkbooks} ${userAttributes(seed)}`;
    const at = { size, readBound, writeBound: 0, expectedCode: 0 };
    push({ ...at, scenario: SCENARIO.fetchOnly, s: c.fetchOnly, expectedOut: lists });
    push({ ...at, scenario: SCENARIO.sameWork, s: c.same, expectedOut: `${resources} ${lists}` });
    push({ ...at, scenario: SCENARIO.sameWorkSequential, s: c.sequential, expectedOut: `${resources} ${lists}` });
    push({ ...at, scenario: SCENARIO.plan, s: c.plan, naiveMs });
    const phases = medianPhases(c.plan.runs);
    if (phases) planPhases.set(size, phases);
    else problems.push(`${size}: \`wsc plan\` printed no WSC_TIMINGS table`);
    notes.push(overlapNote(size, c.same, c.sequential, phases));
    notes.push(
      `${size}: \`wsc plan\` takes ${ratio(c.plan.wallMs, c.fetchOnly.wallMs)} the fetch-only script's wall ` +
        `(${fmtMs(c.plan.wallMs)} vs ${fmtMs(c.fetchOnly.wallMs)}; reported, not a target).`,
    );

    if (withApply) {
      const apply = ['apply', ...target, '--auto-approve'];
      const noop = await repeated(() => runWsc(emu, apply, env));
      push({ size, scenario: SCENARIO.applyNoop, s: noop, readBound, writeBound: 0, expectedCode: 0, naiveMs });
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
        scenario: `${SCENARIO.applyChanged} (${change.changed})`,
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
    push({ size, scenario: SCENARIO.export, s: exp, readBound, writeBound: 0, expectedCode: 0, naiveMs });
  } finally {
    await emu.close();
  }
}

/** What loading the bundle beside the reads gains: the script both ways, and wsc's two phases. */
function overlapNote(size: number, same: Summary, sequential: Summary, phases: PhaseTiming[] | undefined): string {
  const phase = (name: string) => phases?.find((p) => p.phase === name)?.wallMs ?? NaN;
  const [bundle, reads] = [phase('bundle'), phase('read deployment')];
  return (
    `${size}: the same-work script takes ${fmtMs(same.wallMs)} with the bundle and the lists side by side and ` +
    `${fmtMs(sequential.wallMs)} one after the other (it reads its files synchronously, so the lists wait for ` +
    `the bundle after their first page); \`wsc plan\` spends ${fmtMs(bundle)} in its bundle phase and ` +
    `${fmtMs(reads)} reading the deployment, one after the other: overlapping them could save less than ` +
    `${fmtMs(Math.min(bundle, reads))}, at most the main thread's idle time in the reads (docs/performance.md).`
  );
}

// The typical bundle: what most users have, at a slow remote API's latency.
const TYPICAL = { reports: 50, workbooks: 5 };
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
    const at = { size: TYPICAL.reports, label: `${TYPICAL.reports} (typical)`, writeBound: 0, expectedCode: 0 };
    push({ ...at, scenario: `${SCENARIO.typicalValidate} at ${typicalLatency} ms`, s: validate, readBound: 0 });
    push({ ...at, scenario: `${SCENARIO.typicalPlan} at ${typicalLatency} ms`, s: plan, readBound: typicalLatency });
  } finally {
    await emu.close();
  }
}

// The semantic check's questions to Cube's planner, after the plan (bench/semantic.ts).
if (semanticReports > 0) {
  log(`\n== semantic check: ${semanticReports} new reports naming a primary key, ${latency} ms latency`);
  const f = await measureSemantic(semanticReports, latency, repeat);
  temps.push(f.dir);
  const at = { size: semanticReports, label: `${semanticReports} (semantic)`, writeBound: 0, expectedCode: 0 };
  push({ ...at, scenario: 'plan, every report asked of the planner', s: f.withCheck, readBound: f.bound });
  push({ ...at, scenario: 'plan, --skip-semantic-check', s: f.skipped, readBound: 0 });
  notes.push(semanticNote(f, latency));
}

// The floor: an empty bundle planned against an empty deployment, beside the
// scripts doing the same with nothing, in turn. Nothing is read, parsed or
// compared, so this is what wsc costs before the first resource (start-up,
// its code, the connection, the output): what the 1.5x target leaves for the
// resources themselves is measured, not argued.
if (sizes.length > 0) {
  log(`\n== floor: an empty bundle against an empty deployment, ${latency} ms latency`);
  const emu = await startEmulator(generateSeed({ reports: 1, workbooks: 1, randomSeed: 20261127 }), latency);
  const dir = mkdtempSync(join(tmpdir(), 'wsc-bench-floor-'));
  temps.push(dir);
  try {
    // Deployment 2 of every generated seed is empty.
    const planArgs = ['plan', '--dir', dir, '--base-url', emu.url, '--deployment', '2', '--detailed-exitcode'];
    const env = { WSC_TOKEN: emu.adminToken };
    const lists = [emu.url, '2', String(maxPage)];
    const f = await interleaved({
      plan: () => runWsc(emu, planArgs, { ...env, WSC_TIMINGS: '1' }),
      same: () => runNode(emu, sameWorkScript, [dir, ...lists], env),
      sameUndici: () => runNode(emu, sameWorkUndiciScript, [dir, ...lists], env),
      fetchOnly: () => runNode(emu, honestScript, lists, env),
    });
    const at = { size: 0, label: FLOOR_LABEL, readBound: 0, writeBound: 0, expectedCode: 0 };
    push({ ...at, scenario: SCENARIO.floorFetchOnly, s: f.fetchOnly });
    push({ ...at, scenario: SCENARIO.floorSameWork, s: f.same });
    push({ ...at, scenario: SCENARIO.floorSameWorkUndici, s: f.sameUndici });
    push({ ...at, scenario: SCENARIO.floorPlan, s: f.plan });
    notes.push(
      `floor: with nothing to read (an empty bundle, an empty deployment), \`wsc plan\` takes ` +
        `${fmtMs(f.plan.wallMs)}, the same-work script ${fmtMs(f.same.wallMs)} ` +
        `(${ratio(f.plan.wallMs, f.same.wallMs)}) and the fetch-only script ${fmtMs(f.fetchOnly.wallMs)} before ` +
        'the first resource.',
      `floor: the same-work script with undici's request instead of fetch (the HTTP client wsc is built on) ` +
        `takes ${fmtMs(f.sameUndici.wallMs)}, ${ratio(f.sameUndici.wallMs, f.same.wallMs)} the one with fetch; ` +
        `\`wsc plan\` takes ${ratio(f.plan.wallMs, f.sameUndici.wallMs)} the one with undici (reported, not a target).`,
    );
    for (const size of sizes) {
      const plan = rows.find((r) => r.size === size && r.scenario === SCENARIO.plan);
      const same = rows.find((r) => r.size === size && r.scenario === SCENARIO.sameWork);
      if (!plan || !same) continue;
      const room = SAME_WORK_LIMIT * same.s.wallMs - f.plan.wallMs;
      notes.push(
        `${size}: ${SAME_WORK_LIMIT}x the same-work script (${fmtMs(SAME_WORK_LIMIT * same.s.wallMs)}) less ` +
          `wsc's floor leaves ${fmtMs(room)} for all that ${size} reports add to \`wsc plan\`; they add ` +
          `${fmtMs(plan.s.wallMs - f.plan.wallMs)}, where they add ${fmtMs(same.s.wallMs - f.same.wallMs)} ` +
          'to the same-work script.',
      );
    }
  } finally {
    await emu.close();
  }
}

const targets = checkTargets(rows, { sizes, latency, concurrency, typicalLatency });
const text = renderReport({
  rows,
  targets,
  planPhases,
  notes,
  problems,
  conditions: { latency, concurrency, maxPage, repeat },
  load: { start: load0, end: loadavg()[0]! },
  elapsedMs: performance.now() - started,
});
process.stdout.write(`\n${text}\n`);
for (const p of problems) log(`\nPROBLEM: ${p}`);
mkdirSync(join(root, 'bench-results'), { recursive: true });
writeFileSync(join(root, 'bench-results/latest.md'), text);
log('\nwritten to bench-results/latest.md');
if (!opt.keep) for (const d of temps) rmSync(d, { recursive: true, force: true });
else log(`kept: ${temps.join(' ')}`);
process.exitCode = problems.length > 0 || targets.some((t) => t.verdict === 'FAIL') ? 1 : 0;
