// The wire shapes of the data-model side of the platform: a deployment's
// environments (with the Core Data API's url), the deployment token minted
// for that API, the Core Data API's `/v1/meta` answer and the model's
// compile check. Shared by the client (the semantic check, doctor) and the
// emulator. Loose objects: these answers carry more than wsc reads.
import * as z from 'zod';
import { API_PREFIX } from './wire.js';

/** The lifetime asked for a deployment token, in seconds: the check needs it for one request. */
export const MODEL_TOKEN_SECONDS = 300;

const nullishString = z.string().nullish();

const ApiCredential = z.looseObject({
  type: z.string(),
  url: nullishString,
  host: nullishString,
});

export const DeploymentEnvironment = z.looseObject({
  id: z.union([z.string(), z.number()]),
  type: z.string(),
  branch: nullishString,
  api_credentials: z.array(ApiCredential).nullish(),
});
export type DeploymentEnvironment = z.infer<typeof DeploymentEnvironment>;

export const DeploymentEnvironmentsList = z.looseObject({
  items: z.array(DeploymentEnvironment),
});

export const DeploymentTokenResponse = z.looseObject({ cubeApiToken: z.string().min(1) });

// `/v1/meta` as Cube answers it (../shared facts, "The Core Data API"):
// measures are `type: number` with the aggregation in `aggType`; dimensions
// are `string | number | time | boolean | geo`, a primary key says so, a time
// dimension lists its custom granularities (the standard ones are not
// listed); a view's members name the cube member they expose (`aliasMember`);
// hidden members and cubes are left out in production and listed with
// `isVisible: false` / `public: false` in dev mode. Types stay open strings
// (a newer Cube may add one): the constants below say what Cube sends today.

/** The granularities Cube gives every time dimension (not listed in `/v1/meta`). */
export const STANDARD_GRANULARITIES = ['second', 'minute', 'hour', 'day', 'week', 'month', 'quarter', 'year'] as const;

/** A custom granularity of a time dimension: `{name, title, interval, offset | origin}`. */
const MetaGranularity = z.looseObject({
  name: z.string(),
  title: nullishString,
  interval: nullishString,
  offset: nullishString,
  origin: nullishString,
});
export type MetaGranularity = z.infer<typeof MetaGranularity>;

/** What every member carries: its qualified name, titles, visibility and, in a view, the member it exposes. */
const memberFields = {
  name: z.string(),
  title: nullishString,
  shortTitle: nullishString,
  description: nullishString,
  /** `sales.order_status` ← `orders.status`: the cube member a view member exposes. */
  aliasMember: nullishString,
  public: z.boolean().nullish(),
  isVisible: z.boolean().nullish(),
};

const MetaMeasure = z.looseObject({
  ...memberFields,
  /** Always `number` in Cube (older answers and other servers may send the aggregation here). */
  type: nullishString,
  /** `count`, `sum`, `avg`, `countDistinct`, `number`, … */
  aggType: nullishString,
});

const MetaDimension = z.looseObject({
  ...memberFields,
  /** `string`, `number`, `time`, `boolean` or `geo` (only `time` takes a granularity). */
  type: nullishString,
  primaryKey: z.boolean().nullish(),
  /** A time dimension's custom granularities (the standard ones are not listed). */
  granularities: z.array(MetaGranularity).nullish(),
});
export type MetaDimension = z.infer<typeof MetaDimension>;

/** A segment: no `type`. */
const MetaSegment = z.looseObject({ ...memberFields });

const MetaCube = z.looseObject({
  name: z.string(),
  title: nullishString,
  description: nullishString,
  /** `cube` or `view`. */
  type: nullishString,
  public: z.boolean().nullish(),
  isVisible: z.boolean().nullish(),
  /** Two cubes with the same number have a join path; absent on a cube that joins nothing, and on views. */
  connectedComponent: z.number().nullish(),
  measures: z.array(MetaMeasure).nullish(),
  dimensions: z.array(MetaDimension).nullish(),
  segments: z.array(MetaSegment).nullish(),
});

/** `GET {rest url}/v1/meta`: the cubes and views of the deployment's model. */
export const MetaAnswer = z.looseObject({ cubes: z.array(MetaCube) });
export type MetaAnswer = z.infer<typeof MetaAnswer>;

/**
 * `GET {rest url}/v1/sql?query=…`: the query planner's verdict, nothing run. A valid query answers
 * `{sql: {sql: [text, params], …}}` (`format=rest`) or `{sql: {status: 'ok' | 'error', error?, query_type?}}`
 * (`format=sql`); an invalid one HTTP 400 with `CoreErrorBody`.
 */
export const SqlPlanAnswer = z.looseObject({
  sql: z
    .looseObject({
      sql: z.unknown().optional(),
      status: nullishString,
      error: nullishString,
      /** Cube's native planner answers an object (`{regular, post_processing, pushdown}`). */
      query_type: z.unknown().optional(),
    })
    .nullish(),
  /** Some servers answer a `format=sql` verdict at the top level. */
  status: nullishString,
  error: nullishString,
});
export type SqlPlanAnswer = z.infer<typeof SqlPlanAnswer>;

/** What the planner said of a query: accepted, refused (Cube's text), or it could not be asked (why). */
export type PlannerVerdict =
  { kind: 'accepted' } | { kind: 'refused'; error: string } | { kind: 'unavailable'; why: string };

/** A Core Data API error: `{type: "UserError", error: "Cube 'x' not found for path 'x.count'"}`. */
export const CoreErrorBody = z.looseObject({ error: z.string(), type: nullishString });
export type CoreErrorBody = z.infer<typeof CoreErrorBody>;

export const DataModelValidation = z.looseObject({
  valid: z.boolean(),
  errors: z.array(z.looseObject({ fileName: nullishString, message: z.string() })).default([]),
  cubesCount: z.number().nullish(),
  branchName: nullishString,
  mode: nullishString,
});
export type DataModelValidation = z.infer<typeof DataModelValidation>;

export const dataModelPaths = {
  environments: (dep: number) => `${API_PREFIX}/deployments/${dep}/environments`,
  token: (dep: number) => `${API_PREFIX}/deployments/${dep}/token`,
  validate: (dep: number) => `/build/api/v1/deployments/${dep}/data-model/validate`,
} as const;

/**
 * The path of a Core Data API endpoint (`meta`, `sql`) under a `rest` url: `/meta` when the url already
 * ends in `/v1`, else `/v1/meta` (the client puts the url's own path before it).
 */
export function corePath(restUrl: string, endpoint: 'meta' | 'sql'): string {
  return /\/v1\/*$/.test(new URL(restUrl).pathname) ? `/${endpoint}` : `/v1/${endpoint}`;
}

export function metaPath(restUrl: string): string {
  return corePath(restUrl, 'meta');
}
