// Reading a deployment's data model for the semantic check: its environments
// (the production one's `rest` url, the Core Data API) and a short-lived
// deployment token at once, then `/v1/meta` with that token. Two round trips
// in sequence, run beside the live read. The platform token never goes to the
// Core Data API: that request is made by a client of its own that holds only
// the minted token, registered for redaction before it is used, and sent only
// over https:// (or to loopback). Any failure is an answer, not a throw: the
// check is then skipped with a warning that says what was tried. The same
// client then asks the planner (`/v1/sql`) about the queries the check
// confirms (CoreApi.plan), until the caller closes it. A minted token that no
// HTTP header can carry, or that is the platform token itself, is never sent.
import type { ZodType } from 'zod';
import {
  corePath,
  DataModelValidation,
  DeploymentEnvironmentsList,
  DeploymentTokenResponse,
  MetaAnswer,
  MODEL_TOKEN_SECONDS,
  SqlPlanAnswer,
  dataModelPaths,
  metaPath,
  type DeploymentEnvironment,
  type PlannerVerdict,
} from '../domain/data-model.js';
import { ApiError } from '../errors.js';
import { isLoopbackHost } from '../domain/loopback.js';
import { NOT_IN_HEADER } from '../domain/unsafe-chars.js';
import { addSecret } from '../redact.js';
import { ApiClient, type ApiClientOptions } from './client.js';

export type ModelRead =
  | { ok: true; meta: MetaAnswer; restUrl: string; environment: string; core: CoreApi }
  | { ok: false; tried: string; why: string };

/** What the Core Data API's client takes from the command's settings. */
export type CoreClientOptions = Pick<ApiClientOptions, 'requestTimeoutMs' | 'maxRetries' | 'trace' | 'notice'> & {
  /** Connections to the Core Data API (the planner's questions run this many at once). */
  connections?: number;
  /** Ends the read at once (the run failed elsewhere, or the check's time is up). */
  signal?: AbortSignal;
};

const message = (e: unknown) => (e instanceof Error ? e.message : String(e));

/**
 * Why a Core Data API request failed. Cube answers 403 (some gateways 401) for the token it was given, the
 * minted deployment token: the platform token's wording ("Access denied", "check WSC_TOKEN") would be false.
 */
function coreWhy(e: unknown): string {
  if (!(e instanceof ApiError) || (e.status !== 401 && e.status !== 403)) return message(e);
  const said = e.serverMessage !== undefined ? `: ${e.serverMessage}` : '';
  const line = `${e.method} ${e.path} -> ${e.status} ${e.status === 401 ? 'Unauthorized' : 'Forbidden'}${said}`;
  return `the Core Data API refused the deployment token wsc minted (${line})`;
}

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

/** Why a minted token may not be sent, or undefined when it may. */
function refusedToken(token: string, platform: ApiClient): string | undefined {
  // CR, LF and other controls would end the header (or let the token write one of its own).
  if (NOT_IN_HEADER.test(token))
    return 'the minted token holds characters an HTTP header cannot carry (a line break or a control character)';
  if (platform.holdsToken(token))
    return 'the platform answered with the token wsc signs in with, not a deployment token';
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
  const refused = refusedRestUrl(rest.url) ?? refusedToken(tokenRead.value.cubeApiToken, client);
  if (refused !== undefined) return { ok: false, tried, why: `${refused}; the token was not sent` };
  const path = metaPath(rest.url);
  tried += `, then GET ${rest.url.replace(/\/+$/, '')}${path}`;
  if (opts.signal?.aborted) return { ok: false, tried, why: String(opts.signal.reason) };
  const core = new CoreApi(rest.url, tokenRead.value.cubeApiToken, opts);
  const meta = await core.get(path, MetaAnswer);
  if (!meta.ok) {
    await core.close();
    return { ok: false, tried, why: meta.why };
  }
  return { ok: true, meta: meta.value, restUrl: rest.url, environment: String(rest.env.id), core };
}

/** The text of Cube's refusal: its error body's message, else the status line. */
function refusalOf(e: unknown): string | undefined {
  // Cube answers 400 for a query it refuses; anything else (404: no planner there, 401/403, 5xx) says nothing of it.
  if (!(e instanceof ApiError) || e.status !== 400) return undefined;
  return e.serverMessage ?? e.message;
}

/**
 * The Core Data API, by a client that holds the minted token alone (no `Bearer`, as Cube takes it). A
 * signal (the run failed, or the check's time is up) closes it: what is in flight ends at once.
 */
class CoreApi {
  private readonly client: ApiClient;
  private readonly label: string;
  private readonly onAbort = () => void this.close();

  constructor(
    readonly restUrl: string,
    token: string,
    private readonly opts: CoreClientOptions,
  ) {
    const { signal: _s, connections, ...clientOpts } = opts;
    this.client = new ApiClient({
      baseUrl: restUrl,
      token,
      authScheme: 'raw',
      connections: connections ?? 1,
      ...clientOpts,
    });
    this.label = `the data model (Core Data API ${new URL(restUrl).host})`;
    opts.signal?.addEventListener('abort', this.onAbort, { once: true });
  }

  /** Requests sent (each attempt counts). */
  get requestCount(): number {
    return this.client.requestCount;
  }

  async get<T>(path: string, schema: ZodType<T>): Promise<{ ok: true; value: T } | { ok: false; why: string }> {
    try {
      return { ok: true, value: await this.client.request({ method: 'GET', path, schema, label: this.label }) };
    } catch (e) {
      return { ok: false, why: this.opts.signal?.aborted ? String(this.opts.signal.reason) : coreWhy(e) };
    }
  }

  /** The planner's verdict on a query (`GET /v1/sql`): nothing runs in the warehouse. */
  async plan(format: 'rest' | 'sql', query: unknown): Promise<PlannerVerdict> {
    const text = typeof query === 'string' ? query : JSON.stringify(query);
    const spec = {
      method: 'GET' as const,
      path: corePath(this.restUrl, 'sql'),
      query: format === 'sql' ? { query: text, format: 'sql' } : { query: text },
      schema: SqlPlanAnswer,
      label: `a query (Core Data API ${new URL(this.restUrl).host})`,
    };
    try {
      const answer = await this.client.request(spec);
      const status = answer.sql?.status ?? answer.status;
      const error = answer.sql?.error ?? answer.error;
      if (status === 'error' || (typeof error === 'string' && error !== ''))
        return { kind: 'refused', error: error ?? 'refused, no reason given' };
      return { kind: 'accepted' };
    } catch (e) {
      if (this.opts.signal?.aborted) return { kind: 'unavailable', why: String(this.opts.signal.reason) };
      const refusal = refusalOf(e);
      return refusal !== undefined ? { kind: 'refused', error: refusal } : { kind: 'unavailable', why: coreWhy(e) };
    }
  }

  async close(): Promise<void> {
    this.opts.signal?.removeEventListener('abort', this.onAbort);
    await this.client.close();
  }
}

/** `data-model/validate`: whether the deployment's model compiles (doctor). */
export function validateDataModel(client: ApiClient, deploymentId: number): Promise<DataModelValidation> {
  return client.get(dataModelPaths.validate(deploymentId), DataModelValidation);
}
