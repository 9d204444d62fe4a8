// How many cases each fast-check property runs, from one variable. A property
// states its count for CI; WSC_PROPERTY_RUNS (default 100, fast-check's own
// default) scales every count alike: 1000 runs each property ten times as many
// cases (a soak), 20 a fifth (a quick local run). Each run draws a fresh seed;
// fast-check prints the seed and path of a failure to replay it.
import fc from 'fast-check';

/** The runs of every property at CI's default, and what WSC_PROPERTY_RUNS scales from. */
export const DEFAULT_PROPERTY_RUNS = 100;

export function propertyScale(env: Record<string, string | undefined> = process.env): number {
  const v = env['WSC_PROPERTY_RUNS'];
  if (v === undefined || v === '') return 1;
  const n = Number(v);
  if (!Number.isFinite(n) || n <= 0) {
    throw new Error(`WSC_PROPERTY_RUNS: expected a positive number, got ${JSON.stringify(v)}`);
  }
  return n / DEFAULT_PROPERTY_RUNS;
}

/** The runs of a property whose count in CI is `ciRuns` (at least one). */
export function runs(ciRuns = DEFAULT_PROPERTY_RUNS, env: Record<string, string | undefined> = process.env): number {
  return Math.max(1, Math.round(ciRuns * propertyScale(env)));
}

// Properties that state no count run the default, scaled the same way.
fc.configureGlobal({ ...fc.readConfigureGlobal(), numRuns: runs() });
