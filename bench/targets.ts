// The targets of DESIGN §9 the bench checks, each a figure, its limit and a
// verdict (bench/verdict.ts). Which apply depends on the sizes run: the read
// and write bounds from 1,000 to 10,000 reports, the whole-process limits and
// the same-work comparison at exactly 1,000 and 10,000, the memory limit at
// 10,000, the growth targets between the two largest sizes.
import { fmtMs, ratio, valid, type Row } from './summary.js';
import { margin, verdict, type Verdict } from './verdict.js';

export interface Target {
  name: string;
  verdict: Verdict;
  detail: string;
}

export interface TargetContext {
  sizes: number[];
  latency: number;
  concurrency: number;
  /** The typical bundle's latency; 0 when that scenario did not run. */
  typicalLatency: number;
}

/** Scenario names the targets look rows up by (run.ts names its rows with them). */
export const SCENARIO = {
  validate: 'validate (offline)',
  plan: 'plan (no changes)',
  sameWork: 'same-work script (js-yaml, zod, fetch; side by side)',
  sameWorkSequential: 'same-work script, bundle then lists',
  fetchOnly: 'fetch-only script (fetch + JSON.parse)',
  applyNoop: 'apply, nothing changed',
  applyChanged: 'apply, 10% changed',
  export: 'export',
  typicalValidate: 'validate, typical bundle',
  typicalPlan: 'plan, typical bundle',
  floorPlan: 'plan, empty bundle and deployment',
  floorSameWork: 'same-work script, empty bundle and deployment',
  floorSameWorkUndici: 'same-work script with undici, empty bundle and deployment',
  floorFetchOnly: 'fetch-only script, empty deployment',
} as const;

/** The floor's rows' label (an empty bundle against an empty deployment). */
export const FLOOR_LABEL = 'empty (floor)';

/** The targeted comparison (DESIGN §9, amended 2026-11-29): `wsc plan` at most this many times the script's wall. */
export const SAME_WORK_LIMIT = 1.3;
/** Plan's reads, at most this many times the bound of one cursor chain. */
const READ_LIMIT = 1.2;
/** With nothing to read, `wsc plan` at most this many times the same-work script's wall. */
const FLOOR_LIMIT = 1.25;

const runsOf = (...rows: Row[]) => Math.min(...rows.map((r) => r.s.runs.length));

export function checkTargets(rows: Row[], ctx: TargetContext): Target[] {
  const targets: Target[] = [];
  const find = (size: number, prefix: string) =>
    rows.find((r) => r.size === size && r.label === undefined && r.scenario.startsWith(prefix));
  const add = (name: string, value: number, limit: number, used: Row[], detail: string, ok = true) => {
    const v = verdict({ value, limit, runs: runsOf(...used), valid: ok && used.every(valid) });
    targets.push({ name, verdict: v, detail: `${detail}; ${margin(value, limit)}` });
  };

  for (const size of ctx.sizes) {
    const plan = find(size, SCENARIO.plan);
    const same = find(size, SCENARIO.sameWork);
    // The read and write bounds are targets from 1k to 10k reports; below, start-up and connecting dominate.
    const bounded = size >= 1000 && size <= 10_000;
    if (plan && bounded) {
      add(
        `plan's reads ≤ ${READ_LIMIT}x the bound of one cursor chain (${size})`,
        plan.s.readMs / plan.readBound,
        READ_LIMIT,
        [plan],
        `${ratio(plan.s.readMs, plan.readBound)}: reads ${fmtMs(plan.s.readMs)} (first request to last answer) vs ` +
          `${plan.s.longestChain} pages x (${ctx.latency} ms + the server's time for a page) = ` +
          fmtMs(plan.readBound),
      );
    }
    const wholeLimit = size === 1000 ? 700 : size === 10_000 ? 2000 : undefined;
    if (plan && wholeLimit !== undefined) {
      add(
        `\`wsc plan\` whole process ≤ ${fmtMs(wholeLimit)} wall (${size})`,
        plan.s.wallMs,
        wholeLimit,
        [plan],
        `${fmtMs(plan.s.wallMs)}: start-up, bundle, reads, plan and output (CPU ${fmtMs(plan.s.cpuMs)}, not a target)`,
      );
    }
    if (plan && same && (size === 1000 || size === 10_000)) {
      add(
        `\`wsc plan\` ≤ ${SAME_WORK_LIMIT}x the same-work script's wall (${size})`,
        plan.s.wallMs / same.s.wallMs,
        SAME_WORK_LIMIT,
        [plan, same],
        `${ratio(plan.s.wallMs, same.s.wallMs)}: ${fmtMs(plan.s.wallMs)} vs ${fmtMs(same.s.wallMs)}, ` +
          'interleaved medians',
      );
    }
    const apply = find(size, SCENARIO.applyChanged);
    if (apply && bounded) {
      add(
        `apply (10% changed) ≤ 1.5x the writes' bound at concurrency ${ctx.concurrency} (${size})`,
        apply.s.writeMs / apply.writeBound,
        1.5,
        [apply],
        `${ratio(apply.s.writeMs, apply.writeBound)}: writes ${fmtMs(apply.s.writeMs)} vs ` +
          `${apply.s.writes} x ${ctx.latency} ms / ${ctx.concurrency} = ${fmtMs(apply.writeBound)}`,
        apply.s.writes > 0,
      );
    }
    if (size === 10_000) {
      const own = rows.filter((r) => r.size === size && r.label === undefined && !r.scenario.includes('script'));
      const worst = own.reduce((m, r) => (r.s.maxRssMb > m.s.maxRssMb ? r : m));
      const detail = `${worst.s.maxRssMb.toFixed(0)} MB (${worst.scenario})`;
      add(`peak RSS < 300 MB (${size})`, worst.s.maxRssMb, 300, own, detail);
    }
  }

  // Cost grows linearly: the two largest sizes, the plan's time and export's memory.
  const [small, large] = [...new Set(ctx.sizes)].sort((a, b) => a - b).slice(-2);
  if (small !== undefined && large !== undefined && large > small) {
    const k = large / small;
    const [p1, p2] = [find(small, SCENARIO.plan), find(large, SCENARIO.plan)];
    if (p1 && p2) {
      add(
        `plan at ${large} ≤ ${(1.2 * k).toFixed(1)}x its time at ${small}`,
        p2.s.wallMs / p1.s.wallMs,
        1.2 * k,
        [p1, p2],
        `${ratio(p2.s.wallMs, p1.s.wallMs)}: ${fmtMs(p2.s.wallMs)} vs ${fmtMs(p1.s.wallMs)} (${k}x the reports)`,
      );
    }
    const [e1, e2] = [find(small, SCENARIO.export), find(large, SCENARIO.export)];
    if (e1 && e2) {
      add(
        `export's peak RSS at ${large} ≤ 1.5x its RSS at ${small}`,
        e2.s.maxRssMb / e1.s.maxRssMb,
        1.5,
        [e1, e2],
        `${ratio(e2.s.maxRssMb, e1.s.maxRssMb)}: ${e2.s.maxRssMb.toFixed(0)} MB vs ${e1.s.maxRssMb.toFixed(0)} MB`,
      );
    }
  }

  const floor = (scenario: string) => rows.find((r) => r.label === FLOOR_LABEL && r.scenario === scenario);
  const [fPlan, fSame] = [floor(SCENARIO.floorPlan), floor(SCENARIO.floorSameWork)];
  if (fPlan && fSame) {
    add(
      `floor: \`wsc plan\` ≤ ${FLOOR_LIMIT}x the same-work script's wall, nothing to read`,
      fPlan.s.wallMs / fSame.s.wallMs,
      FLOOR_LIMIT,
      [fPlan, fSame],
      `${ratio(fPlan.s.wallMs, fSame.s.wallMs)}: ${fmtMs(fPlan.s.wallMs)} vs ${fmtMs(fSame.s.wallMs)}, an empty ` +
        'bundle against an empty deployment, interleaved medians',
    );
  }

  const typical = (prefix: string) =>
    rows.find((r) => r.label !== undefined && r.label !== FLOOR_LABEL && r.scenario.startsWith(prefix));
  const [tPlan, tValidate] = [typical(SCENARIO.typicalPlan), typical(SCENARIO.typicalValidate)];
  if (tPlan) {
    add(
      `typical bundle: \`wsc plan\` ≤ 0.8 s wall at ${ctx.typicalLatency} ms`,
      tPlan.s.wallMs,
      800,
      [tPlan],
      `${fmtMs(tPlan.s.wallMs)}, start-up included (${tPlan.s.requests} requests)`,
    );
  }
  if (tValidate) {
    add('typical bundle: `wsc validate` ≤ 0.4 s wall', tValidate.s.wallMs, 400, [tValidate], fmtMs(tValidate.s.wallMs));
  }
  return targets;
}
