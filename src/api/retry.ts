// The retry policy (README, `wsc apply`), as data plus one pure predicate. The client
// runs its own small attempt loop around `retryDecision` rather than p-retry
// (so p-retry is not a dependency): p-retry's delays are
// `factor^n × random(1..2)` (no full jitter), a server-given Retry-After could
// only be slept in `onFailedAttempt` on top of its own delay instead of in
// place of it, and it has no injectable sleep or clock for tests. The loop is
// a dozen lines.
import { API_CODES } from './wire.js';

export interface RetryPolicy {
  /** Retries after the first attempt (`--max-retries`). */
  maxRetries: number;
  /** Backoff before retry n (1-based) is random() × min(capDelayMs, baseDelayMs × 2^(n-1)) ("full jitter"). */
  baseDelayMs: number;
  capDelayMs: number;
  /** A Retry-After longer than this is waited for only this long. */
  retryAfterCapMs: number;
  /**
   * No retry starts when its wait would end more than this long after the
   * request's first attempt (the attempt under way keeps its own timeout).
   */
  maxTotalMs?: number;
  /** Statuses that mean "not now": retried for every method, honouring Retry-After. */
  throttleStatuses: readonly number[];
  /** Statuses whose outcome is unknown (the server may have acted): retried when the request is safe to repeat. */
  unknownOutcomeStatuses: readonly number[];
  /** 409 `code`s that are transient for every method. */
  transientConflictCodes: readonly string[];
}

export const RETRY_POLICY: RetryPolicy = Object.freeze({
  maxRetries: 6,
  baseDelayMs: 200,
  capDelayMs: 8_000,
  retryAfterCapMs: 60_000,
  maxTotalMs: 120_000,
  throttleStatuses: Object.freeze([429, 502, 503, 504]),
  unknownOutcomeStatuses: Object.freeze([500]),
  transientConflictCodes: Object.freeze([API_CODES.upsertBranchChanged]),
});

/** The policy with `--max-retries N` applied. */
export function policyWithMaxRetries(maxRetries: number, base: RetryPolicy = RETRY_POLICY): RetryPolicy {
  return { ...base, maxRetries: Math.max(0, Math.floor(maxRetries)) };
}

export interface RetryInput {
  method: string;
  /** HTTP status of the failed attempt; absent for a network error. */
  status?: number;
  /** `code` member of the error body (409 `upsert_branch_changed`). */
  apiCode?: string;
  /** No HTTP answer: refused, reset, timed out. */
  networkError?: boolean;
  /** The Retry-After header as received. */
  retryAfter?: string;
  /** 1-based number of the attempt that just failed. */
  attempt: number;
  /** A POST that may be sent twice (a report create carrying its publicId, a publish). */
  safeToRetryPost?: boolean;
  /** Epoch ms, to read an HTTP-date Retry-After. */
  now: number;
  /** Uniform [0, 1) for the jitter; default Math.random. */
  random?: () => number;
}

export interface RetryDecision {
  retry: boolean;
  delayMs?: number;
  reason: string;
}

/** GET/PUT/… may be repeated; POST only when the caller says so. */
function repeatable(method: string, safeToRetryPost: boolean | undefined): boolean {
  const m = method.toUpperCase();
  if (m === 'POST' || m === 'PATCH') return safeToRetryPost === true;
  return true;
}

/**
 * Retry-After as a delay in ms: delta seconds or an HTTP date, capped.
 * undefined when absent or unreadable (the caller falls back to backoff).
 */
export function parseRetryAfter(value: string | undefined, now: number, capMs: number): number | undefined {
  if (value === undefined) return undefined;
  const v = value.trim();
  if (v === '') return undefined;
  let ms: number;
  if (/^\d+$/.test(v)) ms = Number(v) * 1000;
  else {
    const at = Date.parse(v);
    if (Number.isNaN(at) || !/[a-z]/i.test(v)) return undefined; // only HTTP dates, not "1.5" or "-3"
    ms = Math.max(0, at - now);
  }
  return Math.min(ms, capMs);
}

export function backoffMs(attempt: number, policy: RetryPolicy, random: () => number): number {
  const ceiling = Math.min(policy.capDelayMs, policy.baseDelayMs * 2 ** Math.max(0, attempt - 1));
  return Math.floor(random() * ceiling);
}

export function retryDecision(input: RetryInput, policy: RetryPolicy = RETRY_POLICY): RetryDecision {
  const random = input.random ?? Math.random;
  const what = input.networkError ? 'no answer' : `${input.status ?? '?'}${input.apiCode ? ` ${input.apiCode}` : ''}`;
  const no = (why: string): RetryDecision => ({ retry: false, reason: `${what}: ${why}` });
  const canRepeat = repeatable(input.method, input.safeToRetryPost);

  let honourRetryAfter = false;
  if (input.networkError) {
    if (!canRepeat) return no('the outcome is unknown and this request is not safe to repeat');
  } else if (input.status === undefined) {
    return no('nothing to retry');
  } else if (input.status === 409) {
    if (input.apiCode === undefined || !policy.transientConflictCodes.includes(input.apiCode)) return no('a conflict that retrying cannot fix');
  } else if (policy.throttleStatuses.includes(input.status)) {
    // 502/504 say nothing about whether a gateway's upstream acted: for a POST
    // that is not safe to repeat they count as unknown outcome, like a 500.
    if (!canRepeat && input.status !== 429 && input.status !== 503) return no('the outcome is unknown and this request is not safe to repeat');
    honourRetryAfter = true;
  } else if (policy.unknownOutcomeStatuses.includes(input.status)) {
    if (!canRepeat) return no('the outcome is unknown and this request is not safe to repeat');
  } else {
    return no(input.status >= 200 && input.status < 300 ? 'success' : 'not a transient failure');
  }

  if (input.attempt > policy.maxRetries) return no(`gave up after ${input.attempt} attempt${input.attempt === 1 ? '' : 's'}`);
  const serverDelay = honourRetryAfter ? parseRetryAfter(input.retryAfter, input.now, policy.retryAfterCapMs) : undefined;
  if (serverDelay !== undefined) return { retry: true, delayMs: serverDelay, reason: `${what}: retrying after Retry-After ${serverDelay}ms` };
  const delayMs = backoffMs(input.attempt, policy, random);
  return { retry: true, delayMs, reason: `${what}: retrying after ${delayMs}ms backoff` };
}
