// The data-model side of a deployment: its environments (one production
// environment whose `rest` url is this server's Core Data API), deployment
// tokens for that API, the model's compile check, and the Core Data API's
// `GET /cubejs-api/v1/meta`, which takes only a minted token (sent bare, as
// Cube takes it) and refuses a platform token.
import type { Ctx } from './context.js';
import { badRequest, forbidden, HttpError, notFound } from './http-error.js';
import { randomBase62 } from './prng.js';
import type { Store } from './store.js';
import type { DataModelState } from './types.js';

/** The path prefix of the Core Data API on this server. */
export const CORE_API_PREFIX = '/cubejs-api/';

interface Minted {
  deploymentId: number;
  expiresAt: number;
}
/** Deployment tokens by value, per store (a token is not part of the persisted state). */
const minted = new WeakMap<Store, Map<string, Minted>>();

export function listEnvironments(ctx: Ctx): unknown {
  const credentials =
    ctx.dataModel.meta === null
      ? []
      : [{ type: 'rest', url: ctx.dataModel.restUrl, host: new URL(ctx.dataModel.restUrl).host, version: 1 }];
  const items = [
    {
      id: `${ctx.deployment.id}-production`,
      type: 'production',
      branch: 'main',
      user: null,
      api_credentials: credentials,
    },
  ];
  return { items, data: items, pageInfo: { hasNextPage: false, hasPreviousPage: false } };
}

export function mintToken(ctx: Ctx): unknown {
  const raw = ctx.body['expiresIn'];
  const expiresIn = raw === undefined || raw === null ? 86_400 : raw;
  if (typeof expiresIn !== 'number' || !Number.isInteger(expiresIn) || expiresIn < 60 || expiresIn > 86_400) {
    throw badRequest('expiresIn must be an integer from 60 to 86400');
  }
  const token = `cube-${randomBase62(ctx.store.rng, 32)}`;
  let tokens = minted.get(ctx.store);
  if (!tokens) minted.set(ctx.store, (tokens = new Map<string, Minted>()));
  tokens.set(token, { deploymentId: ctx.deployment.id, expiresAt: Date.now() + expiresIn * 1000 });
  return { cubeApiToken: token };
}

export function validateModel(ctx: Ctx): unknown {
  const meta = ctx.dataModel.meta;
  const base = { branchName: 'main', deploymentId: ctx.deployment.id, mode: 'production' };
  if (meta === null) {
    return {
      ...base,
      valid: false,
      cubesCount: null,
      errors: [{ fileName: null, message: 'The deployment has no data model' }],
    };
  }
  return { ...base, valid: true, cubesCount: meta.cubes.length, errors: [] };
}

/** `GET {rest url}/v1/meta`: the minted token alone opens it; a platform token is refused. */
export function coreDataApi(
  state: DataModelState,
  store: Store,
  method: string,
  path: string,
  auth: string | undefined,
): unknown {
  if (method !== 'GET' || !/^\/cubejs-api\/v1\/meta\/?$/.test(path)) throw notFound(`Cannot ${method} ${path}`);
  coreCaller(store, auth);
  if (state.meta === null) throw notFound('The deployment has no data model');
  return state.meta;
}

/** The caller of the Core Data API: a minted, unexpired token; a platform token is refused. */
export function coreCaller(store: Store, auth: string | undefined): void {
  const value = (auth ?? '').trim().replace(/^Bearer\s+/i, '');
  if (value === '') throw new HttpError(401, 'Authorization header missing');
  const token = minted.get(store)?.get(value);
  if (token === undefined) {
    if (store.tokens.has(value)) throw forbidden('A platform API token is not accepted here: use a deployment token');
    throw new HttpError(401, 'Invalid token');
  }
  if (token.expiresAt <= Date.now()) throw new HttpError(401, 'Token expired');
}
