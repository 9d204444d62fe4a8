// Doctor's connection budget, the defaults docs/commands.md states: each
// request 5 s (less when WSC_REQUEST_TIMEOUT says so), at most one retry, a
// Retry-After past 5 s reported rather than waited for.
import { describe, expect, test } from 'vitest';
import type { ConnectOptions } from '../../src/api/connect.js';
import { DOCTOR_REQUEST_TIMEOUT_MS, DOCTOR_RETRY_AFTER_MS, doctorConnectOptions } from '../../src/doctor/budget.js';

const given: ConnectOptions = { concurrency: 8, maxRetries: 6 };

describe("doctor's connection budget", () => {
  test('defaults: 5 s per request, one retry, Retry-After past 5 s given up on, 15 s per request in all', () => {
    expect([DOCTOR_REQUEST_TIMEOUT_MS, DOCTOR_RETRY_AFTER_MS]).toEqual([5_000, 5_000]);
    expect(doctorConnectOptions(given)).toEqual({
      concurrency: 8,
      maxRetries: 1,
      requestTimeoutMs: 5_000,
      retryPolicy: { capDelayMs: 1_000, retryAfterCapMs: 5_000, longRetryAfter: 'give-up', maxTotalMs: 15_000 },
    });
  });

  test('WSC_REQUEST_TIMEOUT (or --max-retries) lowers it, never raises it', () => {
    expect(doctorConnectOptions({ ...given, requestTimeoutMs: 30_000 }).requestTimeoutMs).toBe(5_000);
    expect(doctorConnectOptions({ ...given, requestTimeoutMs: 1_000 }).requestTimeoutMs).toBe(1_000);
    expect(doctorConnectOptions({ ...given, maxRetries: 0 }).maxRetries).toBe(0);
    expect(doctorConnectOptions({ ...given, maxRetries: 20 }).maxRetries).toBe(1);
  });

  test('the rest of the settings pass through', () => {
    const trace = () => undefined;
    const more = { ...given, pageSize: 100, maxListItems: 10, trace };
    expect(doctorConnectOptions(more)).toMatchObject({ pageSize: 100, maxListItems: 10, trace, concurrency: 8 });
  });
});
