// A proxy in front of the emulator that reshapes what passes through: the
// query of a request (a server's own cap on `first`) and the JSON of an
// answer (shapes the API allows but the emulator does not produce). Every
// request it forwarded is recorded as it was forwarded.
import { createServer, type Server } from 'node:http';
import { listenOnLoopback } from '../../helpers/listen.js';

interface Forwarded {
  method: string;
  path: string;
  query: URLSearchParams;
}

export interface ProxyRules {
  /** Changes the query in place before forwarding. */
  query?: (path: string, query: URLSearchParams) => void;
  /** A JSON answer, reshaped; `n` counts the answers to this exact URL so far (1-based). */
  answer?: (path: string, body: unknown, n: number) => unknown;
}

export interface RewritingProxy {
  url: string;
  seen: Forwarded[];
  close(): Promise<void>;
}

export async function rewritingProxy(upstream: string, rules: ProxyRules): Promise<RewritingProxy> {
  const seen: Forwarded[] = [];
  const perUrl = new Map<string, number>();
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      void (async () => {
        const url = new URL(req.url ?? '/', 'http://proxy');
        rules.query?.(url.pathname, url.searchParams);
        seen.push({ method: req.method ?? '', path: url.pathname, query: new URLSearchParams(url.searchParams) });
        const headers: Record<string, string> = {};
        for (const k of ['authorization', 'content-type', 'accept']) {
          const v = req.headers[k];
          if (typeof v === 'string') headers[k] = v;
        }
        const body = chunks.length > 0 ? Buffer.concat(chunks) : undefined;
        const target = `${upstream}${url.pathname}${url.search}`;
        const up = await fetch(target, { method: req.method ?? 'GET', headers, ...(body ? { body } : {}) });
        let text = await up.text();
        const key = `${req.method} ${url.pathname}${url.search}`;
        const n = (perUrl.get(key) ?? 0) + 1;
        perUrl.set(key, n);
        if (rules.answer && up.ok && text !== '')
          text = JSON.stringify(rules.answer(url.pathname, JSON.parse(text), n));
        res.writeHead(up.status, {
          'content-type': up.headers.get('content-type') ?? 'application/json',
          'content-length': String(Buffer.byteLength(text)),
        });
        res.end(text);
      })().catch(() => res.destroy());
    });
  });
  return { ...(await listenOnLoopback(server)), seen };
}
