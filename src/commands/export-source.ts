// The API client as export's source: the three lists, page by page, each
// page parsed by the client with the wire schemas. Nothing is buffered here.
import type { z } from 'zod';
import type { ApiClient } from '../api/client.js';
import { readAllWorkbooks, readFolderTree } from '../api/folders.js';
import { oddCollector } from '../api/live.js';
import { paths, Report, UserAttribute, type Folder } from '../domain/wire.js';
import type { ExportSource } from '../core/export.js';
import type { OddItem } from '../core/model.js';

/** The part of the API client export uses (api/connect.ts provides it). */
export interface PagingClient {
  pages(
    path: string,
    itemSchema: z.ZodType,
    query?: Record<string, string | number>,
    opts?: { onInvalid?: (item: unknown, why: string) => void },
  ): AsyncIterable<unknown>;
}

function itemsOf<T>(page: unknown): T[] {
  if (Array.isArray(page)) return page as T[];
  const items = (page as { items?: unknown } | null)?.items;
  return Array.isArray(items) ? (items as T[]) : [];
}

async function* pagesOf<T>(
  client: PagingClient,
  path: string,
  schema: z.ZodType,
  onInvalid?: (item: unknown, why: string) => void,
): AsyncGenerator<T[]> {
  for await (const page of client.pages(path, schema, {}, onInvalid ? { onInvalid } : {})) yield itemsOf<T>(page);
}

/** `odd`, when given, collects the items this version of wsc cannot read; they are left out of the export. */
export function exportSourceOf(client: PagingClient & ApiClient, deploymentId: number, odd?: OddItem[]): ExportSource {
  const tolerant = (kind: OddItem['kind']) => (odd ? oddCollector(odd, kind) : undefined);
  // One tree read at most, shared by the workbook listing and the folder paths.
  let tree: Promise<Folder[]> | undefined;
  const folders = () => (tree ??= readFolderTree(client, deploymentId));
  return {
    // Whole (workbooks are few): the listing may need a list per folder (api/folders.ts).
    workbooks: async function* () {
      const onInvalid = tolerant('workbook');
      yield (await readAllWorkbooks(client, deploymentId, folders, onInvalid ? { onInvalid } : undefined)).workbooks;
    },
    folders,
    reports: () => pagesOf<Report>(client, paths.reports(deploymentId), Report, tolerant('report')),
    userAttributes: () =>
      pagesOf<UserAttribute>(client, paths.userAttributes(), UserAttribute, tolerant('user-attribute')),
  };
}
