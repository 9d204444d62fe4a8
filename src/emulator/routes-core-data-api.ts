// The Core Data API (`{rest url}` = this server's `/cubejs-api/v1`), as Cube
// answers it: `GET /v1/meta` (production mode, or dev mode's listing of hidden
// members), and the query planner's verdict without reading data,
// `GET|POST /v1/sql` (`format=sql` for a SQL-API query) and
// `GET|POST /v1/dry-run`. Only a deployment token opens it: one minted by
// `POST …/token`, or an HS256 JWT signed with the emulator's Cube API secret
// (`--cube-api-secret`); a platform token is refused.
import { CubeError } from './cube-query-format.js';
import { planQuery } from './cube-query.js';
import { metaAnswer, type CubeModel } from './cube-model.js';
import { dryRunAnswer, sqlAnswer, sqlApiAnswer } from './cube-sql.js';
import { forbidden, HttpError, notFound } from './http-error.js';
import { verifyJwt } from './jwt.js';
import type { Store } from './store.js';
import type { DataModelState } from './types.js';

/** The path prefix of the Core Data API on this server. */
export const CORE_API_PREFIX = '/cubejs-api/';

export interface Minted {
  deploymentId: number;
  expiresAt: number;
}
/** Deployment tokens by value, per store (a token is not part of the persisted state). */
export const minted = new WeakMap<Store, Map<string, Minted>>();

/** What one request to the Core Data API carries. */
export interface CoreRequest {
  method: string;
  url: URL;
  auth: string | undefined;
  /** The parsed JSON body of a POST. */
  body: unknown;
}

/** The caller of the Core Data API (also of its data routes, routes-data-load.ts): a deployment token. */
export function authorize(state: DataModelState, store: Store, auth: string | undefined): void {
  const value = (auth ?? '').trim().replace(/^Bearer\s+/i, '');
  if (value === '') throw new HttpError(401, 'Authorization header missing');
  const token = minted.get(store)?.get(value);
  if (token !== undefined) {
    if (token.expiresAt <= Date.now()) throw new HttpError(401, 'Token expired');
    return;
  }
  if (state.secret !== undefined) {
    const jwt = verifyJwt(value, state.secret);
    if (jwt === 'expired') throw new HttpError(401, 'Token expired');
    if (jwt !== 'invalid') return;
  }
  if (store.tokens.has(value)) throw forbidden('A platform API token is not accepted here: use a deployment token');
  throw new HttpError(401, 'Invalid token');
}

/** The query of a planner request: `?query=` (JSON text) or a POST body's `query`. */
function queryOf(req: CoreRequest): unknown {
  const raw =
    req.method === 'POST' ? (req.body as { query?: unknown } | null)?.query : req.url.searchParams.get('query');
  if (raw === undefined || raw === null || raw === '') throw new CubeError('Query param is required', false);
  if (typeof raw !== 'string') return raw;
  try {
    return JSON.parse(raw) as unknown;
  } catch (e) {
    throw new CubeError(`Unable to decode query param as JSON, error: ${(e as Error).message}`, false);
  }
}

function formatOf(req: CoreRequest): unknown {
  return req.method === 'POST' ? (req.body as { format?: unknown } | null)?.format : req.url.searchParams.get('format');
}

const ROUTES: Record<string, (model: CubeModel, req: CoreRequest, state: DataModelState) => unknown> = {
  meta: (model, _req, state) => metaAnswer(model, state.devMode ? 'dev' : 'production'),
  sql: (model, req) => {
    if (formatOf(req) === 'sql') {
      const text =
        req.method === 'POST' ? (req.body as { query?: unknown } | null)?.query : req.url.searchParams.get('query');
      return sqlApiAnswer(model, text);
    }
    const planned = planQuery(model, queryOf(req));
    // A compareDateRange query is one query per range: Cube answers the list.
    return planned.compareRanges > 0
      ? Array.from({ length: planned.compareRanges }, () => sqlAnswer(planned))
      : sqlAnswer(planned);
  },
  'dry-run': (model, req) => dryRunAnswer(planQuery(model, queryOf(req))),
};

/** One request under `/cubejs-api/`: the token checked, then the route's answer (or Cube's error). */
export function coreDataApi(state: DataModelState, store: Store, req: CoreRequest): unknown {
  const m = /^\/cubejs-api\/v1\/(meta|sql|dry-run)\/?$/.exec(req.url.pathname);
  const route = m ? ROUTES[m[1]!] : undefined;
  const allowed = m?.[1] === 'meta' ? req.method === 'GET' : req.method === 'GET' || req.method === 'POST';
  if (!route || !allowed) throw notFound(`Cannot ${req.method} ${req.url.pathname}`);
  authorize(state, store, req.auth);
  if (state.model === null) throw notFound('The deployment has no data model');
  return route(state.model, req, state);
}
