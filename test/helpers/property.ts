// How many cases each fast-check property runs, from one variable. A property
// states its count for CI; WSC_PROPERTY_RUNS (default 100, fast-check's own
// default) scales every count alike: 1000 runs each property ten times as many
// cases (a soak), 20 a fifth (a quick local run). The seed is fixed unless
// WSC_PROPERTY_SEED says otherwise, so `npm test` and CI draw the same cases
// every time (a red CI is a real regression, reproducible by running the same
// command); a soak sets WSC_PROPERTY_SEED=random (a fresh seed per property)
// or a number, and fast-check prints the seed and path of a failure to replay it.
import fc from 'fast-check';

/** The runs of every property at CI's default, and what WSC_PROPERTY_RUNS scales from. */
const DEFAULT_PROPERTY_RUNS = 100;

function propertyScale(env: Record<string, string | undefined> = process.env): number {
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

/** The seed every property starts from: fixed by default, fresh per run with `random`. */
export const DEFAULT_PROPERTY_SEED = 1;

export function propertySeed(env: Record<string, string | undefined> = process.env): number | undefined {
  const v = env['WSC_PROPERTY_SEED'];
  if (v === undefined || v === '') return DEFAULT_PROPERTY_SEED;
  if (v === 'random') return undefined;
  const n = Number(v);
  if (!Number.isSafeInteger(n)) {
    throw new Error(`WSC_PROPERTY_SEED: expected an integer or "random", got ${JSON.stringify(v)}`);
  }
  return n;
}

// Properties that state no count run the default, scaled the same way; every
// property starts from the same seed unless WSC_PROPERTY_SEED=random.
const seed = propertySeed();
fc.configureGlobal({ ...fc.readConfigureGlobal(), numRuns: runs(), ...(seed === undefined ? {} : { seed }) });

/** The strings fast-check mixes into its own strings (property names every object has, and a few more). */
const HOSTILE_STRINGS = [
  '__proto__',
  'constructor',
  'prototype',
  'hasOwnProperty',
  'toString',
  'valueOf',
  'length',
  'name',
  'key',
  'ref',
];

/** Any Unicode scalar value (no lone surrogate), small code points drawn more often. */
const scalar = fc
  .integer({ min: 0, max: 0x10ffff - 0x800 })
  .map((i) => String.fromCodePoint(i < 0xd800 ? i : i + 0x800));

/**
 * Strings of any code points: what `fc.string({ unit: 'binary' })` draws (each character the same way), with
 * the strings fast-check mixes in for it named here. fast-check's own costs about a second of CPU in every
 * process that first makes one: it indexes all 1.1 million code points to find which of those it can make.
 */
export function anyString(constraints: { minLength?: number; maxLength?: number } = {}): fc.Arbitrary<string> {
  const { minLength = 0, maxLength = Number.MAX_SAFE_INTEGER } = constraints;
  const hostile = HOSTILE_STRINGS.filter((s) => s.length >= minLength && s.length <= maxLength);
  const drawn = fc.string({ unit: scalar, ...constraints });
  return hostile.length === 0 ? drawn : fc.oneof({ arbitrary: drawn, weight: 9 }, fc.constantFrom(...hostile));
}
