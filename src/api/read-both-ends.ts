// Reading a long sortable list from both ends at once. A cursor chain is
// sequential: R items cost ceil(R/page) round trips one after another, and
// that chain is the whole latency of a plan on a large deployment. The
// reports list can be sorted either way (sortBy + sortDirection, facts §2.1),
// so after the first page (which tells the total, `count`) a second chain
// reads the newest items while the first reads on from the oldest. Each gets
// a budget of items so that together they ask for exactly ceil(R/page) pages,
// no more than one chain would; the critical path drops to
// 1 + ceil((pages - 1) / 2) round trips.
//
// The result is trusted only when it is provably the whole list: every page
// reported the same count, and the two chains together hold that many
// distinct ids. Otherwise (a report created or deleted meanwhile, a server
// whose count means something else, no count at all, ties ordered
// differently each way) the ascending chain simply reads on to its end, as a
// single chain would have, and that chain alone is the answer. createdAt is
// the sort key because no update can move an item in it.
import type { z } from 'zod';
import type { ApiClient, PageOptions, Query } from './client.js';

export interface BothEndsOptions {
  /** A sort key that is fixed for an item's life. */
  sortBy: string;
  query?: Query;
}

/** Every item of the list, in ascending order of sortBy (ties: the server's order). */
export async function listFromBothEnds<T extends { id: number }>(client: ApiClient, path: string, schema: z.ZodType<T>, opts: BothEndsOptions): Promise<T[]> {
  const pageSize = client.pageSize;
  const base: Query = { ...opts.query, sortBy: opts.sortBy };
  let count: number | undefined;
  let countsAgree = true;
  // The ascending chain: unbounded until the first page tells the total, and
  // again as soon as a page disagrees with it (it then reads to the end).
  let ascBudget = Infinity;
  const seeCount = (c: unknown) => {
    if (typeof c === 'number' && Number.isSafeInteger(c) && c >= 0 && (count === undefined || c === count)) count = c;
    else {
      countsAgree = false;
      ascBudget = Infinity;
    }
  };

  let ascCursor: string | undefined;
  let ascMore = false;
  let ascPage = 0;
  // Split what is left by whole pages; the ascending chain takes the larger half
  // (its next page may already be on its way), the descending one the rest.
  // Decided as soon as the first envelope is parsed, before the next page's
  // text can arrive and be read ahead against a budget not yet set.
  let split = false;
  let descBudget = 0;
  let stop = false;
  const desc: T[] = [];
  const drainDesc = async () => {
    const pages = client.pages(path, schema, { ...base, sortDirection: 'DESC' }, { budget: () => descBudget, onPage: (p) => seeCount(p.count) });
    for await (const items of pages) {
      for (const x of items) desc.push(x);
      // A count that moved: the answer will be the ascending chain alone.
      if (!countsAgree || stop) break;
    }
  };
  let descDone: Promise<void> = Promise.resolve();
  const ascOpts: PageOptions = {
    budget: () => ascBudget,
    onPage: (p) => {
      seeCount(p.count);
      ascMore = p.pageInfo?.hasNextPage === true;
      ascCursor = p.pageInfo?.endCursor ?? undefined;
      if (++ascPage !== 1 || !countsAgree || !ascMore) return;
      const left = count! - p.items;
      const pagesLeft = Math.ceil(left / pageSize);
      if (pagesLeft < 2) return;
      split = true;
      descBudget = left - Math.ceil(pagesLeft / 2) * pageSize;
      ascBudget = count! - descBudget;
      // The descending chain leaves now, before this page's items are validated.
      descDone = drainDesc();
      descDone.catch(() => (stop = true));
    },
  };
  const asc: T[] = [];
  try {
    for await (const items of client.pages(path, schema, { ...base, sortDirection: 'ASC' }, ascOpts)) {
      for (const x of items) asc.push(x);
      if (stop) break;
    }
  } catch (e) {
    stop = true;
    await descDone.catch(() => undefined);
    throw e;
  }
  await descDone;
  if (!split) return asc;

  const ids = new Set<number>();
  for (const x of asc) ids.add(x.id);
  for (const x of desc) ids.add(x.id);
  if (countsAgree && ids.size === count && ids.size === asc.length + desc.length) {
    for (let i = desc.length - 1; i >= 0; i--) asc.push(desc[i]!);
    return asc;
  }
  // Not provably whole: read on from where the ascending chain stopped.
  if (ascMore && ascCursor !== undefined) {
    for await (const items of client.pages(path, schema, { ...base, sortDirection: 'ASC' }, { after: ascCursor })) for (const x of items) asc.push(x);
  }
  return asc;
}
