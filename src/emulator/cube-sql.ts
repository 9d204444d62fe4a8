// What the Core Data API answers for a query the planner accepts: the SQL of
// `/v1/sql` (`{sql: {sql: [text, params], …}}`, text in Cube's style; no test
// reads more than its shape), the normalised query of `/v1/dry-run`, and a
// SQL-API query's plan (`format=sql`). The SQL-API check is the emulator's
// own reading (its tables and qualified members must exist): the open-source
// server needs its native module for it, so no contract test holds it.
import { CubeError } from './cube-query-format.js';
import { cubesByName, type PlannedMember, type PlannedQuery } from './cube-query.js';
import type { CubeModel } from './cube-model.js';

const AGG: Record<string, (col: string) => string> = {
  count: () => 'count(*)',
  countDistinct: (c) => `count(distinct ${c})`,
  countDistinctApprox: (c) => `approx_count_distinct(${c})`,
  sum: (c) => `sum(${c})`,
  avg: (c) => `avg(${c})`,
  min: (c) => `min(${c})`,
  max: (c) => `max(${c})`,
};

/** The column a member reads: a view member's aliased one. */
function column(m: PlannedMember): string {
  const name = (m.member.aliasMember ?? m.name).split('.').pop()!;
  return `"${m.cube}".${name}`;
}
const alias = (name: string) => `"${name.replace(/\./g, '__')}"`;

const OPS: Record<string, (col: string, n: number) => string> = {
  equals: (c, n) => (n > 1 ? `${c} IN (${Array(n).fill('?').join(', ')})` : `${c} = ?`),
  notEquals: (c, n) => (n > 1 ? `${c} NOT IN (${Array(n).fill('?').join(', ')})` : `${c} <> ?`),
  contains: (c) => `${c} ILIKE '%' || ? || '%'`,
  gt: (c) => `${c} > ?`,
  gte: (c) => `${c} >= ?`,
  lt: (c) => `${c} < ?`,
  lte: (c) => `${c} <= ?`,
  set: (c) => `${c} IS NOT NULL`,
  notSet: (c) => `${c} IS NULL`,
  inDateRange: (c) => `${c} >= ?::timestamptz AND ${c} <= ?::timestamptz`,
};

/** `/v1/sql`'s answer for a planned query. */
export function sqlAnswer(q: PlannedQuery): unknown {
  const params: (string | null)[] = [];
  const select: string[] = [];
  const group: number[] = [];
  const aliasNameToMember: Record<string, string> = {};
  const add = (expr: string, name: string, grouped: boolean) => {
    const a = alias(name);
    select.push(`${expr} ${a}`);
    aliasNameToMember[a.slice(1, -1)] = name;
    if (grouped) group.push(select.length);
  };
  for (const d of q.dimensions) add(column(d), d.name, true);
  for (const td of q.timeDimensions) {
    if (td.granularity === undefined) continue;
    const expr = `DATE_TRUNC('${td.granularity}', timezone('${q.timezone}', ${column(td)}::timestamptz))`;
    add(expr, `${td.name}.${td.granularity}`, true);
  }
  for (const m of q.measures) add((AGG[m.member.aggType ?? ''] ?? ((c) => c))(column(m)), m.name, false);
  const where: string[] = [];
  const having: string[] = [];
  for (const f of q.filters) {
    const op = OPS[f.operator] ?? ((c: string) => `${c} /* ${f.operator} */ ?`);
    (f.member.aggType !== undefined ? having : where).push(`(${op(column(f), f.values.length)})`);
    params.push(...f.values);
  }
  for (const s of q.segments) where.push(`(${column(s)})`);
  const [root, ...joined] = q.cubes;
  const from = [
    `${root} AS "${root}"`,
    ...joined.map((c) => `LEFT JOIN ${c} AS "${c}" ON /* join ${root} → ${c} */ true`),
  ];
  const text = [
    `SELECT\n      ${select.join(', ')}\n    FROM\n      ${from.join('\n')}`,
    where.length ? ` WHERE ${where.join(' AND ')}` : '',
    group.length && q.measures.length ? ` GROUP BY ${group.join(', ')}` : '',
    having.length ? ` HAVING ${having.join(' AND ')}` : '',
    q.order.length ? ` ORDER BY ${q.order.map(([k, d]) => `${alias(k)} ${d.toUpperCase()}`).join(', ')}` : '',
    ` LIMIT ${q.limit}`,
    q.offset !== undefined ? ` OFFSET ${q.offset}` : '',
  ].join('');
  return {
    sql: {
      external: false,
      sql: [text, params],
      lambdaQueries: {},
      order: Object.fromEntries(q.order),
      preAggregations: [],
      dataSource: 'default',
      aliasNameToMember,
    },
  };
}

/** `/v1/dry-run`'s answer: the normalised query and the pre-aggregations it would use (none). */
export function dryRunAnswer(q: PlannedQuery): unknown {
  return {
    queryType: 'regularQuery',
    normalizedQueries: [q.normalized],
    queryOrder: q.order.map(([k, d]) => ({ [k]: d })),
    transformedQueries: [null],
    pivotQuery: q.normalized,
  };
}

const QUERY_TYPE = { regular: true, post_processing: false, pushdown: false };

/**
 * `format=sql`: a SQL-API query planned. Its tables (after FROM / JOIN) must be
 * cubes or views, and a `table.column` or `MEASURE(table.column)` naming one
 * of them a member of it. `{sql: {status, sql, values | error, query_type}}`.
 */
export function sqlApiAnswer(model: CubeModel, text: unknown): unknown {
  if (typeof text !== 'string' || text.trim() === '') throw new CubeError('Query param is required', false);
  const cubes = cubesByName(model);
  const fail = (error: string) => ({ sql: { status: 'error', error, query_type: QUERY_TYPE } });
  const bare = text.replace(/'(?:[^']|'')*'/g, "''");
  const tables = [...bare.matchAll(/\b(?:from|join)\s+"?([A-Za-z_][\w]*)"?/gi)].map((m) => m[1]!);
  if (tables.length === 0) return fail('SQL compilation error: a SQL API query reads a cube or view (FROM)');
  for (const t of tables)
    if (!cubes.has(t)) return fail(`SQL compilation error: table "${t}" is not a cube or view of the data model`);
  for (const [, cube, name] of bare.matchAll(/\b([A-Za-z_]\w*)\.([A-Za-z_]\w*)\b/g)) {
    const def = cubes.get(cube!);
    if (!def || !tables.includes(cube!)) continue;
    const known = [...def.measures, ...def.dimensions, ...def.segments].some((m) => m.name === `${cube}.${name}`);
    if (!known) return fail(`SQL compilation error: column "${cube}.${name}" is not a member of ${cube}`);
  }
  return { sql: { status: 'ok', sql: text, values: [], query_type: QUERY_TYPE } };
}
