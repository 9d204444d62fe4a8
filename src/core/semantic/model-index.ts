// A deployment's data model (the Core Data API's `/v1/meta` answer) as a
// lookup: every public member of every cube and view by its full name, its
// role, type and title; which names are time dimensions and their custom
// granularities; the cubes' join components; the cube member each view member
// exposes. What production `/v1/meta` leaves out (hidden members, primary keys
// that are not `public: true`, hidden cubes) is simply absent: absence here
// never means "not in the model" (check.ts asks Cube's planner then).
import {
  STANDARD_GRANULARITIES,
  type MetaAnswer,
  type MetaDimension,
  type MetaGranularity,
} from '../../domain/data-model.js';
import { Suggester } from './suggest-member.js';

export type MemberKind = 'measure' | 'dimension' | 'segment';

export interface ModelMember {
  name: string;
  kind: MemberKind;
  title?: string;
  /** The dimension's type (`time`, `string`, …); a measure's is `number`, its aggregation `aggType`. */
  type?: string;
  /** Its cube or view. */
  cube: string;
  /** A time dimension's custom granularities. */
  granularities?: string[];
  /** In a view: the cube member it exposes. */
  aliasMember?: string;
}

interface ModelCube {
  type: string;
  title?: string;
  /** Cubes with the same number have a join path (absent: no join known, or a view). */
  connectedComponent?: number;
}

export interface ModelIndex {
  cubes: Map<string, ModelCube>;
  members: Map<string, ModelMember>;
  /** Did-you-mean over the members, bounded (suggest-member.ts). */
  suggester: Suggester;
  /** Whether the answer gives any cube a `connectedComponent` (then a cube without one joins nothing). */
  hasComponents: boolean;
}

export function indexModel(meta: MetaAnswer): ModelIndex {
  const cubes = new Map<string, ModelCube>();
  const members = new Map<string, ModelMember>();
  const byCube = new Map<string, string[]>();
  /** View member names by the short name of the cube member they expose (`sales` → `status` → …). */
  const byAlias = new Map<string, Map<string, string>>();
  for (const cube of meta.cubes) {
    const entry: ModelCube = { type: cube.type ?? 'cube' };
    if (cube.title) entry.title = cube.title;
    if (typeof cube.connectedComponent === 'number') entry.connectedComponent = cube.connectedComponent;
    cubes.set(cube.name, entry);
    const names: string[] = byCube.get(cube.name) ?? [];
    const add = (list: readonly (Partial<MetaDimension> & { name: string })[] | null | undefined, kind: MemberKind) => {
      for (const m of list ?? []) {
        // Names are fully qualified in /v1/meta; a bare one is taken as the cube's.
        const name = m.name.includes('.') ? m.name : `${cube.name}.${m.name}`;
        const member: ModelMember = { name, kind, cube: cube.name };
        if (m.title) member.title = m.title;
        if (m.type) member.type = m.type;
        const grains: readonly MetaGranularity[] = m.granularities ?? [];
        if (grains.length > 0) member.granularities = grains.map((g) => g.name);
        if (m.aliasMember) {
          member.aliasMember = m.aliasMember;
          const short = m.aliasMember.slice(m.aliasMember.lastIndexOf('.') + 1);
          const view = byAlias.get(cube.name) ?? new Map<string, string>();
          if (!view.has(short)) view.set(short, name);
          byAlias.set(cube.name, view);
        }
        members.set(name, member);
        names.push(name);
      }
    };
    add(cube.measures, 'measure');
    add(cube.dimensions, 'dimension');
    add(cube.segments, 'segment');
    byCube.set(cube.name, names);
  }
  const hasComponents = [...cubes.values()].some((c) => c.connectedComponent !== undefined);
  return { cubes, members, suggester: new Suggester(byCube, byAlias), hasComponents };
}

/** A name as the model reads it: the member, and the granularity written after it (`orders.created_at.month`). */
export interface Resolved {
  member: ModelMember;
  grain?: string;
}

/** Whether a granularity is one of the standard ones or one of the dimension's own. */
export function knownGrain(member: ModelMember, grain: string): boolean {
  return (STANDARD_GRANULARITIES as readonly string[]).includes(grain) || (member.granularities ?? []).includes(grain);
}

/**
 * The member a name means: itself, or a member with a suffix after it (`orders.created_at.month`; whether the
 * suffix is allowed there, and a granularity of it, is the rules' question, rules.ts).
 */
export function resolveName(index: ModelIndex, name: string): Resolved | undefined {
  const exact = index.members.get(name);
  if (exact) return { member: exact };
  const dot = name.lastIndexOf('.');
  if (dot <= 0) return undefined;
  const base = index.members.get(name.slice(0, dot));
  return base === undefined ? undefined : { member: base, grain: name.slice(dot + 1) };
}

/** The member a name means where a granularity may follow a time dimension: pivots, titles. */
export function resolveMember(index: ModelIndex, name: string): ModelMember | undefined {
  const r = resolveName(index, name);
  if (r === undefined) return undefined;
  if (r.grain === undefined) return r.member;
  return r.member.kind === 'dimension' && r.member.type === 'time' && knownGrain(r.member, r.grain)
    ? r.member
    : undefined;
}

/** The closest member name, from the same cube (and a view's exposed members) first; a granularity is kept. */
export function suggestMember(index: ModelIndex, name: string): string | undefined {
  const near = index.suggester.closest(name);
  if (near !== undefined) return near;
  // `orders.created_at.mnth` or `orders.craeted_at.month`: the time dimension, then the granularity.
  const dot = name.lastIndexOf('.');
  if (dot <= 0 || name.indexOf('.') === dot) return undefined;
  const base = name.slice(0, dot);
  const grain = name.slice(dot + 1);
  const baseMember = index.members.get(base) ?? index.members.get(index.suggester.closest(base) ?? '');
  if (baseMember?.type !== 'time') return undefined;
  const grains = [...STANDARD_GRANULARITIES, ...(baseMember.granularities ?? [])];
  const g = grains.includes(grain) ? grain : index.suggester.closestOf(grain, grains);
  return g === undefined ? undefined : `${baseMember.name}.${g}`;
}
