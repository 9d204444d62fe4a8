// A hostile platform in front of the emulator, for the data-model path's
// tests: it forwards every request, but may answer some paths with a failing
// status of its own (a gateway whose service died) and may rewrite a JSON
// answer (a "minted" token that is not one). Every request is logged with
// its Authorization header.
import { forwardingServer } from './forwarding-server.js';

export interface HostileRules {
  /** A status to answer instead of forwarding (an HTML gateway page), or undefined to forward. */
  fail?: (path: string) => number | undefined;
  /** A JSON answer, rewritten. */
  answer?: (path: string, body: unknown) => unknown;
}

export interface HostilePlatform {
  url: string;
  log: { method: string; path: string; authorization: string | undefined }[];
  close(): Promise<void>;
}

export async function hostilePlatform(upstream: string, rules: HostileRules): Promise<HostilePlatform> {
  const log: HostilePlatform['log'] = [];
  const listening = await forwardingServer(upstream, async (req, res, url, forward) => {
    log.push({ method: req.method ?? '', path: url.pathname, authorization: req.headers.authorization });
    const status = rules.fail?.(url.pathname);
    if (status !== undefined) {
      res.writeHead(status, { 'content-type': 'text/html' });
      return void res.end(`<html><body><h1>${status} Bad Gateway</h1></body></html>`);
    }
    const up = await forward();
    let text = await up.text();
    if (rules.answer && up.ok && text !== '') text = JSON.stringify(rules.answer(url.pathname, JSON.parse(text)));
    res.writeHead(up.status, { 'content-type': up.headers.get('content-type') ?? 'application/json' });
    res.end(text);
  });
  return { ...listening, log };
}
