// The Core Data API's data routes on the emulator (docs/emulator.md):
// `POST /cubejs-api/v1/load` with `{query}` (or `GET ?query=`) answers
// made-up rows for a query of its model (data-rows.ts), with Cube's
// annotation, numbers as strings; a query naming what the model lacks is
// refused as Cube refuses it (HTTP 400, `{error}`). Under the fault option
// `continue-wait=N` the first N asks of each query answer
// `{error: "Continue wait"}` (HTTP 200), as a real Cube does while the
// warehouse works. `POST /cubejs-api/v1/cubesql` with `{query: "<SQL>"}`
// runs a small part of Cube's SQL API: a SELECT of members,
// `MEASURE(member)`, `DATE_TRUNC('<granularity>', member)` and other
// expressions over one member, FROM a cube, with LIMIT; WHERE, GROUP BY and
// ORDER BY are read past. It answers newline-delimited JSON (a schema line,
// then data), or refuses what it cannot read with Cube's `{error}`.
import type { CubeModel } from './cube-model.js';
import { planQuery } from './cube-query.js';
import {
  hasCube,
  memberOf,
  rowsOf,
  STANDARD_GRANULARITIES,
  timeSeries,
  dimensionValues,
  type Axis,
  type ModelMember,
} from './data-rows.js';
import { HttpError, notFound } from './http-error.js';
import { authorize } from './routes-core-data-api.js';
import type { Store } from './store.js';
import type { DataModelState } from './types.js';
import { JsonText } from './render.js';

/** A refusal with Cube's own body: `{ error }`, no NestJS members. */
class CubeError extends HttpError {
  override body(): Record<string, unknown> {
    return { error: this.message };
  }
}
const userError = (m: string) => new CubeError(400, m);

/** Cube's default and largest row limit. */
const DEFAULT_LIMIT = 10_000;
const MAX_LIMIT = 50_000;

export function isDataPath(path: string): boolean {
  return /^\/cubejs-api\/v1\/(load|cubesql)\/?$/.test(path);
}

/** How many times each query has been asked, per model (for `continue-wait`). */
const asked = new WeakMap<object, Map<string, number>>();

interface DataRequest {
  /** The whole model (hidden members too: Cube answers queries that name them). */
  model: CubeModel | null;
  method: string;
  url: URL;
  body: unknown;
  /** `continue-wait=N`: the first N asks of each query wait. */
  continueWait: number;
}

/** One request to `/v1/load` or `/v1/cubesql`: the deployment token checked as `/v1/meta` checks it, then answered. */
export function dataApi(
  state: DataModelState,
  store: Store,
  req: { method: string; url: URL; auth: string | undefined; body: { parsed: unknown; error?: HttpError } },
  faults: { continueWait?: number } | undefined,
): unknown {
  authorize(state, store, req.auth);
  if (req.body.error) throw req.body.error;
  const { method, url } = req;
  return dataRoute({ model: state.model, method, url, body: req.body.parsed, continueWait: faults?.continueWait ?? 0 });
}

function dataRoute(req: DataRequest): unknown {
  const { model, method, url } = req;
  if (model === null) throw notFound('The deployment has no data model');
  const body = (req.body ?? {}) as Record<string, unknown>;
  if (url.pathname.includes('/cubesql')) {
    if (method !== 'POST') throw notFound(`Cannot ${method} ${url.pathname}`);
    if (typeof body['query'] !== 'string') throw userError('Invalid query format: "query" must be a SQL text');
    return new JsonText(Buffer.from(cubeSql(model, body['query']), 'utf8'));
  }
  let query: unknown;
  if (method === 'GET') {
    const raw = url.searchParams.get('query');
    if (raw === null) throw userError('Query param is required');
    try {
      query = JSON.parse(raw);
    } catch {
      throw userError(`Invalid query format: not JSON`);
    }
  } else if (method === 'POST') query = body['query'];
  else throw notFound(`Cannot ${method} ${url.pathname}`);
  if (query === null || typeof query !== 'object' || Array.isArray(query))
    throw userError('Invalid query format: "query" must be an object');
  const key = JSON.stringify(query);
  let counts = asked.get(model);
  if (!counts) asked.set(model, (counts = new Map<string, number>()));
  const n = (counts.get(key) ?? 0) + 1;
  counts.set(key, n);
  // Refused as the planner refuses it (`/v1/sql`'s own verdict and words), before anything waits.
  planQuery(model, query);
  if (n <= req.continueWait) return { error: 'Continue wait' };
  return load(model, query as Record<string, unknown>);
}

function names(q: Record<string, unknown>, k: string): string[] {
  const v = q[k];
  if (v === undefined) return [];
  if (!Array.isArray(v) || v.some((x) => typeof x !== 'string'))
    throw userError(`Invalid query format: "${k}" must be an array of member names`);
  return v as string[];
}

/** The member, or Cube's refusal naming what is missing. */
function need(model: CubeModel, name: string, role: ModelMember['role']): ModelMember {
  const [cube, member] = name.split('.');
  if (member === undefined) throw userError(`Invalid query format: "${name}" is not a member name (cube.member)`);
  if (!hasCube(model, cube!)) throw userError(`Cube '${cube}' not found for path '${name}'`);
  const m = memberOf(model, name);
  if (m === undefined) throw userError(`'${member}' not found for path '${name}'`);
  if (m.role !== role) throw userError(`'${name}' is a ${m.role}, not a ${role}`);
  return m;
}

function granularity(dim: string, g: string, m: ModelMember): string {
  if (m.type !== 'time') throw userError(`'${dim}' is not a time dimension: it has no granularity '${g}'`);
  if (!STANDARD_GRANULARITIES.includes(g) && !m.granularities.includes(g))
    throw userError(`Granularity "${g}" does not exist in dimension ${dim}`);
  return g;
}

const annotationOf = (m: ModelMember) => ({ title: m.title, shortTitle: m.title, type: m.type });

function load(model: CubeModel, q: Record<string, unknown>): unknown {
  const measures = names(q, 'measures').map((key) => ({ key, member: need(model, key, 'measure') }));
  for (const s of names(q, 'segments')) need(model, s, 'segment');
  const axes: Axis[] = [];
  const annotation = { measures: {} as Record<string, unknown>, dimensions: {} as Record<string, unknown> };
  const timeDimensions: Record<string, unknown> = {};
  for (const key of names(q, 'dimensions')) {
    const parts = key.split('.');
    const base = parts.slice(0, 2).join('.');
    const m = need(model, base, 'dimension');
    if (parts.length > 2) {
      const g = granularity(base, parts.slice(2).join('.'), m);
      axes.push({ key, alias: base, values: timeSeries(g, undefined) });
      timeDimensions[key] = annotationOf(m);
    } else {
      axes.push(
        m.type === 'time'
          ? { key, alias: key, values: dimensionValues(key, m) }
          : { key, values: dimensionValues(key, m) },
      );
      annotation.dimensions[key] = annotationOf(m);
    }
  }
  const tds = q['timeDimensions'] ?? [];
  if (!Array.isArray(tds)) throw userError('Invalid query format: "timeDimensions" must be an array');
  for (const td of tds as Record<string, unknown>[]) {
    const dim = td?.['dimension'];
    if (typeof dim !== 'string') throw userError('Invalid query format: a time dimension needs "dimension"');
    const m = need(model, dim, 'dimension');
    if (m.type !== 'time') throw userError(`'${dim}' is not a time dimension`);
    const g = td['granularity'];
    if (g === undefined || g === null) continue;
    if (typeof g !== 'string') throw userError(`Invalid query format: granularity of ${dim} must be a text`);
    granularity(dim, g, m);
    const key = `${dim}.${g}`;
    axes.unshift({ key, alias: dim, values: timeSeries(g, td['dateRange']) });
    timeDimensions[key] = annotationOf(m);
    timeDimensions[dim] = annotationOf(m);
  }
  for (const m of measures) annotation.measures[m.key] = annotationOf(m.member);
  const rawLimit = q['limit'];
  if (rawLimit !== undefined && (typeof rawLimit !== 'number' || !Number.isInteger(rawLimit) || rawLimit < 1))
    throw userError('Invalid query format: "limit" must be a positive integer');
  if (typeof rawLimit === 'number' && rawLimit > MAX_LIMIT)
    throw userError(`Invalid query format: "limit" must be at most ${MAX_LIMIT}`);
  const data = rowsOf(axes, measures, rawLimit ?? DEFAULT_LIMIT);
  sortRows(data, q['order']);
  return {
    query: { ...q, limit: rawLimit ?? DEFAULT_LIMIT, timezone: 'UTC' },
    data,
    annotation: { ...annotation, segments: {}, timeDimensions },
    dataSource: 'default',
    dbType: 'emulator',
    ...(q['total'] === true ? { total: data.length } : {}),
  };
}

/** `order` as Cube reads it: `{member: dir}` or `[[member, dir]]`; numbers compare as numbers. */
function sortRows(rows: Record<string, string>[], order: unknown): void {
  const entries: [string, string][] = Array.isArray(order)
    ? order.filter((e): e is [string, string] => Array.isArray(e) && typeof e[0] === 'string')
    : order !== null && typeof order === 'object'
      ? Object.entries(order as Record<string, string>)
      : [];
  const keys = entries.filter(([k]) => rows[0] !== undefined && k in rows[0]);
  if (keys.length === 0) return;
  const cmp = (a: string, b: string) => {
    const [x, y] = [Number(a), Number(b)];
    return Number.isFinite(x) && Number.isFinite(y) ? x - y : a < b ? -1 : a > b ? 1 : 0;
  };
  rows.sort((a, b) => {
    for (const [k, dir] of keys) {
      const c = cmp(a[k]!, b[k]!);
      if (c !== 0) return dir === 'desc' ? -c : c;
    }
    return 0;
  });
}

/** One SELECT item: its column name and what it reads. */
interface SqlColumn {
  name: string;
  member: string;
  measure: boolean;
  granularity?: string;
}

/** The top-level comma-separated parts of a text (commas inside parentheses or quotes kept). */
function splitTop(s: string): string[] {
  const out: string[] = [];
  let depth = 0;
  let quote = false;
  let start = 0;
  for (let i = 0; i < s.length; i++) {
    const c = s[i];
    if (c === "'") quote = !quote;
    else if (!quote && c === '(') depth++;
    else if (!quote && c === ')') depth--;
    else if (!quote && depth === 0 && c === ',') {
      out.push(s.slice(start, i));
      start = i + 1;
    }
  }
  out.push(s.slice(start));
  return out.map((x) => x.trim()).filter((x) => x !== '');
}

function sqlColumn(item: string, cube: string): SqlColumn {
  const alias = /\s+AS\s+"?([A-Za-z_][\w]*)"?\s*$/i.exec(item);
  const expr = alias ? item.slice(0, alias.index).trim() : item;
  const measure = /^MEASURE\s*\(\s*([\w.]+)\s*\)$/i.exec(expr);
  const trunc = /^DATE_TRUNC\s*\(\s*'(\w+)'\s*,\s*([\w.]+)\s*\)$/i.exec(expr);
  const member = measure?.[1] ?? trunc?.[2] ?? /([A-Za-z_]\w*\.[A-Za-z_]\w*)/.exec(expr)?.[1];
  if (member === undefined) {
    const bare = /^[A-Za-z_]\w*$/.test(expr) ? `${cube}.${expr}` : undefined;
    if (bare === undefined) throw userError(`Error during planning: cannot read the column ${expr}`);
    return { name: alias?.[1] ?? expr, member: bare, measure: false };
  }
  return {
    name: alias?.[1] ?? member.split('.').pop()!,
    member,
    measure: measure !== null,
    ...(trunc ? { granularity: trunc[1]!.toLowerCase() } : {}),
  };
}

function cubeSql(model: CubeModel, sql: string): string {
  const m = /^\s*SELECT\s+([\s\S]+?)\s+FROM\s+"?([A-Za-z_]\w*)"?([\s\S]*)$/i.exec(sql);
  if (!m) throw userError('Error during planning: only SELECT … FROM <cube> is read by this server');
  const [, list, cube, rest] = m;
  if (!hasCube(model, cube!)) throw userError(`Error during planning: table '${cube}' not found`);
  const cols = splitTop(list!).map((item) => sqlColumn(item, cube!));
  const limit = /\bLIMIT\s+(\d+)/i.exec(rest!);
  const axes: Axis[] = [];
  const measures: { key: string; member: ModelMember }[] = [];
  const schema = cols.map((c) => {
    const member = memberOf(model, c.member);
    if (member === undefined || (c.measure && member.role !== 'measure'))
      throw userError(`Error during planning: column '${c.member}' not found`);
    if (member.role === 'measure') measures.push({ key: c.name, member });
    else if (c.granularity !== undefined || member.type === 'time')
      axes.push({ key: c.name, alias: c.name, values: timeSeries(c.granularity ?? 'month', undefined) });
    else axes.push({ key: c.name, values: dimensionValues(c.member, member) });
    const type =
      member.role === 'measure' || member.type === 'number'
        ? 'Double'
        : member.type === 'time'
          ? 'Timestamp'
          : 'String';
    return { name: c.name, column_type: type };
  });
  const rows = rowsOf(axes, measures, Math.min(Number(limit?.[1] ?? DEFAULT_LIMIT), MAX_LIMIT));
  const data = rows.map((r) => cols.map((c) => r[c.name] ?? null));
  return `${JSON.stringify({ schema })}\n${JSON.stringify({ data })}\n`;
}
