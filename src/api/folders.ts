// Folder reads. GET /folders lists one level (by `parentId`), so the tree is
// read level by level, the folders of a level in parallel. And whether
// GET /workbooks without `folderId` lists every workbook or only the root
// level is not stated: wsc reads correctly under both (readAllWorkbooks), and
// detectWorkbookListing says which one a server does.
import type { ApiClient, PageOptions } from './client.js';
import { paths, Folder, Workbook } from '../domain/wire.js';
import { sharedBound } from './list-bound.js';

/** Which folders to descend into, by their path of names; all when omitted. */
export type Descend = (path: readonly string[]) => boolean;

/** Lists at once while walking the tree (the client's pool bounds them further). */
const PARALLEL_LISTS = 8;

async function mapBounded<T, R>(items: readonly T[], limit: number, f: (t: T) => Promise<R>): Promise<R[]> {
  const out = new Array<R>(items.length);
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const i = next++;
      out[i] = await f(items[i]!);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  return out;
}

/** One level of the tree; `label`: the resource it is read for (--verbose). */
export function listFolders(client: ApiClient, deploymentId: number, parentId: number | null, label?: string) {
  const query = parentId === null ? {} : { parentId };
  return client.listAll(paths.folders(deploymentId), Folder, query, label === undefined ? {} : { label });
}

/**
 * The folder tree (or the branches `descend` keeps): every folder read, parents before children.
 * `root`: the root level's list, when the caller asked for it already.
 */
export async function readFolderTree(
  client: ApiClient,
  deploymentId: number,
  descend?: Descend,
  root?: Promise<Folder[]>,
): Promise<Folder[]> {
  const all: Folder[] = [];
  const seen = new Set<number>();
  // Each level is a list of its own: a server inventing ever deeper folders is stopped by the tree's total.
  const path = paths.folders(deploymentId);
  const count = sharedBound(path, `GET ${path} (the folder tree)`, client.maxListItems);
  let level: { id: number | null; path: string[] }[] = [{ id: null, path: [] }];
  while (level.length > 0) {
    const lists = await mapBounded(level, PARALLEL_LISTS, (p) =>
      p.id === null && root !== undefined ? root : listFolders(client, deploymentId, p.id),
    );
    const next: { id: number | null; path: string[] }[] = [];
    lists.forEach((folders, i) => {
      count(folders.length);
      for (const f of folders) {
        // A server that ignored parentId, or a cycle, must not make this loop forever.
        if (seen.has(f.id)) continue;
        seen.add(f.id);
        all.push(f);
        const path = [...level[i]!.path, f.name];
        if (descend === undefined || descend(path)) next.push({ id: f.id, path });
      }
    });
    level = next;
  }
  return all;
}

/**
 * What GET /workbooks without `folderId` holds: `all` (workbooks in folders
 * too), `root-only`, or `unknown` (no workbook in any folder, so nothing
 * tells the two apart, and nothing depends on it).
 */
export type WorkbookListing = 'all' | 'root-only' | 'unknown';

export interface WorkbookRead {
  workbooks: Workbook[];
  listing: WorkbookListing;
  /** The whole folder tree, when it had to be read. */
  folders?: Folder[];
}

/** What a read of the workbooks found out about the listing (see workbookPages). */
export interface ListingSeen {
  listing: WorkbookListing;
  /** The whole folder tree, when it had to be read. */
  folders?: Folder[];
}

/**
 * Every workbook once, page by page, whichever listing the server has. The
 * root listing comes first; when it shows a workbook in a folder, it lists
 * them all. Otherwise the folder tree is read (`folders` gives it, when the
 * caller reads it anyway) and each folder is listed: under a root-only server
 * that is where the foldered workbooks are; with no folder, it costs one
 * request. `seen` learns the listing.
 */
export async function* workbookPages(
  client: ApiClient,
  deploymentId: number,
  folders?: () => Promise<Folder[]>,
  opts?: PageOptions,
  seen: ListingSeen = { listing: 'unknown' },
): AsyncGenerator<Workbook[]> {
  const path = paths.workbooks(deploymentId);
  const ids = new Set<number>();
  for await (const page of client.pages(path, Workbook, {}, opts)) {
    for (const w of page) {
      ids.add(w.id);
      if (w.folderId !== null && w.folderId !== undefined) seen.listing = 'all';
    }
    yield page;
  }
  if (seen.listing === 'all') return;
  const tree = await (folders ? folders() : readFolderTree(client, deploymentId));
  seen.folders = tree;
  const count = sharedBound(path, `GET ${path}?folderId=… (the workbooks of every folder)`, client.maxListItems);
  const perFolder = await mapBounded(tree, PARALLEL_LISTS, (f) =>
    client.listAll(
      path,
      Workbook,
      { folderId: f.id },
      {
        ...opts,
        onPage: (p) => {
          opts?.onPage?.(p);
          count(p.items);
        },
      },
    ),
  );
  for (const list of perFolder) {
    const fresh = list.filter((w) => !ids.has(w.id));
    for (const w of fresh) ids.add(w.id);
    if (fresh.length === 0) continue;
    seen.listing = 'root-only';
    yield fresh;
  }
}

/** Every workbook, whichever listing the server has (workbookPages, collected). */
export async function readAllWorkbooks(
  client: ApiClient,
  deploymentId: number,
  folders?: () => Promise<Folder[]>,
  opts?: PageOptions,
): Promise<WorkbookRead> {
  const seen: ListingSeen = { listing: 'unknown' };
  const workbooks: Workbook[] = [];
  for await (const page of workbookPages(client, deploymentId, folders, opts, seen)) workbooks.push(...page);
  return { workbooks, ...seen };
}

/** Which workbook listing the server has (one line of `wsc doctor`). Read-only. */
export async function detectWorkbookListing(client: ApiClient, deploymentId: number): Promise<WorkbookListing> {
  return (await readAllWorkbooks(client, deploymentId)).listing;
}
