// The local Workspace Content API (README, `wsc emulator`): a node:http server over an
// in-memory store, with fault injection, latency, a request log and an
// atomically written state file. Used by `wsc emulator`, by `embedded: true`
// environments, by the tests and by the benchmark.
import { existsSync, readFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import { API_CODES } from '../api/wire.js';
import { authenticate } from './access.js';
import type { Ctx } from './context.js';
import { clone } from './equal.js';
import { JsonText } from './render.js';
import { chooseFault, normalizeFaults, type ChosenFault, type FaultSpec } from './faults.js';
import { badRequest, HttpError, notFound } from './http-error.js';
import type { RequestLogEntry } from './log.js';
import { StateWriter, writeAtomic } from './persist.js';
import { createRng, randomSeedFromTime, type Rng } from './prng.js';
import { route } from './router.js';
import { checkSeedShape, defaultSeed, DEV_TOKEN, loadSeedFile } from './seed.js';
import { Store } from './store.js';
import type { SeedState } from './types.js';

export type { SeedState } from './types.js';
export type * from './types.js';
export type { FaultSpec, ScriptedFault, FaultKind } from './faults.js';
export { parseFaults, normalizeFaults, FaultSpecError, FAULT_KINDS } from './faults.js';
export type { RequestLogEntry } from './log.js';
export { writes, requests } from './log.js';
export { uiMadeSeed } from './seed-ui.js';
export { defaultSeed, generateSeed, loadSeedFile, DEV_TOKEN, LEGACY_PLACEHOLDER, type GenerateSeedOptions } from './seed.js';

export type Latency = number | { min: number; max: number };

export interface EmulatorOptions {
  /** Default 0: any free port. */
  port?: number;
  /** Default 127.0.0.1; anything but a loopback address is refused. */
  host?: string;
  /** Persist the state here (loaded when it exists; else seeded and written at start). */
  stateFile?: string;
  /** Initial state (object or path to a JSON file) when no state file exists yet. Default: defaultSeed(). */
  seed?: SeedState | string;
  latencyMs?: Latency;
  faults?: FaultSpec | string;
  /** Largest page of any list; a larger `first` is clamped to it. Default 500. */
  maxPageSize?: number;
  /**
   * How a `first` above maxPageSize is met: `clamp` (default) answers a
   * shorter page that says there is more; `refuse` answers 400 naming `first`
   * and the limit. The API states neither, so wsc must cope with both.
   */
  overMaxPageSize?: 'clamp' | 'refuse';
  /** Who may list the user attributes: `anyone` in the account (default) or `admin`s only (403 for others). */
  userAttributeReads?: 'anyone' | 'admin';
  /** Page size when `first` is omitted. Default 100. */
  defaultPageSize?: number;
  /**
   * What GET /workbooks without `folderId` lists (the specification does not
   * say): `all` workbooks (default) or only the `root-only` level.
   */
  workbookListing?: 'all' | 'root-only';
  /** Seed of the PRNG behind faults, jitter and generated ids. */
  randomSeed?: number;
  clock?: () => Date;
  /** Keep at most this many log entries (oldest dropped). Default: unlimited. */
  logLimit?: number;
  /** Record response bodies in the log (default true). */
  logResponses?: boolean;
  /** Called with each log entry once the request is answered (or reset). */
  onRequest?: (entry: RequestLogEntry) => void;
}

export interface Emulator {
  /** `http://127.0.0.1:PORT`, host only (paths start with /api/v1). */
  url: string;
  port: number;
  /** The token of the first admin of the state (`dev-token` by default). */
  adminToken: string;
  log: RequestLogEntry[];
  clearLog(): void;
  setFaults(spec: FaultSpec | string | undefined): void;
  setLatency(ms: Latency | undefined): void;
  /** Deep copy of the whole state. */
  snapshot(): SeedState;
  /** Wait until the state file holds every change made so far. */
  flush(): Promise<void>;
  close(): Promise<void>;
}

export const DEFAULT_MAX_PAGE_SIZE = 500;
export const DEFAULT_PAGE_SIZE = 100;
const MAX_BODY_BYTES = 10 * 1024 * 1024;

export function isLoopbackHost(host: string): boolean {
  return host === 'localhost' || host === '::1' || /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(host);
}

function checkLatency(l: Latency | undefined): Latency | undefined {
  if (l === undefined) return undefined;
  const ok = (n: number) => Number.isFinite(n) && n >= 0;
  if (typeof l === 'number' ? !ok(l) : !ok(l.min) || !ok(l.max) || l.min > l.max) {
    throw new Error(`invalid latency ${JSON.stringify(l)}: a number of ms >= 0 or {min, max} with min <= max`);
  }
  return l;
}

const sleep = (ms: number) => (ms > 0 ? new Promise<void>((r) => setTimeout(r, ms)) : Promise.resolve());
const macrotask = () => new Promise<void>((r) => setImmediate(r));

export async function createEmulator(opts: EmulatorOptions = {}): Promise<Emulator> {
  const host = opts.host ?? '127.0.0.1';
  if (!isLoopbackHost(host)) throw new Error(`refusing to listen on ${host}: the emulator serves loopback only`);
  const clock = opts.clock ?? (() => new Date());
  const seedNum = opts.randomSeed ?? randomSeedFromTime();
  const faultRng = createRng(seedNum);
  const jitterRng = createRng(seedNum ^ 0x5bd1e995);
  const idRng: Rng = createRng(seedNum ^ 0x27d4eb2d);
  const maxPageSize = opts.maxPageSize ?? DEFAULT_MAX_PAGE_SIZE;
  const defaultPageSize = Math.min(opts.defaultPageSize ?? DEFAULT_PAGE_SIZE, maxPageSize);
  let latency = checkLatency(opts.latencyMs);
  let faults = normalizeFaults(opts.faults);

  let initial: SeedState;
  if (opts.stateFile && existsSync(opts.stateFile)) {
    const text = readFileSync(opts.stateFile, 'utf8');
    try {
      initial = JSON.parse(text) as SeedState;
    } catch (e) {
      throw new Error(`${opts.stateFile}: the state file is not valid JSON (${(e as Error).message})`, { cause: e });
    }
    checkSeedShape(initial, opts.stateFile);
  } else if (typeof opts.seed === 'string') {
    initial = loadSeedFile(opts.seed);
  } else {
    initial = opts.seed ? clone(opts.seed) : defaultSeed();
    checkSeedShape(initial, 'seed');
  }
  const store = new Store(initial, clock, idRng);
  const writer = opts.stateFile ? new StateWriter(opts.stateFile, () => store.serialize()) : undefined;
  if (opts.stateFile && !existsSync(opts.stateFile)) await writeAtomic(opts.stateFile, store.serialize());

  const adminToken =
    [...store.users.values()].find((u) => u.role === 'admin' && u.tokens.length > 0)?.tokens[0] ?? DEV_TOKEN;
  const log: RequestLogEntry[] = [];
  const logLimit = opts.logLimit ?? Infinity;
  const logResponses = opts.logResponses ?? true;
  let seq = 0;
  const lastViewed = new Map<string, string>();
  const inflight = new Set<Promise<void>>();
  const sockets = new Set<Socket>();

  const drawLatency = (): number => {
    const l = latency;
    if (l === undefined) return 0;
    if (typeof l === 'number') return l;
    return l.min + Math.floor(jitterRng() * (l.max - l.min + 1));
  };

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const started = Date.now();
    const url = new URL(req.url ?? '/', 'http://emulator.invalid');
    const method = (req.method ?? 'GET').toUpperCase();
    const entry: RequestLogEntry = {
      seq: ++seq,
      method,
      path: url.pathname,
      query: Object.fromEntries(url.searchParams),
      status: 0,
      requestBody: undefined,
      startedAt: new Date(started).toISOString(),
      durationMs: 0,
    };
    log.push(entry);
    if (log.length > logLimit) log.splice(0, log.length - logLimit);

    let status = 200;
    let body: unknown;
    const headers: Record<string, string> = {};
    let latencySpent = false;
    let fault: ChosenFault | undefined;
    try {
      const raw = await readBody(req);
      let parsed: unknown;
      let bodyError: HttpError | undefined;
      if (raw.length > 0) {
        const text = raw.toString('utf8');
        try {
          parsed = JSON.parse(text);
          entry.requestBody = parsed;
          if (parsed !== null && (typeof parsed !== 'object' || Array.isArray(parsed))) {
            bodyError = badRequest('The body must be a JSON object');
          }
        } catch {
          entry.requestBody = text;
          bodyError = badRequest('The body is not valid JSON');
        }
      }
      if (url.pathname.startsWith('/api/')) fault = chooseFault(faults, method, url.pathname, faultRng, clock);
      if (fault) entry.fault = fault.kind;
      if (fault?.kind === 'reset-before') {
        await sleep(drawLatency());
        return reset(req, entry, started);
      }
      if (fault && /^\d+$/.test(fault.kind)) {
        const code = Number(fault.kind);
        if (code === 429 || code === 503) headers['retry-after'] = fault.retryAfter ?? '1';
        throw code === 409
          ? new HttpError(409, 'Injected fault: the upsert branch changed; retry', API_CODES.upsertBranchChanged)
          : new HttpError(code, `Injected fault ${code}`);
      }
      const match = route(method, url.pathname);
      if (!match) throw notFound(`Cannot ${method} ${url.pathname}`);
      const user = authenticate(store, headerValue(req.headers.authorization));
      entry.user = user.email;
      const first = Number(url.searchParams.get('first'));
      if (opts.overMaxPageSize === 'refuse' && method === 'GET' && first > maxPageSize) {
        throw badRequest(`first must not be greater than ${maxPageSize}`);
      }
      if (bodyError) throw bodyError;
      // Account-level routes (user attributes) have no deployment.
      let deployment: Ctx['deployment'] = { id: 0, accountId: user.accountId, name: '' };
      if (match.params['deploymentId'] !== undefined) {
        const depRaw = match.params['deploymentId'];
        if (!/^\d+$/.test(depRaw)) throw badRequest('Validation failed (numeric string is expected): deploymentId');
        const dep = store.deployments.get(Number(depRaw));
        if (!dep || dep.accountId !== user.accountId) throw notFound(`Deployment ${depRaw} not found`);
        if (user.deploymentIds && !user.deploymentIds.includes(dep.id)) {
          throw new HttpError(403, `Your credentials do not give access to deployment ${dep.id}`);
        }
        deployment = dep;
      }
      const ctx: Ctx = {
        store,
        user,
        deployment,
        params: match.params,
        query: url.searchParams,
        body: parsed,
        maxPageSize,
        defaultPageSize,
        userAttributeReads: opts.userAttributeReads ?? 'anyone',
        workbookListing: opts.workbookListing ?? 'all',
        rng: idRng,
        lastViewed,
        changed: () => writer?.schedule(),
        gap: async () => {
          await macrotask();
          if (!latencySpent) {
            latencySpent = true;
            await sleep(drawLatency());
          }
        },
      };
      // Cached item texts (render.ts) hold for one revision: a request that may
      // write moves it on before it starts and after it ends.
      const writes = method !== 'GET' && method !== 'HEAD';
      if (writes) store.revision++;
      try {
        body = await match.handler(ctx);
      } finally {
        if (writes) store.revision++;
      }
    } catch (e) {
      if (e instanceof HttpError) {
        status = e.status;
        body = e.body();
      } else {
        status = 500;
        body = { statusCode: 500, message: `Internal emulator error: ${(e as Error).message}`, error: 'Internal Server Error' };
      }
    }
    if (!latencySpent) await sleep(drawLatency());
    if (fault?.kind === 'reset-after') return reset(req, entry, started);
    entry.status = status;
    entry.durationMs = Date.now() - started;
    const whole = body instanceof JsonText ? body.bytes : Buffer.from(JSON.stringify(body ?? {}), 'utf8');
    // garbled-after: the write is applied; the answer loses its second half.
    const bytes = fault?.kind === 'garbled-after' ? whole.subarray(0, Math.floor(whole.length / 2)) : whole;
    // The log keeps the bytes, a snapshot taken now, and parses them only when
    // a test reads them: renderers hand out live record parts uncloned (a clone
    // per served item was most of the cost of a page).
    if (logResponses) lazyResponseBody(entry, whole);
    res.writeHead(status, {
      'content-type': 'application/json; charset=utf-8',
      'content-length': bytes.length,
      ...headers,
    });
    res.end(bytes);
    opts.onRequest?.(entry);
  }

  function lazyResponseBody(entry: RequestLogEntry, bytes: Buffer): void {
    let parsed: unknown;
    let done = false;
    Object.defineProperty(entry, 'responseBody', {
      enumerable: true,
      configurable: true,
      get: () => {
        if (!done) {
          parsed = JSON.parse(bytes.toString('utf8'));
          done = true;
        }
        return parsed;
      },
    });
  }

  function reset(req: IncomingMessage, entry: RequestLogEntry, started: number): void {
    entry.status = 0;
    entry.durationMs = Date.now() - started;
    opts.onRequest?.(entry);
    const s = req.socket as Socket & { resetAndDestroy?: () => void };
    if (typeof s.resetAndDestroy === 'function') s.resetAndDestroy();
    else s.destroy();
  }

  const server = createServer((req, res) => {
    const p = handle(req, res).catch((e: unknown) => {
      if (!res.headersSent) {
        res.writeHead(500, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ statusCode: 500, message: String(e), error: 'Internal Server Error' }));
      }
    });
    inflight.add(p);
    void p.finally(() => inflight.delete(p));
  });
  server.keepAliveTimeout = 5_000;
  server.on('connection', (s: Socket) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(opts.port ?? 0, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const addr = server.address();
  const port = typeof addr === 'object' && addr ? addr.port : 0;
  const urlHost = host.includes(':') ? `[${host}]` : host;
  let closed: Promise<void> | undefined;

  return {
    url: `http://${urlHost}:${port}`,
    port,
    adminToken,
    log,
    clearLog: () => {
      log.length = 0;
    },
    setFaults: (spec) => {
      faults = normalizeFaults(spec);
    },
    setLatency: (ms) => {
      latency = checkLatency(ms);
    },
    snapshot: () => store.snapshot(),
    flush: async () => {
      await writer?.flush();
    },
    close: () => {
      closed ??= (async () => {
        const stopped = new Promise<void>((r) => server.close(() => r()));
        server.closeIdleConnections();
        // Let requests in progress finish (their writes are part of the state), then drop connections.
        let timer: NodeJS.Timeout | undefined;
        await Promise.race([
          Promise.allSettled([...inflight]),
          new Promise<void>((r) => (timer = setTimeout(r, 5_000))),
        ]);
        clearTimeout(timer);
        for (const s of sockets) s.destroy();
        await stopped;
        await writer?.flush();
      })();
      return closed;
    },
  };
}

function headerValue(h: string | string[] | undefined): string | undefined {
  return Array.isArray(h) ? h[0] : h;
}

function readBody(req: IncomingMessage): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (c: Buffer) => {
      size += c.length;
      if (size > MAX_BODY_BYTES) {
        reject(new HttpError(413, 'The body is too large'));
        req.destroy();
        return;
      }
      chunks.push(c);
    });
    req.on('end', () => resolve(Buffer.concat(chunks)));
    req.on('error', reject);
  });
}
