// A proxy in front of the emulator that reshapes what passes through: the
// query of a request (a server's own cap on `first`) and the JSON of an
// answer (shapes the API allows but the emulator does not produce). Every
// request it forwarded is recorded as it was forwarded.
import { forwardingServer } from '../../helpers/forwarding-server.js';

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
  const listening = await forwardingServer(upstream, async (req, res, url, forward) => {
    rules.query?.(url.pathname, url.searchParams);
    seen.push({ method: req.method ?? '', path: url.pathname, query: new URLSearchParams(url.searchParams) });
    const up = await forward();
    let text = await up.text();
    const key = `${req.method} ${url.pathname}${url.search}`;
    const n = (perUrl.get(key) ?? 0) + 1;
    perUrl.set(key, n);
    if (rules.answer && up.ok && text !== '') text = JSON.stringify(rules.answer(url.pathname, JSON.parse(text), n));
    res.writeHead(up.status, {
      'content-type': up.headers.get('content-type') ?? 'application/json',
      'content-length': String(Buffer.byteLength(text)),
    });
    res.end(text);
  });
  return { ...listening, seen };
}
