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

const MetaMember = z.looseObject({
  name: z.string(),
  title: nullishString,
  shortTitle: nullishString,
  type: nullishString,
  /** A time dimension's custom granularities (Cube lists them beside the standard ones). */
  granularities: z.array(z.looseObject({ name: z.string() })).nullish(),
});
export type MetaMember = z.infer<typeof MetaMember>;

const MetaCube = z.looseObject({
  name: z.string(),
  title: nullishString,
  type: z.string().nullish(),
  measures: z.array(MetaMember).nullish(),
  dimensions: z.array(MetaMember).nullish(),
  segments: z.array(MetaMember).nullish(),
});
type MetaCube = z.infer<typeof MetaCube>;

/** `GET {rest url}/v1/meta`: the cubes and views of the deployment's model. */
export const MetaAnswer = z.looseObject({ cubes: z.array(MetaCube) });
export type MetaAnswer = z.infer<typeof MetaAnswer>;

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
 * The path of `/v1/meta` under a `rest` url: `/meta` when the url already
 * ends in `/v1`, else `/v1/meta` (the client puts the url's own path before it).
 */
export function metaPath(restUrl: string): string {
  return /\/v1\/*$/.test(new URL(restUrl).pathname) ? '/meta' : '/v1/meta';
}
