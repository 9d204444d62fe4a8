// The retry policy, as data plus one pure predicate (`retryDecision`). The client runs the attempts
// with p-retry and sleeps the waits decided here (client.ts `request`).
import { THROTTLE_STATUSES, TRANSIENT_CONFLICT_CODES, UNKNOWN_OUTCOME_STATUSES } from '../domain/wire.js';

export interface RetryPolicy {
  /** Retries after the first attempt (`--max-retries`). */
  maxRetries: number;
  /** Backoff before retry n (1-based) is random() × min(capDelayMs, baseDelayMs × 2^(n-1)) ("full jitter"). */
  baseDelayMs: number;
  capDelayMs: number;
  /** A Retry-After longer than this is waited for only this long (or, with `longRetryAfter: 'give-up'`, not at all). */
  retryAfterCapMs: number;
  /**
   * What a Retry-After longer than the cap does: `cap` waits the cap (commands
   * that change things want their request through); `give-up` ends the
   * request there and says what the server asked (doctor: a verdict, not a wait).
   */
  longRetryAfter?: 'cap' | 'give-up';
  /**
   * No retry starts when its wait would end more than this long after the
   * request's first attempt (the attempt under way keeps its own timeout).
   */
  maxTotalMs: number;
}

export const RETRY_POLICY: RetryPolicy = Object.freeze({
  maxRetries: 6,
  baseDelayMs: 200,
  capDelayMs: 8_000,
  retryAfterCapMs: 60_000,
  maxTotalMs: 120_000,
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
  /** Not retried because the server's Retry-After (this many ms) is longer than the policy waits. */
  longWait?: number;
}

/** A wait in words: `3 s`, `2 h`, `31 years`. */
function waitText(ms: number): string {
  const s = ms / 1000;
  if (s < 120) return `${Math.round(s)} s`;
  if (s < 7200) return `${Math.round(s / 60)} min`;
  if (s < 172_800) return `${Math.round(s / 3600)} h`;
  if (s < 63_072_000) return `${Math.round(s / 86_400)} days`;
  return `${Math.round(s / 31_557_600)} years`;
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
  const unknown = 'the outcome is unknown and this request is not safe to repeat';

  let honourRetryAfter = false;
  if (input.networkError) {
    if (!canRepeat) return no(unknown);
  } else if (input.status === undefined) {
    return no('nothing to retry');
  } else if (input.status === 409) {
    const transient = input.apiCode !== undefined && TRANSIENT_CONFLICT_CODES.includes(input.apiCode);
    if (!transient) return no('a conflict that retrying cannot fix');
  } else if (THROTTLE_STATUSES.includes(input.status)) {
    // 502/504 say nothing about whether a gateway's upstream acted: for a POST
    // that is not safe to repeat they count as unknown outcome, like a 500.
    if (!canRepeat && input.status !== 429 && input.status !== 503) return no(unknown);
    honourRetryAfter = true;
  } else if (UNKNOWN_OUTCOME_STATUSES.includes(input.status)) {
    if (!canRepeat) return no(unknown);
  } else {
    return no(input.status >= 200 && input.status < 300 ? 'success' : 'not a transient failure');
  }

  if (input.attempt > policy.maxRetries) {
    return no(`gave up after ${input.attempt} attempt${input.attempt === 1 ? '' : 's'}`);
  }
  if (honourRetryAfter && policy.longRetryAfter === 'give-up') {
    const asked = parseRetryAfter(input.retryAfter, input.now, Number.POSITIVE_INFINITY);
    if (asked !== undefined && asked > policy.retryAfterCapMs) {
      return {
        retry: false,
        reason:
          `${what}: the server asked to wait ${waitText(asked)} (Retry-After: ${input.retryAfter?.trim()}), ` +
          `longer than the ${waitText(policy.retryAfterCapMs)} wsc waits here`,
        longWait: asked,
      };
    }
  }
  // The server's Retry-After replaces the backoff, never adds to it.
  const serverDelay = honourRetryAfter
    ? parseRetryAfter(input.retryAfter, input.now, policy.retryAfterCapMs)
    : undefined;
  if (serverDelay !== undefined) {
    return { retry: true, delayMs: serverDelay, reason: `${what}: retrying after Retry-After ${serverDelay}ms` };
  }
  const delayMs = backoffMs(input.attempt, policy, random);
  return { retry: true, delayMs, reason: `${what}: retrying after ${delayMs}ms backoff` };
}
