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
  /**
   * false: the account's user attributes are not read (the bundle manages
   * none). Reading them may need an admin, and a token that may not is no
   * reason to fail a plan that does not touch them. Default true.
   */
  userAttributes?: boolean;
}

export async function readLiveState(client: ApiClient, deploymentId: number, hints: LiveHints = {}): Promise<LiveState> {
  const [reports, workbooks, userAttributes] = await Promise.all([
    // Kept as sent (no copy per report): the planner compares, hashes and shows values canonically.
    listFromBothEnds(client, paths.reports(deploymentId), Report, { sortBy: 'createdAt', asIs: true, ...(hints.reports !== undefined ? { expected: hints.reports } : {}) }),
    client.listAll(paths.workbooks(deploymentId), Workbook),
    hints.userAttributes === false ? Promise.resolve([]) : client.listAll(paths.userAttributes(), UserAttribute),
  ]);
  return { reports, workbooks, userAttributes };
}
