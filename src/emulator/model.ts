// The data model the emulator serves (the Core Data API's `/v1/meta`
// answer): by default one that holds every member `fixtures/example` and the
// generated seeds name, or one read from a file in the same format.
import { readFileSync } from 'node:fs';
import { MetaAnswer } from '../domain/data-model.js';

type Member = { name: string; title: string; type: string };
type Cube = {
  name: string;
  title: string;
  type: 'cube' | 'view';
  measures: Member[];
  dimensions: Member[];
  segments: Member[];
};

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

/** A cube from its members: `[name, type]` pairs (a dimension of type `time` takes granularities). */
function cube(
  name: string,
  measures: [string, string][],
  dimensions: [string, string][],
  segments: string[] = [],
  type: 'cube' | 'view' = 'cube',
): Cube {
  const member = ([m, t]: [string, string]): Member => ({ name: `${name}.${m}`, title: title(m), type: t });
  return {
    name,
    title: title(name),
    type,
    measures: measures.map(member),
    dimensions: dimensions.map(member),
    segments: segments.map((s) => ({ name: `${name}.${s}`, title: title(s), type: 'segment' })),
  };
}

export function defaultModel(): { cubes: Cube[] } {
  const numbered = (prefix: string, n: number, t: string) =>
    Array.from({ length: n }, (_, i): [string, string] => [`${prefix}${i}`, t]);
  return {
    cubes: [
      cube(
        'subscriptions',
        [
          ['arr', 'sum'],
          ['mrr', 'sum'],
          ['count', 'count'],
        ],
        [
          ['id', 'number'],
          ['billing_date', 'time'],
          ['plan', 'string'],
        ],
        ['active'],
      ),
      cube(
        'accounts',
        [['count', 'count']],
        [
          ['id', 'number'],
          ['name', 'string'],
          ['region', 'string'],
          ['segment', 'string'],
          ['health_score', 'number'],
          ['created_at', 'time'],
        ],
      ),
      cube(
        'churn',
        [
          ['logo_churn_rate', 'number'],
          ['revenue_churn_rate', 'number'],
        ],
        [['month', 'time']],
      ),
      cube(
        'cohorts',
        [['revenue_retention', 'number']],
        [
          ['signup_month', 'time'],
          ['months_since_signup', 'number'],
        ],
      ),
      cube('retention', [['net_revenue_retention', 'number']], [['period_end', 'time']]),
      cube(
        'opportunities',
        [
          ['amount', 'sum'],
          ['count', 'count'],
          ['win_rate', 'number'],
          ['median_days_to_close', 'number'],
        ],
        [
          ['id', 'number'],
          ['stage', 'string'],
          ['is_closed', 'boolean'],
          ['close_date', 'time'],
        ],
        ['open'],
      ),
      // What generated seeds and the UI-made seed name.
      cube(
        'orders',
        [['count', 'count'], ['total', 'sum'], ['revenue', 'sum'], ...numbered('m', 7, 'sum')],
        [
          ['id', 'number'],
          ['status', 'string'],
          ['region', 'string'],
          ['created_at', 'time'],
          ...numbered('d', 5, 'string'),
        ],
      ),
      cube(
        'revenue',
        [
          ['arr', 'sum'],
          ['mrr', 'sum'],
        ],
        [
          ['region', 'string'],
          ['month', 'time'],
        ],
        [],
        'view',
      ),
    ],
  };
}

/** A model file: the `/v1/meta` answer as JSON. */
export function loadModelFile(path: string): MetaAnswer {
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
  return data as MetaAnswer;
}
