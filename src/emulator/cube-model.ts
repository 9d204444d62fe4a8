// The emulator's data model in Cube's own shape, and the two `/v1/meta`
// answers made from it (api/cube-core-data-api-facts.md):
// - the model is a dev-mode `/v1/meta` answer: every cube and member, a hidden
//   one marked `public: false` (or `isVisible: false`), a primary key hidden
//   unless it says `public: true`, plus each cube's `joins` (what
//   `?extended=true` adds) so the query planner can find join paths;
// - production `/v1/meta` leaves hidden cubes and members out; dev mode lists
//   them with `isVisible: false` / `public: false`. Both carry
//   `connectedComponent` on cubes that join (a number per group of cubes
//   linked by joins, in either direction; none on a cube with no join and on views).
// The query planner (cube-query.ts) reads the whole model: Cube answers
// queries that name hidden members.
import type { MetaAnswer } from '../domain/data-model.js';

// Index signatures: a model is also a `/v1/meta` answer (MetaAnswer), which takes more than wsc reads.
export interface CubeGranularity {
  [key: string]: unknown;
  name: string;
  title: string;
  interval: string;
  offset?: string;
  origin?: string;
}

export interface CubeMember {
  [key: string]: unknown;
  name: string;
  title?: string;
  shortTitle?: string;
  /** Measures: always `number`; dimensions: `string`, `number`, `time`, `boolean`, `geo`; segments: none. */
  type?: string;
  /** A measure's aggregation: `count`, `sum`, `avg`, `countDistinct`, `number`, … */
  aggType?: string;
  primaryKey?: boolean;
  /** `false` hides the member; a primary key is hidden unless this is `true`. */
  public?: boolean;
  isVisible?: boolean;
  /** A view member: the cube member it exposes. */
  aliasMember?: string;
  /** A time dimension's custom granularities (the standard ones are not listed). */
  granularities?: CubeGranularity[];
}

export interface CubeJoin {
  /** The cube joined to this one: a directed edge of Cube's join graph. */
  name: string;
  relationship: string;
}

export interface CubeDef {
  [key: string]: unknown;
  name: string;
  title?: string;
  type: 'cube' | 'view';
  public?: boolean;
  isVisible?: boolean;
  description?: string;
  measures: CubeMember[];
  dimensions: CubeMember[];
  segments: CubeMember[];
  joins?: CubeJoin[];
  /** Given by a model file that has no `joins`: cubes with the same number join. */
  connectedComponent?: number;
}

export interface CubeModel {
  [key: string]: unknown;
  cubes: CubeDef[];
}

export type MemberRole = 'measures' | 'dimensions' | 'segments';

const isPublicCube = (c: CubeDef): boolean => c.public !== false && c.isVisible !== false;

/** Whether production `/v1/meta` lists the member: not `public: false`, and a primary key only when `public: true`. */
function isPublicMember(m: CubeMember): boolean {
  if (m.public === false || m.isVisible === false) return false;
  return m.primaryKey === true ? m.public === true : true;
}

/**
 * The connected component of each cube that has a join: cubes linked by joins
 * (either direction) share a number, from 1 in the order of the model. From
 * `joins` when the model has any, else the numbers a model file gave.
 */
export function connectedComponents(model: CubeModel): Map<string, number> {
  const cubes = model.cubes.filter((c) => c.type === 'cube');
  if (!cubes.some((c) => c.joins !== undefined)) {
    return new Map(cubes.flatMap((c) => (c.connectedComponent === undefined ? [] : [[c.name, c.connectedComponent]])));
  }
  const parent = new Map(cubes.map((c) => [c.name, c.name]));
  const find = (n: string): string => {
    let r = n;
    while (parent.get(r) !== r) r = parent.get(r)!;
    return r;
  };
  const linked = new Set<string>();
  for (const c of cubes) {
    for (const j of c.joins ?? []) {
      if (!parent.has(j.name)) continue;
      parent.set(find(c.name), find(j.name));
      linked.add(c.name).add(j.name);
    }
  }
  const numbers = new Map<string, number>();
  const result = new Map<string, number>();
  for (const c of cubes) {
    if (!linked.has(c.name)) continue;
    const root = find(c.name);
    if (!numbers.has(root)) numbers.set(root, numbers.size + 1);
    result.set(c.name, numbers.get(root)!);
  }
  return result;
}

/** One member as `/v1/meta` shows it: visibility stated, nothing of the model's own bookkeeping. */
function metaMember(m: CubeMember, visible: boolean): CubeMember {
  const { public: _p, isVisible: _v, ...rest } = m;
  return { ...rest, isVisible: visible, public: visible };
}

/**
 * `GET /v1/meta`: production mode leaves out hidden cubes and members; dev
 * mode lists them with `isVisible: false` / `public: false`.
 */
export function metaAnswer(model: CubeModel, mode: 'production' | 'dev' = 'production'): MetaAnswer {
  const components = connectedComponents(model);
  const cubes = [];
  for (const cube of model.cubes) {
    const cubeVisible = isPublicCube(cube);
    if (!cubeVisible && mode === 'production') continue;
    const members = (role: MemberRole) =>
      cube[role].flatMap((m) => {
        const visible = cubeVisible && isPublicMember(m);
        return visible || mode === 'dev' ? [metaMember(m, visible)] : [];
      });
    const { joins: _j, connectedComponent: _c, public: _p, isVisible: _v, ...rest } = cube;
    const component = components.get(cube.name);
    cubes.push({
      ...rest,
      isVisible: cubeVisible,
      public: cubeVisible,
      ...(component === undefined ? {} : { connectedComponent: component }),
      measures: members('measures'),
      dimensions: members('dimensions'),
      segments: members('segments'),
    });
  }
  return { cubes };
}
