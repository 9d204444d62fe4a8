// Reading a deployment's data model for the semantic check: its environments
// (the production one's `rest` url, the Core Data API) and a short-lived
// deployment token at once, then `/v1/meta` with that token. Two round trips
// in sequence, run beside the live read. The platform token never goes to the
// Core Data API: that request is made by a client of its own that holds only
// the minted token, registered for redaction before it is used, and sent only
// over https:// (or to loopback). Any failure is an answer, not a throw: the
// check is then skipped with a warning that says what was tried.
import type { ZodType } from 'zod';
import {
  DataModelValidation,
  DeploymentEnvironmentsList,
  DeploymentTokenResponse,
  MetaAnswer,
  MODEL_TOKEN_SECONDS,
  dataModelPaths,
  metaPath,
  type DeploymentEnvironment,
} from '../domain/data-model.js';
import { isLoopbackHost } from '../domain/loopback.js';
import { addSecret } from '../redact.js';
import { ApiClient, type ApiClientOptions } from './client.js';

export type ModelRead =
  { ok: true; meta: MetaAnswer; restUrl: string; environment: string } | { ok: false; tried: string; why: string };

/** What the Core Data API's client takes from the command's settings. */
export type CoreClientOptions = Pick<ApiClientOptions, 'requestTimeoutMs' | 'maxRetries' | 'trace' | 'notice'>;

const message = (e: unknown) => (e instanceof Error ? e.message : String(e));

/** Why a `rest` url may not be given the token, or undefined when it may. */
export function refusedRestUrl(raw: string): string | undefined {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return `its Core Data API url ${JSON.stringify(raw)} is not a URL`;
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:')
    return `its Core Data API url uses ${url.protocol}//; only https:// is accepted`;
  if (url.username || url.password) return 'its Core Data API url holds credentials';
  if (url.protocol === 'http:' && !isLoopbackHost(url.hostname))
    return `its Core Data API url is http:// on ${url.hostname}: the token would travel unencrypted`;
  return undefined;
}

/** The environment whose model the deployment's content queries: production, else the only one. */
export function productionRest(
  envs: readonly DeploymentEnvironment[],
): { env: DeploymentEnvironment; url: string } | string {
  const candidates = envs.filter((e) => e.type === 'production');
  const env = candidates[0] ?? (envs.length === 1 ? envs[0] : undefined);
  if (env === undefined) return `the deployment lists ${envs.length} environments and no production one`;
  const rest = (env.api_credentials ?? []).find((c) => c.type === 'rest' && typeof c.url === 'string' && c.url !== '');
  if (rest === undefined) return `its ${env.type} environment has no \`rest\` API credentials`;
  return { env, url: rest.url! };
}

export async function readDataModel(
  client: ApiClient,
  deploymentId: number,
  opts: CoreClientOptions = {},
): Promise<ModelRead> {
  const envPath = dataModelPaths.environments(deploymentId);
  const tokenPath = dataModelPaths.token(deploymentId);
  let tried = `GET ${envPath} and POST ${tokenPath} (expiresIn ${MODEL_TOKEN_SECONDS})`;
  const envs = client.get(envPath, DeploymentEnvironmentsList, { type: 'production' });
  const token = client.request({
    method: 'POST',
    path: tokenPath,
    body: { expiresIn: MODEL_TOKEN_SECONDS },
    schema: DeploymentTokenResponse,
    // A token more or less changes nothing: asking again is harmless.
    safeToRetryPost: true,
  });
  // Registered the moment it arrives: no line printed after this may show it.
  token.then((t) => addSecret(t.cubeApiToken)).catch(() => undefined);
  const [envsRead, tokenRead] = await Promise.allSettled([envs, token]);
  if (envsRead.status === 'rejected') return { ok: false, tried, why: message(envsRead.reason) };
  if (tokenRead.status === 'rejected') return { ok: false, tried, why: message(tokenRead.reason) };
  const rest = productionRest(envsRead.value.items);
  if (typeof rest === 'string') return { ok: false, tried, why: rest };
  const refused = refusedRestUrl(rest.url);
  if (refused !== undefined) return { ok: false, tried, why: `${refused}; the token was not sent` };
  const path = metaPath(rest.url);
  tried += `, then GET ${rest.url.replace(/\/+$/, '')}${path}`;
  const meta = await coreGet(rest.url, tokenRead.value.cubeApiToken, path, MetaAnswer, opts);
  if (!meta.ok) return { ok: false, tried, why: meta.why };
  return { ok: true, meta: meta.value, restUrl: rest.url, environment: String(rest.env.id) };
}

/** One GET on the Core Data API, by a client that holds the minted token alone (no `Bearer`, as Cube takes it). */
async function coreGet<T>(
  restUrl: string,
  token: string,
  path: string,
  schema: ZodType<T>,
  opts: CoreClientOptions,
): Promise<{ ok: true; value: T } | { ok: false; why: string }> {
  const core = new ApiClient({ baseUrl: restUrl, token, authScheme: 'raw', connections: 1, ...opts });
  try {
    const label = `the data model (Core Data API ${new URL(restUrl).host})`;
    return { ok: true, value: await core.request({ method: 'GET', path, schema, label }) };
  } catch (e) {
    return { ok: false, why: message(e) };
  } finally {
    await core.close();
  }
}

/** `data-model/validate`: whether the deployment's model compiles (doctor). */
export function validateDataModel(client: ApiClient, deploymentId: number): Promise<DataModelValidation> {
  return client.get(dataModelPaths.validate(deploymentId), DataModelValidation);
}
