// The semantic check's time budget: SEMANTIC_TIMEOUT_S (10 s, as README and
// docs/plan-apply.md say) unless WSC_SEMANTIC_TIMEOUT gives another, counted
// from the model read's start. On a fake clock, against a platform that never
// answers: the read is abandoned at the budget, not a millisecond before. The
// end-to-end runs (test/e2e/semantic-bounds.test.ts) take a short budget
// through the variable.
import { afterEach, describe, expect, test, vi } from 'vitest';
import type { ApiClient } from '../../src/api/client.js';
import type { Connection, ConnectOptions } from '../../src/api/connect.js';
import { startModelRead } from '../../src/api/semantic-run.js';
import { SEMANTIC_TIMEOUT_S } from '../../src/defaults.js';

/** A platform that accepts every request and never answers. */
const silent = { get: () => new Promise(() => undefined), request: () => new Promise(() => undefined) };
const conn = { client: silent as unknown as ApiClient, deploymentId: 1 } as Connection;
const opts: ConnectOptions = { concurrency: 1, maxRetries: 0 };

afterEach(() => {
  vi.useRealTimers();
});

/** When the model read given `o` is abandoned, in fake milliseconds from its start, and why. */
function abandonedAt(o: ConnectOptions, withinMs: number): { ms: number | undefined; why: string } {
  vi.useFakeTimers();
  const model = startModelRead(conn, o);
  let ms: number | undefined;
  model.stop.signal.addEventListener('abort', () => (ms = Date.now() - started));
  const started = Date.now();
  vi.advanceTimersByTime(withinMs);
  const why = model.stop.signal.aborted ? (model.stop.signal.reason as Error).message : '';
  clearTimeout(model.timer);
  return { ms, why };
}

describe("the semantic check's time budget", () => {
  test('by default 10 s (SEMANTIC_TIMEOUT_S), as the docs say', () => {
    expect(SEMANTIC_TIMEOUT_S).toBe(10);
    expect(abandonedAt(opts, 9_999).ms).toBeUndefined();
    const { ms, why } = abandonedAt(opts, 10_000);
    expect(ms).toBe(10_000);
    expect(why).toBe("no answer within 10 s, the semantic check's time budget (WSC_SEMANTIC_TIMEOUT)");
  });

  test("WSC_SEMANTIC_TIMEOUT's value (the connection's semanticTimeoutMs) replaces it", () => {
    const short = { ...opts, semanticTimeoutMs: 1_500 };
    expect(abandonedAt(short, 1_499).ms).toBeUndefined();
    const { ms, why } = abandonedAt(short, 60_000);
    expect(ms).toBe(1_500);
    expect(why).toBe("no answer within 1.5 s, the semantic check's time budget (WSC_SEMANTIC_TIMEOUT)");
  });
});
