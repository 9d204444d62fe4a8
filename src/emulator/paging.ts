// Keyset (cursor) pagination. A cursor is opaque to clients: base64url of
// JSON {s: sort field, d: direction, k: sort key of the last item, i: its id}.
// The next page starts strictly after (k, i) in the sort order, found by
// binary search, so inserts and deletes between pages never shift it (no
// offsets), and a deleted cursor item is no problem.
import * as z from 'zod';
import type { Ctx } from './context.js';
import { badRequest } from './http-error.js';
import type { SortedIndex } from './sorted-index.js';

const CursorSchema = z.object({
  s: z.string(),
  d: z.enum(['ASC', 'DESC']),
  k: z.union([z.string(), z.number()]),
  i: z.number(),
});
export type Cursor = z.infer<typeof CursorSchema>;

export function encodeCursor(c: Cursor): string {
  return Buffer.from(JSON.stringify(c)).toString('base64url');
}

export function decodeCursor(raw: string, sortBy: string, dir: 'ASC' | 'DESC'): Cursor {
  let o: Cursor;
  try {
    if (!/^[A-Za-z0-9_-]+$/.test(raw)) throw new Error('charset');
    o = CursorSchema.parse(JSON.parse(Buffer.from(raw, 'base64url').toString('utf8')));
  } catch {
    throw badRequest('after: invalid cursor');
  }
  if (o.s !== sortBy || o.d !== dir) {
    throw badRequest(`after: the cursor was made for sortBy=${o.s} sortDirection=${o.d}, not ${sortBy} ${dir}`);
  }
  return o;
}

/** The cursor of an item in a list by id. */
export const idCursor = (d: 'ASC' | 'DESC') => (e: { id: number }) => encodeCursor({ s: 'id', d, k: e.id, i: e.id });

/** Where a list by id continues (`after`), as pageOf's comparator; undefined without one. */
export function afterId(query: URLSearchParams, dir: 'ASC' | 'DESC'): ((e: { id: number }) => number) | undefined {
  const after = query.get('after');
  if (after === null) return undefined;
  const { i } = decodeCursor(after, 'id', dir);
  return (e) => e.id - i;
}

/** A positive integer query parameter, or undefined when absent. */
export function intParam(query: URLSearchParams, name: string, min: number): number | undefined {
  const v = query.get(name);
  if (v === null) return undefined;
  if (!/^\d+$/.test(v.trim()) || Number(v) < min) {
    throw badRequest(`${name} must be an integer >= ${min}`);
  }
  return Number(v);
}

/** `first`, by default ctx.defaultPageSize, clamped to ctx.maxPageSize. */
export function pageSize(ctx: Ctx): number {
  return Math.min(intParam(ctx.query, 'first', 1) ?? ctx.defaultPageSize, ctx.maxPageSize);
}

export function countVisible<T>(items: readonly T[], visible: (e: T) => boolean): number {
  let count = 0;
  for (const e of items) if (visible(e)) count++;
  return count;
}

export interface PageResult<T> {
  items: T[];
  hasNextPage: boolean;
  hasPreviousPage: boolean;
}

/**
 * One page from a sorted index. `start` is the cursor's comparator result
 * function (e => cmp(e, cursor)); `visible` filters (access, query filters).
 * Work is O(log n + items scanned), where only invisible items add to it.
 */
export function pageOf<T>(
  index: SortedIndex<T>,
  opts: {
    dir: 'ASC' | 'DESC';
    first: number;
    after?: ((e: T) => number) | undefined;
    visible: (e: T) => boolean;
  },
): PageResult<T> {
  const items: T[] = [];
  const arr = index.items;
  const asc = opts.dir === 'ASC';
  let pos: number;
  if (opts.after) pos = asc ? index.upperBound(opts.after) : index.lowerBound(opts.after) - 1;
  else pos = asc ? 0 : arr.length - 1;
  const step = asc ? 1 : -1;
  const startPos = pos;
  let hasNextPage = false;
  for (; pos >= 0 && pos < arr.length; pos += step) {
    const e = arr[pos] as T;
    if (!opts.visible(e)) continue;
    if (items.length === opts.first) {
      hasNextPage = true;
      break;
    }
    items.push(e);
  }
  let hasPreviousPage = false;
  if (opts.after) {
    for (let p = startPos - step; p >= 0 && p < arr.length; p -= step) {
      if (opts.visible(arr[p] as T)) {
        hasPreviousPage = true;
        break;
      }
    }
  }
  return { items, hasNextPage, hasPreviousPage };
}
