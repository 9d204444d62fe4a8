// Live state as DESIGN §4: the three lists, all pages, read in parallel. No
// per-resource GET: the lists carry every field the planner compares. Cost:
// ceil(R/page) + ceil(W/page) + ceil(A/page) requests, at least one each.
// Reports are read from both ends at once (read-both-ends.ts): the same
// requests, about half the round trips one after another. A bundle that
// manages more than a page of reports starts both ends with the first
// request (one request more if the deployment turns out to hold a page or less).
import type { LiveState } from '../core/model.js';
import type { ApiClient } from './client.js';
import { listFromBothEnds } from './read-both-ends.js';
import { paths, Report, UserAttribute, Workbook } from './wire.js';

/** What the caller expects to find (the bundle's own counts): a hint for how to read, never a filter. */
export interface LiveHints {
  reports?: number;
}

/** The largest `count` a list's pages stated: a read that ends with fewer items may have missed some. */
class CountWatch {
  max = -1;
  see = (c: unknown): void => {
    if (typeof c === 'number' && Number.isSafeInteger(c) && c > this.max) this.max = c;
  };
  short(name: string, got: number): string | undefined {
    return got < this.max ? `${name}: ${got} of ${this.max}` : undefined;
  }
}

export async function readLiveState(client: ApiClient, deploymentId: number, hints: LiveHints = {}): Promise<LiveState> {
  const reportCount = new CountWatch();
  const workbookCount = new CountWatch();
  const [reports, workbooks, userAttributes] = await Promise.all([
    // Kept as sent (no copy per report): the planner compares, hashes and shows values canonically.
    listFromBothEnds(client, paths.reports(deploymentId), Report, {
      sortBy: 'createdAt',
      asIs: true,
      onCount: reportCount.see,
      ...(hints.reports !== undefined ? { expected: hints.reports } : {}),
    }),
    (async () => {
      const all: Workbook[] = [];
      const pages = client.pages(paths.workbooks(deploymentId), Workbook, {}, { onPage: (p) => workbookCount.see(p.count) });
      for await (const items of pages) for (const w of items) all.push(w);
      return all;
    })(),
    client.listAll(paths.userAttributes(), UserAttribute),
  ]);
  const live: LiveState = { reports, workbooks, userAttributes };
  const shortReads = [reportCount.short('reports', reports.length), workbookCount.short('workbooks', workbooks.length)]
    .filter((x) => x !== undefined);
  if (shortReads.length > 0) live.shortReads = shortReads;
  return live;
}
