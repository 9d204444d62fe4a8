// A deployment's data model (the Core Data API's `/v1/meta` answer) as a
// lookup: every member of every cube and view by its full name, its kind and
// title; which names are time dimensions (a granularity may follow them);
// "did you mean" from the members of the same cube first, then of all.
import { closest } from '../../domain/suggest.js';
import { STANDARD_GRANULARITIES, type MetaAnswer, type MetaDimension } from '../../domain/data-model.js';

type MemberKind = 'measure' | 'dimension' | 'segment';

export interface ModelMember {
  name: string;
  kind: MemberKind;
  title?: string;
  /** The dimension's type (`time`, `string`, …) or the measure's (`count`, `sum`, …). */
  type?: string;
  /** Its cube or view. */
  cube: string;
  /** A time dimension's custom granularities. */
  granularities?: string[];
}

export interface ModelIndex {
  cubes: Map<string, { type: string; title?: string }>;
  members: Map<string, ModelMember>;
  /** Member names by cube, for suggestions. */
  byCube: Map<string, string[]>;
  all: string[];
}

export function indexModel(meta: MetaAnswer): ModelIndex {
  const index: ModelIndex = { cubes: new Map(), members: new Map(), byCube: new Map(), all: [] };
  for (const cube of meta.cubes) {
    index.cubes.set(cube.name, { type: cube.type ?? 'cube', ...(cube.title ? { title: cube.title } : {}) });
    const names: string[] = index.byCube.get(cube.name) ?? [];
    const add = (list: readonly (Partial<MetaDimension> & { name: string })[] | null | undefined, kind: MemberKind) => {
      for (const m of list ?? []) {
        // Names are fully qualified in /v1/meta; a bare one is taken as the cube's.
        const name = m.name.includes('.') ? m.name : `${cube.name}.${m.name}`;
        const member: ModelMember = { name, kind, cube: cube.name };
        if (m.title) member.title = m.title;
        if (m.type) member.type = m.type;
        if (m.granularities && m.granularities.length > 0) member.granularities = m.granularities.map((g) => g.name);
        if (!index.members.has(name)) index.all.push(name);
        index.members.set(name, member);
        names.push(name);
      }
    };
    add(cube.measures, 'measure');
    add(cube.dimensions, 'dimension');
    add(cube.segments, 'segment');
    index.byCube.set(cube.name, names);
  }
  return index;
}

/** The member a name means: itself, or a time dimension with a granularity after it (`orders.created_at.month`). */
export function resolveMember(index: ModelIndex, name: string): ModelMember | undefined {
  const exact = index.members.get(name);
  if (exact) return exact;
  const dot = name.lastIndexOf('.');
  if (dot <= 0) return undefined;
  const base = index.members.get(name.slice(0, dot));
  const grain = name.slice(dot + 1);
  if (base?.kind !== 'dimension' || base.type !== 'time') return undefined;
  return (STANDARD_GRANULARITIES as readonly string[]).includes(grain) || base.granularities?.includes(grain)
    ? base
    : undefined;
}

/** The closest member name, from the same cube first; a granularity written after the name is kept. */
export function suggestMember(index: ModelIndex, name: string): string | undefined {
  const cube = name.split('.')[0]!;
  const same = index.byCube.get(cube);
  const near = (same ? closest(name, same) : undefined) ?? closest(name, index.all);
  if (near !== undefined) return near;
  // `orders.created_at.mnth` or `orders.craeted_at.month`: the time dimension, then the granularity.
  const dot = name.lastIndexOf('.');
  if (dot <= 0 || name.indexOf('.') === dot) return undefined;
  const base = name.slice(0, dot);
  const grain = name.slice(dot + 1);
  const baseMember = resolveMember(index, base) ?? index.members.get(suggestMember(index, base) ?? '');
  if (baseMember?.type !== 'time') return undefined;
  const grains = [...STANDARD_GRANULARITIES, ...(baseMember.granularities ?? [])];
  const g = grains.includes(grain) ? grain : closest(grain, grains);
  return g === undefined ? undefined : `${baseMember.name}.${g}`;
}
