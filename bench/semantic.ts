// The semantic check's cost (issue 39): N new reports (all changed), each
// naming a primary key that production `/v1/meta` leaves out, so that each
// query is asked of Cube's planner (`GET /v1/sql`, the emulator's) once the
// plan is known. Measured: `wsc plan` with the check and with
// `--skip-semantic-check`, in turn, and its `semantic check` phase (the wall
// time the planner's questions add after the plan), against their bound: at
// most MAX_ASKS queries, PLANNER_CONCURRENCY at once, each one round trip.
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PLANNER_CONCURRENCY } from '../src/api/semantic-run.js';
import { MAX_ASKS } from '../src/core/semantic/confirm.js';
import { createEmulator, generateSeed } from '../src/emulator/index.js';
import { runWsc, type CliRun } from './measure.js';
import { fmtMs, medianPhases, summarize, type Summary } from './summary.js';

export interface SemanticFigures {
  reports: number;
  /** `/v1/sql` requests of one run. */
  asked: number;
  bound: number;
  withCheck: Summary;
  skipped: Summary;
  /** Median wall of the `semantic check` phase. */
  phaseMs: number;
  dir: string;
}

/** The bundle: `n` reports, each a distinct query (its `limit`) naming a primary key. */
function writeBundle(n: number): string {
  const dir = mkdtempSync(join(tmpdir(), 'wsc-bench-semantic-'));
  mkdirSync(join(dir, 'reports'));
  for (let i = 0; i < n; i++) {
    const id = `semBench${String(i).padStart(4, '0')}`;
    writeFileSync(
      join(dir, 'reports', `${id}.yaml`),
      `kind: Report\npublicId: ${id}\nname: R${i}\njsonQuery:\n  measures: [subscriptions.count]\n` +
        `  dimensions: [subscriptions.id]\n  limit: ${i + 1}\n`,
    );
  }
  return dir;
}

export async function measureSemantic(n: number, latency: number, repeat: number): Promise<SemanticFigures> {
  const seed = generateSeed({ reports: 1, workbooks: 1, randomSeed: 20261129 });
  const emu = await createEmulator({ port: 0, seed, latencyMs: latency, logResponses: false, randomSeed: 1 });
  const dir = writeBundle(n);
  try {
    const env = { WSC_TOKEN: emu.adminToken, WSC_TIMINGS: '1' };
    // Deployment 2 of every generated seed is empty: every report is a create.
    const args = ['plan', '--dir', dir, '--base-url', emu.url, '--deployment', '2'];
    const withRuns: CliRun[] = [];
    const skipRuns: CliRun[] = [];
    let asked = 0;
    for (let i = 0; i < repeat; i++) {
      withRuns.push(await runWsc(emu, args, env));
      asked = emu.log.filter((e) => e.path.endsWith('/v1/sql')).length;
      skipRuns.push(await runWsc(emu, [...args, '--skip-semantic-check'], env));
    }
    const withCheck = summarize(withRuns);
    const phase = medianPhases(withCheck.runs)?.find((p) => p.phase === 'semantic check');
    const questions = Math.min(n, MAX_ASKS);
    return {
      reports: n,
      asked,
      bound: Math.ceil(questions / PLANNER_CONCURRENCY) * latency,
      withCheck,
      skipped: summarize(skipRuns),
      phaseMs: phase?.wallMs ?? NaN,
      dir,
    };
  } finally {
    await emu.close();
  }
}

/** The report's note. */
export function semanticNote(f: SemanticFigures, latency: number): string {
  return (
    `semantic check: ${f.reports} new reports each naming a primary key (left out of /v1/meta, so each query ` +
    `is asked of the planner): \`wsc plan\` takes ${fmtMs(f.withCheck.wallMs)} with the check and ` +
    `${fmtMs(f.skipped.wallMs)} with --skip-semantic-check; ${f.asked} /v1/sql requests (at most ${MAX_ASKS}, ` +
    `${PLANNER_CONCURRENCY} at once) add ${fmtMs(f.phaseMs)} after the plan, against a bound of ` +
    `${fmtMs(f.bound)} (${Math.ceil(Math.min(f.reports, MAX_ASKS) / PLANNER_CONCURRENCY)} round trips of ` +
    `${latency} ms); the rest of the check (the token, /v1/meta) runs beside the reads.`
  );
}
