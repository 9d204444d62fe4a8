// The retry policy (docs/plan-apply.md, what apply guarantees), table-driven over retryDecision.
import { describe, expect, test } from 'vitest';
import {
  backoffMs,
  parseRetryAfter,
  policyWithMaxRetries,
  RETRY_POLICY,
  retryDecision,
  type RetryInput,
} from '../../src/api/retry.js';

const NOW = Date.parse('2026-11-22T10:00:00Z');
const base = { attempt: 1, now: NOW, random: () => 0.5 } as const;
const decide = (i: Partial<RetryInput> & { method: string }) => retryDecision({ ...base, ...i }, RETRY_POLICY);

describe('retryDecision: which failures are retried', () => {
  test.each([
    // method, status, apiCode, network, safe POST, retry?
    ['PUT', 409, 'upsert_branch_changed', false, false, true],
    ['POST', 409, 'upsert_branch_changed', false, false, true],
    ['PUT', 409, undefined, false, false, false],
    ['POST', 409, undefined, false, true, false],
    ['PUT', 409, 'ambiguous_legacy_id', false, false, false],
    ['GET', 429, undefined, false, false, true],
    ['POST', 429, undefined, false, false, true],
    ['GET', 502, undefined, false, false, true],
    ['PUT', 503, undefined, false, false, true],
    ['POST', 503, undefined, false, false, true],
    ['GET', 504, undefined, false, false, true],
    ['POST', 502, undefined, false, true, true],
    ['POST', 502, undefined, false, false, false], // a gateway error leaves an unsafe POST's outcome unknown
    ['POST', 504, undefined, false, false, false],
    ['GET', 500, undefined, false, false, true],
    ['PUT', 500, undefined, false, false, true],
    ['POST', 500, undefined, false, false, false],
    ['POST', 500, undefined, false, true, true],
    ['GET', undefined, undefined, true, false, true],
    ['PUT', undefined, undefined, true, false, true],
    ['POST', undefined, undefined, true, false, false],
    ['POST', undefined, undefined, true, true, true],
    ['GET', 400, undefined, false, false, false],
    ['PUT', 401, undefined, false, false, false],
    ['GET', 403, undefined, false, false, false],
    ['GET', 404, undefined, false, false, false],
    ['PUT', 422, undefined, false, false, false],
    ['POST', 400, undefined, false, true, false],
    ['GET', 501, undefined, false, false, false],
  ] as const)('%s %s %s network=%s safePost=%s -> retry %s', (method, status, apiCode, network, safe, retry) => {
    const d = decide({
      method,
      ...(status !== undefined ? { status } : {}),
      ...(apiCode !== undefined ? { apiCode } : {}),
      networkError: network,
      safeToRetryPost: safe,
    });
    expect(d.retry).toBe(retry);
    expect(d.reason).not.toBe('');
    if (retry) expect(d.delayMs).toBeGreaterThanOrEqual(0);
    else expect(d.delayMs).toBeUndefined();
  });
});

describe('delays', () => {
  test.each([
    // attempt, random, delay: random × min(8000, 200 × 2^(attempt-1))
    [1, 0.5, 100],
    [2, 0.5, 200],
    [3, 0.999, 799],
    [6, 1 - 1e-9, 6399],
    [7, 0.5, 4000],
    [30, 0.25, 2000],
    [3, 0, 0],
  ])('backoff of attempt %s at random %s is %s ms (full jitter, capped)', (attempt, r, ms) => {
    expect(backoffMs(attempt, RETRY_POLICY, () => r)).toBe(ms);
  });

  test.each([
    ['1', 1000],
    ['0', 0],
    [' 5 ', 5000],
    ['120', 60_000], // capped
    ['Sun, 22 Nov 2026 10:00:07 GMT', 7000],
    ['Sun, 22 Nov 2026 09:59:00 GMT', 0], // in the past
    ['Sun, 22 Nov 2026 11:00:00 GMT', 60_000], // capped
    ['soon', undefined],
    ['1.5', undefined],
    ['-3', undefined],
    ['', undefined],
    [undefined, undefined],
  ])('Retry-After %j -> %s ms', (value, ms) => {
    expect(parseRetryAfter(value, NOW, RETRY_POLICY.retryAfterCapMs)).toBe(ms);
  });

  test.each([
    [429, '2', 2000],
    [503, 'Sun, 22 Nov 2026 10:00:03 GMT', 3000],
    [429, 'garbage', 100], // invalid: backoff instead
    [502, undefined, 100],
    [500, '9', 100], // Retry-After only counts on throttling answers
  ])('%s with Retry-After %j waits %s ms', (status, retryAfter, ms) => {
    const d = decide({ method: 'GET', status, ...(retryAfter !== undefined ? { retryAfter } : {}) });
    expect(d).toMatchObject({ retry: true, delayMs: ms });
  });
});

describe('--max-retries', () => {
  test.each([
    [0, 1, false],
    [1, 1, true],
    [1, 2, false],
    [6, 6, true],
    [6, 7, false],
  ])('max %s: after attempt %s retry=%s', (max, attempt, retry) => {
    const d = retryDecision({ method: 'GET', status: 503, attempt, now: NOW }, policyWithMaxRetries(max));
    expect(d.retry).toBe(retry);
    if (!retry) expect(d.reason).toContain(`gave up after ${attempt} attempt`);
  });

  test('the default policy is data: 6 retries, 200 ms base, 8 s cap, Retry-After capped at 60 s', () => {
    expect(RETRY_POLICY).toMatchObject({ maxRetries: 6, baseDelayMs: 200, capDelayMs: 8000, retryAfterCapMs: 60_000 });
    expect(policyWithMaxRetries(-1).maxRetries).toBe(0);
  });
});

describe("longRetryAfter: 'give-up' (doctor)", () => {
  const doctor = { ...RETRY_POLICY, maxRetries: 1, retryAfterCapMs: 5_000, longRetryAfter: 'give-up' as const };
  test('a Retry-After beyond the cap is not waited: no retry, the wait named', () => {
    const d = retryDecision({ ...base, method: 'GET', status: 429, retryAfter: '1000000000' }, doctor);
    expect(d.retry).toBe(false);
    expect(d.longWait).toBe(1e12);
    expect(d.reason).toContain('the server asked to wait 32 years (Retry-After: 1000000000), longer than the 5 s');
  });
  test('one within the cap is waited as asked; an unreadable one falls back to backoff', () => {
    expect(retryDecision({ ...base, method: 'GET', status: 503, retryAfter: '3' }, doctor)).toMatchObject({
      retry: true,
      delayMs: 3000,
    });
    expect(retryDecision({ ...base, method: 'GET', status: 429, retryAfter: '1e9' }, doctor).retry).toBe(true);
  });
  test('the default policy waits its cap instead', () => {
    const d = retryDecision({ ...base, method: 'GET', status: 429, retryAfter: '1000000000' }, RETRY_POLICY);
    expect(d).toMatchObject({ retry: true, delayMs: 60_000 });
  });
});
