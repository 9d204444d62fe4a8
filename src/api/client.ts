// The HTTP client of the Workspace Content API, on undici's Pool: one
// keep-alive pool per client, timeouts, the auth header, JSON with a size cap,
// zod validation of every answer, and the retry policy of retry.ts driven by
// p-retry. How failures are worded is error-wording.ts; how lists are paged,
// pagination.ts. It never reads process.env (commands pass options in) and
// never builds a string that holds the token.
import { setMaxListeners } from 'node:events';
import { setTimeout as delay } from 'node:timers/promises';
import pRetry from 'p-retry';
import { Pool, type Dispatcher } from 'undici';
import type { z } from 'zod';
import type { AuthScheme } from '../config/types.js';
import { ApiError, NetworkError } from '../errors.js';
import {
  invalidBody,
  issuesText,
  listsTooLarge,
  looksLikeHtml,
  networkError,
  noConnection,
  notApi,
  notTheApi,
  seconds,
  statusFailure,
  tooLarge,
  type Wording,
} from './error-wording.js';
import { parseJsonBody } from './json-body.js';
import { MAX_LIST_BYTES, MAX_LIST_ITEMS, PAGE_SIZE, REQUEST_TIMEOUT_S } from '../defaults.js';
import { ListsTooLarge, readBody, TooLarge, type ListBudget } from './body.js';
import { PageSizes } from './page-size.js';
import { readPages, type PageOptions } from './pagination.js';
import type { Query, RequestSpec } from './request.js';
import { policyWithMaxRetries, RETRY_POLICY, retryDecision, type RetryPolicy } from './retry.js';
import { ConnectBreaker } from './breaker.js';
import { VERSION } from '../version.js';

export type { PageOptions } from './pagination.js';

const DEFAULT_REQUEST_TIMEOUT_MS = REQUEST_TIMEOUT_S * 1000;
const DEFAULT_CONNECT_TIMEOUT_MS = 10_000;
const DEFAULT_MAX_BODY_BYTES = 32 * 1024 * 1024;
/** A wait at least this long (a retry's delay, an answer that does not come) is shown on stderr. */
const NOTICE_AFTER_MS = 5_000;

export interface ApiClientOptions {
  /** Host URL (maybe with a path prefix), no `/api/v1`: paths from wire.ts carry it. */
  baseUrl: string;
  token: string;
  /** Where the token came from (ResolvedEnvironment's), for the words of a refusal. */
  tokenSource?: string;
  authScheme?: AuthScheme;
  /** Connections of the keep-alive pool (≥ the command's concurrency). Default 8. */
  connections?: number;
  /** Time for one response, headers and body. Default 30 s. */
  requestTimeoutMs?: number;
  /** `--max-retries`; else RETRY_POLICY's. */
  maxRetries?: number;
  /** The rest of the retry policy, where it differs from RETRY_POLICY's (doctor's short budget). */
  retryPolicy?: Partial<Omit<RetryPolicy, 'maxRetries'>>;
  /** `first` of list requests. Default 500. */
  pageSize?: number;
  /** Largest response body accepted. Default 32 MiB. */
  maxBodyBytes?: number;
  /** Items one list may have at most (`--max-list-items`); see list-bound.ts. */
  maxListItems?: number;
  /** Bytes of list answers this client reads in all (`--max-list-bytes`); see list-bound.ts. */
  maxListBytes?: number;
  /** `--verbose`: one line per request and answer; the token shows as `***`. */
  trace?: (line: string) => void;
  /** Always shown (stderr): a wait of NOTICE_AFTER_MS or more, what it waits for and which attempt. */
  notice?: (line: string) => void;
  /** Tests: time and randomness of the retry loop. */
  sleep?: (ms: number, signal: AbortSignal) => Promise<void>;
  now?: () => number;
  random?: () => number;
}

/** What a failed attempt tells the retry policy, beside its error. */
interface Failure {
  error: ApiError | NetworkError;
  status?: number;
  apiCode?: string;
  retryAfter?: string;
  network?: boolean;
  /** Not even connected (refused, connect timeout, unknown host): counts toward the breaker. */
  noConnection?: boolean;
  /** An answer that is not the API's (a server error, a gateway's HTML page): counts toward the breaker. */
  notTheApi?: string;
  /** Never retried: the same request would get the same answer. */
  final?: boolean;
}

/** A failed attempt as p-retry sees it (it retries on a thrown Error). */
class FailedAttempt extends Error {
  constructor(readonly failure: Failure) {
    super(failure.error.message);
  }
}

/** The Authorization header; with `***` for the token, as --verbose shows it. */
function authHeader(scheme: AuthScheme, token: string): string {
  if (scheme === 'api-key') return `Api-Key ${token}`;
  if (scheme === 'raw') return token;
  return `Bearer ${token}`;
}

function queryString(q: Query = {}): string {
  const s = new URLSearchParams(Object.entries(q).flatMap(([k, v]) => (v === undefined ? [] : [[k, String(v)]])));
  return s.size > 0 ? `?${s}` : '';
}

function headerOf(headers: Record<string, string | string[] | undefined>, name: string): string | undefined {
  const v = headers[name];
  return Array.isArray(v) ? v[0] : v;
}

/** ` for workbook/sales`, or nothing when the request is for no one resource. */
function forLabel(label: string | undefined): string {
  return label === undefined ? '' : ` for ${label}`;
}

export class ApiClient {
  readonly baseUrl: string;
  /** `first` of list requests, detected per list at run time (page-size.ts). */
  readonly pageSizes: PageSizes;
  readonly policy: RetryPolicy;
  /** Items one list (or a tree read as one) may have (list-bound.ts). */
  readonly maxListItems: number;
  /** Bytes of list answers read so far (every attempt's, as received) and at most (list-bound.ts). */
  readonly listBudget: ListBudget;
  /** What error-wording.ts needs to word this client's failures. */
  readonly wording: Wording;
  /** Opens when the server stops accepting connections (breaker.ts). */
  readonly breaker = new ConnectBreaker();
  /** Requests sent (each attempt counts), for figures and tests. */
  requestCount = 0;
  private readonly pool: Pool;
  private readonly prefix: string;
  private readonly host: string;
  private readonly auth: string;
  private readonly authShown: string;
  private readonly token: string;
  private readonly timeoutMs: number;
  private readonly maxBody: number;
  private readonly traceFn: ((line: string) => void) | undefined;
  private readonly noticeFn: ((line: string) => void) | undefined;
  private readonly sleep: (ms: number, signal: AbortSignal) => Promise<void>;
  private readonly now: () => number;
  private readonly random: () => number;
  private readonly closing = new AbortController();
  /** Ends a retry's wait: the client closing or the breaker opening. One for the client's life. */
  private readonly waitEnds = AbortSignal.any([this.closing.signal, this.breaker.signal]);
  private closed = false;

  constructor(opts: ApiClientOptions) {
    // Each request in flight listens on `closing`, each retry's wait on `waitEnds`, and takes its listener off
    // when it ends: past ten at once (--concurrency 16) Node would print a warning of a leak there is not.
    setMaxListeners(0, this.closing.signal, this.waitEnds);
    const url = new URL(opts.baseUrl);
    this.baseUrl = opts.baseUrl;
    this.prefix = url.pathname.replace(/\/+$/, '');
    this.host = url.host;
    const scheme = opts.authScheme ?? 'bearer';
    this.auth = authHeader(scheme, opts.token);
    this.authShown = authHeader(scheme, '***');
    this.token = opts.token;
    this.timeoutMs = opts.requestTimeoutMs ?? DEFAULT_REQUEST_TIMEOUT_MS;
    const connectTimeoutMs = Math.min(DEFAULT_CONNECT_TIMEOUT_MS, this.timeoutMs);
    this.maxBody = opts.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES;
    this.maxListItems = opts.maxListItems ?? MAX_LIST_ITEMS;
    this.listBudget = { used: 0, max: opts.maxListBytes ?? MAX_LIST_BYTES };
    this.pageSizes = new PageSizes(opts.pageSize ?? PAGE_SIZE, (line) => this.trace(line));
    const policy = { ...RETRY_POLICY, ...opts.retryPolicy };
    this.policy = opts.maxRetries === undefined ? policy : policyWithMaxRetries(opts.maxRetries, policy);
    this.traceFn = opts.trace;
    this.noticeFn = opts.notice;
    this.sleep = opts.sleep ?? ((ms, signal) => delay(ms, undefined, { signal }));
    this.now = opts.now ?? Date.now;
    this.random = opts.random ?? Math.random;
    this.wording = {
      host: this.host,
      baseUrl: this.baseUrl,
      timeoutMs: this.timeoutMs,
      connectTimeoutMs,
      redact: (s) => this.redact(s),
      closed: () => this.closed,
      ...(opts.tokenSource !== undefined ? { tokenSource: opts.tokenSource } : {}),
    };
    this.pool = new Pool(url.origin, {
      connections: Math.max(1, opts.connections ?? 8),
      connectTimeout: connectTimeoutMs,
      // The per-attempt timer below is the real limit; these are backstops.
      headersTimeout: this.timeoutMs + 1000,
      bodyTimeout: this.timeoutMs + 1000,
      keepAliveTimeout: 30_000,
    });
  }

  /** Whether `t` is this client's own token: a token minted for another host must never be it. */
  holdsToken(t: string): boolean {
    return t === this.token;
  }

  /** Text with the token taken out: a hostile or careless server may echo it back in a message. */
  redact(s: string): string {
    return this.token.length >= 4 ? s.split(this.token).join('***') : s;
  }

  /** A --verbose line (redacted). */
  trace(line: string): void {
    this.traceFn?.(this.redact(line));
  }

  private notice(line: string): void {
    this.noticeFn?.(this.redact(line));
  }

  /**
   * One request with the retry policy; resolves with the validated body.
   * p-retry runs the attempts; its own backoff is off (minTimeout 0) because
   * the wait is the policy's: full jitter, or the server's Retry-After in its
   * place, slept in onFailedAttempt with the injectable sleep, which is also
   * where the policy's predicate, the total bound and the breaker stop it.
   */
  async request<T>(spec: RequestSpec<T>): Promise<T> {
    const since = this.now();
    try {
      return await pRetry((attempt) => this.attempt(spec, attempt), {
        retries: this.policy.maxRetries,
        minTimeout: 0,
        onFailedAttempt: ({ error, attemptNumber }) => this.beforeRetry(spec, error, attemptNumber, since),
      });
    } catch (e) {
      throw e instanceof FailedAttempt ? e.failure.error : e;
    }
  }

  /** After a failed attempt: throws its error when it is not to be retried, else waits as the policy says. */
  private async beforeRetry(spec: RequestSpec<unknown>, thrown: Error, attempt: number, since: number): Promise<void> {
    if (!(thrown instanceof FailedAttempt)) throw thrown;
    const r = thrown.failure;
    if (r.notTheApi !== undefined) this.breaker.upstreamFailed(this.host, r.notTheApi);
    else if (r.status !== undefined) this.breaker.answered();
    else if (r.noConnection) this.breaker.connectFailed(this.host);
    if (this.closed || r.final || this.breaker.open) throw r.error;
    const d = retryDecision(
      {
        method: spec.method,
        ...(r.status !== undefined ? { status: r.status } : {}),
        ...(r.apiCode !== undefined ? { apiCode: r.apiCode } : {}),
        ...(r.retryAfter !== undefined ? { retryAfter: r.retryAfter } : {}),
        networkError: r.network === true,
        attempt,
        safeToRetryPost: spec.safeToRetryPost === true,
        now: this.now(),
        random: this.random,
      },
      this.policy,
    );
    if (!d.retry) {
      if (d.longWait !== undefined) r.error.details.push(`${d.reason.replace(/^[^:]*: /, '')}.`);
      else if (attempt > 1) r.error.details.push(`Tried ${attempt} times (--max-retries ${this.policy.maxRetries}).`);
      else if (d.reason.includes('not safe to repeat')) {
        const see =
          "A plan of the same bundle and deployment (`wsc plan` with this run's --dir and --env) shows " +
          'the current state.';
        r.error.details.push(`Not sent again: the server may have acted on it. ${see}`);
      }
      throw r.error;
    }
    const delay = d.delayMs ?? 0;
    const spent = this.now() - since;
    const cap = this.policy.maxTotalMs;
    if (spent + delay > cap) {
      const times = `${attempt} time${attempt === 1 ? '' : 's'}`;
      const most = `one request is retried for at most ${seconds(cap)} in all`;
      r.error.details.push(`Tried ${times} over ${seconds(spent)}; ${most}.`);
      throw r.error;
    }
    const request = `${spec.method} ${spec.path}`;
    const label = forLabel(spec.label);
    this.trace(`↻ ${request}: ${d.reason} (retry ${attempt} of ${this.policy.maxRetries})${label}`);
    if (delay >= NOTICE_AFTER_MS) {
      const why = r.network ? 'no answer' : `answered ${r.status ?? '?'}`;
      const asked = d.reason.includes('Retry-After')
        ? ` (the server asked for it with Retry-After; wsc waits at most ${seconds(this.policy.retryAfterCapMs)})`
        : '';
      const next = `attempt ${attempt + 1} of ${this.policy.maxRetries + 1}`;
      this.notice(`wsc: ${request}${label} ${why}; waiting ${seconds(delay)}${asked} before ${next}.`);
    }
    try {
      await this.sleep(delay, this.waitEnds);
    } catch {
      throw r.error;
    }
  }

  get<T>(path: string, schema: z.ZodType<T>, query?: Query): Promise<T> {
    return this.request({ method: 'GET', path, schema, ...(query ? { query } : {}) });
  }

  /** Pages of a cursor-paginated list, one chain (pagination.ts). */
  pages<T>(path: string, itemSchema: z.ZodType<T>, query: Query = {}, opts: PageOptions = {}): AsyncGenerator<T[]> {
    return readPages(this, path, itemSchema, query, opts);
  }

  /** Every item of a list, all pages. */
  async listAll<T>(path: string, itemSchema: z.ZodType<T>, query?: Query, opts?: PageOptions): Promise<T[]> {
    const all: T[] = [];
    for await (const items of this.pages(path, itemSchema, query, opts)) for (const i of items) all.push(i);
    return all;
  }

  /** Aborts what is in flight (no more retries) and closes the connections. */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    this.closing.abort(new Error('client closed'));
    await this.pool.destroy().catch(() => undefined);
  }

  /** One attempt: resolves with the validated body, or throws a FailedAttempt for beforeRetry. */
  private async attempt<T>(spec: RequestSpec<T>, attempt: number): Promise<T> {
    const { method, path } = spec;
    if (this.breaker.open) {
      const message = `${method} ${path}: ${String(this.breaker.signal.reason)}.`;
      const hint = 'Check that the server is running and reachable, then run the command again.';
      throw new FailedAttempt({ error: new NetworkError(method, path, message, { hint }), final: true });
    }
    const label = forLabel(spec.label);
    const headers: Record<string, string> = {
      authorization: this.auth,
      accept: 'application/json',
      'user-agent': `wsc/${VERSION}`,
    };
    let body: string | undefined;
    if (spec.body !== undefined) {
      body = JSON.stringify(spec.body);
      headers['content-type'] = 'application/json';
    } else if (method !== 'GET') {
      // A bodyless POST/PUT without Content-Length gets 411 from the real API's frontend.
      body = '';
      headers['content-type'] = 'application/json';
      headers['content-length'] = '0';
    }

    // One controller per attempt, aborted by its timer or by close(). (Not
    // AbortSignal.any over the long-lived close signal: that keeps a
    // dependant per request alive on Node 20.)
    const ac = new AbortController();
    let timedOut = false;
    const t = setTimeout(() => {
      timedOut = true;
      ac.abort(new Error('timeout'));
    }, this.timeoutMs);
    // A slow answer is shown once, while it is awaited.
    const slow = setTimeout(() => {
      const tries = this.policy.maxRetries + 1;
      this.notice(
        `wsc: still waiting for ${method} ${path}${label} from ${this.host}: ${seconds(NOTICE_AFTER_MS)} so far ` +
          `(attempt ${attempt} of ${tries}; it counts as failed after ${seconds(this.timeoutMs)}).`,
      );
    }, NOTICE_AFTER_MS);
    slow.unref();
    const onClose = () => ac.abort(new Error('client closed'));
    this.closing.signal.addEventListener('abort', onClose, { once: true });
    const qs = queryString(spec.query);
    const started = this.now();
    this.requestCount++;
    this.trace(`→ ${method} ${path}${qs}${label} (Authorization: ${this.authShown})`);
    try {
      let res: Dispatcher.ResponseData;
      let text: string;
      try {
        const url = `${this.prefix}${path}${qs}`;
        res = await this.pool.request({ path: url, method, headers, body, signal: ac.signal });
        text = await readBody(res, this.maxBody, spec.listPage === true ? this.listBudget : undefined);
      } catch (e) {
        // Final, like an answer over the size cap: its message says what was read and why it stopped.
        if (e instanceof ListsTooLarge)
          throw new FailedAttempt({ error: listsTooLarge(path, this.listBudget.max), final: true });
        if (e instanceof TooLarge) {
          this.trace(`← ${method} ${path}${label} refused: body over the size limit (${this.now() - started}ms)`);
          throw new FailedAttempt({ error: tooLarge(method, path, this.maxBody), final: true });
        }
        const error = networkError(this.wording, method, path, e, timedOut);
        this.trace(`← ${method} ${path}${label} no answer (${this.now() - started}ms): ${error.message}`);
        const unconnected = !timedOut && noConnection(e);
        throw new FailedAttempt({ error, network: true, ...(unconnected ? { noConnection: true } : {}) });
      }
      const ms = this.now() - started;
      const status = res.statusCode;
      const contentType = headerOf(res.headers, 'content-type');
      if (status >= 200 && status < 300) {
        this.breaker.answered();
        try {
          const value = this.parseSuccess(spec, status, contentType, text);
          this.trace(`← ${status} ${method} ${path} ${ms}ms${label}`);
          return value;
        } catch (e) {
          const message = e instanceof FailedAttempt ? `: ${e.failure.error.message}` : '';
          this.trace(`← ${status} ${method} ${path} ${ms}ms${label}${message}`);
          throw e;
        }
      }
      const location = headerOf(res.headers, 'location');
      const failure = statusFailure(this.wording, method, path, status, contentType, text, location);
      const said = failure.error.serverMessage ? `: ${failure.error.serverMessage}` : '';
      this.trace(`← ${status} ${method} ${path} ${ms}ms${label}${said}`);
      const retryAfter = headerOf(res.headers, 'retry-after');
      const failed: Failure = { ...failure, status, ...(retryAfter !== undefined ? { retryAfter } : {}) };
      const down = notTheApi(status, retryAfter, contentType, text);
      if (down !== undefined) failed.notTheApi = down;
      throw new FailedAttempt(failed);
    } finally {
      clearTimeout(t);
      clearTimeout(slow);
      this.closing.signal.removeEventListener('abort', onClose);
    }
  }

  /** A 2xx body, parsed and validated; a body wsc cannot use throws a final FailedAttempt. */
  private parseSuccess<T>(spec: RequestSpec<T>, status: number, contentType: string | undefined, text: string): T {
    const { method, path } = spec;
    const bad = (why: string) =>
      new FailedAttempt({ error: invalidBody(this.wording, method, path, status, why), final: true });
    if (text.trim() !== '' && looksLikeHtml(contentType, text)) {
      throw new FailedAttempt({ error: notApi(this.wording, method, path, status), final: true });
    }
    let json: unknown;
    if (text.trim() !== '') {
      try {
        json = parseJsonBody(text);
      } catch {
        throw bad(`a body that is not valid JSON (${text.length} characters; truncated or malformed).`);
      }
    }
    const parsed = spec.schema.safeParse(json);
    if (parsed.success) return parsed.data;
    if (json === undefined) throw bad('an empty body where JSON was expected.');
    throw bad(`a body wsc does not understand: ${issuesText(parsed.error)}.`);
  }
}
