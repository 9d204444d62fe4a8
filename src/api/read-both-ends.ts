// Reading a long sortable list from both ends at once. A cursor chain is
// sequential: R items cost ceil(R/page) round trips one after another, and
// that chain is the whole latency of a plan on a large deployment. The
// reports list can be sorted either way (sortBy + sortDirection, facts §2.1),
// so a second chain reads the newest items while the first reads on from the
// oldest. Once a page tells the total (`count`), each chain gets a budget of
// items so that together they ask for ceil(R/page) pages, as one chain would.
//
// When the descending chain starts:
// - after the first ascending page, normally: exactly ceil(R/page) requests,
//   1 + ceil((pages - 1) / 2) round trips in sequence;
// - at once, beside the first ascending page, when the caller expects more
//   than a page (a bundle that manages more reports than fit in one page):
//   ceil(pages / 2) round trips, the same requests when the list does hold
//   more than a page, one more when it does not.
//
// The result is trusted only when it is provably the whole list: every page
// reported the same count, and the two chains together hold that many
// distinct ids. Otherwise (a report created or deleted meanwhile, a server
// whose count means something else, no count at all) the ascending chain
// reads on to its end, as a single chain would have, and that chain alone is
// the answer. createdAt is the sort key because no update can move an item in
// it, and a report created meanwhile is always the newest. What a count cannot
// see: one report created and another deleted between the first ascending
// page and the first descending one (test/api/read-both-ends.test.ts pins it).
import type { z } from 'zod';
import type { ApiClient, PageOptions, Query } from './client.js';

export interface BothEndsOptions {
  /** A sort key that is fixed for an item's life, and newest for a new item. */
  sortBy: string;
  query?: Query;
  /** How many items the caller expects (a hint): more than a page starts both chains at once. */
  expected?: number;
  /** Items kept as sent where zod would only reorder them (PageOptions.asIs). */
  asIs?: boolean;
  /** Tolerant reading (PageOptions.onInvalid); such items still count towards the whole. */
  onInvalid?: PageOptions['onInvalid'];
  /** Sees the `count` of every page (the caller may check the result against it). */
  onCount?: (count: unknown) => void;
}

/** Every item of the list, in ascending order of sortBy (ties: the server's order). */
export async function listFromBothEnds<T extends { id: number }>(client: ApiClient, path: string, schema: z.ZodType<T>, opts: BothEndsOptions): Promise<T[]> {
  const pageSize = client.pageSize;
  const base: Query = { ...opts.query, sortBy: opts.sortBy };
  const early = (opts.expected ?? 0) > pageSize;
  const asIs = opts.asIs === true;
  /** Ids of the items left out as unreadable: they count when the chains are checked for the whole list. */
  const oddIds = new Set<number>();
  const onInvalid: PageOptions['onInvalid'] = opts.onInvalid
    ? (item, why) => {
        const id = (item as { id?: unknown } | null)?.id;
        if (typeof id === 'number') oddIds.add(id);
        opts.onInvalid!(item, why);
      }
    : undefined;
  const tolerant = onInvalid ? { onInvalid } : {};

  // Budgets in items. Until a count is known: the first pages only when both
  // chains start at once (no page is read ahead on a guess), else the
  // ascending chain unbounded and no descending chain.
  let ascBudget = early ? pageSize : Infinity;
  let descBudget = early ? pageSize : 0;
  let split = early;
  let count: number | undefined;
  let countsAgree = true;
  let decided = false;
  const seeCount = (c: unknown) => {
    opts.onCount?.(c);
    if (typeof c === 'number' && Number.isSafeInteger(c) && c >= 0 && (count === undefined || c === count)) count = c;
    else {
      // No count, or one that moved: the ascending chain reads to the end.
      countsAgree = false;
      ascBudget = Infinity;
    }
  };
  /** Splits what the first page(s) leave by whole pages; the ascending chain takes the larger half. */
  const decide = (firstAscItems: number, ascMoreAfterFirst: boolean) => {
    decided = true;
    if (!countsAgree) return;
    const n = count!;
    if (early) {
      const pagesLeft = Math.ceil(Math.max(0, n - 2 * pageSize) / pageSize);
      ascBudget = pageSize + Math.ceil(pagesLeft / 2) * pageSize;
      descBudget = Math.max(0, n - ascBudget);
      return;
    }
    if (!ascMoreAfterFirst) return;
    const pagesLeft = Math.ceil((n - firstAscItems) / pageSize);
    if (pagesLeft < 2) return;
    split = true;
    descBudget = n - firstAscItems - Math.ceil(pagesLeft / 2) * pageSize;
    ascBudget = n - descBudget;
    startDesc();
  };

  let stop = false;
  const desc: T[] = [];
  let descDone: Promise<void> = Promise.resolve();
  const startDesc = () => {
    const pages = client.pages(path, schema, { ...base, sortDirection: 'DESC' }, {
      asIs,
      ...tolerant,
      budget: () => descBudget,
      onPage: (p) => {
        seeCount(p.count);
        // Decided on whichever first page is parsed first (before the next
        // page's text can arrive and be read ahead against an unset budget).
        if (!decided) decide(0, true);
      },
    });
    descDone = (async () => {
      for await (const items of pages) {
        for (const x of items) desc.push(x);
        if (!countsAgree || stop) break;
      }
    })();
    descDone.catch(() => (stop = true));
  };

  let ascCursor: string | undefined;
  let ascMore = false;
  const ascOpts: PageOptions = {
    asIs,
    ...tolerant,
    budget: () => ascBudget,
    onPage: (p) => {
      seeCount(p.count);
      ascMore = p.pageInfo?.hasNextPage === true;
      ascCursor = p.pageInfo?.endCursor ?? undefined;
      if (!decided) decide(p.items, ascMore);
    },
  };
  const ascPages = client.pages(path, schema, { ...base, sortDirection: 'ASC' }, ascOpts);
  const asc: T[] = [];
  try {
    const first = ascPages.next();
    if (early) startDesc();
    const r = await first;
    if (!r.done) for (const x of r.value) asc.push(x);
    if (!r.done && !stop) {
      for await (const items of ascPages) {
        for (const x of items) asc.push(x);
        if (stop) break;
      }
    }
  } catch (e) {
    stop = true;
    await descDone.catch(() => undefined);
    throw e;
  }
  await descDone;
  if (!split) return asc;

  const ascIds = new Set(asc.map((x) => x.id));
  const all = new Set(ascIds);
  for (const x of desc) all.add(x.id);
  for (const id of oddIds) all.add(id);
  if (countsAgree && all.size === count && ascIds.size === asc.length) {
    // The newest part, oldest first; where the chains met (a list shorter than
    // the two first pages), what the ascending chain already holds is skipped.
    for (let i = desc.length - 1; i >= 0; i--) if (!ascIds.has(desc[i]!.id)) asc.push(desc[i]!);
    return asc;
  }
  // Not provably whole: read on from where the ascending chain stopped.
  if (ascMore && ascCursor !== undefined) {
    const rest = client.pages(path, schema, { ...base, sortDirection: 'ASC' }, { after: ascCursor, asIs, ...tolerant });
    for await (const items of rest) {
      for (const x of items) asc.push(x);
    }
  }
  return asc;
}
