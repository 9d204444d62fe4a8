// The data model the emulator serves, in Cube's shape (cube-model.ts): by
// default one that holds every member `fixtures/example` and the generated
// seeds name, with what a real model has besides (hidden primary keys, a
// member and a cube with `public: false`, a view with `aliasMember`, custom
// granularities, joins and a cube with none); or one read from a file: a
// `/v1/meta` answer (production or dev mode), `joins` optional.
import { readFileSync } from 'node:fs';
import { MetaAnswer } from '../domain/data-model.js';
import type { CubeDef, CubeGranularity, CubeJoin, CubeMember, CubeModel } from './cube-model.js';
import type { DataModelState } from './types.js';

const ACRONYMS = new Set(['arr', 'mrr', 'id']);
const title = (name: string) => {
  const words = name
    .split('.')
    .pop()!
    .split('_')
    .map((w) => (ACRONYMS.has(w) ? w.toUpperCase() : w))
    .join(' ');
  return words.charAt(0).toUpperCase() + words.slice(1);
};

/** What a member may say besides its name and type. */
type Extra = Pick<CubeMember, 'public' | 'primaryKey' | 'aliasMember'> & { granularities?: CubeGranularity[] };
/** `[name, aggType]` for a measure, `[name, type]` for a dimension, each with optional extras. */
type Spec = [string, string, Extra?];

interface CubeSpec {
  measures: Spec[];
  dimensions: Spec[];
  segments?: string[];
  joins?: CubeJoin[];
  type?: 'cube' | 'view';
  public?: boolean;
}

/** A cube from its members. Titles are the members' short ones (what the UI shows beside a chart). */
function cube(name: string, spec: CubeSpec): CubeDef {
  const member = (m: string, extra: Extra | undefined): CubeMember => ({
    name: `${name}.${m}`,
    title: title(m),
    shortTitle: title(m),
    ...extra,
  });
  return {
    name,
    title: title(name),
    type: spec.type ?? 'cube',
    ...(spec.public === undefined ? {} : { public: spec.public }),
    measures: spec.measures.map(([m, agg, extra]) => ({ ...member(m, extra), type: 'number', aggType: agg })),
    dimensions: spec.dimensions.map(([m, type, extra]) => ({ ...member(m, extra), type })),
    segments: (spec.segments ?? []).map((s) => member(s, undefined)),
    ...(spec.joins ? { joins: spec.joins } : {}),
  };
}

const pk: Extra = { primaryKey: true };
const hidden: Extra = { public: false };
const fiscalYear: CubeGranularity = {
  name: 'fiscal_year',
  title: 'Fiscal Year',
  interval: '1 year',
  offset: '1 month',
};
const manyToOne = (name: string): CubeJoin => ({ name, relationship: 'many_to_one' });

export function defaultModel(): CubeModel {
  const numbered = (prefix: string, n: number, t: string) =>
    Array.from({ length: n }, (_, i): Spec => [`${prefix}${i}`, t]);
  return {
    cubes: [
      cube('subscriptions', {
        measures: [
          ['arr', 'sum'],
          ['mrr', 'sum'],
          ['count', 'count'],
        ],
        dimensions: [
          ['id', 'number', pk],
          ['account_id', 'number', hidden],
          ['billing_date', 'time', { granularities: [fiscalYear] }],
          ['plan', 'string'],
        ],
        segments: ['active'],
        joins: [manyToOne('accounts')],
      }),
      cube('accounts', {
        measures: [['count', 'count']],
        dimensions: [
          ['id', 'number', pk],
          ['name', 'string'],
          ['region', 'string'],
          ['segment', 'string'],
          ['health_score', 'number'],
          ['created_at', 'time'],
        ],
      }),
      cube('churn', {
        measures: [
          ['logo_churn_rate', 'number'],
          ['revenue_churn_rate', 'number'],
        ],
        dimensions: [['month', 'time']],
      }),
      cube('cohorts', {
        measures: [['revenue_retention', 'number']],
        dimensions: [
          ['signup_month', 'time'],
          ['months_since_signup', 'number'],
        ],
      }),
      cube('retention', { measures: [['net_revenue_retention', 'number']], dimensions: [['period_end', 'time']] }),
      cube('opportunities', {
        measures: [
          ['amount', 'sum'],
          ['count', 'count'],
          ['win_rate', 'number'],
          ['median_days_to_close', 'number'],
        ],
        dimensions: [
          ['id', 'number', pk],
          ['stage', 'string'],
          ['is_closed', 'boolean'],
          ['close_date', 'time'],
        ],
        segments: ['open'],
        joins: [manyToOne('accounts')],
      }),
      // What generated seeds and the UI-made seed name; no join to any other cube.
      cube('orders', {
        measures: [
          ['count', 'count'],
          ['total', 'sum'],
          ['revenue', 'sum'],
          ['internal_cost', 'sum', hidden],
          ...numbered('m', 7, 'sum'),
        ],
        dimensions: [
          ['id', 'number', pk],
          ['status', 'string'],
          ['region', 'string'],
          ['created_at', 'time', { granularities: [fiscalYear] }],
          ...numbered('d', 5, 'string'),
        ],
        segments: ['completed'],
      }),
      // Not public: out of production /v1/meta, still answered by the query planner.
      cube('audit_log', {
        public: false,
        measures: [['count', 'count']],
        dimensions: [
          ['id', 'number', pk],
          ['action', 'string'],
          ['happened_at', 'time'],
        ],
      }),
      cube('revenue', {
        type: 'view',
        measures: [
          ['arr', 'sum', { aliasMember: 'subscriptions.arr' }],
          ['mrr', 'sum', { aliasMember: 'subscriptions.mrr' }],
        ],
        dimensions: [
          ['region', 'string', { aliasMember: 'accounts.region' }],
          ['month', 'time', { aliasMember: 'subscriptions.billing_date', granularities: [fiscalYear] }],
        ],
      }),
    ],
  };
}

/** A model file: a `/v1/meta` answer as JSON (dev mode's lists hidden members; `joins` per cube is optional). */
function loadModelFile(path: string): CubeModel {
  let data: unknown;
  try {
    data = JSON.parse(readFileSync(path, 'utf8'));
  } catch (e) {
    throw new Error(`${path}: the data model is not readable JSON (${(e as Error).message})`, { cause: e });
  }
  const parsed = MetaAnswer.safeParse(data);
  if (!parsed.success)
    throw new Error(
      `${path}: a data model is a /v1/meta answer, { cubes: [{ name, measures, dimensions, segments }] }`,
    );
  return asCubeModel(data as MetaAnswer);
}

/** A `/v1/meta` answer (or a model) as the emulator's model: missing lists empty, `type` defaulting to `cube`. */
function asCubeModel(meta: MetaAnswer | CubeModel): CubeModel {
  return {
    cubes: meta.cubes.map((c) => {
      const cube = c as Partial<CubeDef> & { name: string };
      return {
        ...cube,
        type: cube.type === 'view' ? 'view' : 'cube',
        measures: cube.measures ?? [],
        dimensions: cube.dimensions ?? [],
        segments: cube.segments ?? [],
      };
    }),
  };
}

/** The data-model side of an emulator from its options (see EmulatorOptions in index.ts). */
export function dataModelState(opts: {
  model?: CubeModel | MetaAnswer | string | null;
  devMode?: boolean;
  coreDataApiUrl?: string;
  cubeApiSecret?: string;
}): DataModelState {
  const m = opts.model;
  return {
    model: m === null ? null : typeof m === 'string' ? loadModelFile(m) : asCubeModel(m ?? defaultModel()),
    restUrl: opts.coreDataApiUrl ?? '',
    devMode: opts.devMode ?? false,
    ...(opts.cubeApiSecret === undefined ? {} : { secret: opts.cubeApiSecret }),
  };
}
