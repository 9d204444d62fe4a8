// The API client as export's source: the three lists, page by page, each
// page parsed by the client with the wire schemas. Nothing is buffered here.
import type { z } from 'zod';
import { paths, Report, UserAttribute, Workbook } from '../api/wire.js';
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

export function exportSourceOf(client: PagingClient, deploymentId: number): ExportSource {
  return {
    workbooks: () => pagesOf<Workbook>(client, paths.workbooks(deploymentId), Workbook),
    reports: () => pagesOf<Report>(client, paths.reports(deploymentId), Report),
    userAttributes: () => pagesOf<UserAttribute>(client, paths.userAttributes(), UserAttribute),
  };
}
