// A Core Data API for end-to-end tests of the semantic check, on a free
// loopback port: `/v1/meta` serves a production answer (or any body, or
// nothing), and `/v1/sql` judges a query as Cube's planner does on the names
// it is told exist (public AND hidden ones): an unknown cube or member is a
// 400 with Cube's own words, anything else is planned. Hostile modes: a meta
// that never comes, a planner that never answers or fails. Every request is
// logged with its Authorization header.
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { MetaAnswer } from '../../src/domain/data-model.js';

export interface CoreApiOptions {
  /** The `/v1/meta` answer, or a body as text. */
  meta: MetaAnswer | string;
  /** Every member name the model has, public or not (the planner's truth); default: meta's. */
  members?: readonly string[];
  /** `/v1/meta` never answers. */
  silentMeta?: boolean;
  /** `/v1/sql`: answer as Cube (default), never answer, or fail with this status. */
  planner?: 'cube' | 'silent' | number;
}

export interface CoreApiServer {
  url: string;
  /** `rest` url to give the emulator (`coreDataApiUrl`). */
  restUrl: string;
  log: { method: string; path: string; query: Record<string, string>; authorization: string | undefined }[];
  close(): Promise<void>;
}

const NAME_IN_SQL = /MEASURE\(\s*([A-Za-z_]\w*\.[A-Za-z_]\w*)\s*\)|\b([A-Za-z_]\w*\.[A-Za-z_]\w*)\b/g;

/** The names a query names, as Cube reads them (`cube.member`, a granularity after it dropped). */
function namesOf(q: Record<string, unknown>): string[] {
  const out: string[] = [];
  const str = (v: unknown) => typeof v === 'string' && out.push(v);
  for (const k of ['measures', 'dimensions', 'segments'])
    if (Array.isArray(q[k])) for (const m of q[k] as unknown[]) str(m);
  if (Array.isArray(q['timeDimensions']))
    for (const td of q['timeDimensions'] as Record<string, unknown>[]) str(td?.['dimension']);
  const filters = (fs: unknown) => {
    if (!Array.isArray(fs)) return;
    for (const f of fs as Record<string, unknown>[]) {
      str(f?.['member'] ?? f?.['dimension']);
      filters(f?.['and']);
      filters(f?.['or']);
    }
  };
  filters(q['filters']);
  const order = q['order'];
  if (Array.isArray(order)) for (const o of order) str(Array.isArray(o) ? o[0] : undefined);
  else if (order !== null && typeof order === 'object') out.push(...Object.keys(order));
  return out;
}

/** Cube's verdict on names: its own words for the first unknown one. */
function verdict(
  names: readonly string[],
  members: ReadonlySet<string>,
  cubes: ReadonlySet<string>,
): string | undefined {
  for (const n of names) {
    const [cube, member] = n.split('.');
    if (!cubes.has(cube!)) return `Cube '${cube}' not found for path '${n}'`;
    if (member === undefined || !members.has(`${cube}.${member}`))
      return `'${member}' not found for path '${cube}.${member}'`;
  }
  return undefined;
}

export async function coreApiServer(opts: CoreApiOptions): Promise<CoreApiServer> {
  const meta = typeof opts.meta === 'string' ? undefined : opts.meta;
  const listed =
    meta?.cubes.flatMap((c) => [...(c.measures ?? []), ...(c.dimensions ?? []), ...(c.segments ?? [])]) ?? [];
  const members = new Set(opts.members ?? listed.map((m) => m.name));
  const cubes = new Set([...members].map((m) => m.split('.')[0]!));
  const log: CoreApiServer['log'] = [];
  const held: ServerResponse[] = [];
  const json = (res: ServerResponse, status: number, body: unknown) => {
    res.writeHead(status, { 'content-type': 'application/json' });
    res.end(JSON.stringify(body));
  };
  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const url = new URL(req.url ?? '/', 'http://x');
    const query = Object.fromEntries(url.searchParams);
    log.push({ method: req.method ?? '', path: url.pathname, query, authorization: req.headers.authorization });
    if (url.pathname.endsWith('/v1/meta')) {
      if (opts.silentMeta === true) return void held.push(res);
      res.writeHead(200, { 'content-type': 'application/json' });
      return void res.end(typeof opts.meta === 'string' ? opts.meta : JSON.stringify(opts.meta));
    }
    if (url.pathname.endsWith('/v1/sql')) {
      const p = opts.planner ?? 'cube';
      if (p === 'silent') return void held.push(res);
      if (typeof p === 'number') return json(res, p, { error: `planner down (${p})` });
      const text = query['query'] ?? '';
      let names: string[];
      if (query['format'] === 'sql') names = [...text.matchAll(NAME_IN_SQL)].map((m) => m[1] ?? m[2]!);
      else {
        try {
          names = namesOf(JSON.parse(text) as Record<string, unknown>);
        } catch {
          return json(res, 400, { type: 'UserError', error: 'Invalid query format: not JSON' });
        }
      }
      const refused = verdict(names, members, cubes);
      if (refused !== undefined) return json(res, 400, { type: 'UserError', error: refused });
      return json(res, 200, { sql: { sql: ['SELECT 1', []] } });
    }
    json(res, 404, { error: `Cannot ${req.method} ${url.pathname}` });
  });
  server.listen(0, '127.0.0.1');
  await new Promise((r) => server.once('listening', r));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url,
    restUrl: `${url}/cubejs-api/v1`,
    log,
    close: async () => {
      for (const r of held) r.destroy();
      server.closeAllConnections();
      await new Promise((r) => server.close(r));
    },
  };
}
