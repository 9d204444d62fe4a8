// What Cube checks of a query's format before it plans it, decided from the
// query alone (and `/v1/meta` for the roles of a filter group), in Cube's
// words (contract-cube/queries.json records the real server's answers): a
// query that selects nothing, a limit or offset that is not an integer, an
// order direction other than asc or desc, a filter operator Cube does not
// know or one without the values it needs, a time dimension entry with no
// dimension, a dimension and a measure in one and/or group. Not decided (no
// false alarm risked on a list wsc would have to keep in step): unknown keys
// and time zones.
import type { JsonValue } from '../json.js';
import type { DocPath } from './members.js';
import { resolveName, type ModelIndex } from './model-index.js';

/** Filter operators that take values. */
const WITH_VALUES = new Set([
  'equals',
  'notEquals',
  'contains',
  'notContains',
  'startsWith',
  'notStartsWith',
  'endsWith',
  'notEndsWith',
  'gt',
  'gte',
  'lt',
  'lte',
  'inDateRange',
  'notInDateRange',
  'beforeDate',
  'beforeOrOnDate',
  'afterDate',
  'afterOrOnDate',
]);
const OPERATORS = new Set([...WITH_VALUES, 'set', 'notSet', 'measureFilter']);
const DIRECTIONS = new Set(['asc', 'desc']);

export interface FormatIssue {
  /** The offending value's path inside the query. */
  path: DocPath;
  message: string;
}

const isObj = (v: unknown): v is { [k: string]: JsonValue } => v !== null && typeof v === 'object' && !Array.isArray(v);
const invalid = (what: string) => `Invalid query format: ${what}`;

function selectsSomething(q: { [k: string]: JsonValue }): boolean {
  const some = (v: JsonValue | undefined) => Array.isArray(v) && v.length > 0;
  const grained = Array.isArray(q['timeDimensions'])
    ? q['timeDimensions'].some((t) => isObj(t) && typeof t['granularity'] === 'string')
    : false;
  return some(q['measures']) || some(q['dimensions']) || grained;
}

function numberIssues(q: { [k: string]: JsonValue }, out: FormatIssue[]): void {
  for (const key of ['limit', 'offset'] as const) {
    const v = q[key];
    if (v === undefined || v === null) continue;
    if (typeof v !== 'number') out.push({ path: [key], message: invalid(`"${key}" must be a number`) });
    else if (!Number.isInteger(v)) out.push({ path: [key], message: invalid(`"${key}" must be an integer`) });
  }
}

function orderIssues(order: JsonValue | undefined, out: FormatIssue[]): void {
  if (isObj(order)) {
    for (const [k, dir] of Object.entries(order))
      if (typeof dir !== 'string' || !DIRECTIONS.has(dir))
        out.push({ path: ['order', k], message: invalid(`"order.${k}" must be one of [asc, desc]`) });
  } else if (Array.isArray(order))
    order.forEach((pair, i) => {
      if (Array.isArray(pair) && pair.length >= 2 && (typeof pair[1] !== 'string' || !DIRECTIONS.has(pair[1])))
        out.push({ path: ['order', i, 1], message: invalid(`"order[${i}][1]" must be one of [asc, desc]`) });
    });
}

/** A filter and its groups; `top` is the index in `filters` Cube's message names. */
function filterIssues(f: JsonValue, path: DocPath, top: number, index: ModelIndex, out: FormatIssue[]): void {
  if (!isObj(f)) return;
  for (const group of ['and', 'or'] as const) {
    const list = f[group];
    if (!Array.isArray(list)) continue;
    const kinds = new Set<string>();
    list.forEach((g, i) => {
      filterIssues(g, [...path, group, i], top, index, out);
      const m = isObj(g) ? (g['member'] ?? g['dimension']) : undefined;
      const kind = typeof m === 'string' ? resolveName(index, m)?.member.kind : undefined;
      if (kind === 'measure' || kind === 'dimension') kinds.add(kind);
    });
    if (kinds.size === 2)
      out.push({ path: [...path, group], message: `You cannot use dimension and measure in same condition` });
  }
  if (!Object.hasOwn(f, 'member') && !Object.hasOwn(f, 'dimension')) return;
  const op = f['operator'];
  if (typeof op !== 'string' || !OPERATORS.has(op))
    out.push({
      path: [...path, 'operator'],
      message: invalid(`"filters[${top}]" does not match any of the allowed types`),
    });
  else if (WITH_VALUES.has(op) && (f['values'] === undefined || f['values'] === null))
    out.push({ path: [...path, 'operator'], message: `Values required for filter: ${JSON.stringify(f)}` });
}

/** Cube's format errors of a query (the jsonQuery's parsed value), each at its path. */
export function formatIssues(query: JsonValue, index: ModelIndex): FormatIssue[] {
  if (!isObj(query)) return [];
  const out: FormatIssue[] = [];
  if (!selectsSomething(query))
    out.push({
      path: [],
      message:
        'Query should contain either measures, dimensions or timeDimensions with granularities in order to be valid',
    });
  numberIssues(query, out);
  orderIssues(query['order'], out);
  if (Array.isArray(query['filters']))
    query['filters'].forEach((f, i) => filterIssues(f, ['filters', i], i, index, out));
  if (Array.isArray(query['timeDimensions']))
    query['timeDimensions'].forEach((t, i) => {
      if (isObj(t) && typeof t['dimension'] !== 'string')
        out.push({ path: ['timeDimensions', i], message: invalid(`"timeDimensions[${i}].dimension" is required`) });
    });
  return out;
}
