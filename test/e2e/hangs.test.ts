// The built CLI against servers that would make it hang or grow without end:
// a list that pages forever with fresh items, an answer that never comes, a
// Retry-After of 10^9 seconds, a server that dies in the middle of an apply.
// Each run ends in bounded time (generous bounds: CI machines are slow), says
// on stderr what it waited for, and writes nothing it should not.
import { createServer, type ServerResponse } from 'node:http';
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, test } from 'vitest';
import { cleanupTemp, copyFixture, runCli, tempDir } from './helpers/index.js';
import { writeBundle } from './helpers/bundles.js';
import { json, report, type Seen, type TestServer } from '../api/server.js';
import { listenOnLoopback } from '../helpers/listen.js';

afterAll(cleanupTemp);

// Every test has a server of its own: all run at once (each checks with its own `expect`), so the
// waits of some overlap the work of others.

const TOKEN = 'secret-token-5a4b3c2d';
const R = '/api/v1/deployments/1/reports';

type Req = Seen & { path: string; query: URLSearchParams };
type Reply = (req: Req, res: ServerResponse) => void;

/**
 * A scripted server (as the client tests' serve(), without closing every open
 * server after each test: these tests run at once); `close` makes later
 * connects refused.
 */
async function hostile(reply: Reply): Promise<TestServer> {
  const seen: Seen[] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8');
      const s: Seen = { method: req.method ?? '', url: req.url ?? '', headers: req.headers, body, at: Date.now() };
      seen.push(s);
      const u = new URL(s.url, 'http://x');
      try {
        reply({ ...s, path: u.pathname, query: u.searchParams }, res);
      } catch {
        res.destroy();
      }
    });
  });
  return { ...(await listenOnLoopback(server)), seen };
}

/** Runs fn against hostile(reply), closed whatever happens. */
async function againstHostile(reply: Reply, fn: (s: TestServer) => Promise<void>): Promise<void> {
  const s = await hostile(reply);
  try {
    await fn(s);
  } finally {
    await s.close();
  }
}

const empty = { items: [], pageInfo: { hasNextPage: false, hasPreviousPage: false } };

/** The reports list pages forever, each page full of fresh items; `count` as given. */
function forever(count: number | undefined): Reply {
  let next = 1;
  return (req, res) => {
    if (req.path !== R) return json(res, 200, empty);
    const first = Number(req.query.get('first') ?? 100);
    const items = Array.from({ length: first }, () => report(next++));
    const cursor = `c${next}`;
    json(res, 200, {
      items,
      pageInfo: { hasNextPage: true, hasPreviousPage: true, endCursor: cursor },
      ...(count !== undefined ? { count } : {}),
    });
  };
}

const connection = (url: string) => ['--base-url', url, '--deployment', '1'];
const env = { WSC_TOKEN: TOKEN };

describe.concurrent('every list is bounded', () => {
  test('plan: a list that pages forever past its count stops at count + margin, exit 1, no plan file', async ({
    expect,
  }) => {
    await againstHostile(forever(3), async (s) => {
      const dir = copyFixture('example');
      const out = join(tempDir(), 'plan.json');
      const started = Date.now();
      const r = await runCli(['plan', '--out', out, ...connection(s.url), '--dir', dir], { env, timeoutMs: 90_000 });
      expect(Date.now() - started).toBeLessThan(60_000);
      expect(r.code, r.stderr).toBe(1);
      expect(r.stderr).toMatch(
        /GET \/api\/v1\/deployments\/1\/reports: the list went past 1003 items \(\d+ in \d+ pages read; its first page said it had 3\)/,
      );
      expect(r.stderr).not.toMatch(/internal error|\n {4}at /i);
      expect(existsSync(out)).toBe(false);
      // Nothing but GETs, and the deployment token the semantic check asks for beside them.
      expect(s.seen.filter((q) => q.method !== 'GET' && !q.url.endsWith('/token'))).toEqual([]);
    });
  }, 120_000);

  test('apply: the same list stops the same way, before any write', async ({ expect }) => {
    await againstHostile(forever(3), async (s) => {
      const r = await runCli(
        ['apply', '--auto-approve', ...connection(s.url), '--dir', writeBundle({ looseReports: 2 })],
        { env, timeoutMs: 90_000 },
      );
      expect(r.code, r.stderr).toBe(1);
      expect(r.stderr).toMatch(
        /reports: the list went past 1003 items \(\d+ in \d+ pages read; its first page said it had 3\)[^\n]*\[list_too_long\]/,
      );
      // Nothing but GETs, and the deployment token the semantic check asks for beside them.
      expect(s.seen.filter((q) => q.method !== 'GET' && !q.url.endsWith('/token'))).toEqual([]);
    });
  }, 120_000);

  test('export: a list with no count stops at --max-list-items (WSC_MAX_LIST_ITEMS), exit 1, no file written', async ({
    expect,
  }) => {
    await againstHostile(forever(undefined), async (s) => {
      const out = tempDir();
      const started = Date.now();
      const r = await runCli(['export', '--out', out, ...connection(s.url)], {
        // Pages of 50: the bound is met after several pages, as a list without end would meet it.
        env: { ...env, WSC_MAX_LIST_ITEMS: '200', WSC_PAGE_SIZE: '50' },
        cwd: tempDir(),
        timeoutMs: 90_000,
      });
      expect(Date.now() - started).toBeLessThan(60_000);
      expect(r.code, r.stderr).toBe(1);
      expect(r.stderr).toMatch(
        /reports: the list went past 200 items \(\d+ in \d+ pages read; its first page gave no count\)/,
      );
      expect(r.stderr).toMatch(/raise --max-list-items or WSC_MAX_LIST_ITEMS \(now 200\)/);
      const files = readdirSync(out, { recursive: true, withFileTypes: true }).filter((e) => !e.isDirectory());
      expect(files.map((e) => e.name)).toEqual([]);
    });
  }, 120_000);

  test('a bad WSC_MAX_LIST_ITEMS is a usage error, nothing sent', async ({ expect }) => {
    await againstHostile(forever(3), async (s) => {
      const r = await runCli(['plan', ...connection(s.url), '--dir', copyFixture('example')], {
        env: { ...env, WSC_MAX_LIST_ITEMS: 'lots' },
      });
      expect(r.code).toBe(3);
      expect(r.stderr).toMatch(/WSC_MAX_LIST_ITEMS must be a whole number above 0, got "lots"/);
      expect(s.seen).toEqual([]);
    });
  });
});

describe.concurrent('every wait is bounded and shown', () => {
  test('an answer that never comes: "still waiting" on stderr while it is awaited, then exit 1', async ({ expect }) => {
    await againstHostile(
      (req, res) => (req.path === R ? undefined : json(res, 200, empty)),
      async (s) => {
        const started = Date.now();
        const r = await runCli(['plan', '--max-retries', '0', ...connection(s.url), '--dir', copyFixture('example')], {
          // Just past the 5 s after which a wait is shown.
          env: { ...env, WSC_REQUEST_TIMEOUT: '5.5' },
          timeoutMs: 90_000,
        });
        expect(Date.now() - started).toBeLessThan(60_000);
        expect(r.code, r.stderr).toBe(1);
        expect(r.stderr).toMatch(
          /wsc: still waiting for GET \/api\/v1\/deployments\/1\/reports from 127\.0\.0\.1:\d+: 5 s so far \(attempt 1 of 1; it counts as failed after 5\.5 s\)\./,
        );
        expect(r.stderr).toMatch(/no answer from 127\.0\.0\.1:\d+ within 5\.5 s/);
        expect(r.stdout + r.stderr).not.toContain(TOKEN);
      },
    );
  }, 120_000);

  test('a Retry-After of 10^9 s: the capped wait is shown on stderr at once, with the attempt', async ({ expect }) => {
    await againstHostile(
      (req, res) =>
        req.path === R
          ? json(res, 503, { message: 'come back later' }, { 'retry-after': '1000000000' })
          : json(res, 200, empty),
      async (s) => {
        let shownAfter: number | undefined;
        const started = Date.now();
        const r = await runCli(['plan', ...connection(s.url), '--dir', copyFixture('example')], {
          env,
          timeoutMs: 60_000,
          onSpawn: (child) => {
            let err = '';
            child.stderr?.on('data', (d: string) => {
              err += d;
              if (shownAfter === undefined && /before attempt 2 of 7\./.test(err)) {
                shownAfter = Date.now() - started;
                child.kill('SIGINT');
              }
            });
          },
        }).catch((e: Error) => ({ code: -1, stdout: '', stderr: e.message }));
        expect(r.stderr).toMatch(
          /wsc: GET \/api\/v1\/deployments\/1\/reports answered 503; waiting 60 s \(the server asked for it with Retry-After; wsc waits at most 60 s\) before attempt 2 of 7\./,
        );
        expect(shownAfter).toBeLessThan(30_000);
      },
    );
  }, 90_000);
});

describe.concurrent('a server that dies mid-apply', () => {
  test('connections refused: no new request starts, the rest are "not started", exit 1 within seconds', async ({
    expect,
  }) => {
    const writes: string[] = [];
    const s: TestServer | undefined = await hostile((req, res) => {
      if (req.method === 'GET') return json(res, 200, empty);
      writes.push(`${req.method} ${req.path}`);
      res.socket?.destroy();
      void s?.close();
    });
    const dir = writeBundle({ looseReports: 300 });
    try {
      const started = Date.now();
      const r = await runCli(['apply', '--auto-approve', ...connection(s.url), '--dir', dir], {
        env,
        timeoutMs: 120_000,
      });
      const took = Date.now() - started;
      expect(r.code, r.stdout + r.stderr).toBe(1);
      expect(took).toBeLessThan(60_000);
      expect(r.stdout + r.stderr).toMatch(
        /not started: 8 connections in a row to 127\.0\.0\.1:\d+ failed, the server seems down/,
      );
      expect(r.stdout + r.stderr).not.toMatch(/internal error|\n {4}at /i);
      expect(writes.length).toBeLessThanOrEqual(8);
    } finally {
      await s.close();
    }
  }, 180_000);

  test('some writes answered, then refused: what was applied is reported, exit 4 within seconds', async ({
    expect,
  }) => {
    let created = 0;
    const s: TestServer | undefined = await hostile((req, res) => {
      if (req.method === 'GET') return json(res, 200, empty);
      if (req.method === 'POST' && req.path === R && created < 20) {
        created++;
        return json(res, 201, { ...report(5000 + created), ...(JSON.parse(req.body) as object) });
      }
      res.socket?.destroy();
      void s?.close();
    });
    const dir = writeBundle({ looseReports: 300 });
    try {
      const started = Date.now();
      // Three retries (not six): the first failing write still uses up its retries before the next one trips
      // the breaker, with a fraction of the backoff.
      const args = ['apply', '--auto-approve', '--concurrency', '1', '--max-retries', '3'];
      const r = await runCli([...args, ...connection(s.url), '--dir', dir], { env, timeoutMs: 120_000 });
      expect(r.code, r.stdout + r.stderr).toBe(4);
      expect(Date.now() - started).toBeLessThan(60_000);
      expect(created).toBe(20);
      expect(r.stdout + r.stderr).toMatch(
        /not started: 8 connections in a row to 127\.0\.0\.1:\d+ failed, the server seems down/,
      );
    } finally {
      await s.close();
    }
  }, 180_000);
});
