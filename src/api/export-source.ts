// The API client as export's source: the three lists, page by page, each
// page parsed by the client with the wire schemas. Nothing is buffered here
// but the workbooks of the folders, under a server whose workbook list holds
// only the root's. `export --into` exports what its plan already read
// (exportSourceFrom), reading only what that read left out.
import type { ApiClient } from './client.js';
import { readFolderTree, workbookPages } from './folders.js';
import { unreadableCollector, type LiveHints } from './live.js';
import { paths, Report, UserAttribute, type Folder } from '../domain/wire.js';
import type { ExportSource } from '../core/export/index.js';
import type { LiveState, UnreadableItem } from '../core/model.js';

/** `unreadable`, when given, collects the items this version of wsc cannot read; they are left out of the export. */
export function exportSourceOf(client: ApiClient, deploymentId: number, unreadable?: UnreadableItem[]): ExportSource {
  const tolerant = (kind: UnreadableItem['kind']) =>
    unreadable ? { onInvalid: unreadableCollector(unreadable, kind) } : {};
  // One tree read at most, shared by the workbook listing and the folder paths.
  let tree: Promise<Folder[]> | undefined;
  const folders = () => (tree ??= readFolderTree(client, deploymentId));
  // One collector for both reads of the workbooks: an unreadable workbook is named once.
  const workbookOpts = tolerant('workbook');
  return {
    workbooks: () => workbookPages(client, deploymentId, folders, workbookOpts),
    folders,
    reports: () => client.pages(paths.reports(deploymentId), Report, {}, tolerant('report')),
    userAttributes: () => client.pages(paths.userAttributes(), UserAttribute, {}, tolerant('user-attribute')),
  };
}

/**
 * The export of what a live read already holds (`export --into` exports what its plan read): the user attributes
 * and the folder tree are read here when that read left them out (`hints`).
 */
export function exportSourceFrom(live: LiveState, hints: LiveHints, client: ApiClient, deploymentId: number) {
  const once = <T>(items: T[]) =>
    async function* () {
      yield items;
    };
  const source: ExportSource = {
    workbooks: once(live.workbooks),
    reports: once(live.reports),
    userAttributes:
      hints.userAttributes === false
        ? () => exportSourceOf(client, deploymentId).userAttributes()
        : once(live.userAttributes),
    folders: () => (live.folders ? Promise.resolve(live.folders) : readFolderTree(client, deploymentId)),
  };
  return source;
}
