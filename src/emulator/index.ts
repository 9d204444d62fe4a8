// The local Workspace Content API (docs/emulator.md): a node:http server over an
// in-memory store, with fault injection, latency, a request log and an
// atomically written state file. Used by `wsc emulator`, by `embedded: true`
// environments, by the tests and by the benchmark.
import { once } from 'node:events';
import { existsSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import { isLoopbackHost, isLoopbackHostHeader } from '../domain/loopback.js';
import { API_CODES } from '../domain/wire.js';
import { authenticate } from './access.js';
import type { Ctx } from './context.js';
import { clone } from './equal.js';
import { JsonText } from './render.js';
import { chooseFault, normalizeFaults, type ChosenFault, type FaultSpec } from './faults.js';
import { readBody, readJsonBody } from './body.js';
import { badRequest, HttpError, notFound } from './http-error.js';
import { lazyResponseBody, type RequestLogEntry } from './log.js';
import { loadState, StateWriter, writeState, type StateFileError } from './persist.js';
import { createRng, randomSeedFromTime, type Rng } from './prng.js';
import { route, ROUTE_TEMPLATES } from './router.js';
import { apiDocument, type ApiDocument } from './api-document.js';
import { checkSeedShape, defaultSeed, DEV_TOKEN, loadSeedFile } from './seed.js';
import { Store } from './store.js';
import { CORE_API_PREFIX, coreDataApi } from './routes-core-data-api.js';
import { dataApi, isDataPath } from './routes-data-load.js';
import type { DataModelState, SeedState, User } from './types.js';
import { dataModelState } from './model.js';
import type { MetaAnswer } from '../domain/data-model.js';
import type { CubeModel } from './cube-model.js';

export type * from './types.js';
export type { FaultSpec, ScriptedFault, FaultKind } from './faults.js';
export { parseFaults, FaultSpecError, FAULT_KINDS } from './faults.js';
export type { RequestLogEntry } from './log.js';
export { writes, requests } from './log.js';
export { StateFileError } from './persist.js';
export { uiMadeSeed } from './seed-ui.js';
export { defaultModel } from './model.js';
export { metaAnswer, type CubeModel } from './cube-model.js';
export { defaultSeed, generateSeed, DEV_TOKEN, LEGACY_PLACEHOLDER, type GenerateSeedOptions } from './seed.js';

export type Latency = number | { min: number; max: number };

export interface EmulatorOptions {
  /** Default 0: any free port. */
  port?: number;
  /** Default 127.0.0.1; anything but a loopback address is refused. */
  host?: string;
  /** Persist the state here: loaded when it exists, else seeded and written at start (persist.ts). */
  stateFile?: string;
  /** Told when writes of the state file begin to fail, and when one succeeds again (persist.ts StateWriter). */
  onStateFile?: (failure: StateFileError | undefined) => void;
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
  /**
   * What GET /workbooks without `folderId` lists (the specification does not
   * say): `all` workbooks (default) or only the `root-only` level.
   */
  workbookListing?: 'all' | 'root-only';
  /** Seed of the PRNG behind faults, jitter and generated ids. */
  randomSeed?: number;
  /** Keep at most this many log entries (oldest dropped). Default: unlimited. */
  logLimit?: number;
  /** Record response bodies in the log (default true). */
  logResponses?: boolean;
  /** Called with each log entry once the request is answered (or reset). */
  onRequest?: (entry: RequestLogEntry) => void;
  /** Reshapes the API description GET /api/v1/spec answers (tests: a tenant whose routes or enums differ). */
  apiDocument?: (doc: ApiDocument) => unknown;
  /**
   * The data model: Cube's shape (cube-model.ts), a `/v1/meta` answer (dev mode's lists hidden members),
   * or a path to one; null: none. Default: defaultModel().
   */
  model?: CubeModel | MetaAnswer | string | null;
  /** `/v1/meta` answers as Cube's dev mode: hidden members listed with `isVisible: false`. Default: production. */
  devMode?: boolean;
  /** The `rest` url the environments list gives (default: this server's `/cubejs-api/v1`). */
  coreDataApiUrl?: string;
  /** Deployment tokens are HS256 JWTs signed with this secret (a Cube started with it takes them). */
  cubeApiSecret?: string;
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

/** What a running emulator holds between requests; `latency` and `faults` change at run time. */
interface Runtime {
  opts: EmulatorOptions;
  store: Store;
  /** Writes the state file after changes; none without one. */
  writer: StateWriter | undefined;
  faultRng: Rng;
  jitterRng: Rng;
  maxPageSize: number;
  defaultPageSize: number;
  latency: Latency | undefined;
  faults: FaultSpec | undefined;
  log: RequestLogEntry[];
  seq: number;
  dataModel: DataModelState;
}

/** The open server, with what closing it waits for. */
interface Listening {
  server: Server;
  port: number;
  inflight: Set<Promise<void>>;
  sockets: Set<Socket>;
}

export async function createEmulator(opts: EmulatorOptions = {}): Promise<Emulator> {
  // `[::1]` as a URL writes it is `::1` to listen on.
  const host = (opts.host ?? '127.0.0.1').replace(/^\[(.*)\]$/, '$1');
  if (!isLoopbackHost(host)) throw new Error(`refusing to listen on ${host}: the emulator serves loopback only`);
  const rt = await openRuntime(opts);
  const listening = await listen(rt, opts.port ?? 0, host);
  const emulator = emulatorOf(rt, listening, host);
  rt.dataModel.restUrl ||= `${emulator.url}/cubejs-api/v1`;
  return emulator;
}

/** Options checked, the state loaded (and its file written when new), the random streams seeded. */
async function openRuntime(opts: EmulatorOptions): Promise<Runtime> {
  const seedNum = opts.randomSeed ?? randomSeedFromTime();
  const maxPageSize = opts.maxPageSize ?? DEFAULT_MAX_PAGE_SIZE;
  const latency = checkLatency(opts.latencyMs);
  const faults = normalizeFaults(opts.faults);
  const store = new Store(initialState(opts), createRng(seedNum ^ 0x27d4eb2d));
  const file = opts.stateFile;
  const writer = file ? new StateWriter(file, () => store.serialize(), opts.onStateFile) : undefined;
  if (file && !existsSync(file)) await writeState(file, store.serialize());
  return {
    opts,
    store,
    writer,
    faultRng: createRng(seedNum),
    jitterRng: createRng(seedNum ^ 0x5bd1e995),
    maxPageSize,
    defaultPageSize: Math.min(DEFAULT_PAGE_SIZE, maxPageSize),
    latency,
    faults,
    log: [],
    seq: 0,
    dataModel: dataModelState(opts),
  };
}

/** The state file when there is one, else the seed (a path or an object), else the default seed. */
function initialState(opts: EmulatorOptions): SeedState {
  if (opts.stateFile && existsSync(opts.stateFile)) return loadState(opts.stateFile);
  if (typeof opts.seed === 'string') return loadSeedFile(opts.seed);
  const state = opts.seed ? clone(opts.seed) : defaultSeed();
  checkSeedShape(state, 'seed');
  return state;
}

function drawLatency(rt: Runtime): number {
  const l = rt.latency;
  if (l === undefined) return 0;
  if (typeof l === 'number') return l;
  return l.min + Math.floor(rt.jitterRng() * (l.max - l.min + 1));
}

/** One request, from its log entry to the bytes of its answer (or a reset connection). */
async function handle(rt: Runtime, req: IncomingMessage, res: ServerResponse): Promise<void> {
  const started = Date.now();
  const url = new URL(req.url ?? '/', 'http://emulator.invalid');
  const method = (req.method ?? 'GET').toUpperCase();
  const entry = logEntry(rt, method, url, started);
  if (req.headers.authorization !== undefined) entry.authorization = req.headers.authorization;
  const headers: Record<string, string> = {};
  // The configured latency is spent once per request: during an upsert's gap, else before the answer.
  let latencySpent = false;
  const spendLatency = async (): Promise<void> => {
    if (latencySpent) return;
    latencySpent = true;
    await sleep(drawLatency(rt));
  };
  let fault: ChosenFault | undefined;
  let answer: { status: number; body: unknown };
  try {
    if (!isLoopbackHostHeader(req.headers.host))
      throw new HttpError(421, `misdirected request: Host ${req.headers.host} is not this machine`, 'misdirected');
    const body = readJsonBody(await readBody(req), entry);
    if (url.pathname.startsWith('/api/')) fault = chooseFault(rt.faults, method, url.pathname, rt.faultRng);
    if (fault) entry.fault = fault.kind;
    if (fault?.kind === 'reset-before') {
      await sleep(drawLatency(rt));
      return reset(rt, req, entry, started);
    }
    if (fault && /^\d+$/.test(fault.kind)) throw statusFault(fault, headers);
    answer = { status: 200, body: await dispatch(rt, req, entry, method, url, body, spendLatency) };
  } catch (e) {
    answer = errorAnswer(e);
  }
  await spendLatency();
  if (fault?.kind === 'reset-after') return reset(rt, req, entry, started);
  send(rt, res, entry, started, answer, headers, fault);
}

/** A new entry at the end of the log (the oldest dropped past `logLimit`). */
function logEntry(rt: Runtime, method: string, url: URL, started: number): RequestLogEntry {
  const entry: RequestLogEntry = {
    seq: ++rt.seq,
    method,
    path: url.pathname,
    query: Object.fromEntries(url.searchParams),
    status: 0,
    requestBody: undefined,
    startedAt: new Date(started).toISOString(),
    durationMs: 0,
  };
  const log = rt.log;
  log.push(entry);
  const logLimit = rt.opts.logLimit ?? Infinity;
  if (log.length > logLimit) log.splice(0, log.length - logLimit);
  return entry;
}

/** The error answer of an injected status fault; a 429 or 503 carries Retry-After. */
function statusFault(fault: ChosenFault, headers: Record<string, string>): HttpError {
  const code = Number(fault.kind);
  if (code === 429 || code === 503) headers['retry-after'] = fault.retryAfter ?? '1';
  return code === 409
    ? new HttpError(409, 'Injected fault: the upsert branch changed; retry', API_CODES.upsertBranchChanged)
    : new HttpError(code, `Injected fault ${code}`);
}

/** Route, caller, page size, body and deployment checked, in the server's order; then the route's handler. */
async function dispatch(
  rt: Runtime,
  req: IncomingMessage,
  entry: RequestLogEntry,
  method: string,
  url: URL,
  body: { parsed: unknown; error?: HttpError },
  spendLatency: () => Promise<void>,
): Promise<unknown> {
  const { store, opts } = rt;
  if (isDataPath(url.pathname))
    return dataApi(rt.dataModel, store, { method, url, auth: req.headers.authorization, body }, rt.faults);
  if (url.pathname.startsWith(CORE_API_PREFIX))
    return coreDataApi(rt.dataModel, store, { method, url, auth: req.headers.authorization, body: body.parsed });
  const match = route(method, url.pathname);
  if (!match) throw notFound(`Cannot ${method} ${url.pathname}`);
  const user = authenticate(store, req.headers.authorization);
  entry.user = user.email;
  const first = Number(url.searchParams.get('first'));
  if (opts.overMaxPageSize === 'refuse' && method === 'GET' && first > rt.maxPageSize) {
    throw badRequest(`first must not be greater than ${rt.maxPageSize}`);
  }
  if (body.error) throw body.error;
  const ctx: Ctx = {
    store,
    user,
    deployment: deploymentOf(store, user, match.params['deploymentId']),
    params: match.params,
    query: url.searchParams,
    body: (body.parsed ?? {}) as Record<string, unknown>,
    maxPageSize: rt.maxPageSize,
    defaultPageSize: rt.defaultPageSize,
    userAttributeReads: opts.userAttributeReads ?? 'anyone',
    workbookListing: opts.workbookListing ?? 'all',
    changed: () => rt.writer?.schedule(),
    apiDocument: () => (opts.apiDocument ?? ((d) => d))(apiDocument(ROUTE_TEMPLATES)),
    dataModel: rt.dataModel,
    gap: async () => {
      await macrotask();
      await spendLatency();
    },
  };
  // Cached item texts (render.ts) hold for one revision: a request that may
  // write moves it on before it starts and after it ends.
  const writes = method !== 'GET' && method !== 'HEAD';
  if (writes) store.revision++;
  try {
    return await match.handler(ctx);
  } finally {
    if (writes) store.revision++;
  }
}

/** The deployment of a route under /deployments/{id}, which the caller may reach; account-level routes have none. */
function deploymentOf(store: Store, user: User, depRaw: string | undefined): Ctx['deployment'] {
  if (depRaw === undefined) return { id: 0, accountId: user.accountId, name: '' };
  if (!/^\d+$/.test(depRaw)) throw badRequest('Validation failed (numeric string is expected): deploymentId');
  const dep = store.deployments.get(Number(depRaw));
  if (!dep || dep.accountId !== user.accountId) throw notFound(`Deployment ${depRaw} not found`);
  if (user.deploymentIds && !user.deploymentIds.includes(dep.id)) {
    throw new HttpError(403, `Your credentials do not give access to deployment ${dep.id}`);
  }
  return dep;
}

function errorAnswer(e: unknown): { status: number; body: unknown } {
  const err = e instanceof HttpError ? e : new HttpError(500, `Internal emulator error: ${(e as Error).message}`);
  return { status: err.status, body: err.body() };
}

/** The answer written, logged (its body parsed only when read) and reported to `onRequest`. */
function send(
  rt: Runtime,
  res: ServerResponse,
  entry: RequestLogEntry,
  started: number,
  answer: { status: number; body: unknown },
  headers: Record<string, string>,
  fault: ChosenFault | undefined,
): void {
  const { status, body } = answer;
  entry.status = status;
  entry.durationMs = Date.now() - started;
  const whole = body instanceof JsonText ? body.bytes : Buffer.from(JSON.stringify(body ?? {}), 'utf8');
  // garbled-after: the write is applied; the answer loses its second half.
  const bytes = fault?.kind === 'garbled-after' ? whole.subarray(0, Math.floor(whole.length / 2)) : whole;
  // The log keeps the bytes, a snapshot taken now, and parses them only when
  // a test reads them: renderers hand out live record parts uncloned (a clone
  // per served item was most of the cost of a page).
  if (rt.opts.logResponses ?? true) lazyResponseBody(entry, whole);
  res.writeHead(status, {
    'content-type': 'application/json; charset=utf-8',
    'content-length': bytes.length,
    ...headers,
  });
  res.end(bytes);
  rt.opts.onRequest?.(entry);
}

function reset(rt: Runtime, req: IncomingMessage, entry: RequestLogEntry, started: number): void {
  entry.status = 0;
  entry.durationMs = Date.now() - started;
  rt.opts.onRequest?.(entry);
  req.socket.resetAndDestroy();
}

/** The server listening on loopback, tracking its requests in progress and its connections. */
async function listen(rt: Runtime, port: number, host: string): Promise<Listening> {
  const inflight = new Set<Promise<void>>();
  const sockets = new Set<Socket>();
  const server = createServer((req, res) => {
    const p = handle(rt, req, res).catch((e: unknown) => {
      if (!res.headersSent) {
        res.writeHead(500, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ statusCode: 500, message: String(e), error: 'Internal Server Error' }));
      }
    });
    inflight.add(p);
    void p.finally(() => inflight.delete(p));
  });
  // Longer than any test or pipeline's pause between requests: a client that
  // reuses an idle connection without reading the Keep-Alive hint (a proxy
  // such as the contract test's) would otherwise race the server's close and
  // see "socket hang up". Shutting down destroys every socket anyway.
  server.keepAliveTimeout = 65_000;
  server.on('connection', (s: Socket) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  });
  server.listen(port, host);
  await once(server, 'listening');
  const addr = server.address();
  return { server, port: typeof addr === 'object' && addr ? addr.port : 0, inflight, sockets };
}

/** Requests in progress finish (their writes are part of the state), then connections drop and the state is written. */
async function shutDown(rt: Runtime, { server, inflight, sockets }: Listening): Promise<void> {
  const stopped = new Promise<void>((r) => server.close(() => r()));
  server.closeIdleConnections();
  let timer: NodeJS.Timeout | undefined;
  await Promise.race([Promise.allSettled([...inflight]), new Promise<void>((r) => (timer = setTimeout(r, 5_000)))]);
  clearTimeout(timer);
  for (const s of sockets) s.destroy();
  await stopped;
  await rt.writer?.flush();
}

function emulatorOf(rt: Runtime, listening: Listening, host: string): Emulator {
  const { store, log } = rt;
  const urlHost = host.includes(':') ? `[${host}]` : host;
  const adminToken =
    [...store.users.values()].find((u) => u.role === 'admin' && u.tokens.length > 0)?.tokens[0] ?? DEV_TOKEN;
  let closed: Promise<void> | undefined;
  return {
    url: `http://${urlHost}:${listening.port}`,
    port: listening.port,
    adminToken,
    log,
    clearLog: () => {
      log.length = 0;
    },
    setFaults: (spec) => {
      rt.faults = normalizeFaults(spec);
    },
    setLatency: (ms) => {
      rt.latency = checkLatency(ms);
    },
    snapshot: () => store.snapshot(),
    flush: async () => {
      await rt.writer?.flush();
    },
    close: () => (closed ??= shutDown(rt, listening)),
  };
}
