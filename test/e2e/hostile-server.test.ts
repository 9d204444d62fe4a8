// The built CLI (`wsc plan --verbose`) against servers that misbehave in
// every way we could think of. Each one must end in a clear message on
// stderr, exit 1, nothing on stdout, no write request, bounded time, and the
// token nowhere in the output (the --verbose trace included).
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, describe, expect, test } from 'vitest';
import { wireReport } from '../helpers/wire.js';
import { cleanupTemp, copyFixture, runCli } from './helpers/index.js';

afterAll(cleanupTemp);

const TOKEN = 'secret-token-9f8e7d6c';
const R = '/api/v1/deployments/1/reports';
const W = '/api/v1/deployments/1/workbooks';
const A = '/api/v1/user-attributes';

interface Req {
  method: string;
  path: string;
  query: URLSearchParams;
  headers: IncomingMessage['headers'];
}
type Reply = (req: Req, res: ServerResponse, n: number) => void;

const report = (id: number, over: Record<string, unknown> = {}) =>
  wireReport(id, { publicId: `h${String(id).padStart(11, '0')}`, ...over });
const empty = { items: [], pageInfo: { hasNextPage: false, hasPreviousPage: false } };

function send(res: ServerResponse, status: number, body: string, headers: Record<string, string> = {}): void {
  res.writeHead(status, {
    'content-type': 'application/json',
    'content-length': String(Buffer.byteLength(body)),
    ...headers,
  });
  res.end(body);
}
const json = (res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}) =>
  send(res, status, JSON.stringify(body), headers);

/** Answers the other two lists correctly and `path` with `reply`. */
function on(path: string, reply: Reply): Reply {
  return (req, res, n) => (req.path === path ? reply(req, res, n) : json(res, 200, empty));
}

interface Case {
  name: string;
  reply: Reply;
  stderr: RegExp;
  env?: Record<string, string>;
  retries?: number;
}

const cases: Case[] = [
  {
    name: 'wrong types in an item',
    reply: on(R, (_q, res) =>
      json(res, 200, { items: [report(1, { id: 'one', publicId: 7 })], pageInfo: empty.pageInfo }),
    ),
    stderr: /a report wsc cannot identify: the server sent id: "one" \(Invalid input[\s\S]*\[live_value_unknown\]/,
  },
  {
    name: 'truncated JSON',
    reply: on(R, (_q, res) => send(res, 200, '{"items":[{"id":1,"deploymentId":1,"publ')),
    stderr: /not valid JSON \(\d+ characters; truncated or malformed\)/,
  },
  {
    name: 'invalid JSON',
    reply: on(W, (_q, res) => send(res, 200, "{items: [], 'pageInfo': null}")),
    stderr: /GET \/api\/v1\/deployments\/1\/workbooks answered 200 with a body that is not valid JSON/,
  },
  {
    name: 'an HTML page with 200 (unknown route on the real API)',
    reply: on(A, (_q, res) =>
      send(res, 200, '<!DOCTYPE html><html><head><title>Cube</title></head></html>', {
        'content-type': 'text/html; charset=utf-8',
      }),
    ),
    stderr:
      /The server answered with a web page: wrong base URL, or this endpoint is not available on this tenant\. \[not_api\]/,
  },
  {
    name: 'HTML under a JSON content type',
    reply: on(R, (_q, res) => send(res, 200, '  <html><body>login</body></html>')),
    stderr: /\[not_api\]/,
  },
  {
    name: 'a 50 MB body',
    reply: on(R, (_q, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.on('error', () => undefined);
      const chunk = Buffer.alloc(1 << 20, 0x20);
      let sent = 0;
      const pump = () => {
        while (sent < 50) {
          sent++;
          if (!res.write(chunk)) return void res.once('drain', pump);
        }
        res.end();
      };
      pump();
    }),
    stderr: /the response is larger than 32 MiB; refused without reading it all\. \[response_too_large\]/,
  },
  {
    name: 'a cursor that repeats forever',
    reply: on(R, (_q, res) =>
      json(res, 200, { items: [], pageInfo: { hasNextPage: true, hasPreviousPage: false, endCursor: 'same' } }),
    ),
    stderr: /repeated the cursor of an earlier page .*\[bad_pagination\]/,
  },
  {
    name: 'fresh cursors on empty pages forever',
    reply: on(R, (_q, res, n) =>
      json(res, 200, { items: [], pageInfo: { hasNextPage: true, hasPreviousPage: true, endCursor: `cursor-${n}` } }),
    ),
    stderr: /100 empty pages in a row, each claiming more; the server seems to page forever\. \[bad_pagination\]/,
  },
  {
    name: 'hasNextPage without endCursor',
    reply: on(W, (_q, res) => json(res, 200, { items: [], pageInfo: { hasNextPage: true, hasPreviousPage: false } })),
    stderr: /hasNextPage is true but there is no endCursor/,
  },
  {
    name: 'malformed pageInfo',
    reply: on(A, (_q, res) => json(res, 200, { items: [], pageInfo: { hasNextPage: 'no' } })),
    stderr: /pageInfo\.hasNextPage: .*\[bad_response\]/,
  },
  {
    name: 'items not an array',
    reply: on(R, (_q, res) => json(res, 200, { items: { 1: report(1) } })),
    stderr: /items: .*\[bad_response\]/,
  },
  {
    name: 'a bare array instead of a list object',
    reply: on(W, (_q, res) => json(res, 200, [])),
    stderr: /\(root\): .*\[bad_response\]/,
  },
  { name: 'null', reply: on(A, (_q, res) => send(res, 200, 'null')), stderr: /\(root\): .*\[bad_response\]/ },
  {
    name: 'an empty 200 body',
    reply: on(R, (_q, res) => send(res, 200, '')),
    stderr: /an empty body where JSON was expected/,
  },
  {
    name: 'plain text with a text content type',
    reply: on(R, (_q, res) => send(res, 200, 'OK', { 'content-type': 'text/plain' })),
    stderr: /not valid JSON/,
  },
  {
    name: 'never answers (WSC_REQUEST_TIMEOUT=1)',
    reply: on(R, () => undefined),
    env: { WSC_REQUEST_TIMEOUT: '1' },
    retries: 1,
    stderr:
      /GET \/api\/v1\/deployments\/1\/reports: no answer from 127\.0\.0\.1:\d+ within 1 s\. \[network\]\n[\s\S]*Hint: .*WSC_REQUEST_TIMEOUT/,
  },
  {
    name: 'headers, then a body that stalls',
    reply: on(W, (_q, res) => {
      res.writeHead(200, { 'content-type': 'application/json', 'content-length': '500' });
      res.write('{"items":[');
    }),
    env: { WSC_REQUEST_TIMEOUT: '1' },
    retries: 1,
    stderr: /no answer from .* within 1 s/,
  },
  {
    name: 'a body shorter than its Content-Length',
    reply: on(R, (_q, res) => {
      res.writeHead(200, { 'content-length': '1000' });
      res.write('{"items":[]}', () => res.socket?.destroy());
    }),
    stderr: /the connection to 127\.0\.0\.1:\d+ was closed before the answer was complete/,
  },
  {
    name: 'the connection is reset every time',
    reply: on(R, (_q, res) => res.socket?.destroy()),
    stderr: /was closed before the answer was complete\. \[network\]/,
  },
  {
    name: '500 forever',
    reply: on(R, (_q, res) => json(res, 500, { statusCode: 500, message: 'Internal server error' })),
    stderr:
      /The server failed: GET \/api\/v1\/deployments\/1\/reports -> 500 Internal Server Error: Internal server error \[http_500\]\n {2}Tried 3 times \(--max-retries 2\)\./,
  },
  {
    name: '503 forever with Retry-After 0',
    reply: on(W, (_q, res) => json(res, 503, { message: 'maintenance' }, { 'retry-after': '0' })),
    stderr: /The server is busy or unavailable: .* 503 Service Unavailable: maintenance/,
  },
  {
    name: 'a redirect to a login page',
    reply: on(R, (_q, res) => (res.writeHead(302, { location: 'https://sso.example.com/login' }), res.end())),
    stderr:
      /The server redirected the request: GET \/api\/v1\/deployments\/1\/reports -> 302 Found to https:\/\/sso\.example\.com\/login/,
  },
  {
    name: '401',
    reply: on(R, (_q, res) => json(res, 401, { statusCode: 401, message: 'Unauthorized' })),
    stderr: /The API rejected the token: .*\nHint: .*WSC_TOKEN/,
  },
  {
    name: '401 echoing the token back',
    reply: on(R, (q, res) => json(res, 401, { message: `bad credentials: ${q.headers.authorization}` })),
    stderr: /bad credentials: Bearer \*\*\*/,
  },
  {
    name: '403',
    reply: on(A, (_q, res) => json(res, 403, { statusCode: 403, message: 'Forbidden resource', error: 'Forbidden' })),
    stderr: /Access denied: GET \/api\/v1\/user-attributes -> 403 Forbidden: Forbidden resource/,
  },
  {
    name: '404 for the deployment',
    reply: on(R, (_q, res) => json(res, 404, { statusCode: 404, message: 'Deployment not found' })),
    stderr: /Hint: Deployment 1 does not exist or the token cannot see it/,
  },
  {
    name: '404 with a web page',
    reply: on(W, (_q, res) => send(res, 404, '<html>Not Found</html>', { 'content-type': 'text/html' })),
    stderr: /404 Not Found \(the body was a web page, not the API\)/,
  },
  {
    name: '400 with a message array',
    reply: on(R, (_q, res) =>
      json(res, 400, { statusCode: 400, message: ['first must not be greater than 100', 'after must be a string'] }),
    ),
    stderr: /400 Bad Request: first must not be greater than 100; after must be a string/,
  },
];

async function hostile(reply: Reply): Promise<{ url: string; seen: Req[]; close(): Promise<void> }> {
  const seen: Req[] = [];
  const server = createServer((req, res) => {
    const u = new URL(req.url ?? '/', 'http://x');
    const r: Req = { method: req.method ?? '', path: u.pathname, query: u.searchParams, headers: req.headers };
    seen.push(r);
    req.resume();
    req.on('end', () => reply(r, res, seen.length));
  });
  await new Promise<void>((ok) => server.listen(0, '127.0.0.1', ok));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    seen,
    close: () =>
      new Promise<void>((ok) => {
        server.closeAllConnections();
        server.close(() => ok());
      }),
  };
}

describe('wsc plan against a hostile server', () => {
  const dir = copyFixture('example');
  test('at least 20 behaviours', () => expect(cases.length).toBeGreaterThanOrEqual(20));

  test.concurrent.each(cases)(
    '$name',
    async (c) => {
      const s = await hostile(c.reply);
      try {
        const started = Date.now();
        const r = await runCli(
          [
            'plan',
            '--verbose',
            '--max-retries',
            String(c.retries ?? 2),
            '--base-url',
            s.url,
            '--deployment',
            '1',
            '--dir',
            dir,
          ],
          { env: { WSC_TOKEN: TOKEN, ...c.env }, timeoutMs: 60_000 },
        );
        const took = Date.now() - started;
        expect(r.stderr).toMatch(c.stderr);
        expect(r.code, r.stderr).toBe(1);
        expect(r.stdout).toBe('');
        expect(r.stderr).not.toMatch(/internal error|\n {4}at /i);
        expect(r.stderr).toContain('(Authorization: Bearer ***)'); // the trace ran...
        expect(r.stdout + r.stderr).not.toContain(TOKEN); // ...and never showed the token
        expect(s.seen.length).toBeGreaterThan(0);
        // Nothing but GETs, and the deployment token the semantic check asks for beside them.
        expect(s.seen.filter((q) => q.method !== 'GET' && !q.path.endsWith('/token'))).toEqual([]);
        expect(took).toBeLessThan(45_000);
      } finally {
        await s.close();
      }
    },
    90_000,
  );

  test('a server that is not running: "cannot reach", exit 1', async () => {
    const s = await hostile(() => undefined);
    await s.close();
    const r = await runCli(['plan', '--max-retries', '1', '--base-url', s.url, '--deployment', '1', '--dir', dir], {
      env: { WSC_TOKEN: TOKEN },
    });
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/cannot reach 127\.0\.0\.1:\d+: is the server running\?/);
    expect(r.stderr).not.toContain(TOKEN);
  });
});
