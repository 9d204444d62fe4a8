// The client's bounds: a list's length, the total wait of one request, and
// the breaker that stops a client whose server no longer accepts connections.
import { describe, expect, test } from 'vitest';
import * as z from 'zod';
import { ApiClient } from '../../src/api/client.js';
import { ListBound, listMargin } from '../../src/api/list-bound.js';
import { MAX_LIST_ITEMS } from '../../src/defaults.js';
import { BREAKER_THRESHOLD, ConnectBreaker } from '../../src/api/breaker.js';
import { ApiError, NetworkError } from '../../src/errors.js';
import { json, page, report, serve } from './server.js';
import { readFolderTree } from '../../src/api/folders.js';

const TOKEN = 'token-for-bounds';
const Any = z.unknown();

/** A sleep of 1 ms that ends at once when the client's wait is aborted (the breaker opening). */
const abortableSleep = (_ms: number, signal: AbortSignal) =>
  new Promise<void>((ok, fail) => {
    if (signal.aborted) return fail(signal.reason as Error);
    signal.addEventListener('abort', () => fail(signal.reason as Error), { once: true });
    setTimeout(ok, 1);
  });

describe('ListBound', () => {
  test('a list stops at its first count plus a margin of 10%, at least 1000', () => {
    expect(listMargin(3)).toBe(1000);
    expect(listMargin(50_000)).toBe(5000);
    const b = new ListBound();
    expect(b.page(3, 500)).toBeUndefined();
    expect(b.page(999_999, 500)).toBeUndefined(); // a later, larger count does not move the bound
    expect(b.limit).toBe(1003);
    const over = b.page(3, 500);
    expect(over?.message).toBe(
      'the list went past 1003 items (1500 in 3 pages read; its first page said it had 3); the server seems to page forever, so it was not read further.',
    );
    expect(over?.hint).toMatch(/server bug/);
  });

  test('a list with no count stops at the ceiling, which can be raised', () => {
    const b = new ListBound(10);
    expect(b.page(undefined, 10)).toBeUndefined();
    expect(b.page('many', 1)?.hint).toBe(
      'If the list really is this long, raise --max-list-items or WSC_MAX_LIST_ITEMS (now 10).',
    );
    expect(new ListBound().limit).toBe(MAX_LIST_ITEMS);
    const big = new ListBound(5);
    big.page(1_000_000, 0);
    expect(big.limit).toBe(5); // the ceiling wins over a count
  });

  test('the client stops paging at the bound: list_too_long, with the pages read', async () => {
    let next = 1;
    const s = await serve((req, res) => {
      const first = Number(new URL(req.url, 'http://x').searchParams.get('first'));
      const items = Array.from({ length: first }, () => report(next++));
      json(res, 200, page(items, { hasNextPage: true, endCursor: `c${next}` }));
    });
    const c = new ApiClient({ baseUrl: s.url, token: TOKEN, maxListItems: 250, pageSize: 100 });
    try {
      const e = await c.listAll('/api/v1/deployments/1/reports', Any).catch((x: unknown) => x);
      expect(e).toBeInstanceOf(ApiError);
      expect((e as ApiError).code).toBe('list_too_long');
      expect((e as ApiError).message).toMatch(
        /the list went past 250 items \(300 in 3 pages read; its first page gave no count\)/,
      );
      expect(s.seen).toHaveLength(3); // one chain: nothing is read ahead of the bound
    } finally {
      await c.close();
    }
  });
});

describe('lists read as one', () => {
  test('a folder tree that grows deeper forever stops at the ceiling, across its levels', async () => {
    const s = await serve((req, res) => {
      const parent = Number(new URL(req.url, 'http://x').searchParams.get('parentId') ?? 0);
      const folder = {
        id: parent + 1,
        name: `f${parent + 1}`,
        deploymentId: 1,
        createdAt: 'x',
        updatedAt: 'x',
        type: 'FOLDER',
        parentId: parent || null,
      };
      json(res, 200, page([folder], { hasNextPage: false }));
    });
    const c = new ApiClient({ baseUrl: s.url, token: TOKEN, maxListItems: 20 });
    try {
      const e = await readFolderTree(c, 1).catch((x: unknown) => x);
      expect((e as ApiError).code).toBe('list_too_long');
      expect((e as ApiError).message).toMatch(
        /^GET \/api\/v1\/deployments\/1\/folders \(the folder tree\): the list went past 20 items \(21 in 21 pages read; its first page gave no count\)/,
      );
      expect(s.seen).toHaveLength(21);
    } finally {
      await c.close();
    }
  });
});

/** A client of url that waits no time, and records the wait notices and --verbose lines it would print. */
function recordingClient(url: string): { c: ApiClient; notices: string[]; traced: string[] } {
  const notices: string[] = [];
  const traced: string[] = [];
  const c = new ApiClient({
    baseUrl: url,
    token: TOKEN,
    sleep: async () => undefined,
    notice: (line) => notices.push(line),
    trace: (line) => traced.push(line),
  });
  return { c, notices, traced };
}

describe('the total wait of one request', () => {
  test('a Retry-After of 10^9 is waited for 60 s at a time, 2 min in all, and each wait is shown', async () => {
    const s = await serve((_req, res) => json(res, 503, { message: 'later' }, { 'retry-after': '1000000000' }));
    let now = 0;
    const waits: number[] = [];
    const notices: string[] = [];
    const c = new ApiClient({
      baseUrl: s.url,
      token: TOKEN,
      now: () => now,
      sleep: async (ms) => {
        waits.push(ms);
        now += ms;
      },
      notice: (line) => notices.push(line),
    });
    try {
      const e = await c.get('/api/v1/user-attributes', Any).catch((x: unknown) => x);
      expect(e).toBeInstanceOf(ApiError);
      expect(waits).toEqual([60_000, 60_000]);
      expect((e as ApiError).details.join('\n')).toMatch(
        /Tried 3 times over 2 min; one request is retried for at most 2 min in all\./,
      );
      expect(notices).toHaveLength(2);
      expect(notices[1]).toBe(
        'wsc: GET /api/v1/user-attributes answered 503; waiting 60 s (the server asked for it with Retry-After; wsc waits at most 60 s) before attempt 3 of 7.',
      );
    } finally {
      await c.close();
    }
  });

  test('a request for a resource names its address in the wait notice and the --verbose lines', async () => {
    const s = await serve((_req, res, n) =>
      n === 1 ? json(res, 503, { message: 'later' }, { 'retry-after': '7' }) : json(res, 200, { ok: true }),
    );
    const { c, notices, traced } = recordingClient(s.url);
    try {
      const path = '/api/v1/deployments/1/workbooks/by-slug/sales';
      await c.request({ method: 'PUT', path, body: {}, schema: Any, label: 'workbook/sales' });
      expect(notices).toEqual([
        `wsc: PUT ${path} for workbook/sales answered 503; waiting 7 s (the server asked for it with Retry-After; ` +
          'wsc waits at most 60 s) before attempt 2 of 7.',
      ]);
      expect(traced).toEqual([
        `→ PUT ${path} for workbook/sales (Authorization: Bearer ***)`,
        expect.stringMatching(/^← 503 PUT \S+ \d+ms for workbook\/sales: later$/),
        `↻ PUT ${path}: 503: retrying after Retry-After 7000ms (retry 1 of 6) for workbook/sales`,
        `→ PUT ${path} for workbook/sales (Authorization: Bearer ***)`,
        expect.stringMatching(/^← 200 PUT \S+ \d+ms for workbook\/sales$/),
      ]);
    } finally {
      await c.close();
    }
  });

  test('a short wait is not shown', async () => {
    let n = 0;
    const s = await serve((_req, res) => (++n === 1 ? json(res, 503, {}, { 'retry-after': '1' }) : json(res, 200, {})));
    const { c, notices } = recordingClient(s.url);
    try {
      await c.get('/api/v1/user-attributes', Any);
      expect(notices).toEqual([]);
    } finally {
      await c.close();
    }
  });
});

describe('the connect breaker', () => {
  test('after 8 refused connects in a row no request is sent and retry waits end', async () => {
    const s = await serve((_req, res) => json(res, 200, {}));
    const url = s.url;
    await s.close(); // the port now refuses connections
    const c = new ApiClient({
      baseUrl: url,
      token: TOKEN,
      maxRetries: 6,
      sleep: (_ms, signal) =>
        new Promise<void>((ok, fail) => {
          if (signal.aborted) return fail(signal.reason);
          signal.addEventListener('abort', () => fail(signal.reason), { once: true });
          setTimeout(ok, 1);
        }),
    });
    try {
      const results = await Promise.allSettled(Array.from({ length: 50 }, () => c.get('/api/v1/user-attributes', Any)));
      expect(results.every((r) => r.status === 'rejected')).toBe(true);
      expect(c.breaker.open).toBe(true);
      expect(c.requestCount).toBeLessThan(50 + BREAKER_THRESHOLD);
      const late = await c.get('/api/v1/user-attributes', Any).catch((x: unknown) => x);
      expect(late).toBeInstanceOf(NetworkError);
      expect((late as NetworkError).message).toMatch(
        /^GET \/api\/v1\/user-attributes: not started: 8 connections in a row to 127\.0\.0\.1:\d+ failed, the server seems down\.$/,
      );
    } finally {
      await c.close();
    }
  });

  test.each([
    [
      '502 with an HTML page',
      'answered 502 with an HTML page',
      502,
      'text/html',
      '<html><h1>502 Bad Gateway</h1></html>',
    ],
    ['500 as JSON', 'answered 500', 500, 'application/json', '{"message":"boom"}'],
    ['a 404 HTML page', 'answered 404 with an HTML page', 404, 'text/html', '<!doctype html><p>Not Found</p>'],
  ])('%s in a row opens it: no request after, retry waits end', async (_, said, status, type, body) => {
    const s = await serve((_req, res) => res.writeHead(status, { 'content-type': type }).end(body));
    const c = new ApiClient({ baseUrl: s.url, token: TOKEN, maxRetries: 6, sleep: abortableSleep });
    try {
      const results = await Promise.allSettled(Array.from({ length: 50 }, () => c.get('/api/v1/user-attributes', Any)));
      expect(results.every((r) => r.status === 'rejected')).toBe(true);
      expect(c.breaker.open).toBe(true);
      // Each sent once (the pool had them all before the breaker opened), and no retry after it opened.
      expect(s.seen.length).toBeLessThan(50 + BREAKER_THRESHOLD);
      const sent = s.seen.length;
      const late = await c.get('/api/v1/user-attributes', Any).catch((x: unknown) => x);
      expect(late).toBeInstanceOf(NetworkError);
      expect(s.seen.length).toBe(sent);
      expect(String(c.breaker.signal.reason)).toMatch(
        new RegExp(`^not started: 8 requests in a row to 127\\.0\\.0\\.1:\\d+ failed \\(${said}\\), the server behind`),
      );
    } finally {
      await c.close();
    }
  });

  test('the API answering (a 503 with Retry-After, a 501, a JSON 4xx) never opens it', async () => {
    const answers: [number, Record<string, string>][] = [
      [503, { 'retry-after': '0' }],
      [501, {}],
      [409, {}],
    ];
    const s = await serve((_req, res, n) => {
      const [status, headers] = answers[n % answers.length]!;
      json(res, status, { message: 'no' }, headers);
    });
    const c = new ApiClient({ baseUrl: s.url, token: TOKEN, maxRetries: 0, sleep: abortableSleep });
    try {
      for (let i = 0; i < 30; i++) await c.get('/api/v1/user-attributes', Any).catch(() => undefined);
      expect(c.breaker.open).toBe(false);
      expect(s.seen.length).toBe(30);
    } finally {
      await c.close();
    }
  });

  test('any answer in between resets the count', () => {
    const b = new ConnectBreaker(3);
    b.connectFailed('h');
    b.connectFailed('h');
    b.answered();
    b.connectFailed('h');
    b.connectFailed('h');
    expect(b.open).toBe(false);
    b.connectFailed('h');
    expect(b.open).toBe(true);
    expect(b.signal.reason).toBe('not started: 3 connections in a row to h failed, the server seems down');
  });
});
