// Doctor's connection budget: a few seconds per request, one retry, no long
// Retry-After waits, so that every check comes to a verdict within its own
// time (run.ts) whatever the host does.
import type { ConnectOptions } from '../api/connect.js';

/** One request's time in doctor (the configured timeout when shorter). */
export const DOCTOR_REQUEST_TIMEOUT_MS = 5_000;
/** A Retry-After longer than this is reported, not waited for. */
export const DOCTOR_RETRY_AFTER_MS = 5_000;

/** The command's connection settings with doctor's limits applied. */
export function doctorConnectOptions(given: ConnectOptions): ConnectOptions {
  return {
    ...given,
    requestTimeoutMs: Math.min(given.requestTimeoutMs ?? DOCTOR_REQUEST_TIMEOUT_MS, DOCTOR_REQUEST_TIMEOUT_MS),
    maxRetries: Math.min(given.maxRetries, 1),
    retryPolicy: {
      capDelayMs: 1_000,
      retryAfterCapMs: DOCTOR_RETRY_AFTER_MS,
      longRetryAfter: 'give-up',
      maxTotalMs: 2 * DOCTOR_REQUEST_TIMEOUT_MS + DOCTOR_RETRY_AFTER_MS,
    },
  };
}
