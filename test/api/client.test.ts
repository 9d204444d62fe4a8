// ApiClient against real HTTP servers on 127.0.0.1 (test/api/server.ts): no
// mocked fetch. Every error message, hint, detail and trace line produced
// here is collected and searched for the token at the end.
import diagnostics from 'node:diagnostics_channel';
import { getEventListeners } from 'node:events';
import { afterAll, describe, expect, test } from 'vitest';
import * as z from 'zod';
import { ApiClient, type ApiClientOptions } from '../../src/api/client.js';
import { paths, Report } from '../../src/domain/wire.js';
import { ApiError, NetworkError, WscError } from '../../src/errors.js';
import { json, page, report, serve } from './server.js';

const TOKEN = 'sk-secret-token-0123456789';
const said: string[] = [];
const clients: ApiClient[] = [];

function client(url: string, opts: Partial<ApiClientOptions> = {}): ApiClient {
  const c = new ApiClient({
    baseUrl: url,
    token: TOKEN,
    maxRetries: 3,
    requestTimeoutMs: 2000,
    sleep: async () => undefined,
    trace: (line) => said.push(line),
    ...opts,
  });
  clients.push(c);
  return c;
}

async function collect<T>(it: AsyncIterable<T>): Promise<T[]> {
  const out: T[] = [];
  for await (const x of it) out.push(x);
  return out;
}

async function failure(p: Promise<unknown>): Promise<WscError> {
  try {
    await p;
  } catch (e) {
    if (e instanceof WscError) {
      said.push(e.message, e.hint ?? '', ...e.details);
      return e;
    }
    throw e;
  }
  throw new Error('expected a failure');
}

afterAll(async () => {
  for (const c of clients) await c.close();
  expect(said.length).toBeGreaterThan(50);
  for (const s of said) expect(s).not.toContain(TOKEN);
});

const Any = z.unknown();
const R = paths.reports(1);

describe('requests', () => {
  test.each([
    ['bearer', `Bearer ${TOKEN}`],
    ['api-key', `Api-Key ${TOKEN}`],
    ['raw', TOKEN],
  ] as const)('auth scheme %s sends Authorization: %s', async (scheme, header) => {
    const s = await serve((_q, res) => json(res, 200, { ok: true }));
    await client(s.url, { authScheme: scheme }).get('/api/v1/user-attributes', Any);
    expect(s.seen[0]!.headers.authorization).toBe(header);
  });

  test('paths go under the base URL (with its own prefix, if any); user-agent, accept, JSON body', async () => {
    const s = await serve((_q, res) => json(res, 200, report(5)));
    const c = client(`${s.url}/tenant-a`);
    await c.request({ method: 'PUT', path: paths.report(1, 5), body: { name: 'x' }, schema: Report });
    const q = s.seen[0]!;
    expect(q.method).toBe('PUT');
    expect(q.url).toBe('/tenant-a/api/v1/deployments/1/reports/5');
    expect(q.headers['user-agent']).toMatch(/^wsc\/\d+\.\d+\.\d+/);
    expect(q.headers['content-type']).toBe('application/json');
    expect(JSON.parse(q.body)).toEqual({ name: 'x' });
  });

  test('a POST or PUT without a body sends Content-Length: 0', async () => {
    const s = await serve((_q, res) => json(res, 200, {}));
    const c = client(s.url);
    await c.request({ method: 'POST', path: paths.publish(1, 3), schema: Any, safeToRetryPost: true });
    await c.request({ method: 'PUT', path: paths.publish(1, 3), schema: Any });
    for (const q of s.seen) {
      expect(q.headers['content-length']).toBe('0');
      expect(q.headers['transfer-encoding']).toBeUndefined();
    }
  });

  test('a byte-order mark before the JSON is tolerated', async () => {
    const s = await serve(
      (_q, res) => (res.writeHead(200, { 'content-type': 'application/json' }), res.end('\uFEFF{"id":3}')),
    );
    expect(await client(s.url).get('/api/v1/x', z.object({ id: z.number() }))).toEqual({ id: 3 });
  });

  test('any 2xx is success; an empty 204 body is fine where nothing is expected', async () => {
    const s = await serve((_q, res, n) => (n === 1 ? json(res, 201, { id: 1 }) : (res.writeHead(204), res.end())));
    const c = client(s.url);
    expect(await c.get('/api/v1/x', z.object({ id: z.number() }))).toEqual({ id: 1 });
    expect(await c.request({ method: 'PUT', path: '/api/v1/x', body: {}, schema: Any })).toBeUndefined();
  });

  test('--verbose trace: one line per request and per answer, the token shown as ***', async () => {
    const lines: string[] = [];
    const s = await serve((_q, res, n) =>
      n === 1 ? json(res, 200, report(1)) : json(res, 404, { statusCode: 404, message: 'No such report' }),
    );
    const c = client(s.url, { trace: (l) => (lines.push(l), said.push(l)) });
    await c.get(paths.report(1, 1), Report);
    await failure(c.get(paths.report(1, 2), Report));
    expect(lines[0]).toBe('→ GET /api/v1/deployments/1/reports/1 (Authorization: Bearer ***)');
    expect(lines[1]).toMatch(/^← 200 GET \/api\/v1\/deployments\/1\/reports\/1 \d+ms$/);
    expect(lines[3]).toMatch(/^← 404 GET \/api\/v1\/deployments\/1\/reports\/2 \d+ms: No such report$/);
  });
});

describe('answers that are not what was asked for', () => {
  test('an HTML page (200, text/html) where JSON was expected: not_api, not retried', async () => {
    const s = await serve((_q, res) => {
      res.writeHead(200, { 'content-type': 'text/html' });
      res.end('<!doctype html><html><body>Cube</body></html>');
    });
    const e = await failure(client(s.url).get(R, Any));
    expect(e).toBeInstanceOf(ApiError);
    expect(e.code).toBe('not_api');
    expect(e.message).toContain(
      'The server answered with a web page: wrong base URL, or this endpoint is not available on this tenant',
    );
    expect(e.hint).toContain(s.url);
    expect(s.seen).toHaveLength(1);
  });

  test('a body starting with < under a JSON content type is still a web page', async () => {
    const t = await serve((_q, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end('\n  <html>hello</html>');
    });
    expect((await failure(client(t.url).get(R, Any))).code).toBe('not_api');
  });

  test.each([
    ['truncated JSON', '{"items": [{"id": 1, "na'],
    ['invalid JSON', "{items: ['a']}"],
    ['plain text', 'Service temporarily unavailable'],
  ])('%s: bad_response, sent once', async (_name, body) => {
    const s = await serve((_q, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(body);
    });
    const e = await failure(client(s.url).get(R, Any));
    expect(e.code).toBe('bad_response');
    expect(e.message).toMatch(
      /^GET \/api\/v1\/deployments\/1\/reports answered 200 with a body that is not valid JSON/,
    );
    expect(e.hint).toMatch(/does not answer as the Workspace Content API does/);
    expect(s.seen).toHaveLength(1);
  });

  test('a write answered 200 with a cut body: bad_response, sent once, and the hint says the change was probably applied', async () => {
    const s = await serve((_q, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end('{"id": 3, "slug": "sal');
    });
    const e = await failure(
      client(s.url).request({
        method: 'PUT',
        path: '/api/v1/deployments/1/workbooks/by-slug/sales',
        body: { name: 'Sales' },
        schema: Any,
      }),
    );
    expect(e.code).toBe('bad_response');
    expect(e.message).toMatch(
      /^PUT \/api\/v1\/deployments\/1\/workbooks\/by-slug\/sales answered 200 with a body that is not valid JSON/,
    );
    expect(e.hint).toMatch(
      /accepted the PUT \(status 200\), so the change was probably applied.*`wsc plan` with this run's --dir and --env\) shows where things stand/,
    );
    expect(s.seen).toHaveLength(1);
  });

  test('wrong types: bad_response naming the request and the first issues', async () => {
    const s = await serve((_q, res) => json(res, 200, report(7, { id: '7', name: 42 })));
    const e = await failure(client(s.url).get(paths.report(1, 7), Report));
    expect(e.code).toBe('bad_response');
    expect(e.message).toContain('GET /api/v1/deployments/1/reports/7 answered 200 with a body wsc does not understand');
    expect(e.message).toMatch(/\bid: .*number/);
    expect(e.message).toMatch(/\bname: .*string/);
  });

  test('a missing member is called missing, not "received undefined"', async () => {
    const body = report(7);
    delete body['id'];
    const s = await serve((_q, res) => json(res, 200, body));
    const e = await failure(client(s.url).get(paths.report(1, 7), Report));
    expect(e.code).toBe('bad_response');
    expect(e.message).toContain('a body wsc does not understand: id: missing (expected number).');
    expect(e.message).not.toContain('undefined');
  });

  test('an empty body where an object is expected: bad_response', async () => {
    const s = await serve((_q, res) => (res.writeHead(200), res.end()));
    const e = await failure(client(s.url).get(paths.report(1, 7), Report));
    expect(e.code).toBe('bad_response');
    expect(e.message).toContain('an empty body');
  });

  test.each([
    ['with Content-Length', true],
    ['chunked, without Content-Length', false],
  ])('a 50 MB body (%s) is refused without being read to the end', async (_n, declared) => {
    const size = 50 * 1024 * 1024;
    const chunk = Buffer.alloc(1024 * 1024, 0x20);
    let written = 0;
    const s = await serve((_q, res) => {
      res.writeHead(200, {
        'content-type': 'application/json',
        ...(declared ? { 'content-length': String(size) } : {}),
      });
      const pump = () => {
        while (written < size) {
          written += chunk.length;
          if (!res.write(chunk)) return void res.once('drain', pump);
        }
        res.end();
      };
      res.on('error', () => undefined);
      pump();
    });
    const e = await failure(client(s.url, { maxBodyBytes: 8 * 1024 * 1024 }).get(R, Any));
    expect(e.code).toBe('response_too_large');
    expect(e.message).toContain('larger than 8 MiB');
    expect(s.seen).toHaveLength(1);
    if (declared) expect(written).toBeLessThan(size);
  });
});

describe('error statuses', () => {
  test('401: ApiError with status, server message and a hint about the token; a token echoed by the server is redacted', async () => {
    const s = await serve((q, res) =>
      json(res, 401, { statusCode: 401, message: `Invalid token ${q.headers.authorization}` }),
    );
    const e = (await failure(client(s.url).get(R, Any))) as ApiError;
    expect(e).toBeInstanceOf(ApiError);
    expect(e).toMatchObject({
      method: 'GET',
      path: R,
      status: 401,
      code: 'http_401',
      serverMessage: 'Invalid token Bearer ***',
    });
    expect(e.message).toBe(
      'The API rejected the token: GET /api/v1/deployments/1/reports -> 401 Unauthorized: Invalid token Bearer ***',
    );
    expect(e.hint).toContain('WSC_TOKEN');
    expect(e.exitCode).toBe(1);
    expect(s.seen).toHaveLength(1);
  });

  test('403: access hint naming the deployment', async () => {
    const s = await serve((_q, res) => json(res, 403, { statusCode: 403, message: 'Forbidden resource' }));
    const e = await failure(client(s.url).get(paths.reports(12), Any));
    expect(e.message).toMatch(/^Access denied: GET .* -> 403 Forbidden: Forbidden resource$/);
    expect(e.hint).toContain('deployment 12');
  });

  test('404 on a deployment path: the deployment may not exist or be invisible to the token', async () => {
    const s = await serve((_q, res) => json(res, 404, { statusCode: 404, message: 'Deployment not found' }));
    const e = await failure(client(s.url).get(paths.reports(99), Any));
    expect(e.hint).toContain('Deployment 99 does not exist or the token cannot see it');
  });

  test('409 carries the body code and a message given as an array is joined; not retried without upsert_branch_changed', async () => {
    const s = await serve((_q, res) =>
      json(res, 409, { statusCode: 409, message: ['publicId', 'is already used'], code: 'ambiguous_legacy_id' }),
    );
    const e = (await failure(client(s.url).request({ method: 'PUT', path: R, body: {}, schema: Any }))) as ApiError;
    expect(e.apiCode).toBe('ambiguous_legacy_id');
    expect(e.serverMessage).toBe('publicId; is already used');
    expect(s.seen).toHaveLength(1);
  });

  test('a redirect is not followed (the token stays with this host) and is explained', async () => {
    const s = await serve((_q, res) => (res.writeHead(302, { location: 'https://login.example.com/sso' }), res.end()));
    const e = (await failure(client(s.url).get(R, Any))) as ApiError;
    expect(e.status).toBe(302);
    expect(e.message).toBe(`The server redirected the request: GET ${R} -> 302 Found to https://login.example.com/sso`);
    expect(e.hint).toContain('wsc does not follow redirects');
    expect(s.seen).toHaveLength(1);
  });

  test('an error status with an HTML body keeps its status and says the body was a web page', async () => {
    const s = await serve(
      (_q, res) => (res.writeHead(404, { 'content-type': 'text/html' }), res.end('<html>nope</html>')),
    );
    const e = (await failure(client(s.url).get('/api/v1/nothing', Any))) as ApiError;
    expect(e.status).toBe(404);
    expect(e.message).toContain('(the body was a web page, not the API)');
  });
});

describe('retries end to end', () => {
  test('503 twice then 200: success after 3 requests', async () => {
    const s = await serve((_q, res, n) => (n <= 2 ? json(res, 503, { message: 'busy' }) : json(res, 200, { ok: 1 })));
    const delays: number[] = [];
    const c = client(s.url, { sleep: async (ms) => void delays.push(ms), random: () => 0.5 });
    expect(await c.get(R, Any)).toEqual({ ok: 1 });
    expect(s.seen).toHaveLength(3);
    expect(delays).toEqual([100, 200]); // full jitter at random()=0.5 of 200 ms, 400 ms
  });

  test("the waits are the policy's alone: with the sleep injected, six retries take no time of their own", async () => {
    const s = await serve((_q, res) => json(res, 503, { message: 'busy' }));
    const delays: number[] = [];
    const c = client(s.url, { maxRetries: 6, sleep: async (ms) => void delays.push(ms), random: () => 0.5 });
    const started = Date.now();
    const e = await failure(c.get(R, Any));
    expect(e.details).toContain('Tried 7 times (--max-retries 6).');
    expect(s.seen).toHaveLength(7);
    expect(delays).toEqual([100, 200, 400, 800, 1600, 3200]);
    // p-retry's own backoff would add a minute here (1 + 2 + ... + 32 s).
    expect(Date.now() - started).toBeLessThan(5000);
  });

  test('429 with Retry-After: 1 waits about a second (real clock)', async () => {
    const s = await serve((_q, res, n) =>
      n === 1 ? json(res, 429, { message: 'slow down' }, { 'retry-after': '1' }) : json(res, 200, {}),
    );
    const c = new ApiClient({ baseUrl: s.url, token: TOKEN, maxRetries: 2 });
    clients.push(c);
    await c.get(R, Any);
    expect(s.seen).toHaveLength(2);
    expect(s.seen[1]!.at - s.seen[0]!.at).toBeGreaterThanOrEqual(900);
  });

  test('429 with an HTTP-date Retry-After is honoured (injected clock)', async () => {
    const now = Date.parse('2026-11-22T10:00:00Z');
    const s = await serve((_q, res, n) =>
      n === 1 ? json(res, 429, {}, { 'retry-after': 'Sun, 22 Nov 2026 10:00:07 GMT' }) : json(res, 200, {}),
    );
    const delays: number[] = [];
    await client(s.url, { now: () => now, sleep: async (ms) => void delays.push(ms) }).get(R, Any);
    expect(delays).toEqual([7000]);
  });

  test.each([400, 401, 403, 404, 422])('%s: one request only', async (status) => {
    const s = await serve((_q, res) => json(res, status, { message: 'no' }));
    const e = (await failure(client(s.url).request({ method: 'PUT', path: R, body: {}, schema: Any }))) as ApiError;
    expect(e.status).toBe(status);
    expect(s.seen).toHaveLength(1);
  });

  test('409 upsert_branch_changed is retried', async () => {
    const s = await serve((_q, res, n) =>
      n === 1 ? json(res, 409, { code: 'upsert_branch_changed' }) : json(res, 200, {}),
    );
    await client(s.url).request({ method: 'PUT', path: paths.workbookBySlug(1, 'a'), body: {}, schema: Any });
    expect(s.seen).toHaveLength(2);
  });

  test('POST on 500: not retried unless the caller marks it safe', async () => {
    const s = await serve((_q, res, n) =>
      n === 1 || n === 2 ? json(res, 500, { message: 'oops' }) : json(res, 200, {}),
    );
    const c = client(s.url);
    const e = (await failure(c.request({ method: 'POST', path: R, body: {}, schema: Any }))) as ApiError;
    expect(e.status).toBe(500);
    expect(s.seen).toHaveLength(1);
    await c.request({ method: 'POST', path: R, body: {}, schema: Any, safeToRetryPost: true });
    expect(s.seen).toHaveLength(3);
  });

  test('500 forever: gives up after --max-retries, saying how often it tried', async () => {
    const s = await serve((_q, res) => json(res, 500, { message: 'down' }));
    const e = await failure(client(s.url, { maxRetries: 2 }).get(R, Any));
    expect(s.seen).toHaveLength(3);
    expect(e.details).toContain('Tried 3 times (--max-retries 2).');
  });

  test('a connection reset before the answer: GET retried, unsafe POST not', async () => {
    const s = await serve((_q, res, n) => (n % 2 === 1 ? res.socket?.destroy() : json(res, 200, {})));
    const c = client(s.url);
    expect(await c.get(R, Any)).toEqual({});
    expect(s.seen).toHaveLength(2);
    const e = await failure(c.request({ method: 'POST', path: '/api/v1/user-attributes', body: {}, schema: Any }));
    expect(e).toBeInstanceOf(NetworkError);
    expect(e.message).toContain('the connection to 127.0.0.1');
    expect(e.details).toEqual([
      "Not sent again: the server may have acted on it. A plan of the same bundle and deployment (`wsc plan` with this run's --dir and --env) shows the current state.",
    ]);
    expect(s.seen).toHaveLength(3);
  });
});

describe('network failures', () => {
  test('a server that never answers: NetworkError within the configured timeout', async () => {
    const s = await serve(() => undefined);
    const started = Date.now();
    const e = await failure(client(s.url, { requestTimeoutMs: 300, maxRetries: 0 }).get(R, Any));
    const took = Date.now() - started;
    expect(e).toBeInstanceOf(NetworkError);
    expect(e.message).toBe(`GET ${R}: no answer from ${new URL(s.url).host} within 0.3 s.`);
    expect(e.hint).toContain('WSC_REQUEST_TIMEOUT');
    expect(took).toBeGreaterThanOrEqual(250);
    expect(took).toBeLessThan(2000);
  });

  test('a body that stops half-way counts against the same timeout', async () => {
    const s = await serve((_q, res) => {
      res.writeHead(200, { 'content-type': 'application/json', 'content-length': '100' });
      res.write('{"items": [');
    });
    const e = await failure(client(s.url, { requestTimeoutMs: 300, maxRetries: 1 }).get(R, Any));
    expect(e).toBeInstanceOf(NetworkError);
    expect(s.seen).toHaveLength(2);
  });

  test('connection refused: "cannot reach <host>: is the server running?"', async () => {
    const s = await serve(() => undefined);
    const url = s.url;
    await s.close();
    const e = await failure(client(url, { maxRetries: 1 }).get(R, Any));
    expect(e).toBeInstanceOf(NetworkError);
    expect(e.message).toContain(`cannot reach ${new URL(url).host}: is the server running?`);
  });

  test('close() stops a request waiting to retry', async () => {
    const s = await serve((_q, res) => json(res, 503, {}, { 'retry-after': '30' }));
    const c = new ApiClient({ baseUrl: s.url, token: TOKEN });
    const p = failure(c.get(R, Any));
    // Past the answer (under load it may take longer than a fixed pause), into the 30 s wait.
    while (s.seen.length === 0) await new Promise((r) => setTimeout(r, 20));
    await new Promise((r) => setTimeout(r, 200));
    const started = Date.now();
    await c.close();
    expect((await p).message).toContain('503');
    expect(Date.now() - started).toBeLessThan(1000);
    expect(s.seen).toHaveLength(1);
  });
});

describe('many requests at once', () => {
  test('32 in flight, then 32 waiting to retry: no warning of a listener leak on stderr, none left after', async () => {
    const warned: string[] = [];
    const onWarning = (w: Error) => void warned.push(`${w.name}: ${w.message}`);
    process.on('warning', onWarning);
    try {
      // Each first answer waits until all 32 have arrived (all in flight at once), and asks for a retry.
      const held: (() => void)[] = [];
      const s = await serve((q, res) => {
        if (s.seen.filter((x) => x.url === q.url).length > 1) return json(res, 200, {});
        held.push(() => json(res, 503, { message: 'busy' }, { 'retry-after': '0' }));
        if (held.length === 32) for (const answer of held) answer();
      });
      const c = new ApiClient({ baseUrl: s.url, token: TOKEN, connections: 32, maxRetries: 1 });
      clients.push(c);
      const all = Array.from({ length: 32 }, (_, i) => c.get(`/api/v1/deployments/1/reports/${i}`, Any));
      await Promise.all(all);
      expect(s.seen).toHaveLength(64);
      // Node emits its warnings on the next tick.
      await new Promise((r) => setImmediate(r));
      expect(warned).toEqual([]);
      for (const signal of [c['closing'].signal, c['waitEnds']]) expect(getEventListeners(signal, 'abort')).toEqual([]);
    } finally {
      process.off('warning', onWarning);
    }
  });
});

describe('pagination', () => {
  const items = (from: number, n: number) => Array.from({ length: n }, (_, i) => report(from + i));

  test('follows endCursor to the end with first = page size', async () => {
    const s = await serve((q, res) => {
      const after = new URL(q.url, 'http://x').searchParams.get('after');
      if (after === null) return json(res, 200, page(items(1, 2), { hasNextPage: true, endCursor: 'c1' }));
      if (after === 'c1') return json(res, 200, page(items(3, 2), { hasNextPage: true, endCursor: 'c2' }));
      return json(res, 200, page(items(5, 1), { hasNextPage: false, endCursor: 'c3' }));
    });
    const all = await client(s.url, { pageSize: 2 }).listAll(R, Report, { sortBy: 'updatedAt' });
    expect(all.map((r) => r.id)).toEqual([1, 2, 3, 4, 5]);
    expect(s.seen.map((q) => q.url)).toEqual([
      `${R}?sortBy=updatedAt&first=2`,
      `${R}?sortBy=updatedAt&first=2&after=c1`,
      `${R}?sortBy=updatedAt&first=2&after=c2`,
    ]);
  });

  test('one chain: the next page is asked for once its cursor has come, never a page further', async () => {
    const s = await serve((q, res) => {
      const after = Number(new URL(q.url, 'http://x').searchParams.get('after') ?? '0');
      const more = after < 9 ? { hasNextPage: true, endCursor: String(after + 1) } : { hasNextPage: false };
      json(res, 200, page(items(after * 2 + 1, 2), more));
    });
    const it = client(s.url, { pageSize: 2 }).pages(R, Report);
    const first = await it.next();
    expect((first.value as { id: number }[]).map((r) => r.id)).toEqual([1, 2]);
    // The caller sits on page 1: page 2 (its cursor known) is read, nothing beyond it.
    await new Promise((r) => setTimeout(r, 200));
    expect(s.seen.map((q) => q.url)).toEqual([`${R}?first=2`, `${R}?first=2&after=1`]);
    const ids: number[] = [];
    for (let r = await it.next(); !r.done; r = await it.next())
      ids.push(...(r.value as { id: number }[]).map((x) => x.id));
    expect(ids).toEqual(Array.from({ length: 18 }, (_, i) => i + 3));
    const rest = Array.from({ length: 9 }, (_, i) => `${R}?first=2&after=${i + 1}`);
    expect(s.seen.map((q) => q.url)).toEqual([`${R}?first=2`, ...rest]);
  });

  test("the next page's request leaves while this page's items are still being checked", async () => {
    // Checking a full page is CPU work; the next request must not wait for it (it is the read's critical path).
    const n = 400;
    const s = await serve((q, res) => {
      const after = new URL(q.url, 'http://x').searchParams.get('after');
      const more = after === null ? { hasNextPage: true, endCursor: 'c1' } : { hasNextPage: false };
      json(res, 200, page(items(after === null ? 1 : n + 1, n), more));
    });
    const events: string[] = [];
    const onHeaders = (m: unknown) => {
      events.push((m as { request: { path: string } }).request.path.includes('after=') ? 'sent 2' : 'sent 1');
    };
    const checked = Report.refine((r) => {
      if (r.id === 1) events.push('checking 1');
      if (r.id === n) events.push('checked 1');
      return true;
    });
    diagnostics.subscribe('undici:client:sendHeaders', onHeaders);
    try {
      const all = await client(s.url, { pageSize: n }).listAll(R, checked);
      expect(all).toHaveLength(2 * n);
    } finally {
      diagnostics.unsubscribe('undici:client:sendHeaders', onHeaders);
    }
    expect(events).toEqual(['sent 1', 'checking 1', 'sent 2', 'checked 1']);
  });

  test('a body that does not parse ends the list with bad_response, asking for nothing more', async () => {
    const s = await serve((_q, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end('{"items":[{"id":1,,],"pageInfo":{"hasNextPage":true,"endCursor":"c1"}}');
    });
    const e = await failure(client(s.url).listAll(R, Report));
    expect(e.code).toBe('bad_response');
    expect(s.seen).toHaveLength(1);
  });

  test('the default page size is 500', async () => {
    const s = await serve((_q, res) => json(res, 200, page([], { hasNextPage: false })));
    await client(s.url).listAll(R, Report);
    expect(s.seen[0]!.url).toBe(`${R}?first=500`);
  });

  test('a repeated cursor is an error, not a hang', async () => {
    const s = await serve((q, res, n) => {
      const after = new URL(q.url, 'http://x').searchParams.get('after');
      json(
        res,
        200,
        page(items(n, 1), { hasNextPage: true, endCursor: after === null ? 'a' : after === 'a' ? 'b' : 'a' }),
      );
    });
    const e = await failure(client(s.url, { pageSize: 1 }).listAll(R, Report));
    expect(e.code).toBe('bad_pagination');
    expect(e.message).toContain('repeated the cursor');
    expect(s.seen).toHaveLength(3);
  });

  test('an item that comes again in a later page: bad_pagination naming the id and the pages (an item may have been skipped)', async () => {
    // Page 2 repeats report 2, as an offset-paged list does when an item is inserted before the cursor mid-read.
    const s = await serve((q, res, n) =>
      json(
        res,
        200,
        page(n === 1 ? items(1, 2) : items(2, 2), { hasNextPage: n === 1, endCursor: n === 1 ? 'c1' : null }),
      ),
    );
    const e = await failure(client(s.url, { pageSize: 2 }).listAll(R, Report));
    expect(e.code).toBe('bad_pagination');
    expect(e.message).toBe(
      'GET /api/v1/deployments/1/reports: the item with id 2 came in page 1 and again in page 2; the list changed while it was read, or the server pages inconsistently, so an item may have been skipped.',
    );
    expect(e.hint).toMatch(/Run the command again/);
    expect(s.seen).toHaveLength(2);
  });

  test('an item twice in one page: bad_pagination', async () => {
    const s = await serve((_q, res) =>
      json(res, 200, page([report(4), report(5), report(4)], { hasNextPage: false, endCursor: null })),
    );
    const e = await failure(client(s.url).listAll(R, Report));
    expect(e.code).toBe('bad_pagination');
    expect(e.message).toContain('the item with id 4 came twice in page 1');
  });

  test('fresh cursors on empty pages forever: bad_pagination after 100 of them', async () => {
    const s = await serve((_q, res, n) => json(res, 200, page([], { hasNextPage: true, endCursor: `c${n}` })));
    const e = await failure(client(s.url).listAll(R, Report));
    expect(e.code).toBe('bad_pagination');
    expect(e.message).toContain('100 empty pages in a row');
    expect(s.seen).toHaveLength(100);
  });

  test('no pageInfo and a short page: the last page', async () => {
    const s = await serve((_q, res) => json(res, 200, page(items(1, 3))));
    expect(await client(s.url, { pageSize: 5 }).listAll(R, Report)).toHaveLength(3);
  });

  test('no pageInfo and a full page: the last page (the API allows pageInfo null)', async () => {
    const s = await serve((_q, res) => json(res, 200, page(items(1, 5))));
    expect(await client(s.url, { pageSize: 5 }).listAll(R, Report)).toHaveLength(5);
    expect(s.seen).toHaveLength(1);
  });

  test('no pageInfo but a count above what came: the page asked once more; its pageInfo is followed', async () => {
    const s = await serve((q, res, n) => {
      const after = new URL(q.url, 'http://x').searchParams.get('after');
      if (after === 'p2')
        return json(res, 200, {
          items: items(6, 3),
          count: 8,
          pageInfo: { hasNextPage: false, hasPreviousPage: false },
        });
      if (n === 1) return json(res, 200, { items: items(1, 5), count: 8 });
      return json(res, 200, {
        items: items(1, 5),
        count: 8,
        pageInfo: { hasNextPage: true, hasPreviousPage: false, endCursor: 'p2' },
      });
    });
    expect((await client(s.url, { pageSize: 5 }).listAll(R, Report)).map((r) => r.id)).toEqual([
      1, 2, 3, 4, 5, 6, 7, 8,
    ]);
    expect(s.seen.map((q) => new URL(q.url, 'http://x').searchParams.get('after'))).toEqual([null, null, 'p2']);
  });

  test('no pageInfo and a count above what came, twice: the list ends there (read short of its count)', async () => {
    const s = await serve((_q, res) => json(res, 200, { items: items(1, 3), count: 10 }));
    const counts: unknown[] = [];
    const got = await client(s.url, { pageSize: 5 }).listAll(R, Report, {}, { onPage: (p) => counts.push(p.count) });
    expect(got).toHaveLength(3);
    expect(s.seen).toHaveLength(2);
    // The caller sees the count once, for the answer that settled it.
    expect(counts).toEqual([10]);
  });

  test('hasNextPage without endCursor: bad_pagination', async () => {
    const s = await serve((_q, res) => json(res, 200, page(items(1, 1), { hasNextPage: true, endCursor: null })));
    const e = await failure(client(s.url).listAll(R, Report));
    expect(e.code).toBe('bad_pagination');
    expect(e.message).toContain('no endCursor');
  });

  test('items not an array, or a bad item on page 2: bad_response naming the item', async () => {
    const s = await serve((q, res) => {
      const after = new URL(q.url, 'http://x').searchParams.get('after');
      if (after === null) return json(res, 200, page(items(1, 1), { hasNextPage: true, endCursor: 'n' }));
      return json(res, 200, page([report(2), report(3, { publicId: 'short' })], { hasNextPage: false }));
    });
    const e = await failure(client(s.url).listAll(R, Report));
    expect(e.code).toBe('bad_response');
    expect(e.message).toMatch(/items\.1\.publicId/);
    const t = await serve((_q, res) => json(res, 200, { items: { a: 1 } }));
    expect((await failure(client(t.url).listAll(R, Report))).message).toMatch(/items: /);
  });

  test('pages() with asIs keeps valid items as sent (member order too); an invalid one is still refused with its path', async () => {
    const pivot = { columns: [], rows: ['a'], measures: ['m'], filters: [] };
    const s = await serve((_q, res) =>
      json(res, 200, page([report(1, { pivotItems: pivot }), report(2)], { hasNextPage: false })),
    );
    const [asIs] = await collect(client(s.url).pages(R, Report, {}, { asIs: true }));
    expect(Object.keys(asIs![0]!.pivotItems!)).toEqual(['columns', 'rows', 'measures', 'filters']);
    // Without asIs, zod's output: the schema's member order.
    const [parsed] = await collect(client(s.url).pages(R, Report));
    expect(Object.keys(parsed![0]!.pivotItems!)).toEqual(['columns', 'filters', 'measures', 'rows']);
    expect(JSON.parse(JSON.stringify(asIs))).toEqual(JSON.parse(JSON.stringify(parsed)));
    const t = await serve((_q, res) =>
      json(res, 200, page([report(1), report(2, { updatedAt: 0 })], { hasNextPage: false })),
    );
    const e = await failure(collect(client(t.url).pages(R, Report, {}, { asIs: true })));
    expect(e.code).toBe('bad_response');
    expect(e.message).toMatch(/items\.1\.updatedAt/);
  });

  test('pages() streams one array per page', async () => {
    const s = await serve((q, res) => {
      const after = new URL(q.url, 'http://x').searchParams.get('after');
      json(
        res,
        200,
        after === null
          ? page(items(1, 2), { hasNextPage: true, endCursor: 'x' })
          : page(items(3, 1), { hasNextPage: false }),
      );
    });
    const got: number[][] = [];
    for await (const p of client(s.url, { pageSize: 2 }).pages(R, Report)) got.push(p.map((r) => r.id));
    expect(got).toEqual([[1, 2], [3]]);
  });
});
