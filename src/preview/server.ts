// The preview page's server: loopback only, the page's files from the
// package, the bundle's preview model as JSON, and an event stream that says
// when a bundle file changed (Node's recursive fs.watch), so the page reloads
// its data and keeps the dashboard and breakpoint it shows.
import { watch, type FSWatcher } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { createServer, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { PreviewModel } from './model.js';
import { assetsDir } from './package-files.js';

/** The page's files: `assets/preview` of the package. */
function assetsOfPage(): string {
  const dir = assetsDir('preview', 'index.html');
  if (dir === undefined)
    throw new Error('the preview page files (assets/preview) are missing from this installation of wsc');
  return dir;
}

const FILES: Record<string, string> = {
  '/': 'index.html',
  '/app.js': 'app.js',
  '/app.css': 'app.css',
};
const TYPES: Record<string, string> = {
  html: 'text/html; charset=utf-8',
  js: 'text/javascript; charset=utf-8',
  css: 'text/css; charset=utf-8',
};
// The page loads only its own files and data: no inline script, nothing from another origin.
const CSP = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self'",
  "connect-src 'self'",
  "img-src 'self' data:",
  "base-uri 'none'",
  "form-action 'none'",
].join('; ');

export interface PreviewServer {
  url: string;
  /** Bundle reloads served so far (the page's data version). */
  version(): number;
  close(): Promise<void>;
}

export interface PreviewServerOptions {
  dir: string;
  port: number;
  load: () => Promise<PreviewModel>;
  /** Told of a reload's failure (the page keeps the last model). */
  onError?: (e: unknown) => void;
}

/** Paths under the bundle that are not bundle files: wsc's own state and version control. */
function ignored(name: string): boolean {
  return /^(\.wsc|\.git|node_modules)([\\/]|$)/.test(name);
}

/** The Host headers the preview answers: its loopback names with its port. */
function loopbackOrigins(port: number): Set<string> {
  return new Set([`127.0.0.1:${port}`, `localhost:${port}`, `[::1]:${port}`]);
}

export async function startPreviewServer(opts: PreviewServerOptions): Promise<PreviewServer> {
  const assets = assetsOfPage();
  let version = 1;
  let model = await opts.load();
  const clients = new Set<ServerResponse>();

  let timer: NodeJS.Timeout | undefined;
  let loading = Promise.resolve();
  const reload = () => {
    loading = loading.then(async () => {
      try {
        model = await opts.load();
        version++;
        for (const c of clients) c.write(`event: change\ndata: ${version}\n\n`);
      } catch (e) {
        opts.onError?.(e);
      }
    });
  };
  let origins = new Set<string>();
  const server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://localhost');
    const headers = {
      'cache-control': 'no-store',
      'content-security-policy': CSP,
      'x-content-type-options': 'nosniff',
    };
    const file = FILES[url.pathname];
    // A page of another origin whose name was pointed at 127.0.0.1 (DNS rebinding) sends its own Host:
    // only the loopback names of this port are answered, the page, the model and the event stream alike.
    if (!origins.has((req.headers.host ?? '').toLowerCase())) {
      res.writeHead(421, { ...headers, 'content-type': 'text/plain' }).end('misdirected request: not this server');
    } else if (req.method !== 'GET') res.writeHead(405, headers).end();
    else if (url.pathname === '/api/model') {
      res.writeHead(200, { ...headers, 'content-type': 'application/json' }).end(JSON.stringify({ version, ...model }));
    } else if (url.pathname === '/api/events') {
      res.writeHead(200, { ...headers, 'content-type': 'text/event-stream', connection: 'keep-alive' });
      res.write(`event: hello\ndata: ${version}\n\n`);
      clients.add(res);
      req.on('close', () => clients.delete(res));
    } else if (url.pathname === '/favicon.ico') res.writeHead(204, headers).end();
    else if (!file) res.writeHead(404, { ...headers, 'content-type': 'text/plain' }).end('not found');
    else {
      readFile(`${assets}${file}`).then(
        (body) => res.writeHead(200, { ...headers, 'content-type': TYPES[file.split('.').pop()!]! }).end(body),
        () => res.writeHead(500, headers).end(),
      );
    }
  });
  // Loopback only: the page shows the bundle's SQL and queries to whoever reaches it.
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(opts.port, '127.0.0.1', () => resolve());
  });
  // Watched once the port is ours: a port in use then leaves nothing open behind the error.
  const watcher: FSWatcher = watch(opts.dir, { recursive: true }, (_event, name) => {
    if (name !== null && ignored(String(name))) return;
    // Editors write a file in several steps: one reload for a burst of events.
    clearTimeout(timer);
    timer = setTimeout(reload, 60);
  });
  const { port } = server.address() as AddressInfo;
  origins = loopbackOrigins(port);
  return {
    url: `http://127.0.0.1:${port}/`,
    version: () => version,
    close: async () => {
      clearTimeout(timer);
      watcher.close();
      for (const c of clients) c.end();
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      // An open page keeps its connections alive; stopping means stopping now.
      server.closeAllConnections();
      await closed;
      await loading;
    },
  };
}
