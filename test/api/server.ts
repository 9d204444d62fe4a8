// A scripted HTTP server on 127.0.0.1 port 0 for client tests: each test
// says how to answer the n-th request; every request is recorded.
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { afterEach } from 'vitest';
import { listenOnLoopback } from '../helpers/listen.js';

export interface Seen {
  method: string;
  url: string;
  headers: IncomingMessage['headers'];
  body: string;
  at: number;
}

export type Handler = (req: Seen, res: ServerResponse, n: number) => unknown;

export interface TestServer {
  url: string;
  seen: Seen[];
  close(): Promise<void>;
}

const open: TestServer[] = [];
afterEach(async () => {
  for (const s of open.splice(0)) await s.close();
});

/**
 * Starts a server answering with `handler`, closed after the test. `concurrent`: a server of a concurrent test
 * (test.concurrent), which the caller closes: the afterEach of another test that ends first would close it.
 */
export async function serve(handler: Handler, opts: { concurrent?: boolean } = {}): Promise<TestServer> {
  const seen: Seen[] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const s: Seen = {
        method: req.method ?? '',
        url: req.url ?? '',
        headers: req.headers,
        body: Buffer.concat(chunks).toString('utf8'),
        at: Date.now(),
      };
      seen.push(s);
      void Promise.resolve(handler(s, res, seen.length)).catch(() => res.destroy());
    });
  });
  const t: TestServer = { ...(await listenOnLoopback(server)), seen };
  if (opts.concurrent !== true) open.push(t);
  return t;
}

export function json(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  const text = JSON.stringify(body);
  res.writeHead(status, {
    'content-type': 'application/json; charset=utf-8',
    'content-length': Buffer.byteLength(text),
    ...headers,
  });
  res.end(text);
}

/** A valid wire Report (only what the zod schema requires, plus a few). */
export { wireReport as report } from '../helpers/wire.js';

export function page(
  items: unknown[],
  pageInfo?: { hasNextPage: boolean; endCursor?: string | null },
): Record<string, unknown> {
  return { items, ...(pageInfo ? { pageInfo: { hasPreviousPage: false, ...pageInfo } } : {}) };
}
