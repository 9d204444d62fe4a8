// Cursor pagination: one chain per list, each page asked for once the one
// before it has arrived and its cursor is checked; a list read is complete or
// fails.
// `first` is the list's page size (page-size.ts: smaller once a server
// refuses it or shows a smaller cap for that list); the list's length is bounded
// (list-bound.ts); a server that pages wrongly (repeated cursors, an item in
// two pages, empty pages without end) is refused rather than followed.
import { setImmediate } from 'node:timers/promises';
import * as z from 'zod';
import { ApiError, type ApiCode } from '../errors.js';
import { invalidBody, issuesText, valuedIssues, type Wording } from './error-wording.js';
import { LIST_TOO_LONG, ListBound } from './list-bound.js';
import type { PageSize, PageSizes } from './page-size.js';
import type { Query, RequestSpec } from './request.js';
import { PageInfo } from '../domain/wire.js';

/** A list longer than this many pages is treated as a server that pages forever. */
const MAX_PAGES = 100_000;
/** So many empty pages in a row, each promising more, is a server paging forever with fresh cursors. */
const MAX_EMPTY_PAGES_IN_A_ROW = 100;

/** A list page with its items not yet validated: an unreadable item must not fail the page (tolerant reading). */
const rawListEnvelope = z.looseObject({
  items: z.array(z.unknown()),
  pageInfo: PageInfo.nullish(),
  count: z.unknown().optional(),
});
type RawListPage = z.infer<typeof rawListEnvelope>;

/** Options of ApiClient.pages. */
export interface PageOptions {
  /** Sees each page's envelope, before its items are validated. */
  onPage?: (page: { count: unknown; items: number; pageInfo: PageInfo | undefined }) => void;
  /**
   * Items that pass their schema are kept as the server sent them, not as
   * zod's copy. Only for schemas that neither transform nor default nor
   * strip (loose objects), whose output then differs from the input at most
   * in member order: plan and apply compare, hash and show values
   * canonically, and keep the reports they read as sent. Export keeps zod's
   * member order, which its files follow.
   */
  asIs?: boolean;
  /**
   * Tolerant reading: an item that fails its schema is handed here (as sent,
   * with what is wrong with it) and left out, instead of failing the read.
   * The caller decides whether it matters (see core/plan/unreadable.ts).
   */
  onInvalid?: (item: unknown, why: string) => void;
  /** The resource the list is read for, named in --verbose lines and wait notices. */
  label?: string;
}

/** What a cursor chain needs of the client that reads it (ApiClient is one). */
export interface PageClient {
  /** `first` of list requests, per list (page-size.ts). */
  readonly pageSizes: PageSizes;
  /** Items one list may have (list-bound.ts). */
  readonly maxListItems: number;
  readonly wording: Wording;
  request<T>(spec: RequestSpec<T>): Promise<T>;
  redact(s: string): string;
  trace(line: string): void;
}

const serverBug = 'This is a server bug; report it with the output of --verbose.';

/** The pages of one list, in order, each page's items validated. */
export async function* readPages<T>(
  client: PageClient,
  path: string,
  itemSchema: z.ZodType<T>,
  query: Query = {},
  opts: PageOptions = {},
): AsyncGenerator<T[]> {
  const seen = new Set<string>();
  /** The page each item id came in (ids are the lists' identities). */
  const pageOfId = new Map<number, number>();
  const bound = new ListBound(client.maxListItems);
  let total = 0;
  let emptyInARow = 0;
  const fail = (message: string, hint: string, code: ApiCode = 'bad_pagination') =>
    new ApiError({ method: 'GET', path, status: 200, code }, client.redact(`GET ${path}: ${message}`), { hint });
  const size = client.pageSizes.of(path);
  let after: string | undefined;
  let next = readPage(client, size, path, query, after, opts.label);
  /** Whether this page was asked for again already, because its count said more than it held. */
  let askedAgain = false;
  for (let n = 1; ; n++) {
    const { raw, asked } = await next;
    const info = raw.pageInfo ?? undefined;
    // No pageInfo (the API allows null) ends the list, full page or not; only
    // a count saying more remain makes wsc ask once more for the same page:
    // a pageInfo then is followed, and another answer without one ends the
    // list for good (a list read short of its count plans no delete).
    if (!info && !askedAgain && countSaysMore(raw.count, total + raw.items.length)) {
      askedAgain = true;
      client.trace(
        `list: GET ${path} answered ${total + raw.items.length} of ${String(raw.count)} items and no pageInfo to ` +
          'page on; asking for that page once more.',
      );
      next = readPage(client, size, path, query, after, opts.label);
      n--;
      continue;
    }
    askedAgain = false;
    if (info?.hasNextPage) size.short(asked, raw.items.length);
    opts.onPage?.({ count: raw.count, items: raw.items.length, pageInfo: info });
    const overrun = bound.page(raw.count, raw.items.length);
    if (overrun) throw fail(overrun.message, overrun.hint, LIST_TOO_LONG);
    total += raw.items.length;
    if (info?.hasNextPage) {
      emptyInARow = raw.items.length === 0 ? emptyInARow + 1 : 0;
      if (emptyInARow >= MAX_EMPTY_PAGES_IN_A_ROW) {
        const message = `${emptyInARow} empty pages in a row, each claiming more; the server seems to page forever.`;
        throw fail(message, serverBug);
      }
      const cursor = info.endCursor;
      if (cursor === undefined || cursor === null || cursor === '') {
        throw fail('pageInfo.hasNextPage is true but there is no endCursor; cannot page on.', serverBug);
      }
      if (seen.has(cursor)) {
        throw fail(`the server repeated the cursor of an earlier page (page ${n}); it would page forever.`, serverBug);
      }
      if (n + 1 > MAX_PAGES) throw fail(`more than ${MAX_PAGES} pages; the server seems to page forever.`, serverBug);
      seen.add(cursor);
      after = cursor;
      // The chain's round trips are the read's critical path: the next page is
      // asked for now, while this one's items are checked and used. If they
      // fail, the read fails and closing the client aborts that request.
      next = readPage(client, size, path, query, after, opts.label);
      next.catch(() => undefined);
    }
    const items = await validateItems(client, path, raw.items, itemSchema, opts);
    // An item twice in one chain means the list moved under the cursor (or
    // the server pages wrongly): another item may have been skipped, and a
    // plan on such a read could create a duplicate.
    for (const x of items) {
      const id = (x as { id?: unknown }).id;
      if (typeof id !== 'number') continue;
      const first = pageOfId.get(id);
      if (first !== undefined) {
        const where = first === n ? `twice in page ${n}` : `in page ${first} and again in page ${n}`;
        throw fail(
          `the item with id ${id} came ${where}; the list changed while it was read, or the server pages ` +
            'inconsistently, so an item may have been skipped.',
          'Run the command again; if this persists, it is a server bug: report it with the output of --verbose.',
        );
      }
      pageOfId.set(id, n);
    }
    yield items;
    if (!info?.hasNextPage) return;
  }
}

const countSaysMore = (count: unknown, read: number) => typeof count === 'number' && count > read;

/** One page; a server that refuses this `first` is asked again with a smaller one (page-size.ts). */
async function readPage(
  client: PageClient,
  size: PageSize,
  path: string,
  query: Query,
  after: string | undefined,
  label: string | undefined,
): Promise<{ raw: RawListPage; asked: number }> {
  for (let first = size.current; ;) {
    try {
      const raw = await client.request({
        method: 'GET',
        path,
        schema: rawListEnvelope,
        query: { ...query, first, ...(after !== undefined ? { after } : {}) },
        ...(label !== undefined ? { label } : {}),
        listPage: true,
      });
      return { raw, asked: first };
    } catch (e) {
      const smaller = size.refused(first, e);
      if (smaller === undefined || smaller >= first) throw e;
      first = smaller;
    }
  }
}

/** Items checked between two turns of the event loop. */
const CHECK_CHUNK = 50;

/**
 * A page's items, checked. Checking a full page is CPU work long enough to
 * hold up the next request (docs/performance.md): it yields to the event loop
 * every CHECK_CHUNK items, so the next page's request (which undici writes a
 * few turns after it is made, once the keep-alive socket is checked idle)
 * leaves early in it rather than after it, and other lists' answers are read
 * meanwhile.
 */
async function validateItems<T>(
  client: PageClient,
  path: string,
  raw: unknown[],
  itemSchema: z.ZodType<T>,
  opts: PageOptions,
): Promise<T[]> {
  const out: T[] = [];
  for (let i = 0; i < raw.length; i++) {
    if (i % CHECK_CHUNK === 0) await setImmediate();
    const item = itemSchema.safeParse(raw[i]);
    if (item.success) {
      out.push(opts.asIs === true ? (raw[i] as T) : item.data);
    } else if (opts.onInvalid) {
      opts.onInvalid(raw[i], client.redact(valuedIssues(raw[i], item.error)));
    } else {
      const issues = item.error.issues.map((x) => ({ ...x, path: ['items', i, ...x.path] }));
      const why = `a body wsc does not understand: ${issuesText(new z.ZodError(issues))}.`;
      throw invalidBody(client.wording, 'GET', path, 200, why);
    }
  }
  return out;
}
