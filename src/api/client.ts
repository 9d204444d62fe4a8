// The HTTP client of the Workspace Content API, on undici: one keep-alive
// pool per client, timeouts, the auth header, JSON with a size cap, zod
// validation of every answer, typed errors, the retry loop of retry.ts and
// cursor pagination. It never reads process.env (commands pass options in)
// and never builds a string that holds the token.
import type { Dispatcher } from 'undici';
import { createPool, type HttpPool } from './pool.js';
import { z } from 'zod';
import type { AuthScheme } from '../config/types.js';
import { ApiError, NetworkError } from '../errors.js';
import { policyWithMaxRetries, RETRY_POLICY, retryDecision, type RetryPolicy } from './retry.js';
import { PageInfo } from './wire.js';
import { readErrorBody, shownServerText } from './error-body.js';
import { compileCheck, compileParse, keepsInput, NO } from '../zod-fast.js';
import { parseJsonBody } from './json-body.js';
import { PageSize } from './page-size.js';
import { VERSION } from '../version.js';
import { DEFAULT_MAX_LIST_ITEMS, LIST_TOO_LONG, ListBound } from './list-bound.js';
import { ConnectBreaker } from './breaker.js';

export const DEFAULT_REQUEST_TIMEOUT_MS = 30_000;
export const DEFAULT_CONNECT_TIMEOUT_MS = 10_000;
/** The emulator's largest page, and what wsc asks for. */
export const DEFAULT_PAGE_SIZE = 500;
export const DEFAULT_MAX_BODY_BYTES = 32 * 1024 * 1024;
/** A list longer than this many pages is treated as a server that pages forever. */
export const MAX_PAGES = 100_000;
/** So many empty pages in a row, each promising more, is a server paging forever with fresh cursors. */
export const MAX_EMPTY_PAGES_IN_A_ROW = 100;
/** A wait at least this long (a retry's delay, an answer that does not come) is shown on stderr. */
export const NOTICE_AFTER_MS = 5_000;

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
export type Query = Record<string, string | number | undefined>;

export interface ApiClientOptions {
  /** Host URL (maybe with a path prefix), no `/api/v1`: paths from wire.ts carry it. */
  baseUrl: string;
  token: string;
  authScheme?: AuthScheme;
  /** Connections of the keep-alive pool (≥ the command's concurrency). Default 8. */
  connections?: number;
  /** Time for one response, headers and body. Default 30 s. */
  requestTimeoutMs?: number;
  connectTimeoutMs?: number;
  /** `--max-retries`; overrides policy.maxRetries. */
  maxRetries?: number;
  policy?: RetryPolicy;
  /** `first` of list requests. Default 500. */
  pageSize?: number;
  /** Largest response body accepted. Default 32 MiB. */
  maxBodyBytes?: number;
  /** Items one list may have at most (`--max-list-items`); see list-bound.ts. */
  maxListItems?: number;
  /** `--verbose`: one line per request and answer; the token shows as `***`. */
  trace?: (line: string) => void;
  /** Always shown (stderr): a wait of NOTICE_AFTER_MS or more, what it waits for and which attempt. */
  notice?: (line: string) => void;
  /** Tests: time and randomness of the retry loop. */
  sleep?: (ms: number, signal: AbortSignal) => Promise<void>;
  now?: () => number;
  random?: () => number;
}

export interface RequestSpec<T> {
  method: HttpMethod;
  /** Starts with /api/v1 (wire.ts `paths`). */
  path: string;
  query?: Query;
  body?: unknown;
  schema: z.ZodType<T>;
  /** A POST whose repetition is harmless (it carries its own identity, or is idempotent). */
  safeToRetryPost?: boolean;
  /** Sees a 2xx body's text before it is parsed (the list read-ahead). */
  onText?: (text: string) => void;
}

/** What one attempt produced, before the retry loop decides. */
type Attempt<T> =
  | { ok: true; value: T }
  | {
      ok: false;
      error: ApiError | NetworkError;
      status?: number;
      apiCode?: string;
      retryAfter?: string;
      network?: boolean;
      /** Not even connected (refused, connect timeout, unknown host): counts toward the breaker. */
      noConnection?: boolean;
      final?: boolean;
    };

function defaultSleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal.aborted) return reject(signal.reason);
    const t = setTimeout(() => {
      signal.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    const onAbort = () => {
      clearTimeout(t);
      reject(signal.reason);
    };
    signal.addEventListener('abort', onAbort, { once: true });
  });
}

function authHeader(scheme: AuthScheme, token: string): string {
  if (scheme === 'api-key') return `Api-Key ${token}`;
  if (scheme === 'raw') return token;
  return `Bearer ${token}`;
}

function redactedAuth(scheme: AuthScheme): string {
  if (scheme === 'api-key') return 'Api-Key ***';
  if (scheme === 'raw') return '***';
  return 'Bearer ***';
}

function queryString(q: Query | undefined): string {
  if (!q) return '';
  const params = new URLSearchParams();
  for (const [k, v] of Object.entries(q)) if (v !== undefined) params.set(k, String(v));
  const s = params.toString();
  return s ? `?${s}` : '';
}

const STATUS_TEXT: Record<number, string> = {
  301: 'Moved Permanently',
  302: 'Found',
  307: 'Temporary Redirect',
  308: 'Permanent Redirect',
  400: 'Bad Request',
  401: 'Unauthorized',
  403: 'Forbidden',
  404: 'Not Found',
  405: 'Method Not Allowed',
  408: 'Request Timeout',
  409: 'Conflict',
  411: 'Length Required',
  413: 'Payload Too Large',
  422: 'Unprocessable Entity',
  429: 'Too Many Requests',
  500: 'Internal Server Error',
  502: 'Bad Gateway',
  503: 'Service Unavailable',
  504: 'Gateway Timeout',
};

function issuesText(error: z.ZodError, max = 3): string {
  const parts = error.issues.slice(0, max).map((i) => {
    const where = i.path.length ? i.path.map(String).join('.') : '(root)';
    // zod words a missing member as a wrong type ("expected number, received undefined"); JSON has no undefined.
    if (i.code === 'invalid_type' && i.message.endsWith('received undefined')) return `${where}: missing (expected ${i.expected})`;
    return `${where}: ${i.message}`;
  });
  const more = error.issues.length - max;
  return parts.join('; ') + (more > 0 ? ` (and ${more} more)` : '');
}

/** What is wrong with an item, with the values it holds there: `source: "NEW" (Invalid option: ...)`. */
function valuedIssues(item: unknown, error: z.ZodError, max = 3): string {
  const parts = error.issues.slice(0, max).map((i) => {
    let v: unknown = item;
    for (const k of i.path) {
      v = v !== null && typeof v === 'object' ? (v as Record<PropertyKey, unknown>)[k] : undefined;
    }
    const where = i.path.length ? i.path.map(String).join('.') : '(root)';
    const shown = v === undefined ? 'missing' : JSON.stringify(v).slice(0, 80);
    return `${where}: ${shown} (${i.message})`;
  });
  const more = error.issues.length - max;
  return parts.join('; ') + (more > 0 ? ` (and ${more} more)` : '');
}

function looksLikeHtml(contentType: string | undefined, text: string): boolean {
  if (contentType && /\btext\/html\b|\bapplication\/xhtml\+xml\b/i.test(contentType)) return true;
  return text.replace(/^\uFEFF/, '').trimStart().startsWith('<');
}

/** The first code found on an undici/net error or its causes. */
/** "2 s", "1.5 s", "2 min". */
function seconds(ms: number): string {
  const s = Math.round(ms / 100) / 10;
  return s >= 120 && s % 60 === 0 ? `${s / 60} min` : `${s} s`;
}

/** The attempt never reached the server: refused, connect timeout, unknown host. */
function noConnection(e: unknown): boolean {
  const code = (e as { code?: string } | null)?.code ?? '';
  const errno = errnoOf(e);
  return (
    code === 'UND_ERR_CONNECT_TIMEOUT' ||
    errno === 'ECONNREFUSED' ||
    errno === 'ENOTFOUND' ||
    errno === 'EAI_AGAIN' ||
    errno === 'EHOSTUNREACH' ||
    errno === 'ENETUNREACH'
  );
}

function errnoOf(e: unknown, depth = 0): string | undefined {
  if (!e || typeof e !== 'object' || depth > 4) return undefined;
  const o = e as { code?: unknown; cause?: unknown; errors?: unknown };
  if (typeof o.code === 'string' && /^E[A-Z]+$/.test(o.code)) return o.code;
  if (Array.isArray(o.errors)) for (const x of o.errors) {
    const c = errnoOf(x, depth + 1);
    if (c) return c;
  }
  return errnoOf(o.cause, depth + 1) ?? (typeof o.code === 'string' ? o.code : undefined);
}

class TooLarge extends Error {}


/** Items validated between two turns of the event loop (see ApiClient.pages). */
const VALIDATE_SLICE = 100;
/** Pages a list may be read beyond the one its caller is working on (memory stays bounded). */
const READ_AHEAD = 2;

/**
 * The cursor of the next page if a list body's text ends with a flat
 * `"pageInfo":{…}` that has `hasNextPage: true` — a guess read before the
 * whole body is parsed, and checked against it after. Only the tail is looked
 * at: a `"pageInfo"` inside a string would be escaped, and a nested one is
 * followed by more than the closing brace of the body.
 */
export function speculativeCursor(text: string): string | undefined {
  const at = text.lastIndexOf('"pageInfo"');
  if (at < 0 || text.length - at > 4096) return undefined;
  const m = /^"pageInfo"\s*:\s*(\{[^{}]*\})\s*\}\s*$/.exec(text.slice(at));
  if (!m) return undefined;
  try {
    const info = JSON.parse(m[1]!) as { hasNextPage?: unknown; endCursor?: unknown };
    return info.hasNextPage === true && typeof info.endCursor === 'string' && info.endCursor !== '' ? info.endCursor : undefined;
  } catch {
    return undefined;
  }
}

/** A list page with its items not yet validated (see ApiClient.pages). */
const rawListEnvelope = z.looseObject({ items: z.array(z.unknown()), pageInfo: PageInfo.nullish(), count: z.unknown().optional() });
type RawListPage = z.infer<typeof rawListEnvelope>;

/** Options of ApiClient.pages. */
export interface PageOptions {
  /** Continue a chain after this cursor. */
  after?: string;
  /** Most items to read, asked again before each page (it may become known only after the first). */
  budget?: () => number;
  /** Sees each page's envelope, before its items are validated. */
  onPage?: (page: { count: unknown; items: number; pageInfo: PageInfo | undefined }) => void;
  /**
   * Items that pass their schema are kept as the server sent them, when zod's
   * output could differ from them only in the order of object members
   * (zod-fast keepsInput): no copy per item. For readers that never depend
   * on member order (plan and apply compare, hash and show values
   * canonically); export keeps zod's order, which its files follow.
   */
  asIs?: boolean;
  /**
   * Tolerant reading: an item that fails its schema is handed here (as sent,
   * with what is wrong with it) and left out, instead of failing the read.
   * The caller decides whether it matters (see core/plan/odd.ts).
   */
  onInvalid?: (item: unknown, why: string) => void;
}

export class ApiClient {
  readonly baseUrl: string;
  /** `first` of list requests, detected at run time (page-size.ts). */
  readonly pageSizes: PageSize;
  readonly policy: RetryPolicy;
  private readonly pool: HttpPool;
  private readonly prefix: string;
  private readonly host: string;
  private readonly auth: string;
  private readonly authShown: string;
  private readonly redactToken: (s: string) => string;
  private readonly timeoutMs: number;
  private readonly connectTimeoutMs: number;
  private readonly maxBody: number;
  /** Items one list (or a tree read as one) may have (list-bound.ts). */
  readonly maxListItems: number;
  private readonly traceFn: ((line: string) => void) | undefined;
  private readonly sleep: (ms: number, signal: AbortSignal) => Promise<void>;
  private readonly now: () => number;
  private readonly random: () => number;
  private readonly closing = new AbortController();
  /** Opens when the server stops accepting connections (breaker.ts). */
  readonly breaker = new ConnectBreaker();
  /** Ends a retry's wait: the client closing or the breaker opening. One for the client's life. */
  private readonly waitEnds = AbortSignal.any([this.closing.signal, this.breaker.signal]);
  private readonly noticeFn: ((line: string) => void) | undefined;
  private closed = false;
  /** Requests sent (each attempt counts), for figures and tests. */
  requestCount = 0;

  constructor(opts: ApiClientOptions) {
    const url = new URL(opts.baseUrl);
    this.baseUrl = opts.baseUrl;
    this.prefix = url.pathname.replace(/\/+$/, '');
    this.host = url.host;
    const scheme = opts.authScheme ?? 'bearer';
    this.auth = authHeader(scheme, opts.token);
    this.authShown = redactedAuth(scheme);
    const token = opts.token;
    // A hostile or careless server may echo the token back in a message.
    this.redactToken = (s) => (token.length >= 4 ? s.split(token).join('***') : s);
    this.timeoutMs = opts.requestTimeoutMs ?? DEFAULT_REQUEST_TIMEOUT_MS;
    this.connectTimeoutMs = Math.min(opts.connectTimeoutMs ?? DEFAULT_CONNECT_TIMEOUT_MS, this.timeoutMs);
    this.maxBody = opts.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES;
    this.maxListItems = opts.maxListItems ?? DEFAULT_MAX_LIST_ITEMS;
    this.pageSizes = new PageSize(opts.pageSize ?? DEFAULT_PAGE_SIZE, (line) => this.trace(line));
    const base = opts.policy ?? RETRY_POLICY;
    this.policy = opts.maxRetries === undefined ? base : policyWithMaxRetries(opts.maxRetries, base);
    this.traceFn = opts.trace;
    this.noticeFn = opts.notice;
    this.sleep = opts.sleep ?? defaultSleep;
    this.now = opts.now ?? Date.now;
    this.random = opts.random ?? Math.random;
    this.pool = createPool(url.origin, {
      connections: Math.max(1, opts.connections ?? 8),
      connectTimeout: this.connectTimeoutMs,
      // The per-attempt timer below is the real limit; these are backstops.
      headersTimeout: this.timeoutMs + 1000,
      bodyTimeout: this.timeoutMs + 1000,
      keepAliveTimeout: 30_000,
    });
  }

  /** The page size asked for now (smaller once the server has shown a smaller one). */
  get pageSize(): number {
    return this.pageSizes.current;
  }

  private trace(line: string): void {
    this.traceFn?.(this.redactToken(line));
  }

  private notice(line: string): void {
    this.noticeFn?.(this.redactToken(line));
  }

  /** Thrown instead of sending once the breaker is open. */
  private notSent(method: string, path: string): NetworkError {
    return new NetworkError(method, path, `${method} ${path}: ${String(this.breaker.signal.reason)}.`, {
      hint: 'Check that the server is running and reachable, then run the command again.',
    });
  }

  /** One request with the retry policy; resolves with the validated body. */
  async request<T>(spec: RequestSpec<T>): Promise<T> {
    const since = this.now();
    const tries = this.policy.maxRetries + 1;
    for (let attempt = 1; ; attempt++) {
      if (this.breaker.open) throw this.notSent(spec.method, spec.path);
      const r = await this.attempt(spec, attempt);
      if (r.ok || r.status !== undefined) this.breaker.answered();
      else if (r.noConnection) this.breaker.connectFailed(this.host);
      if (r.ok) return r.value;
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
        if (attempt > 1) r.error.details.push(`Tried ${attempt} times (--max-retries ${this.policy.maxRetries}).`);
        else if (d.reason.includes('not safe to repeat')) {
          r.error.details.push(`Not sent again: the server may have acted on it. Run \`wsc plan\` to see the current state.`);
        }
        throw r.error;
      }
      const delay = d.delayMs ?? 0;
      const spent = this.now() - since;
      const cap = this.policy.maxTotalMs;
      if (cap !== undefined && spent + delay > cap) {
        const times = `${attempt} time${attempt === 1 ? '' : 's'}`;
        const most = `one request is retried for at most ${seconds(cap)} in all`;
        r.error.details.push(`Tried ${times} over ${seconds(spent)}; ${most}.`);
        throw r.error;
      }
      this.trace(`↻ ${spec.method} ${spec.path}: ${d.reason} (retry ${attempt} of ${this.policy.maxRetries})`);
      if (delay >= NOTICE_AFTER_MS) {
        const why = r.network ? 'no answer' : `answered ${r.status ?? '?'}`;
        const asked = d.reason.includes('Retry-After')
          ? ` (the server asked for it with Retry-After; wsc waits at most ${seconds(this.policy.retryAfterCapMs)})`
          : '';
        const next = `attempt ${attempt + 1} of ${tries}`;
        this.notice(`wsc: ${spec.method} ${spec.path} ${why}; waiting ${seconds(delay)}${asked} before ${next}.`);
      }
      try {
        await this.sleep(delay, this.waitEnds);
      } catch {
        throw r.error;
      }
    }
  }

  get<T>(path: string, schema: z.ZodType<T>, query?: Query): Promise<T> {
    return this.request({ method: 'GET', path, schema, ...(query ? { query } : {}) });
  }

  /**
   * Pages of a cursor-paginated list: `first` = pageSize, following
   * `pageInfo.endCursor`. The page chain is the critical path of a plan, so
   * the next page is asked for as early as it can be:
   * - speculatively, as soon as a body's text has arrived, when its tail is
   *   a flat `"pageInfo":{…}` saying there is more (how the API writes it):
   *   before the JSON is parsed;
   * - otherwise once the envelope is parsed and the cursor checked.
   * A speculation is used only when the parsed pageInfo agrees with it;
   * otherwise it is dropped and the right page asked for. Items are then
   * validated in slices, yielding to the event loop between them, so that
   * lists read in parallel do not stall each other's round trips; the
   * caller's own work on a page overlaps the next round trips too. At most
   * READ_AHEAD pages are read beyond the one the caller holds.
   *
   * `opts.budget` caps the items read (two-ended reads, see read-both-ends.ts):
   * a page asks for no more than is left, assuming the pages before it come
   * back full, and the chain stops once the budget is met even if the server
   * says there is more. `opts.onPage` sees each page's envelope, `opts.after`
   * continues a chain from a cursor.
   */
  async *pages<T>(path: string, itemSchema: z.ZodType<T>, query: Query = {}, opts: PageOptions = {}): AsyncGenerator<T[]> {
    const budget = opts.budget ?? (() => Infinity);
    /** `first` for a page that has `before` items ahead of it; 0: no page is needed. */
    const firstAfter = (before: number) => Math.max(0, Math.min(this.pageSizes.current, budget() - before));
    const seen = new Set<string>();
    /** The page each item id came in (ids are the lists' identities). */
    const pageOfId = new Map<number, number>();
    let total = 0;
    let emptyInARow = 0;
    const bound = new ListBound(this.maxListItems);
    const fail = (message: string, hint: string, code = 'bad_pagination') =>
      new ApiError({ method: 'GET', path, status: 200, code }, this.redactToken(`GET ${path}: ${message}`), { hint });
    // Page k's text may start page k + 1 (its `ahead`) while the caller still
    // holds an earlier page: up to READ_AHEAD pages beyond the one being consumed.
    interface Fetch {
      k: number;
      /** Items expected before this page (the earlier pages full), and its `first`. */
      before: number;
      first: number;
      /** A speculation that proved wrong: its answer is ignored and it reads nothing further ahead. */
      dropped?: boolean;
      page: Promise<RawListPage>;
      ahead?: { cursor: string; fetch: Fetch };
    }
    let consuming = 0;
    const fetchPage = (k: number, after: string | undefined, before: number, first: number): Fetch => {
      const f: Fetch = { k, before, first, page: Promise.resolve({ items: [] }) };
      const ask = (): Promise<RawListPage> =>
        this.request({
          method: 'GET',
          path,
          schema: rawListEnvelope,
          query: { ...query, first: f.first, ...(after !== undefined ? { after } : {}) },
          onText: (text) => {
            if (f.dropped || k + 1 > consuming + READ_AHEAD || k + 1 > MAX_PAGES) return;
            // f.before, not `before`: it is corrected when a guess is taken (see below).
            const nextFirst = firstAfter(f.before + f.first);
            if (nextFirst === 0) return;
            const cursor = speculativeCursor(text);
            if (cursor === undefined || seen.has(cursor)) return;
            f.ahead = { cursor, fetch: fetchPage(k + 1, cursor, f.before + f.first, nextFirst) };
            // Awaited only if it proves right; a failure must not surface as unhandled.
            f.ahead.fetch.page.catch(() => undefined);
          },
        }).catch((e: unknown) => {
          // A server that refuses this `first` is asked again with a smaller one.
          const smaller = this.pageSizes.refused(f.first, e);
          if (smaller === undefined || smaller >= f.first) throw e;
          f.first = smaller;
          return ask();
        });
      f.page = ask();
      return f;
    };
    const first1 = firstAfter(0);
    let next: Fetch | undefined = first1 > 0 ? fetchPage(1, opts.after, 0, first1) : undefined;
    try {
      for (let n = 1; next; n++) {
        consuming = n;
        const raw: RawListPage = await next.page;
        const asked = next.first;
        const guess: Fetch['ahead'] = next.ahead;
        next = undefined;
        const info = raw.pageInfo;
        if (info?.hasNextPage) this.pageSizes.short(asked, raw.items.length);
        opts.onPage?.({ count: raw.count, items: raw.items.length, pageInfo: info ?? undefined });
        const overrun = bound.page(raw.count, raw.items.length);
        if (overrun) throw fail(overrun.message, overrun.hint, LIST_TOO_LONG);
        const after = total + raw.items.length;
        if (!info) {
          if (raw.items.length >= asked) {
            throw fail('the server returned a full page without pageInfo; cannot page safely.', 'The server does not follow the API\'s cursor pagination (items + pageInfo); check the base URL and the server version.');
          }
          if (typeof raw.count === 'number' && raw.count > after) {
            throw fail(`the server returned ${after} of ${raw.count} items and no pageInfo to page on; cannot page safely.`, 'Check the base URL and the server version.');
          }
        } else if (info.hasNextPage && firstAfter(after) > 0) {
          emptyInARow = raw.items.length === 0 ? emptyInARow + 1 : 0;
          if (emptyInARow >= MAX_EMPTY_PAGES_IN_A_ROW) {
            throw fail(`${emptyInARow} empty pages in a row, each claiming more; the server seems to page forever.`, 'This is a server bug; report it with the output of --verbose.');
          }
          const cursor: string | null | undefined = info.endCursor;
          if (cursor === undefined || cursor === null || cursor === '') {
            throw fail('pageInfo.hasNextPage is true but there is no endCursor; cannot page on.', 'This is a server bug; report it with the output of --verbose.');
          }
          if (seen.has(cursor)) {
            throw fail(`the server repeated the cursor of an earlier page (page ${n}); it would page forever.`, 'This is a server bug; report it with the output of --verbose.');
          }
          if (n + 1 > MAX_PAGES) throw fail(`more than ${MAX_PAGES} pages; the server seems to page forever.`, 'This is a server bug; report it with the output of --verbose.');
          seen.add(cursor);
          const nextFirst = firstAfter(after);
          // The speculation is the right request if it has the same cursor and
          // `first`; it assumed this page full, so what it counts before it is corrected.
          if (guess !== undefined && guess.cursor === cursor && guess.fetch.first === nextFirst) {
            next = guess.fetch;
            next.before = after;
          } else next = fetchPage(n + 1, cursor, after, nextFirst);
          next.page.catch(() => undefined);
        }
        if (guess !== undefined && guess.fetch !== next) guess.fetch.dropped = true;
        const asIs = opts.asIs === true && keepsInput(itemSchema);
        const items = await this.validateItems('GET', path, raw.items, itemSchema, asIs, opts.onInvalid);
        // An item twice in one chain means the list moved under the cursor
        // (or the server pages wrongly): another item may have been skipped,
        // and a plan on such a read could create a duplicate.
        for (const x of items) {
          const id = (x as { id?: unknown }).id;
          if (typeof id !== 'number') continue;
          const first = pageOfId.get(id);
          if (first !== undefined) {
            throw fail(
              `the item with id ${id} came ${first === n ? `twice in page ${n}` : `in page ${first} and again in page ${n}`}; the list changed while it was read, or the server pages inconsistently, so an item may have been skipped.`,
              'Run the command again; if this persists, it is a server bug: report it with the output of --verbose.',
            );
          }
          pageOfId.set(id, n);
        }
        total = after;
        yield items;
      }
    } finally {
      // Stopped early (an error, or the caller broke off): the read-ahead is dropped.
      if (next) void next.page.catch(() => undefined);
    }
  }

  /** A list page's items, validated a slice at a time (see pages). */
  private async validateItems<T>(
    method: string,
    path: string,
    raw: unknown[],
    itemSchema: z.ZodType<T>,
    asIs = false,
    onInvalid?: PageOptions['onInvalid'],
  ): Promise<T[]> {
    const out: T[] = new Array<T>(raw.length);
    if (asIs) {
      const check = compileCheck(itemSchema);
      let i = 0;
      for (; i < raw.length; i++) {
        if (i > 0 && i % VALIDATE_SLICE === 0) await new Promise<void>((r) => setImmediate(r));
        if (!check(raw[i])) break;
        out[i] = raw[i] as T;
      }
      if (i === raw.length) return out;
    }
    const parse = compileParse(itemSchema);
    let skipped = 0;
    for (let i = 0; i < raw.length; i++) {
      if (i > 0 && i % VALIDATE_SLICE === 0) await new Promise<void>((r) => setImmediate(r));
      // The compiled parser gives zod's output without zod's cost (zod-fast.ts); zod runs when it cannot.
      const fast = parse(raw[i]);
      if (fast !== NO) {
        out[i] = fast as T;
        continue;
      }
      const item = itemSchema.safeParse(raw[i]);
      if (!item.success && onInvalid) {
        onInvalid(raw[i], this.redactToken(valuedIssues(raw[i], item.error)));
        skipped++;
        continue;
      }
      if (!item.success) {
        const issues = item.error.issues.map((x) => ({ ...x, path: ['items', i, ...x.path] }));
        throw this.invalidBody(method, path, 200, `a body wsc does not understand: ${issuesText(new z.ZodError(issues))}.`);
      }
      out[i] = item.data;
    }
    // Items left out by onInvalid leave holes.
    return skipped > 0 ? out.filter(() => true) : out;
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

  // ---------------------------------------------------------------------------

  private async attempt<T>(spec: RequestSpec<T>, attempt = 1): Promise<Attempt<T>> {
    const { method, path } = spec;
    const qs = queryString(spec.query);
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
        `wsc: still waiting for ${method} ${path} from ${this.host}: ${seconds(NOTICE_AFTER_MS)} so far ` +
          `(attempt ${attempt} of ${tries}; it counts as failed after ${seconds(this.timeoutMs)}).`,
      );
    }, NOTICE_AFTER_MS);
    slow.unref();
    const onClose = () => ac.abort(new Error('client closed'));
    this.closing.signal.addEventListener('abort', onClose, { once: true });
    const signal = ac.signal;
    const started = this.now();
    this.requestCount++;
    this.trace(`→ ${method} ${path}${qs} (Authorization: ${this.authShown})`);
    try {
      let res: Dispatcher.ResponseData;
      let text: string;
      try {
        res = await this.pool.request({ path: `${this.prefix}${path}${qs}`, method, headers, body, signal });
        text = await this.readBody(res);
      } catch (e) {
        if (e instanceof TooLarge) {
          const err = new ApiError(
            { method, path, status: 200, code: 'response_too_large' },
            `${method} ${path}: the response is larger than ${Math.round(this.maxBody / 1024 / 1024)} MiB; refused without reading it all.`,
            { hint: 'This is not an answer the API gives; check the base URL.' },
          );
          this.trace(`← ${method} ${path} refused: body over the size limit (${this.now() - started}ms)`);
          return { ok: false, error: err, final: true };
        }
        const err = this.networkError(method, path, e, timedOut);
        this.trace(`← ${method} ${path} no answer (${this.now() - started}ms): ${err.message}`);
        const unconnected = !timedOut && noConnection(e);
        return { ok: false, error: err, network: true, ...(unconnected ? { noConnection: true } : {}) };
      }
      const ms = this.now() - started;
      const status = res.statusCode;
      const contentType = headerOf(res.headers, 'content-type');
      if (status >= 200 && status < 300) {
        if (spec.onText) {
          spec.onText(text);
          // undici writes a request on a later turn of the event loop: let the
          // read-ahead leave before this body is parsed (at 10k reports the
          // parse held every page's successor back by ~5 ms).
          await new Promise<void>((r) => setImmediate(r));
        }
        const r = this.parseSuccess(spec, status, contentType, text);
        this.trace(`← ${status} ${method} ${path} ${ms}ms${r.ok ? '' : `: ${r.error.message}`}`);
        return r;
      }
      const failure = this.statusFailure(method, path, status, contentType, text, headerOf(res.headers, 'location'));
      this.trace(`← ${status} ${method} ${path} ${ms}ms${failure.error.serverMessage ? `: ${failure.error.serverMessage}` : ''}`);
      return { ...failure, ...(headerOf(res.headers, 'retry-after') !== undefined ? { retryAfter: headerOf(res.headers, 'retry-after') } : {}) };
    } finally {
      clearTimeout(t);
      clearTimeout(slow);
      this.closing.signal.removeEventListener('abort', onClose);
    }
  }

  private async readBody(res: Dispatcher.ResponseData): Promise<string> {
    const declared = Number(headerOf(res.headers, 'content-length'));
    if (Number.isFinite(declared) && declared > this.maxBody) {
      res.body.destroy();
      throw new TooLarge();
    }
    const chunks: Buffer[] = [];
    let size = 0;
    for await (const chunk of res.body) {
      const b = chunk as Buffer;
      size += b.length;
      if (size > this.maxBody) {
        res.body.destroy();
        throw new TooLarge();
      }
      chunks.push(b);
    }
    return Buffer.concat(chunks, size).toString('utf8');
  }

  /** A 2xx answer wsc cannot use: never retried (the same request gets the same answer). */
  private invalidBody(
    method: string,
    path: string,
    status: number,
    why: string,
    code = 'bad_response',
    hint?: string,
  ): ApiError {
    // A write answered with a success status was most likely applied: say so, rather than suspect the server only.
    const h =
      hint ??
      (method !== 'GET' && status >= 200 && status < 300
        ? `The server accepted the ${method} (status ${status}), so the change was probably applied, but its answer could not be read; \`wsc plan\` shows where things stand. If this persists, check the base URL and any proxy in between.`
        : 'The server does not answer as the Workspace Content API does; check the base URL and the server version.');
    return new ApiError({ method, path, status, code }, this.redactToken(`${method} ${path} answered ${status} with ${why}`), { hint: h });
  }

  private parseSuccess<T>(spec: RequestSpec<T>, status: number, contentType: string | undefined, text: string): Attempt<T> {
    const { method, path } = spec;
    const bad = (why: string, code?: string, hint?: string) => ({ ok: false as const, final: true, error: this.invalidBody(method, path, status, why, code, hint) });
    if (text.trim() !== '' && looksLikeHtml(contentType, text)) {
      return bad(
        'a web page, not JSON. The server answered with a web page: wrong base URL, or this endpoint is not available on this tenant.',
        'not_api',
        `Check the base URL (${this.baseUrl}; give the host only, wsc appends /api/v1) and that the tenant offers the Workspace Content API.`,
      );
    }
    let json: unknown;
    if (text.trim() === '') json = undefined;
    else {
      try {
        json = parseJsonBody(text);
      } catch {
        return bad(`a body that is not valid JSON (${text.length} characters; truncated or malformed).`);
      }
    }
    const fast = compileParse(spec.schema)(json);
    if (fast !== NO) return { ok: true, value: fast as T };
    const parsed = spec.schema.safeParse(json);
    if (!parsed.success) {
      return bad(json === undefined ? 'an empty body where JSON was expected.' : `a body wsc does not understand: ${issuesText(parsed.error)}.`);
    }
    return { ok: true, value: parsed.data };
  }

  private statusFailure(method: string, path: string, status: number, contentType: string | undefined, text: string, location?: string) {
    let serverMessage: string | undefined;
    let apiCode: string | undefined;
    const html = text.trim() !== '' && looksLikeHtml(contentType, text);
    if (!html && text.trim() !== '') {
      let json: unknown;
      try {
        json = JSON.parse(text);
      } catch {
        // not JSON: a short plain-text body is still the best message there is
        // eslint-disable-next-line no-control-regex -- control characters mark a binary body
        if (text.length <= 200 && !/[\u0000-\u0008]/.test(text)) {
          serverMessage = shownServerText(text.trim(), this.redactToken);
        }
      }
      if (json !== undefined) ({ message: serverMessage, code: apiCode } = readErrorBody(json, this.redactToken));
    }
    const reason = STATUS_TEXT[status] ?? 'HTTP error';
    const said =
      status >= 300 && status < 400 && location
        ? ` to ${this.redactToken(location.slice(0, 300))}`
        : serverMessage
          ? `: ${serverMessage}`
          : html
            ? ' (the body was a web page, not the API)'
            : '';
    const { message, hint } = this.explain(method, path, status, apiCode, said, reason);
    const error = new ApiError({ method, path, status, ...(apiCode !== undefined ? { apiCode } : {}), ...(serverMessage !== undefined ? { serverMessage } : {}) }, message, hint ? { hint } : {});
    return { ok: false as const, error, status, ...(apiCode !== undefined ? { apiCode } : {}) };
  }

  private explain(method: string, path: string, status: number, apiCode: string | undefined, said: string, reason: string): { message: string; hint?: string } {
    const what = `${method} ${path} -> ${status} ${reason}${apiCode ? ` (${apiCode})` : ''}${said}`;
    const deployment = /\/deployments\/(\d+)(?:\/|$)/.exec(path)?.[1];
    if (status >= 300 && status < 400) {
      return {
        message: `The server redirected the request: ${what}`,
        hint: `Check the base URL (${this.baseUrl}): give the host that serves the API. wsc does not follow redirects, so the token is never sent anywhere else.`,
      };
    }
    switch (status) {
      case 401:
        return {
          message: `The API rejected the token: ${what}`,
          hint: "The token was rejected: check WSC_TOKEN / the environment's token (`token:` in wsc.yaml), and WSC_AUTH_SCHEME (bearer, api-key or raw).",
        };
      case 403:
        return {
          message: `Access denied: ${what}`,
          hint: deployment
            ? `The token is valid but may not do this in deployment ${deployment}: check its role, and that a scoped key covers this deployment.`
            : 'The token is valid but may not do this: check its role (user attributes need an admin).',
        };
      case 404:
        if (deployment) {
          return {
            message: `Not found: ${what}`,
            hint: `Deployment ${deployment} does not exist or the token cannot see it (or the resource was deleted): check --deployment / deploymentId.`,
          };
        }
        return { message: `Not found: ${what}`, hint: 'Check the base URL and that this tenant offers the endpoint.' };
      case 429:
      case 502:
      case 503:
      case 504:
        return { message: `The server is busy or unavailable: ${what}`, hint: 'Try again later, or raise --max-retries.' };
      default:
        if (status >= 500) return { message: `The server failed: ${what}`, hint: 'A server error; try again, and report it to the server\'s operators if it persists.' };
        return { message: `The API refused the request: ${what}` };
    }
  }

  private networkError(method: string, path: string, e: unknown, timedOut: boolean): NetworkError {
    const secs = (ms: number) => `${Math.round(ms / 100) / 10} s`;
    if (this.closed) return new NetworkError(method, path, `${method} ${path}: cancelled (the command is stopping).`);
    if (timedOut) {
      return new NetworkError(method, path, `${method} ${path}: no answer from ${this.host} within ${secs(this.timeoutMs)}.`, {
        hint: 'The server is slow or not answering; check it, or raise WSC_REQUEST_TIMEOUT (seconds).',
      });
    }
    const name = (e as { name?: string; code?: string } | null)?.code ?? '';
    const errno = errnoOf(e);
    if (name === 'UND_ERR_CONNECT_TIMEOUT' || errno === 'ETIMEDOUT') {
      return new NetworkError(method, path, `cannot connect to ${this.host} within ${secs(this.connectTimeoutMs)}.`, {
        hint: 'Check the base URL and your network.',
      });
    }
    if (name === 'UND_ERR_HEADERS_TIMEOUT' || name === 'UND_ERR_BODY_TIMEOUT') {
      return new NetworkError(method, path, `${method} ${path}: no answer from ${this.host} within ${secs(this.timeoutMs)}.`, {
        hint: 'The server is slow or not answering; check it, or raise WSC_REQUEST_TIMEOUT (seconds).',
      });
    }
    if (errno === 'ECONNREFUSED') {
      return new NetworkError(method, path, `cannot reach ${this.host}: is the server running? (connection refused)`, {
        hint: 'Check the base URL (--base-url, WSC_BASE_URL or baseUrl in wsc.yaml).',
      });
    }
    if (errno === 'ENOTFOUND' || errno === 'EAI_AGAIN') {
      return new NetworkError(method, path, `cannot resolve the host name of ${this.host}.`, { hint: 'Check the base URL.' });
    }
    if (errno === 'ECONNRESET' || errno === 'EPIPE' || name.startsWith('UND_ERR_SOCKET') || name === 'UND_ERR_RES_CONTENT_LENGTH_MISMATCH') {
      return new NetworkError(method, path, `${method} ${path}: the connection to ${this.host} was closed before the answer was complete.`, {
        hint: 'The server or a proxy dropped the connection; try again.',
      });
    }
    const msg = e instanceof Error ? e.message : String(e);
    return new NetworkError(method, path, this.redactToken(`${method} ${path}: no answer from ${this.host}: ${msg}`));
  }
}

function headerOf(headers: Record<string, string | string[] | undefined>, name: string): string | undefined {
  const v = headers[name];
  return Array.isArray(v) ? v[0] : v;
}
