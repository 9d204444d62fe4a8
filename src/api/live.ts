// Live state as DESIGN §4: the three lists, all pages, read in parallel. No
// per-resource GET: the lists carry every field the planner compares. Cost:
// ceil(R/page) + ceil(W/page) + ceil(A/page) requests, at least one each.
// Reports are read from both ends at once (read-both-ends.ts): the same
// requests, about half the round trips one after another.
import type { LiveState } from '../core/model.js';
import type { ApiClient } from './client.js';
import { listFromBothEnds } from './read-both-ends.js';
import { paths, Report, UserAttribute, Workbook } from './wire.js';

export async function readLiveState(client: ApiClient, deploymentId: number): Promise<LiveState> {
  const [reports, workbooks, userAttributes] = await Promise.all([
    listFromBothEnds(client, paths.reports(deploymentId), Report, { sortBy: 'createdAt' }),
    client.listAll(paths.workbooks(deploymentId), Workbook),
    client.listAll(paths.userAttributes(), UserAttribute),
  ]);
  return { reports, workbooks, userAttributes };
}
