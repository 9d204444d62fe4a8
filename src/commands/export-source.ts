// The API client as export's source: the three lists, page by page, each
// page parsed by the client with the wire schemas. Nothing is buffered here.
import type { z } from 'zod';
import { paths, Report, UserAttribute, Workbook } from '../api/wire.js';
import { oddCollector } from '../api/live.js';
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
export function exportSourceOf(client: PagingClient, deploymentId: number, odd?: OddItem[]): ExportSource {
  const tolerant = (kind: OddItem['kind']) => (odd ? oddCollector(odd, kind) : undefined);
  return {
    workbooks: () => pagesOf<Workbook>(client, paths.workbooks(deploymentId), Workbook, tolerant('workbook')),
    reports: () => pagesOf<Report>(client, paths.reports(deploymentId), Report, tolerant('report')),
    userAttributes: () =>
      pagesOf<UserAttribute>(client, paths.userAttributes(), UserAttribute, tolerant('user-attribute')),
  };
}
