// Keyset (cursor) pagination. A cursor is opaque to clients: base64url of
// JSON {s: sort field, d: direction, k: sort key of the last item, i: its id}.
// The next page starts strictly after (k, i) in the sort order, found by
// binary search, so inserts and deletes between pages never shift it (no
// offsets), and a deleted cursor item is no problem.
import { badRequest } from './http-error.js';
import type { SortedIndex } from './sorted-index.js';

export interface Cursor {
  s: string;
  d: 'ASC' | 'DESC';
  k: string | number;
  i: number;
}

export function encodeCursor(c: Cursor): string {
  return Buffer.from(JSON.stringify(c)).toString('base64url');
}

export function decodeCursor(raw: string, sortBy: string, dir: 'ASC' | 'DESC'): Cursor {
  let c: unknown;
  try {
    if (!/^[A-Za-z0-9_-]+$/.test(raw)) throw new Error('charset');
    c = JSON.parse(Buffer.from(raw, 'base64url').toString('utf8'));
  } catch {
    throw badRequest('after: invalid cursor');
  }
  const o = c as Partial<Cursor> | null;
  if (
    !o ||
    typeof o !== 'object' ||
    typeof o.s !== 'string' ||
    (o.d !== 'ASC' && o.d !== 'DESC') ||
    (typeof o.k !== 'string' && typeof o.k !== 'number') ||
    typeof o.i !== 'number'
  ) {
    throw badRequest('after: invalid cursor');
  }
  if (o.s !== sortBy || o.d !== dir) {
    throw badRequest(`after: the cursor was made for sortBy=${o.s} sortDirection=${o.d}, not ${sortBy} ${dir}`);
  }
  return o as Cursor;
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
    after?: (e: T) => number;
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
