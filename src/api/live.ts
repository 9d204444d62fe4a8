// Live state: the three lists, all pages, read in parallel, one cursor chain
// each. No per-resource GET: the lists carry every field the planner
// compares. Cost: ceil(R/page) + ceil(W/page) + ceil(A/page) requests, at
// least one each. Reports are read in createdAt order: no update moves a
// report in it, so the chain cannot skip one that was there all along.
import type { DesiredState, LiveState, UnreadableItem } from '../core/model.js';
import type { ApiClient } from './client.js';
import { listFolders, readAllWorkbooks, readFolderTree } from './folders.js';
import { normalizeSlug, paths, Report, UserAttribute, type Folder } from '../domain/wire.js';

/** The order reports are read in: no update moves a report in it, so one chain misses none. */
export const REPORT_ORDER = { sortBy: 'createdAt', sortDirection: 'ASC' } as const;

/** What the caller expects to find (the bundle's own counts): a hint for how to read, never a filter. */
export interface LiveHints {
  /**
   * false: the account's user attributes are not read (the bundle manages
   * none). Reading them may need an admin, and a token that may not is no
   * reason to fail a plan that does not touch them. Default true.
   */
  userAttributes?: boolean;
  /** The bundle names folders by path: the folder tree is read, in parallel with the lists. */
  folders?: boolean;
}

/** What to read for this bundle: user attributes only when it manages one, the folder tree when it names a folder. */
export function hintsFor(desired: DesiredState): LiveHints {
  return {
    userAttributes: desired.userAttributes.length > 0,
    folders: [...desired.workbooks, ...desired.reports].some((r) => r.folder !== undefined && r.folder.length > 0),
  };
}

/**
 * Collects the items a list holds that this version of wsc cannot read
 * (tolerant reading): one entry per item, even when lists read as one (the
 * workbooks of the root and of each folder) list it twice.
 */
export function unreadableCollector(
  unreadable: UnreadableItem[],
  kind: UnreadableItem['kind'],
): (item: unknown, why: string) => void {
  const seen = new Set<number>();
  const key = kind === 'report' ? 'publicId' : kind === 'workbook' ? 'slug' : 'name';
  return (item, why) => {
    const o = (item !== null && typeof item === 'object' ? item : {}) as Record<string, unknown>;
    const id = typeof o['id'] === 'number' ? o['id'] : undefined;
    if (id !== undefined) {
      if (seen.has(id)) return;
      seen.add(id);
    }
    const raw = o[key];
    const entry: UnreadableItem = { kind, why };
    if (id !== undefined) entry.id = id;
    if (typeof raw === 'string') entry.identity = kind === 'workbook' ? normalizeSlug(raw) : raw;
    unreadable.push(entry);
  };
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

/**
 * `hints` may come later (a promise): the reports and workbooks are asked for at once, the user attributes
 * and the folder tree once the hints say whether they are needed.
 */
export async function readLiveState(
  client: ApiClient,
  deploymentId: number,
  hints: LiveHints | Promise<LiveHints> = {},
): Promise<LiveState> {
  const unreadable: UnreadableItem[] = [];
  const reportCount = new CountWatch();
  const workbookCount = new CountWatch();
  // Read once: at the start when the bundle names folders, else only if the
  // workbook list may leave out the workbooks in folders (api/folders.ts).
  // The root level is asked for at once either way: a deployment without a
  // foldered workbook needs it, and waiting for the workbook list first would
  // put a round trip after that list's.
  const root = listFolders(client, deploymentId, null);
  root.catch(() => undefined);
  let tree: Promise<Folder[]> | undefined;
  const folders = () => (tree ??= readFolderTree(client, deploymentId, undefined, root));
  const hinted = Promise.resolve(hints);
  hinted.then((h) => (h.folders ? folders() : undefined)).catch(() => undefined);
  const [reports, workbookRead, userAttributes] = await Promise.all([
    // Kept as sent (no copy per report): the planner compares, hashes and shows values canonically.
    client.listAll(paths.reports(deploymentId), Report, REPORT_ORDER, {
      asIs: true,
      onInvalid: unreadableCollector(unreadable, 'report'),
      onPage: (p) => reportCount.see(p.count),
    }),
    readAllWorkbooks(client, deploymentId, folders, {
      onPage: (p) => workbookCount.see(p.count),
      onInvalid: unreadableCollector(unreadable, 'workbook'),
    }),
    hinted.then((h) =>
      h.userAttributes === false
        ? []
        : client.listAll(
            paths.userAttributes(),
            UserAttribute,
            {},
            { onInvalid: unreadableCollector(unreadable, 'user-attribute') },
          ),
    ),
  ]);
  const workbooks = workbookRead.workbooks;
  const live: LiveState = { reports, workbooks, userAttributes };
  if (tree !== undefined) live.folders = await tree;
  if (unreadable.length > 0) live.unreadable = unreadable;
  // Items left out as unreadable were still read: they count towards the whole.
  const unreadableOf = (kind: UnreadableItem['kind']) => unreadable.filter((o) => o.kind === kind).length;
  const shortReads = [
    reportCount.short('reports', reports.length + unreadableOf('report')),
    workbookCount.short('workbooks', workbooks.length + unreadableOf('workbook')),
  ].filter((x) => x !== undefined);
  if (shortReads.length > 0) live.shortReads = shortReads;
  return live;
}
