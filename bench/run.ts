// `npm run bench`: wsc against emulators seeded with 1k and 10k reports (and a
// tenth as many workbooks, each with a dashboard charting its reports) at
// 20 ms injected latency. Measures plan, a no-op apply, an apply with 10% of
// the resources changed, export, and a naive one-GET-per-resource client;
// prints a table, checks the targets, writes bench-results/latest.md, and
// exits 1 when a target fails. Not a test: timings depend on the machine.
//
//   npm run bench [-- --sizes 1000,10000 --latency 20 --concurrency 8 --repeat 3 --naive-sample 100]
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, tmpdir, totalmem } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { createEmulator, generateSeed } from '../src/emulator/index.js';
import { changeTenPercent, writeBundleFromSeed } from './bundle.js';
import { measureNaive, measurePageServe } from './naive.js';
import { root, runWsc, type CliRun } from './measure.js';
import { parseTimings, type PhaseTiming } from '../src/timings.js';

const { values: opt } = parseArgs({
  options: {
    sizes: { type: 'string', default: '1000,10000' },
    latency: { type: 'string', default: '20' },
    concurrency: { type: 'string', default: '8' },
    repeat: { type: 'string', default: '3' },
    'naive-sample': { type: 'string', default: '100' },
    'max-page': { type: 'string', default: '500' },
    keep: { type: 'boolean', default: false },
  },
});
const sizes = opt.sizes.split(',').map((s) => Number(s.trim()));
const latency = Number(opt.latency);
const concurrency = Number(opt.concurrency);
const repeat = Math.max(1, Number(opt.repeat));
const naiveSample = Number(opt['naive-sample']);
const maxPage = Number(opt['max-page']);

interface Row {
  size: number;
  /** The emulator's own time to serve one page of reports, no latency (ms). */
  servePageMs?: number;
  scenario: string;
  run: CliRun;
  /** Lower bound of the reads: sequential pages of the longest list x latency (ms); 0 = no reads expected. */
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
const median = (runs: CliRun[]) => [...runs].sort((a, b) => a.wallMs - b.wallMs)[Math.floor(runs.length / 2)]!;
const fmtMs = (ms: number) => (ms >= 10_000 ? `${(ms / 1000).toFixed(1)} s` : `${Math.round(ms)} ms`);
const log = (s: string) => process.stderr.write(`${s}\n`);

for (const size of sizes) {
  const nWorkbooks = Math.max(1, Math.round(size / 10));
  log(`\n== ${size} reports, ${nWorkbooks} workbooks, ${latency} ms latency, concurrency ${concurrency}`);
  const seed = generateSeed({ reports: size, workbooks: nWorkbooks, withDashboards: true, randomSeed: 20261122 });
  const emu = await createEmulator({ port: 0, seed, latencyMs: latency, maxPageSize: maxPage, logResponses: false, randomSeed: 1 });
  const dir = mkdtempSync(join(tmpdir(), `wsc-bench-${size}-`));
  const outDir = mkdtempSync(join(tmpdir(), `wsc-bench-export-${size}-`));
  temps.push(dir, outDir);
  try {
    const bundle = writeBundleFromSeed(seed, dir);
    const env = { WSC_TOKEN: emu.adminToken };
    const target = ['--dir', dir, '--base-url', emu.url, '--deployment', '1', '--concurrency', String(concurrency)];
    const readBound = Math.max(Math.ceil(size / maxPage), Math.ceil(nWorkbooks / maxPage), 1) * latency;
    const resources = size + nWorkbooks;
    const servePageMs = await measurePageServe(emu, 1, latency, maxPage);
    const pages = Math.max(Math.ceil(size / maxPage), 1);
    notes.push(
      `${size}: the emulator itself takes ${servePageMs.toFixed(1)} ms to serve a page of ${Math.min(size, maxPage)} reports with no latency (handler, JSON text, transfer); ` +
        `counting it, one chain of ${pages} pages would need at least ${pages} x (${latency} + ${servePageMs.toFixed(1)}) = ${fmtMs(pages * (latency + servePageMs))}.`,
    );
    const push = (row: Omit<Row, 'size'>) => {
      rows.push({ size, servePageMs, ...row });
      const x = row.run;
      log(
        `  ${row.scenario}: exit ${x.code}, ${x.requests} requests (${x.writes} writes), wall ${fmtMs(x.wallMs)}, reads ${fmtMs(x.readMs)}, ` +
          `writes ${fmtMs(x.writeMs)}, rss ${x.maxRssMb.toFixed(0)} MB, cpu ${fmtMs(x.cpuMs)}`,
      );
      if (x.code !== row.expectedCode) {
        problems.push(`${size}: ${row.scenario} exited ${x.code} (expected ${row.expectedCode})\n${x.stderr.slice(0, 2000)}\n${x.stdout.slice(0, 2000)}`);
      }
    };

    // Offline validation (also warms the file cache for the runs below).
    const validates: CliRun[] = [];
    for (let i = 0; i < repeat; i++) validates.push(await runWsc(undefined, ['validate', '--dir', dir]));
    push({ scenario: 'validate (offline)', run: median(validates), readBound: 0, writeBound: 0, expectedCode: 0 });

    const naive = await measureNaive(emu, 1, { reports: seed.reports!.map((r) => r.id), workbooks: seed.workbooks!.map((w) => w.id) }, naiveSample);
    notes.push(
      `${size}: naive client measured on ${naive.sample} sequential GETs (${fmtMs(naive.totalMs)}, ${naive.perRequestMs.toFixed(1)} ms each), ` +
        `extrapolated linearly to ${resources} resources = ${fmtMs(naive.perRequestMs * resources)} (for apply, plus one request per write).`,
    );

    const plans: CliRun[] = [];
    // WSC_TIMINGS only adds a table to stderr: where the CPU goes, by phase.
    for (let i = 0; i < repeat; i++) plans.push(await runWsc(emu, ['plan', ...target, '--detailed-exitcode'], { ...env, WSC_TIMINGS: '1' }));
    const phases = medianPhases(plans);
    if (phases) planPhases.set(size, phases);
    else problems.push(`${size}: \`wsc plan\` printed no WSC_TIMINGS table`);
    push({ scenario: 'plan (no changes)', run: median(plans), readBound, writeBound: 0, expectedCode: 0, naiveMs: naive.perRequestMs * resources });

    const noops: CliRun[] = [];
    for (let i = 0; i < repeat; i++) noops.push(await runWsc(emu, ['apply', ...target, '--auto-approve'], env));
    push({ scenario: 'apply, nothing changed', run: median(noops), readBound, writeBound: 0, expectedCode: 0, naiveMs: naive.perRequestMs * resources });
    if (noops.some((r) => r.writes > 0)) problems.push(`${size}: the no-op apply sent ${Math.max(...noops.map((r) => r.writes))} writes`);

    const changed = changeTenPercent(bundle);
    const apply = await runWsc(emu, ['apply', ...target, '--auto-approve'], env);
    push({
      scenario: `apply, 10% changed (${changed})`,
      run: apply,
      readBound,
      writeBound: (changed * latency) / concurrency,
      expectedCode: 0,
      naiveMs: naive.perRequestMs * (resources + changed),
    });
    if (apply.writes !== changed) notes.push(`${size}: apply sent ${apply.writes} writes for ${changed} changed resources.`);

    const after = await runWsc(emu, ['plan', ...target, '--detailed-exitcode'], env);
    if (after.code !== 0) problems.push(`${size}: plan after the apply is not empty (exit ${after.code})\n${after.stdout.slice(0, 2000)}`);

    const exp = await runWsc(emu, ['export', '--base-url', emu.url, '--deployment', '1', '--out', outDir], env);
    push({ scenario: 'export', run: exp, readBound, writeBound: 0, expectedCode: 0, naiveMs: naive.perRequestMs * resources });
  } finally {
    await emu.close();
  }
}

/** Each phase's median over runs that printed the same phases (undefined if a run printed none). */
function medianPhases(runs: CliRun[]): PhaseTiming[] | undefined {
  const all = runs.map((r) => parseTimings(r.stderr));
  if (all.some((t) => t === undefined)) return undefined;
  const first = all[0]!;
  const mid = <T>(xs: T[], key: (x: T) => number) => xs.map(key).sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
  return first.map((p, i) => ({
    phase: p.phase,
    wallMs: mid(all, (t) => t![i]?.wallMs ?? NaN),
    cpuMs: mid(all, (t) => t![i]?.cpuMs ?? NaN),
  }));
}

// ---------------------------------------------------------------------------
// Report

const ratio = (a: number, b: number) => (b > 0 ? `${(a / b).toFixed(2)}x` : '-');
const ms = (v: number, show: boolean) => (show ? fmtMs(v) : '-');
const lines: string[] = [];
lines.push(`# wsc benchmark`);
lines.push('');
lines.push(
  `${new Date().toISOString()} · node ${process.version} · ${cpus().length} CPUs (${cpus()[0]?.model ?? '?'}) · ${(totalmem() / 2 ** 30).toFixed(0)} GiB · ` +
    `load average ${load0.toFixed(1)} at start, ${loadavg()[0]!.toFixed(1)} at end · latency ${latency} ms per request · concurrency ${concurrency} · ` +
    `page size ${maxPage} · median of ${repeat} for validate, plan and no-op apply`,
);
lines.push('');
lines.push('Command: `npm run bench` (`node --import tsx bench/run.ts`, after `npm run build`).');
lines.push('');
lines.push('| reports | scenario | exit | requests (writes) | wall | CPU | peak RSS | reads | read bound | reads ÷ bound | pages in sequence | reads ÷ (those x latency) | writes | write bound | writes ÷ bound | naive client (est.) | naive ÷ wall |');
lines.push('|---:|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|');
for (const r of rows) {
  const x = r.run;
  lines.push(
    `| ${r.size} | ${r.scenario} | ${x.code} | ${x.requests} (${x.writes}) | ${fmtMs(x.wallMs)} | ${fmtMs(x.cpuMs)} | ${x.maxRssMb.toFixed(0)} MB | ` +
      `${ms(x.readMs, r.readBound > 0)} | ${ms(r.readBound, r.readBound > 0)} | ${ratio(x.readMs, r.readBound)} | ` +
      `${r.readBound > 0 ? x.listRounds : '-'} | ${r.readBound > 0 ? ratio(x.readMs, x.listRounds * latency) : '-'} | ` +
      `${ms(x.writeMs, r.writeBound > 0)} | ${ms(r.writeBound, r.writeBound > 0)} | ${ratio(x.writeMs, r.writeBound)} | ` +
      `${r.naiveMs ? fmtMs(r.naiveMs) : '-'} | ${r.naiveMs ? ratio(r.naiveMs, x.wallMs) : '-'} |`,
  );
}
lines.push('');
lines.push(
  '*wall*: the whole `node bin/wsc.js` process (start-up, reading and validating the bundle, HTTP, diff, output). ' +
    '*CPU* (user + system, waiting excluded) and *peak RSS*: the CLI process\'s own getrusage, written at exit by bench/probe.mjs (preloaded with --import). ' +
    '*reads* / *writes*: from the first such request reaching the emulator to the last answer (its request log). ' +
    '*read bound*: pages of the longest list x latency, as the issue defines it: ceil(reports / page size) pages, each waiting for the previous cursor when one chain reads them. ' +
    '*pages in sequence*: what wsc actually waits for, one after another, from the request log: the reports list is read from both ends, so after its first page two chains share the rest; ' +
    'reads ÷ (those x latency) is how close wsc comes to its own strategy\'s bound (the first round trip on fresh connections, the emulator\'s serving time and the client\'s parsing are the rest). ' +
    '*write bound*: changed resources x latency / concurrency. ' +
    '*naive client*: one GET per resource in sequence (plus one request per write for apply), measured on a sample against the same emulator and extrapolated linearly.',
);
lines.push('');
if (planPhases.size > 0) {
  lines.push(`Where \`wsc plan\` (no changes) spends its time, by phase (\`WSC_TIMINGS=1\`; median of ${repeat} runs per phase; CPU of the whole process, helper threads included):`);
  lines.push('');
  const sizesShown = [...planPhases.keys()];
  lines.push(`| phase | ${sizesShown.map((n) => `${n}: wall | ${n}: CPU`).join(' | ')} |`);
  lines.push(`|---|${sizesShown.map(() => '---:|---:').join('|')}|`);
  const names = planPhases.get(sizesShown[0]!)!.map((p) => p.phase);
  for (const name of [...names, 'total']) {
    const cells = sizesShown.map((n) => {
      const ps = planPhases.get(n)!;
      const pick = name === 'total' ? { wallMs: ps.reduce((a, p) => a + p.wallMs, 0), cpuMs: ps.reduce((a, p) => a + p.cpuMs, 0) } : ps.find((p) => p.phase === name);
      return pick ? `${fmtMs(pick.wallMs)} | ${fmtMs(pick.cpuMs)}` : '- | -';
    });
    lines.push(`| ${name} | ${cells.join(' | ')} |`);
  }
  lines.push('');
  lines.push(
    '*start-up*: node and wsc\'s modules until the command runs. *bundle*: reading wsc.yaml and every bundle file, parsing, validating (the client\'s modules load meanwhile). ' +
      '*read deployment*: connecting and reading every list. *plan*: matching and comparing. *output*: rendering and writing the result. ' +
      'The total of the medians is not the median of the totals.',
  );
  lines.push('');
}

interface Target { name: string; ok: boolean; detail: string }
const targets: Target[] = [];
/** A scenario that failed or made no request proves nothing: its target fails. */
const valid = (r: Row) => r.run.code === r.expectedCode && (r.readBound === 0 || r.run.requests > 0);
for (const r of rows) {
  if (r.scenario.startsWith('plan')) {
    const rounds = r.run.listRounds;
    const withServe = rounds * (latency + (r.servePageMs ?? 0));
    targets.push({
      name: `plan ≤ 1.3x its lower bound (${r.size})`,
      ok: valid(r) && r.run.readMs <= 1.3 * r.readBound,
      detail:
        `${ratio(r.run.readMs, r.readBound)}: reads ${fmtMs(r.run.readMs)} vs ${fmtMs(r.readBound)}; ` +
        `against the ${rounds} pages wsc waits for in sequence: ${ratio(r.run.readMs, rounds * latency)} of ${fmtMs(rounds * latency)}, ` +
        `${ratio(r.run.readMs, withServe)} of ${fmtMs(withServe)} counting the emulator's own serving time`,
    });
  }
  if (r.scenario.startsWith('apply, 10%')) {
    targets.push({ name: `apply ≤ 1.5x its lower bound at concurrency ${concurrency} (${r.size})`, ok: valid(r) && r.run.writes > 0 && r.run.writeMs <= 1.5 * r.writeBound, detail: `${ratio(r.run.writeMs, r.writeBound)}: writes ${fmtMs(r.run.writeMs)} vs ${fmtMs(r.writeBound)}` });
  }
}
const big = Math.max(...sizes);
if (big >= 10_000) {
  const plan = rows.find((r) => r.size === big && r.scenario.startsWith('plan'));
  if (plan) {
    const ph = planPhases.get(big);
    const cpuOf = (name: string) => ph?.find((p) => p.phase === name)?.cpuMs ?? NaN;
    const parts = ph ? ` (by phase, medians: ${ph.map((p) => `${p.phase} ${fmtMs(p.cpuMs)}`).join(', ')}; the bundle and plan phases alone: ${fmtMs(cpuOf('bundle') + cpuOf('plan'))})` : '';
    targets.push({
      name: `validate + plan CPU < 1.5 s (${big})`,
      ok: valid(plan) && plan.run.cpuMs < 1500,
      detail: `${fmtMs(plan.run.cpuMs)}: user + system of the whole \`wsc plan\` process, which starts, loads and validates the bundle, reads the deployment and plans${parts}`,
    });
  }
  const own = rows.filter((r) => r.size === big);
  const worst = own.reduce((m, r) => (r.run.maxRssMb > m.run.maxRssMb ? r : m));
  targets.push({ name: `peak RSS < 300 MB (${big})`, ok: own.every(valid) && worst.run.maxRssMb < 300, detail: `${worst.run.maxRssMb.toFixed(0)} MB (${worst.scenario})` });
} else {
  notes.push('The CPU and RSS targets are for 10k reports: not checked in this run.');
}
lines.push('| target | result | measured |');
lines.push('|---|---|---|');
for (const t of targets) lines.push(`| ${t.name} | ${t.ok ? 'PASS' : 'FAIL'} | ${t.detail} |`);
lines.push('');
for (const n of notes) lines.push(`- ${n}`);
for (const p of problems) lines.push(`- PROBLEM: ${p.split('\n')[0]}`);
lines.push('');

const text = lines.join('\n');
process.stdout.write(`\n${text}\n`);
for (const p of problems) log(`\nPROBLEM: ${p}`);
mkdirSync(join(root, 'bench-results'), { recursive: true });
writeFileSync(join(root, 'bench-results/latest.md'), text);
log(`\nwritten to bench-results/latest.md`);
if (!opt.keep) for (const d of temps) rmSync(d, { recursive: true, force: true });
else log(`kept: ${temps.join(' ')}`);
process.exitCode = problems.length > 0 || targets.some((t) => !t.ok) ? 1 : 0;
