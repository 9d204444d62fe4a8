// A loopback server in front of an upstream (the emulator) for tests that put a
// proxy or a hostile platform between wsc and it: each request, read whole, is
// handed to the test's handler with a way to forward it as it came.
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { listenOnLoopback, type Listening } from './listen.js';

/**
 * `handle` gets the request, its URL (path and query) and `forward`, which sends
 * the method, body and the authorization, content-type and accept headers on to
 * `upstream` at that URL. A handler that throws drops the connection.
 */
export function forwardingServer(
  upstream: string,
  handle: (req: IncomingMessage, res: ServerResponse, url: URL, forward: () => Promise<Response>) => Promise<void>,
): Promise<Listening> {
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const url = new URL(req.url ?? '/', 'http://proxy');
      const forward = () => {
        const headers: Record<string, string> = {};
        for (const k of ['authorization', 'content-type', 'accept']) {
          const v = req.headers[k];
          if (typeof v === 'string') headers[k] = v;
        }
        const body = chunks.length > 0 ? Buffer.concat(chunks) : undefined;
        return fetch(`${upstream}${url.pathname}${url.search}`, {
          method: req.method ?? 'GET',
          headers,
          ...(body ? { body } : {}),
        });
      };
      handle(req, res, url, forward).catch(() => res.destroy());
    });
  });
  return listenOnLoopback(server);
}
