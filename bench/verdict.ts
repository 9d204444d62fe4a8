// How the bench turns a figure and its limit into a verdict (DESIGN §9): a
// figure within 5% of its limit is "within noise" (the machine's hour moves
// the figures more than that), a figure taken over fewer than 5 runs gets no
// verdict, and a scenario that did not do its work fails whatever its time.

export const NOISE_BAND = 0.05;
export const MIN_RUNS = 5;

export type Verdict = 'PASS' | 'FAIL' | 'within noise' | 'too few runs';

export interface Measured {
  /** The figure (a median, or a ratio of medians). */
  value: number;
  /** The most the target allows. */
  limit: number;
  /** Runs behind each median the figure comes from (the fewest, for a ratio). */
  runs: number;
  /** False when a run behind it exited as it should not or did not do the work measured. */
  valid: boolean;
}

export function verdict({ value, limit, runs, valid }: Measured): Verdict {
  if (!valid || !Number.isFinite(value)) return 'FAIL';
  if (runs < MIN_RUNS) return 'too few runs';
  if (Math.abs(value - limit) <= NOISE_BAND * limit) return 'within noise';
  return value <= limit ? 'PASS' : 'FAIL';
}

/** How far a figure is from its limit, as the report says it: "12% under" / "30% over". */
export function margin(value: number, limit: number): string {
  const pct = Math.round((Math.abs(value - limit) / limit) * 100);
  return value <= limit ? `${pct}% under the limit` : `${pct}% over the limit`;
}
