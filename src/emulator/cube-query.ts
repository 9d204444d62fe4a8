// Cube's query planner's verdict on a REST query (`/v1/sql`, `/v1/dry-run`),
// with its texts (api/cube-core-data-api-facts.md; held to the open-source
// server by test/e2e/cube-contract.test.ts): the format (cube-query-format.ts),
// then each member in its role against the WHOLE model (hidden members and
// cubes too: Cube plans queries that name them), the granularities, and a
// join path between the cubes the query reads.
import { checkQueryFormat, CubeError } from './cube-query-format.js';
import { STANDARD_GRANULARITIES } from '../domain/data-model.js';
import { connectedComponents, type CubeDef, type CubeMember, type CubeModel, type MemberRole } from './cube-model.js';

type Obj = Record<string, unknown>;

export interface PlannedMember {
  name: string;
  member: CubeMember;
  /** The cube the member reads from: a view member's aliased cube. */
  cube: string;
  /** The cubes joined to reach it: its cube, or a view's path from its first cube (Cube's join hint). */
  path: string[];
}

interface PlannedTimeDimension extends PlannedMember {
  granularity?: string;
  dateRange?: unknown;
}

interface PlannedFilter extends PlannedMember {
  operator: string;
  values: (string | null)[];
}

/** A query the planner accepts, in Cube's normalised form. */
export interface PlannedQuery {
  measures: PlannedMember[];
  dimensions: PlannedMember[];
  segments: PlannedMember[];
  timeDimensions: PlannedTimeDimension[];
  /** Leaves of the filter tree (its and/or structure does not change the verdict). */
  filters: PlannedFilter[];
  order: [string, 'asc' | 'desc'][];
  limit: number;
  offset?: number;
  timezone: string;
  /** The cubes read, in Cube's order; the first is the root of the join tree. */
  cubes: string[];
  /** The normalised query as `/v1/dry-run` shows it. */
  normalized: Obj;
  /** A time dimension's `compareDateRange`: one query per range (Cube answers a list). */
  compareRanges: number;
}

/** Cube's `dbQueryDefaultLimit`. */
const DEFAULT_LIMIT = 10_000;

const userError = (m: string) => new CubeError(m, true);

/** A lookup of the model's cubes by name. */
export function cubesByName(model: CubeModel): Map<string, CubeDef> {
  return new Map(model.cubes.map((c) => [c.name, c]));
}

/** The model as the planner walks it: cubes by name, and the directed join graph (none without `joins`). */
interface Graph {
  model: CubeModel;
  cubes: Map<string, CubeDef>;
  edges: Map<string, string[]> | undefined;
}

function graphOf(model: CubeModel): Graph {
  const joined = model.cubes.some((c) => c.joins !== undefined);
  const edges = joined ? new Map(model.cubes.map((c) => [c.name, (c.joins ?? []).map((j) => j.name)])) : undefined;
  return { model, cubes: cubesByName(model), edges };
}

/** `cube.member` in one of `roles`, with Cube's "not found" texts. */
function resolve(g: Graph, path: string, roles: readonly MemberRole[]): PlannedMember {
  const [cubeName, memberName] = path.split('.') as [string, string];
  const cube = g.cubes.get(cubeName);
  if (!cube) throw userError(`Cube '${cubeName}' not found for path '${path}'`);
  for (const role of roles) {
    const member = cube[role].find((m) => m.name === path || m.name === memberName);
    if (member) {
      if (cube.type !== 'view') return { name: path, member, cube: cubeName, path: [cubeName] };
      const hint = viewPath(g, cube, member);
      return { name: path, member, cube: hint[hint.length - 1]!, path: hint };
    }
  }
  throw userError(`'${memberName}' not found for path '${path}'`);
}

/** The cubes reached from `root` by declared joins, each with the path that reaches it. */
function reach(g: Graph, root: string): Map<string, string[]> {
  const paths = new Map([[root, [root]]]);
  const todo = [root];
  while (todo.length > 0) {
    const at = todo.shift()!;
    for (const next of g.edges?.get(at) ?? [])
      if (!paths.has(next)) {
        paths.set(next, [...paths.get(at)!, next]);
        todo.push(next);
      }
  }
  return paths;
}

/**
 * A view member's join path: from the view's first cube (the one whose joins
 * reach the others its members expose) to the cube of its `aliasMember`. A
 * view's segment has no `aliasMember` in /v1/meta: it reads the first cube.
 */
function viewPath(g: Graph, view: CubeDef, member: CubeMember): string[] {
  const aliased = [...view.measures, ...view.dimensions].flatMap((m) => (m.aliasMember ? [m.aliasMember] : []));
  const cubesOf = [...new Set(aliased.map((a) => a.split('.')[0]!))];
  const root = cubesOf.find((c) => cubesOf.every((o) => reach(g, c).has(o))) ?? cubesOf[0] ?? view.name;
  const target = member.aliasMember?.split('.')[0] ?? root;
  return reach(g, root).get(target) ?? [target];
}

function leaves(filters: Obj[]): Obj[] {
  return filters.flatMap((f) => (Array.isArray(f['or'] ?? f['and']) ? leaves((f['or'] ?? f['and']) as Obj[]) : [f]));
}

/**
 * With a view in the query, Cube reaches a cube member the view exposes through the view's own join path
 * too (`customers.name` beside `sales.count` is `orders,customers`).
 */
function throughViews(g: Graph, members: PlannedMember[]): string[][] {
  const views = members.filter((m) => isView(g, m));
  const paths = new Map<string, string[]>();
  for (const v of views) {
    const view = g.cubes.get(v.name.split('.')[0]!)!;
    const exposed = new Set([...view.measures, ...view.dimensions].flatMap((m) => m.aliasMember?.split('.')[0] ?? []));
    for (const [cube, path] of reach(g, v.path[0]!)) if (exposed.has(cube) && !paths.has(cube)) paths.set(cube, path);
  }
  return members.map((m) => (m.path.length === 1 && !isView(g, m) ? (paths.get(m.path[0]!) ?? m.path) : m.path));
}

const isView = (g: Graph, m: PlannedMember) => g.cubes.get(m.name.split('.')[0]!)?.type === 'view';

/** The cubes in join order (a root that reaches the others first), or Cube's "Can't find join path". */
function joinOrder(g: Graph, members: PlannedMember[]): string[] {
  const hints = [...new Map(throughViews(g, members).map((p) => [p.join(','), p])).values()];
  const cubes = [...new Set(hints.flat())];
  if (cubes.length < 2) return cubes;
  const fail = () => userError(`Can't find join path to join ${hints.map((h) => `'${h.join(',')}'`).join(', ')}`);
  if (g.edges === undefined) {
    // A model file without joins: `connectedComponent` says which cubes join.
    const components = connectedComponents(g.model);
    const first = components.get(cubes[0]!);
    if (first === undefined || cubes.some((c) => components.get(c) !== first)) throw fail();
    return cubes;
  }
  const root = cubes.find((c) => {
    const reached = reach(g, c);
    return cubes.every((o) => reached.has(o));
  });
  if (root === undefined) throw fail();
  return [root, ...cubes.filter((c) => c !== root)];
}

const isStandard = (g: string) => (STANDARD_GRANULARITIES as readonly string[]).includes(g);

function granularityOf(td: PlannedTimeDimension): void {
  const g = td.granularity;
  if (g === undefined || isStandard(g)) return;
  if (!td.member.granularities?.some((x) => x.name === g))
    throw userError(`Granularity "${g}" does not exist in dimension ${td.name}`);
}

/** The planner's verdict: the planned query, or a CubeError with Cube's status and text. */
export function planQuery(model: CubeModel, query: unknown): PlannedQuery {
  checkQueryFormat(query);
  const g = graphOf(model);
  const list = (k: string) => ((query[k] ?? []) as string[]).map(String);
  const dims = list('dimensions');
  const suffixed = dims.filter((d) => d.split('.').length === 3);
  const rawTds: Obj[] = [
    ...((query['timeDimensions'] ?? []) as Obj[]),
    ...suffixed.map((d) => ({ dimension: d.split('.').slice(0, 2).join('.'), granularity: d.split('.')[2] })),
  ];
  // Cube's order: custom granularities first (each time dimension's member, then the granularity), then the
  // members in their roles (measures, dimensions, segments), and/or groups, filters, time dimensions.
  for (const td of rawTds) {
    const grain = td['granularity'];
    if (typeof grain === 'string' && !isStandard(grain))
      granularityOf({ ...resolve(g, td['dimension'] as string, ['dimensions']), granularity: grain });
  }
  const filterLeaves = leaves((query['filters'] ?? []) as Obj[]);
  // Then every member's cube, before any member.
  for (const path of [
    ...list('measures'),
    ...dims,
    ...list('segments'),
    ...filterLeaves.map((f) => (f['member'] ?? f['dimension']) as string),
    ...rawTds.map((td) => td['dimension'] as string),
  ]) {
    const cube = path.split('.')[0]!;
    if (!g.cubes.has(cube))
      throw userError(`Cube '${cube}' not found for path '${path.split('.').slice(0, 2).join('.')}'`);
  }
  const measures = list('measures').map((m) => resolve(g, m, ['measures']));
  // A segment under `dimensions` is planned as a boolean column (Cube's own answer).
  const dimensions = dims.filter((d) => !suffixed.includes(d)).map((d) => resolve(g, d, ['dimensions', 'segments']));
  const segments = list('segments').map((s) => resolve(g, s, ['segments']));
  for (const f of (query['filters'] ?? []) as Obj[]) mixedCondition(g.cubes, f);
  const filters = filterLeaves.map((f): PlannedFilter => ({
    ...resolve(g, (f['member'] ?? f['dimension']) as string, ['dimensions', 'measures', 'segments']),
    operator: f['operator'] as string,
    values: ((f['values'] ?? []) as unknown[]).map((v) => (v === null ? null : String(v))),
  }));
  const timeDimensions = rawTds.map((td): PlannedTimeDimension => {
    // A segment is taken as a time dimension too (its SQL then fails in the warehouse), as Cube does.
    const planned: PlannedTimeDimension = resolve(g, td['dimension'] as string, ['dimensions', 'segments']);
    if (typeof td['granularity'] === 'string') planned.granularity = td['granularity'];
    if (td['dateRange'] !== undefined) planned.dateRange = td['dateRange'];
    return planned;
  });
  // Cube collects the cubes from measures, dimensions, segments, dimension filters, measure filters, time dimensions.
  const read = [
    ...measures,
    ...dimensions,
    ...segments,
    ...filters.filter((f) => !measureLike(f)),
    ...filters.filter(measureLike),
    ...timeDimensions,
  ];
  const order = orderOf(query, measures, dimensions, timeDimensions);
  const limit = typeof query['limit'] === 'number' ? query['limit'] : DEFAULT_LIMIT;
  const timezone = typeof query['timezone'] === 'string' ? query['timezone'] : 'UTC';
  return {
    measures,
    dimensions,
    segments,
    timeDimensions,
    filters,
    order,
    limit,
    ...(typeof query['offset'] === 'number' ? { offset: query['offset'] } : {}),
    timezone,
    cubes: joinOrder(g, read),
    compareRanges: Math.max(
      0,
      ...rawTds.map((td) => (Array.isArray(td['compareDateRange']) ? td['compareDateRange'].length : 0)),
    ),
    normalized: {
      ...query,
      measures: measures.map((m) => m.name),
      dimensions: dimensions.map((d) => d.name),
      timeDimensions: rawTds,
      filters: query['filters'] ?? [],
      order: order.map(([k, d]) => ({ [k]: d })),
      limit,
      timezone,
      rowLimit: limit,
      queryType: 'regularQuery',
    },
  };
}

const measureLike = (f: PlannedFilter) => f.member.aggType !== undefined;

/** A filter as Cube normalises it (values as strings, `dimension` renamed `member`), for its error texts. */
function normalizedFilter(f: Obj): Obj {
  const group = Array.isArray(f['or']) ? 'or' : Array.isArray(f['and']) ? 'and' : undefined;
  if (group) return { ...f, [group]: (f[group] as Obj[]).map(normalizedFilter) };
  const res: Obj = { ...f };
  if (Array.isArray(f['values'])) res['values'] = (f['values'] as unknown[]).map((v) => (v == null ? v : String(v)));
  if (f['dimension'] !== undefined) {
    res['member'] = f['dimension'];
    delete res['dimension'];
  }
  return res;
}

/** An and/or group may hold dimensions (and segments) or measures, not both (Cube's filter tree). */
function mixedCondition(cubes: Map<string, CubeDef>, f: Obj): void {
  const group = (f['or'] ?? f['and']) as Obj[] | undefined;
  if (!Array.isArray(group)) return;
  const kinds = new Set(
    leaves(group).map((l) => {
      const path = (l['member'] ?? l['dimension']) as string;
      const cube = cubes.get(path.split('.')[0]!);
      return cube?.measures.some((m) => m.name === path) ? 'measure' : 'dimension';
    }),
  );
  if (kinds.size > 1)
    throw userError(`You cannot use dimension and measure in same condition: ${JSON.stringify(normalizedFilter(f))}`);
  group.forEach((g) => mixedCondition(cubes, g));
}

/** The order Cube plans: the query's (unselected members kept as written), else its default. */
function orderOf(
  query: Obj,
  measures: PlannedMember[],
  dimensions: PlannedMember[],
  tds: PlannedTimeDimension[],
): [string, 'asc' | 'desc'][] {
  const o = query['order'];
  if (Array.isArray(o)) return o.map((e) => [String((e as unknown[])[0]), (e as unknown[])[1] as 'asc' | 'desc']);
  if (o && typeof o === 'object') return Object.entries(o as Record<string, 'asc' | 'desc'>);
  const grained = tds.find((t) => t.granularity !== undefined);
  if (grained) return [[grained.name, 'asc']];
  if (measures[0]) return [[measures[0].name, 'desc']];
  if (dimensions[0]) return [[dimensions[0].name, 'asc']];
  return [];
}
