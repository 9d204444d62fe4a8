// `wsc doctor` ends within a minute whatever the host does, and prints each
// line as soon as it is decided: a host that accepts and never answers, a 429
// whose Retry-After is 10^9 seconds (readable or not), a host that answers
// some requests and hangs on the rest. Each request has a few seconds and one
// retry; a Retry-After longer than doctor waits is reported, not waited.
//
// The hosts that do not answer are waited for at a shorter request time
// (WSC_REQUEST_TIMEOUT, which doctor's 5 s gives way to) and a shorter whole
// run (WSC_DOCTOR_TIMEOUT): the same code paths, in seconds instead of a
// minute; those three runs wait at once (test.concurrent, each against a
// server of its own). The defaults are checked where no clock is needed:
// test/doctor/budget.test.ts (5 s per request, one retry) and
// test/doctor/run.test.ts (12 s per check, 40 s for the round trip, 45 s in
// all, on a fake clock); the 429 cases here run at the defaults.
import type { ChildProcess } from 'node:child_process';
import { afterAll, describe, expect, test } from 'vitest';
import { cleanupTemp, runCli, writeFiles } from './helpers/index.js';
import { json, serve, type Handler, type TestServer } from '../api/server.js';

afterAll(cleanupTemp);

const TOKEN = 'doctor-budget-token';
const empty = { items: [], pageInfo: { hasNextPage: false, hasPreviousPage: false } };
const doctor = (url: string, opts: { onSpawn?: (c: ChildProcess) => void; env?: Record<string, string> } = {}) =>
  runCli(['doctor', '--dir', writeFiles({}), '--base-url', url, '--deployment', '1'], {
    env: { WSC_TOKEN: TOKEN, ...opts.env },
    timeoutMs: 90_000,
    ...(opts.onSpawn ? { onSpawn: opts.onSpawn } : {}),
  });
/** The probe answers, and so do the user attributes; every other request hangs. */
const hangsAfterProbe: Handler = (q, res) => {
  const path = new URL(q.url, 'http://x').pathname;
  const probe = path === '/api/v1/deployments/1/workbooks' && q.url.includes('first=1');
  if (probe || path === '/api/v1/user-attributes') return json(res, 200, empty);
  return new Promise(() => undefined);
};
/** One request's time (WSC_REQUEST_TIMEOUT) where a host does not answer, in milliseconds. */
const REQUEST_MS = 250;
/** A server of a concurrent test, closed when fn ends. */
async function serving<T>(handler: Handler, fn: (s: TestServer) => Promise<T>): Promise<T> {
  const s = await serve(handler, { concurrent: true });
  try {
    return await fn(s);
  } finally {
    await s.close();
  }
}
const timed = async <T>(f: () => Promise<T>) => {
  const t0 = Date.now();
  const r = await f();
  return { ...r, ms: Date.now() - t0 };
};
/** doctor against a host answering every request 429 with this Retry-After: it fails (exit 1) within 20 s. */
async function doctorAgainstTooManyRequests(retryAfter: string) {
  const s = await serve((_q, res) =>
    json(res, 429, { statusCode: 429, message: 'slow down' }, { 'retry-after': retryAfter }),
  );
  const r = await timed(() => doctor(s.url));
  expect(r.code).toBe(1);
  expect(r.ms).toBeLessThan(20_000);
  return { s, r };
}

describe('wsc doctor within its budget', () => {
  test('429 with Retry-After: 1000000000: reported, not waited; no second attempt', async () => {
    const { s, r } = await doctorAgainstTooManyRequests('1000000000');
    expect(r.stdout).toMatch(
      /✗ host: .*429.* — the server asked to wait 32 years \(Retry-After: 1000000000\), longer than the 5 s wsc waits here/,
    );
    expect(r.stdout).not.toMatch(/^✓/m);
    expect(s.seen).toHaveLength(1);
  }, 90_000);

  test('429 with an unreadable Retry-After (1e9): one short retry, then ✗ host', async () => {
    const { s, r } = await doctorAgainstTooManyRequests('1e9');
    expect(r.stdout).toMatch(/✗ host: .*429/);
    expect(s.seen).toHaveLength(2);
  }, 90_000);

  test.concurrent(
    'a host that accepts and never answers: ✗ host after one retry, the rest not checked, well within 60 s',
    async ({ expect }) => {
      await serving(
        () => new Promise(() => undefined),
        async (s) => {
          const r = await timed(() => doctor(s.url, { env: { WSC_REQUEST_TIMEOUT: String(REQUEST_MS / 1000) } }));
          expect(r.code).toBe(1);
          expect(r.ms).toBeLessThan(60_000);
          // Each of the two attempts was given its whole request time.
          expect(r.ms).toBeGreaterThanOrEqual(2 * REQUEST_MS);
          expect(r.stdout).toMatch(
            /✗ host: .* does not answer as the Workspace Content API: .*(no answer|timed out|did not answer)/i,
          );
          expect(r.stdout).toMatch(/– token: not checked: host failed/);
          expect(r.stdout).not.toMatch(/^✓/m);
          // The probe and its one retry; nothing else was asked of a host that never answered.
          expect(s.seen).toHaveLength(2);
        },
      );
    },
    90_000,
  );

  test.concurrent(
    'a host that answers the probe and hangs on the rest: each line printed as decided, done in time',
    async ({ expect }) => {
      await serving(hangsAfterProbe, async (s) => {
        const arrivals: { at: number; text: string }[] = [];
        const t0 = Date.now();
        const r = await doctor(s.url, {
          env: { WSC_REQUEST_TIMEOUT: String(REQUEST_MS / 1000) },
          onSpawn: (child) => {
            child.stdout!.on('data', (d: Buffer | string) => arrivals.push({ at: Date.now() - t0, text: String(d) }));
          },
        });
        const ended = Date.now() - t0;
        expect(r.code).toBe(1);
        expect(ended).toBeLessThan(60_000);
        const when = (re: RegExp) => arrivals.find((a) => re.test(a.text))?.at;
        const host = when(/✓ host: /);
        const pageSize = when(/✗ page size: /);
        expect(host).toBeDefined();
        expect(pageSize).toBeDefined();
        // The host's line came out while the next checks were still waiting on the server (two attempts each).
        expect(pageSize! - host!).toBeGreaterThan(0.8 * 2 * REQUEST_MS);
        expect(ended - host!).toBeGreaterThan(1.6 * 2 * REQUEST_MS);
        expect(r.stdout).toMatch(/✓ user attributes: readable/);
        expect(r.stdout).toMatch(/✗ API description: .*cannot be read/);
        expect(r.stdout).toMatch(/– routes: publish: not checked: API description failed/);
        // Every check came to a verdict of its own: the whole run's time did not run out.
        expect(r.stdout).not.toMatch(/ran out/);
      });
    },
    90_000,
  );

  test.concurrent(
    "the whole run's time (WSC_DOCTOR_TIMEOUT) ends a run that hangs: the check in flight ✗, the rest not checked",
    async ({ expect }) => {
      await serving(hangsAfterProbe, async (s) => {
        // Requests keep their default 5 s: the run's 1 s runs out while the page size's first attempt still waits.
        const r = await timed(() => doctor(s.url, { env: { WSC_DOCTOR_TIMEOUT: '1' } }));
        expect(r.code).toBe(1);
        expect(r.ms).toBeGreaterThanOrEqual(1_000);
        // Less than the page size's two attempts of 5 s: what was in flight was abandoned, not awaited.
        expect(r.ms).toBeLessThan(9_000);
        expect(r.stdout).toMatch(/✓ host: /);
        expect(r.stdout).toMatch(/✗ page size: no verdict within 1 s/);
        expect(r.stdout).toMatch(/– user attributes: not checked: doctor's 1 s ran out/);
        expect(r.stdout).toMatch(/– data model: not checked: doctor's 1 s ran out/);
        expect(r.stdout).not.toMatch(/✓ user attributes/);
      });
    },
    90_000,
  );

  test('a WSC_DOCTOR_TIMEOUT that is not a number of seconds above 0: exit 3, nothing sent', async () => {
    const s = await serve(hangsAfterProbe);
    for (const bad of ['soon', '0', '-5']) {
      const r = await doctor(s.url, { env: { WSC_DOCTOR_TIMEOUT: bad } });
      expect(r.code).toBe(3);
      expect(r.stderr).toContain(`WSC_DOCTOR_TIMEOUT must be a number of seconds above 0, got "${bad}"`);
      expect(r.stderr).toMatch(/doctor_timeout_invalid/);
    }
    expect(s.seen).toEqual([]);
  });
});
