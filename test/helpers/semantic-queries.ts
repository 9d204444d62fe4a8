// Queries of every form Cube's query format takes, drawn from a model's
// `/v1/meta` (and from names it leaves out), half of them valid and half not,
// and wsc's verdict on each: agrees() checks the property "wsc refuses a
// query exactly when Cube's planner does" against any planner, the
// emulator's or a real Cube's (the contract suite imports this module). A planner is a
// function; httpPlanner asks one over HTTP (`GET {rest}/v1/sql`).
import fc from 'fast-check';
import { expect } from 'vitest';
import { checkMembers, type ResourceMembers, type SemanticIssue } from '../../src/core/semantic/check.js';
import { plannedAsks, settle } from '../../src/core/semantic/confirm.js';
import { FAILS_IN_WAREHOUSE } from '../../src/core/semantic/rules.js';
import { reportMembers } from '../../src/core/semantic/members.js';
import { indexModel } from '../../src/core/semantic/model-index.js';
import type { JsonValue } from '../../src/core/json.js';
import { STANDARD_GRANULARITIES, type MetaAnswer, type PlannerVerdict } from '../../src/domain/data-model.js';

export type Query = { [k: string]: JsonValue };
export type Planner = (query: Query) => Promise<PlannerVerdict>;

/** The names a model offers, by role, from its production `/v1/meta` and the names it is known to hide. */
interface Names {
  measures: string[];
  dimensions: string[];
  timeDimensions: { name: string; custom: string[] }[];
  segments: string[];
  /** Members that exist but are not listed (primary keys, `public: false`): Cube takes them. */
  hidden: string[];
}

function namesOf(meta: MetaAnswer, hidden: readonly string[]): Names {
  const n: Names = { measures: [], dimensions: [], timeDimensions: [], segments: [], hidden: [...hidden] };
  for (const c of meta.cubes) {
    for (const m of c.measures ?? []) n.measures.push(m.name);
    for (const d of c.dimensions ?? []) {
      n.dimensions.push(d.name);
      if (d.type === 'time')
        n.timeDimensions.push({ name: d.name, custom: (d.granularities ?? []).map((g) => g.name) });
    }
    for (const s of c.segments ?? []) n.segments.push(s.name);
  }
  return n;
}

const pick = <T>(xs: readonly T[], fallback: T): fc.Arbitrary<T> =>
  xs.length > 0 ? fc.constantFrom(...xs) : fc.constant(fallback);

/** A name that is not in the model: a typo of one that is, or a cube that does not exist. */
const unknownName = (n: Names): fc.Arbitrary<string> =>
  fc.oneof(
    pick([...n.measures, ...n.dimensions], 'orders.count').map((m) => `${m}zz`),
    fc.constant('nosuchcube.count'),
  );

/**
 * One query: mostly valid members in their roles, with at most one kind of mistake (a member in the wrong
 * role, a granularity suffix where Cube takes none, a granularity the dimension lacks, a time grain on a
 * non-time dimension, an unknown name), or a hidden member Cube accepts.
 */
function queryArbitrary(meta: MetaAnswer, hidden: readonly string[] = []): fc.Arbitrary<Query> {
  const all = namesOf(meta, hidden);
  // Most queries stay within one cube or view (so that the mistake drawn is the one judged); one twist adds
  // a member of any cube (a join Cube may or may not find).
  const homes = meta.cubes
    .filter((c) => (c.measures ?? []).length > 0)
    .map((c) =>
      namesOf(
        { cubes: [c] },
        hidden.filter((h) => h.startsWith(`${c.name}.`)),
      ),
    );
  return (homes.length > 0 ? fc.constantFrom(...homes) : fc.constant(all)).chain((n) => oneQuery(n, all));
}

function oneQuery(n: Names, all: Names): fc.Arbitrary<Query> {
  const measure = pick(n.measures, 'orders.count');
  const td = pick(n.timeDimensions.length > 0 ? n.timeDimensions : all.timeDimensions, {
    name: 'orders.created_at',
    custom: [],
  });
  const dims = n.dimensions.length > 0 ? n.dimensions : all.dimensions;
  const base = fc.record({ measures: fc.array(measure, { minLength: 1, maxLength: 2 }) }).map((q): Query => ({ ...q }));
  const time = td.chain((t) =>
    fc.constantFrom(...STANDARD_GRANULARITIES, ...t.custom).map((g) => ({ name: t.name, grain: g })),
  );
  const twist = fc.oneof(
    // Valid forms.
    time.map((t) => (q: Query) => ({ ...q, timeDimensions: [{ dimension: t.name, granularity: t.grain }] })),
    time.map((t) => (q: Query) => ({
      ...q,
      dimensions: [`${t.name}.${t.grain}`],
      order: { [`${t.name}.${t.grain}`]: 'asc' },
    })),
    pick(dims, 'orders.status').map((d) => (q: Query) => ({
      ...q,
      dimensions: [d],
      filters: [{ or: [{ member: d, operator: 'set' }] }],
      order: [[d, 'desc']],
    })),
    pick(n.segments, 'orders.completed').map((s) => (q: Query) => ({ ...q, segments: [s] })),
    pick(n.hidden.length > 0 ? n.hidden : all.hidden, 'orders.count').map((h) => (q: Query) => ({
      ...q,
      dimensions: [h],
    })),
    // A member of any cube: a join path Cube finds or not.
    pick(all.dimensions, 'orders.status').map((d) => (q: Query) => ({ ...q, dimensions: [d] })),
    // Mistakes Cube refuses.
    pick(dims, 'orders.status').map((d) => (q: Query) => ({ ...q, measures: [d] })),
    measure.map((m) => (q: Query) => ({ ...q, dimensions: [m] })),
    measure.map((m) => (q: Query) => ({ ...q, segments: [m] })),
    time.map((t) => (q: Query) => ({ ...q, filters: [{ member: `${t.name}.${t.grain}`, operator: 'set' }] })),
    time.map((t) => (q: Query) => ({ ...q, timeDimensions: [{ dimension: `${t.name}.${t.grain}` }] })),
    td.map((t) => (q: Query) => ({ ...q, timeDimensions: [{ dimension: t.name, granularity: 'fiscal_yr' }] })),
    pick(
      dims.filter((d) => !all.timeDimensions.some((t) => t.name === d)),
      'orders.status',
    ).map((d) => (q: Query) => ({ ...q, timeDimensions: [{ dimension: d, granularity: 'month' }] })),
    unknownName(n).map((u) => (q: Query) => ({ ...q, measures: [...(q['measures'] as string[]), u] })),
  );
  return fc.tuple(base, twist).map(([q, f]) => f(q));
}

/** wsc's verdict on a query: what `/v1/meta` decides, and Cube's planner asked about what it does not list. */
async function wscVerdict(
  meta: MetaAnswer,
  query: Query,
  planner: Planner,
): Promise<{ refused: boolean; issues: SemanticIssue[]; warnings: SemanticIssue[]; asked: number }> {
  const resource: ResourceMembers = {
    address: 'report/propertyRep1',
    extracted: reportMembers({ jsonQuery: query }),
    locate: () => ({ file: 'r.yaml', line: 1, col: 1 }),
    query: { format: 'rest', query },
  };
  const { result, pending } = checkMembers([resource], indexModel(meta));
  const { asks, notAsked } = plannedAsks(pending, () => true);
  const verdicts = new Map<string, PlannerVerdict>();
  for (const a of asks) verdicts.set(a.key, await planner(a.queries[0] as Query));
  const out = settle(result, asks, verdicts, notAsked);
  return { refused: out.issues.length > 0, issues: out.issues, warnings: out.warnings, asked: asks.length };
}

/** A planner over HTTP: `GET {restUrl}/v1/sql?query=…` with a Core Data API token (no `Bearer`). */
export function httpPlanner(restUrl: string, token: string): Planner {
  const base = restUrl.replace(/\/+$/, '');
  const path = /\/v1$/.test(base) ? '/sql' : '/v1/sql';
  return async (query) => {
    const res = await fetch(`${base}${path}?query=${encodeURIComponent(JSON.stringify(query))}`, {
      headers: { authorization: token },
    });
    const body = (await res.json().catch(() => ({}))) as { error?: unknown };
    if (res.status === 400) return { kind: 'refused', error: String(body.error ?? 'refused') };
    if (!res.ok) return { kind: 'unavailable', why: `HTTP ${res.status}` };
    return { kind: 'accepted' };
  };
}

/**
 * The semantic check's property, against any planner: on `numRuns` generated queries over `model` (and its
 * `hidden` members) wsc refuses exactly what the planner refuses; both verdicts drawn, the planner asked.
 */
export async function agrees(model: MetaAnswer, hidden: readonly string[], p: Planner, numRuns: number): Promise<void> {
  const seen = { refused: 0, accepted: 0, asked: 0 };
  await fc.assert(
    fc.asyncProperty(queryArbitrary(model, hidden), async (q) => {
      const cube = await p(q);
      expect(cube.kind, JSON.stringify(q)).not.toBe('unavailable');
      const wsc = await wscVerdict(model, q, p);
      // A time grain on a string dimension: Cube's planner plans it, the warehouse refuses it (the real Cube's
      // recording in contract-cube/queries.json); wsc refuses it, and says so.
      const planned = wsc.issues.filter((i) => !i.message.includes(FAILS_IN_WAREHOUSE));
      if (planned.length < wsc.issues.length && cube.kind === 'accepted') return;
      seen[cube.kind === 'refused' ? 'refused' : 'accepted']++;
      if (wsc.asked > 0) seen.asked++;
      const said = wsc.issues.map((i) => i.message).join('; ');
      expect(wsc.refused, `${JSON.stringify(q)}: Cube ${JSON.stringify(cube)}, wsc ${said}`).toBe(
        cube.kind === 'refused',
      );
    }),
    { numRuns },
  );
  // Both verdicts are drawn, and some queries needed Cube's planner (a generator of one kind proves nothing).
  expect(seen.refused).toBeGreaterThan(numRuns / 5);
  expect(seen.accepted).toBeGreaterThan(numRuns / 5);
  if (hidden.length > 0) expect(seen.asked).toBeGreaterThan(0);
}
