// A planner written from the facts file's "Query format" alone (not from
// wsc's rules), for a model whose hidden members are known: an oracle for the
// property test when no emulator planner or real Cube is at hand. It refuses
// what the facts say Cube refuses, with Cube's words, and accepts the rest.
import { STANDARD_GRANULARITIES, type MetaAnswer, type PlannerVerdict } from '../../src/domain/data-model.js';
import type { Planner, Query } from './semantic-queries.js';

interface Known {
  role: 'measure' | 'dimension' | 'segment';
  type?: string;
  grains: string[];
  cube: string;
}

export function referencePlanner(
  meta: MetaAnswer,
  hidden: { measures: readonly string[]; dimensions: readonly string[] },
): Planner {
  const members = new Map<string, Known>();
  const component = new Map<string, number>();
  // A view's member is planned as the cube member it exposes: its cube is that member's.
  const cubeOf = (c: { name: string }, m: { aliasMember?: string | null | undefined }) =>
    m.aliasMember ? m.aliasMember.split('.')[0]! : c.name;
  for (const c of meta.cubes) {
    if (typeof c.connectedComponent === 'number') component.set(c.name, c.connectedComponent);
    for (const m of c.measures ?? []) members.set(m.name, { role: 'measure', grains: [], cube: cubeOf(c, m) });
    for (const d of c.dimensions ?? [])
      members.set(d.name, {
        role: 'dimension',
        ...(d.type ? { type: d.type } : {}),
        grains: (d.granularities ?? []).map((g) => g.name),
        cube: cubeOf(c, d),
      });
    for (const s of c.segments ?? []) members.set(s.name, { role: 'segment', grains: [], cube: cubeOf(c, s) });
  }
  for (const m of hidden.measures) members.set(m, { role: 'measure', grains: [], cube: m.split('.')[0]! });
  for (const d of hidden.dimensions)
    members.set(d, { role: 'dimension', type: 'string', grains: [], cube: d.split('.')[0]! });
  const cubes = new Set([...members.keys()].map((m) => m.split('.')[0]!));

  return (q: Query): Promise<PlannerVerdict> => {
    const used: string[] = [];
    const refuse = (error: string): Promise<PlannerVerdict> => Promise.resolve({ kind: 'refused', error });
    /** `cube.member`, or with a granularity where `suffix` allows: the member, else Cube's error. */
    const look = (name: unknown, roles: readonly Known['role'][], suffix: boolean): string | Known => {
      if (typeof name !== 'string') return 'Invalid query format';
      const parts = name.split('.');
      if (!cubes.has(parts[0]!)) return `Cube '${parts[0]}' not found for path '${name}'`;
      const m = members.get(`${parts[0]}.${parts[1]}`);
      if (m === undefined) return `'${parts[1]}' not found for path '${parts[0]}.${parts[1]}'`;
      if (parts.length > 3 || (parts.length === 3 && !suffix)) return `Invalid member name '${name}'`;
      if (parts.length === 3) {
        if (m.type !== 'time') return `'${name}': a granularity on a dimension that is not of type time`;
        if (!(STANDARD_GRANULARITIES as readonly string[]).includes(parts[2]!) && !m.grains.includes(parts[2]!))
          return `Granularity "${parts[2]}" does not exist in dimension ${parts[0]}.${parts[1]}`;
      }
      if (!roles.includes(m.role)) return `'${name}' is not a ${roles.join(' or ')}`;
      used.push(m.cube);
      return m;
    };
    const check = (name: unknown, roles: readonly Known['role'][], suffix: boolean) => {
      const r = look(name, roles, suffix);
      return typeof r === 'string' ? r : undefined;
    };
    const lists = [
      ['measures', ['measure'], false],
      ['dimensions', ['dimension', 'segment'], true],
      ['segments', ['segment'], false],
    ] as const;
    for (const [k, roles, suffix] of lists)
      for (const n of (q[k] as unknown[] | undefined) ?? []) {
        const e = check(n, roles, suffix);
        if (e) return refuse(e);
      }
    for (const td of (q['timeDimensions'] as { dimension?: unknown; granularity?: unknown }[] | undefined) ?? []) {
      const m = look(td.dimension, ['dimension'], false);
      if (typeof m === 'string') return refuse(m);
      if (typeof td.granularity === 'string') {
        if (m.type !== 'time')
          return refuse(`'${String(td.dimension)}': a granularity on a dimension not of type time`);
        if (
          !(STANDARD_GRANULARITIES as readonly string[]).includes(td.granularity) &&
          !m.grains.includes(td.granularity)
        )
          return refuse(`Granularity "${td.granularity}" does not exist in dimension ${String(td.dimension)}`);
      }
    }
    const filters = (fs: unknown): string | undefined => {
      for (const f of (fs as Record<string, unknown>[] | undefined) ?? []) {
        const e =
          'and' in f || 'or' in f
            ? filters(f['and'] ?? f['or'])
            : check(f['member'] ?? f['dimension'], ['measure', 'dimension'], false);
        if (e) return e;
      }
      return undefined;
    };
    const fe = filters(q['filters']);
    if (fe) return refuse(fe);
    const order = q['order'];
    const keys = Array.isArray(order) ? order.map((o) => (o as unknown[])[0]) : Object.keys(order ?? {});
    const joined = [...used];
    for (const k of keys) {
      const e = check(k, ['measure', 'dimension'], true);
      if (e) return refuse(e);
    }
    // Cubes join within their component; a cube without one (when the model gives components) joins nothing.
    const views = new Set(meta.cubes.filter((c) => c.type === 'view').map((c) => c.name));
    const comps = new Map<number | string, string>();
    for (const c of joined) {
      if (views.has(c)) continue;
      const n = component.get(c) ?? (component.size > 0 ? `alone:${c}` : 'unknown');
      if (!comps.has(n)) comps.set(n, c);
    }
    if (comps.size > 1)
      return refuse(`Can't find join path to join ${[...comps.values()].map((c) => `'${c}'`).join(', ')}`);
    return Promise.resolve({ kind: 'accepted' });
  };
}
