// Live state as DESIGN §4: the three lists, all pages, read in parallel. No
// per-resource GET: the lists carry every field the planner compares. Cost:
// ceil(R/page) + ceil(W/page) + ceil(A/page) requests, at least one each.
import type { LiveState } from '../core/model.js';
import type { ApiClient } from './client.js';
import { paths, Report, UserAttribute, Workbook } from './wire.js';

export async function readLiveState(client: ApiClient, deploymentId: number): Promise<LiveState> {
  const [reports, workbooks, userAttributes] = await Promise.all([
    client.listAll(paths.reports(deploymentId), Report),
    client.listAll(paths.workbooks(deploymentId), Workbook),
    client.listAll(paths.userAttributes(), UserAttribute),
  ]);
  return { reports, workbooks, userAttributes };
}
