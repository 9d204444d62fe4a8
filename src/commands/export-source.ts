// The API client as export's source: the three lists, page by page, each
// page parsed by the client with the wire schemas. Nothing is buffered here.
import type { z } from 'zod';
import type { ApiClient } from '../api/client.js';
import { readAllWorkbooks, readFolderTree } from '../api/folders.js';
import { paths, Report, UserAttribute, type Folder } from '../api/wire.js';
import type { ExportSource } from '../core/export.js';

/** The part of the API client export uses (api/connect.ts provides it). */
export interface PagingClient {
  pages(path: string, itemSchema: z.ZodType, query?: Record<string, string | number>): AsyncIterable<unknown>;
}

function itemsOf<T>(page: unknown): T[] {
  if (Array.isArray(page)) return page as T[];
  const items = (page as { items?: unknown } | null)?.items;
  return Array.isArray(items) ? (items as T[]) : [];
}

async function* pagesOf<T>(client: PagingClient, path: string, schema: z.ZodType): AsyncGenerator<T[]> {
  for await (const page of client.pages(path, schema)) yield itemsOf<T>(page);
}

export function exportSourceOf(client: PagingClient & ApiClient, deploymentId: number): ExportSource {
  // One tree read at most, shared by the workbook listing and the folder paths.
  let tree: Promise<Folder[]> | undefined;
  const folders = () => (tree ??= readFolderTree(client, deploymentId));
  return {
    // Whole (workbooks are few): the listing may need a list per folder (api/folders.ts).
    workbooks: async function* () {
      yield (await readAllWorkbooks(client, deploymentId, folders)).workbooks;
    },
    folders,
    reports: () => pagesOf<Report>(client, paths.reports(deploymentId), Report),
    userAttributes: () => pagesOf<UserAttribute>(client, paths.userAttributes(), UserAttribute),
  };
}
