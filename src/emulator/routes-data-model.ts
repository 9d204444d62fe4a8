// The data-model side of a deployment: its environments (one production
// environment whose `rest` url is this server's Core Data API), deployment
// tokens for that API (HS256 JWTs when the emulator has a Cube API secret),
// and the model's compile check. The Core Data API itself is
// routes-core-data-api.ts.
import type { Ctx } from './context.js';
import { badRequest } from './http-error.js';
import { signJwt } from './jwt.js';
import { randomBase62 } from './prng.js';
import { minted, type Minted } from './routes-core-data-api.js';

export function listEnvironments(ctx: Ctx): unknown {
  const credentials =
    ctx.dataModel.model === null
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
  const secret = ctx.dataModel.secret;
  if (secret !== undefined) return { cubeApiToken: signJwt({ deploymentId: ctx.deployment.id }, secret, expiresIn) };
  const token = `cube-${randomBase62(ctx.store.rng, 32)}`;
  let tokens = minted.get(ctx.store);
  if (!tokens) minted.set(ctx.store, (tokens = new Map<string, Minted>()));
  tokens.set(token, { deploymentId: ctx.deployment.id, expiresAt: Date.now() + expiresIn * 1000 });
  return { cubeApiToken: token };
}

export function validateModel(ctx: Ctx): unknown {
  const meta = ctx.dataModel.model;
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
