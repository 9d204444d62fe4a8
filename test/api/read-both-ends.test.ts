// listFromBothEnds against a real HTTP server that sorts and pages a list the
// way the API does (keyset cursors, sortDirection), with knobs for what a
// server may get wrong (count missing or meaning something else, ties ordered
// the same way in both directions) and reports created or deleted between
// requests. Static lists: exactly ceil(n/page) requests and the whole list.
// Changing lists: no duplicates, nothing invented, nothing missed that was
// there the whole time (with the one exception named below).
import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { ApiClient } from '../../src/api/client.js';
import { listFromBothEnds } from '../../src/api/read-both-ends.js';
import { Report } from '../../src/domain/wire.js';
import { json, report, serve } from './server.js';

interface Item { id: number; t: number }
type CountMode = 'true' | 'missing' | 'plus-one' | 'page';
interface ListServerOptions {
  items: Item[];
  count?: CountMode;
  /** 'reverse': DESC is the exact reverse of ASC (ties by id DESC); 'id-asc': ties by id ASC both ways. */
  ties?: 'reverse' | 'id-asc';
  /** Answers descending pages this much later (so an ascending page is always parsed first). */
  descDelayMs?: number;
  /** Runs before the n-th request (1-based) is answered. */
  before?: (n: number, items: Item[], dir: string, after: boolean) => void;
}

const PATH = '/api/v1/deployments/1/reports';
const iso = (t: number) => new Date(Date.UTC(2026, 0, 1) + t * 1000).toISOString();

async function listServer(o: ListServerOptions) {
  const items = o.items;
  const log: Array<{ dir: string; first: number; after: boolean; count: number }> = [];
  const s = await serve(async (req, res, n) => {
    const u = new URL(req.url, 'http://x');
    const dir = u.searchParams.get('sortDirection') ?? 'ASC';
    o.before?.(n, items, dir, u.searchParams.has('after'));
    const first = Number(u.searchParams.get('first'));
    const sign = dir === 'DESC' ? -1 : 1;
    const tie = o.ties === 'id-asc' ? 1 : sign;
    const cmp = (a: Item, b: Item) => sign * (a.t - b.t) || tie * (a.id - b.id);
    const sorted = [...items].sort(cmp);
    const after = u.searchParams.get('after');
    let from = 0;
    if (after !== null) {
      const c = JSON.parse(Buffer.from(after, 'base64url').toString()) as Item;
      from = sorted.findIndex((x) => cmp(x, c) > 0);
      if (from < 0) from = sorted.length;
    }
    const pageItems = sorted.slice(from, from + first);
    const last = pageItems[pageItems.length - 1];
    const hasNextPage = from + first < sorted.length;
    const count = o.count === 'missing' ? undefined : o.count === 'plus-one' ? items.length + 1 : o.count === 'page' ? pageItems.length : items.length;
    log.push({ dir, first, after: after !== null, count: items.length });
    if (dir === 'DESC' && o.descDelayMs) await new Promise((r) => setTimeout(r, o.descDelayMs));
    json(res, 200, {
      items: pageItems.map((x) => report(x.id, { createdAt: iso(x.t) })),
      ...(count === undefined ? {} : { count }),
      pageInfo: { hasNextPage, hasPreviousPage: from > 0, endCursor: last ? Buffer.from(JSON.stringify(last)).toString('base64url') : null },
    });
  });
  return { url: s.url, log };
}

async function read(url: string, pageSize: number, expected?: number): Promise<number[]> {
  const client = new ApiClient({ baseUrl: url, token: 'tok-1234567890', pageSize, maxRetries: 0 });
  try {
    return (await listFromBothEnds(client, PATH, Report, { sortBy: 'createdAt', ...(expected !== undefined ? { expected } : {}) })).map((r) => r.id);
  } finally {
    await client.close();
  }
}

const items = (n: number, tieGroup = 1): Item[] => Array.from({ length: n }, (_, i) => ({ id: i + 1, t: Math.floor(i / tieGroup) }));
const ascIds = (xs: Item[]) => [...xs].sort((a, b) => a.t - b.t || a.id - b.id).map((x) => x.id);

describe('listFromBothEnds on a list that does not change', () => {
  test.each([
    [0, 10],
    [1, 10],
    [10, 10],
    [11, 10],
    [20, 10],
    [21, 10],
    [30, 10],
    [95, 10],
    [100, 10],
    [101, 10],
  ])('%i items, page %i: the whole list in ascending order, ceil(n/page) requests, about half of them in each direction', async (n, page) => {
    const list = items(n);
    const s = await listServer({ items: list });
    expect(await read(s.url, page)).toEqual(ascIds(list));
    const pages = Math.max(1, Math.ceil(n / page));
    expect(s.log).toHaveLength(pages);
    const asc = s.log.filter((e) => e.dir === 'ASC').length;
    const desc = s.log.filter((e) => e.dir === 'DESC').length;
    // The first page alone tells the total; the rest is split, the ascending chain taking the larger half.
    const rest = Math.max(0, pages - 1);
    expect(asc).toBe(rest >= 2 ? 1 + Math.ceil(rest / 2) : pages);
    expect(desc).toBe(rest >= 2 ? Math.floor(rest / 2) : 0);
    // Every page asks for no more than is left.
    expect(s.log.reduce((sum, e) => sum + e.first, 0)).toBe(rest >= 2 ? n : pages * page);
  });

  test('10 000 items, page 500: 20 requests, 11 ascending and 9 descending', async () => {
    const list = items(10_000);
    const s = await listServer({ items: list });
    expect(await read(s.url, 500)).toEqual(ascIds(list));
    expect(s.log.map((e) => e.dir).filter((d) => d === 'ASC')).toHaveLength(11);
    expect(s.log.map((e) => e.dir).filter((d) => d === 'DESC')).toHaveLength(9);
  });

  test.each<[CountMode]>([['missing'], ['plus-one'], ['page']])('count %s: one ascending chain to the end, the whole list', async (mode) => {
    const list = items(95);
    const s = await listServer({ items: list, count: mode });
    expect(await read(s.url, 10)).toEqual(ascIds(list));
    expect(s.log.filter((e) => e.dir === 'ASC').length).toBe(10);
    // plus-one: the chains ran, could not account for the count, and the ascending one read on.
    if (mode !== 'plus-one') expect(s.log.every((e) => e.dir === 'ASC')).toBe(true);
  });

  test('ties ordered the same way in both directions: the chains overlap, the ascending one reads on, nothing is lost', async () => {
    const list = items(95, 4);
    const s = await listServer({ items: list, ties: 'id-asc' });
    const got = await read(s.url, 10);
    expect([...got].sort((a, b) => a - b)).toEqual(list.map((x) => x.id));
    expect(new Set(got).size).toBe(got.length);
  });
});

describe('listFromBothEnds when the caller expects more than a page: both chains start with the first request', () => {
  test.each([
    [0, 10],
    [5, 10],
    [10, 10],
    [11, 10],
    [20, 10],
    [21, 10],
    [95, 10],
    [100, 10],
    [101, 10],
  ])('%i items, page %i: the whole list; ceil(n/page) requests (2 for a page or less), ceil(pages/2) of them ascending', async (n, page) => {
    const list = items(n);
    // The descending answer comes late: no ascending page may be read ahead before the count is known.
    const s = await listServer({ items: list, descDelayMs: 30 });
    expect(await read(s.url, page, 25)).toEqual(ascIds(list));
    const pages = Math.ceil(n / page);
    expect(s.log).toHaveLength(Math.max(2, pages));
    const asc = s.log.filter((e) => e.dir === 'ASC').length;
    expect(asc).toBe(Math.max(1, Math.ceil(pages / 2)));
    // Both first pages are asked for before either answer is in.
    expect(s.log.slice(0, 2).map((e) => `${e.dir} ${e.after}`).sort()).toEqual(['ASC false', 'DESC false']);
  });

  test('expecting a page or less changes nothing: one chain starts, the other only after the count', async () => {
    const list = items(95);
    const s = await listServer({ items: list });
    expect(await read(s.url, 10, 10)).toEqual(ascIds(list));
    expect(s.log).toHaveLength(10);
    expect(s.log[0]!.dir).toBe('ASC');
    // 1 + ceil(9/2) ascending: the split was made after the first page, not before it (that would be 5 and 5).
    expect(s.log.filter((e) => e.dir === 'ASC')).toHaveLength(6);
  });

  test('no count: the descending first page is dropped and the ascending chain reads to the end', async () => {
    const list = items(45);
    const s = await listServer({ items: list, count: 'missing' });
    expect(await read(s.url, 10, 45)).toEqual(ascIds(list));
    expect(s.log.filter((e) => e.dir === 'DESC')).toHaveLength(1);
    expect(s.log.filter((e) => e.dir === 'ASC')).toHaveLength(5);
  });
});

describe('listFromBothEnds on a list that changes while it is read', () => {
  test('a report created after the first page: the counts disagree and the ascending chain reads to the end', async () => {
    const list = items(95);
    const s = await listServer({
      items: list,
      before: (n, xs) => {
        if (n === 2) xs.push({ id: 1000, t: 10_000 });
      },
    });
    const got = await read(s.url, 10);
    expect(got).toEqual(ascIds(list));
    expect(got).toContain(1000);
  });

  test('a report deleted in the middle: nothing duplicated, everything else present', async () => {
    const list = items(95);
    const s = await listServer({
      items: list,
      before: (n, xs) => {
        if (n === 3) xs.splice(xs.findIndex((x) => x.id === 50), 1);
      },
    });
    const got = await read(s.url, 10);
    expect(got).toEqual(ascIds(list));
    expect(got).not.toContain(50);
  });

  test('the known gap: a report created and another deleted between the first ascending page and the first descending one', async () => {
    // The count stays 30, the chains hold 30 distinct ids, and report 21 (there
    // all along) falls between them. Pinned here so the limit stays visible;
    // ARCHITECTURE.md names it and why plan and apply are safe with it.
    const list = items(30);
    let done = false;
    const s = await listServer({
      items: list,
      before: (_n, xs, dir) => {
        if (dir !== 'DESC' || done) return;
        done = true;
        xs.push({ id: 1000, t: 10_000 });
        xs.splice(0, 1);
      },
    });
    const got = await read(s.url, 10);
    expect(got).toHaveLength(30);
    expect(got).not.toContain(21);
    expect(s.log).toHaveLength(3);
  });

  test('property: creates (always newest, as createdAt is) and deletes at random requests never duplicate, invent or lose a report that was there throughout', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.integer({ min: 0, max: 80 }),
        fc.integer({ min: 1, max: 9 }),
        fc.integer({ min: 1, max: 3 }),
        fc.constantFrom<'reverse' | 'id-asc'>('reverse', 'id-asc'),
        fc.array(fc.record({ at: fc.integer({ min: 1, max: 20 }), op: fc.constantFrom('create', 'delete'), pick: fc.nat() }), { maxLength: 4 }),
        fc.option(fc.integer({ min: 0, max: 100 }), { nil: undefined }),
        async (n, page, tieGroup, ties, changes, expected) => {
          const list = items(n, tieGroup);
          const everSeen = new Set(list.map((x) => x.id));
          const deleted = new Set<number>();
          let nextId = 10_000;
          // The window a count cannot watch: after one chain's first page is
          // served and before the other's is (see the known-gap test).
          const window = { firstPages: 0, create: false, delete: false };
          const s = await listServer({
            items: list,
            ties,
            before: (k, xs, _dir, after) => {
              const open = window.firstPages === 1;
              for (const c of changes.filter((c) => c.at === k)) {
                if (c.op === 'create') {
                  const t = Math.max(0, ...xs.map((x) => x.t)) + 1;
                  xs.push({ id: ++nextId, t });
                  everSeen.add(nextId);
                  if (open) window.create = true;
                } else if (xs.length > 0) {
                  const [gone] = xs.splice(c.pick % xs.length, 1);
                  deleted.add(gone!.id);
                  if (open) window.delete = true;
                }
              }
              if (!after) window.firstPages++;
            },
          });
          const got = await read(s.url, page, expected);
          expect(new Set(got).size).toBe(got.length);
          for (const id of got) expect(everSeen.has(id)).toBe(true);
          // The one case a count cannot see: a report created AND another deleted
          // between the first ascending page and the first descending one.
          if (window.create && window.delete) return;
          const throughout = list.map((x) => x.id).filter((id) => !deleted.has(id) && id < 10_000);
          for (const id of throughout) expect(got).toContain(id);
        },
      ),
      { numRuns: 150 },
    );
  });
});
