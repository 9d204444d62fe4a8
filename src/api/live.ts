// Live state as DESIGN §4: the three lists, all pages, read in parallel. No
// per-resource GET: the lists carry every field the planner compares. Cost:
// ceil(R/page) + ceil(W/page) + ceil(A/page) requests, at least one each.
// Reports are read from both ends at once (read-both-ends.ts): the same
// requests, about half the round trips one after another. A bundle that
// manages more than a page of reports starts both ends with the first
// request (one request more if the deployment turns out to hold a page or less).
import type { LiveState } from '../core/model.js';
import type { ApiClient } from './client.js';
import { readAllWorkbooks, readFolderTree } from './folders.js';
import { listFromBothEnds } from './read-both-ends.js';
import { paths, Report, UserAttribute, type Folder } from './wire.js';

/** What the caller expects to find (the bundle's own counts): a hint for how to read, never a filter. */
export interface LiveHints {
  reports?: number;
  /** The bundle names folders by path: the folder tree is read, in parallel with the lists. */
  folders?: boolean;
}

export async function readLiveState(client: ApiClient, deploymentId: number, hints: LiveHints = {}): Promise<LiveState> {
  // Read once: at the start when the bundle names folders, else only if the
  // workbook list may leave out the workbooks in folders (api/folders.ts).
  let tree: Promise<Folder[]> | undefined;
  const folders = () => (tree ??= readFolderTree(client, deploymentId));
  if (hints.folders) folders().catch(() => undefined);
  const [reports, workbookRead, userAttributes] = await Promise.all([
    // Kept as sent (no copy per report): the planner compares, hashes and shows values canonically.
    listFromBothEnds(client, paths.reports(deploymentId), Report, { sortBy: 'createdAt', asIs: true, ...(hints.reports !== undefined ? { expected: hints.reports } : {}) }),
    readAllWorkbooks(client, deploymentId, folders),
    client.listAll(paths.userAttributes(), UserAttribute),
  ]);
  const live: LiveState = { reports, workbooks: workbookRead.workbooks, userAttributes };
  if (tree !== undefined) live.folders = await tree;
  return live;
}
