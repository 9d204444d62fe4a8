// Reading reports' data from a deployment's Core Data API, for the pictures:
// the environments (the production `rest` url) and a minted deployment token
// first, as the semantic check reads them (data-model.ts), then
// `POST {rest}/v1/load` with a report's `jsonQuery`, or `POST
// {rest}/v1/cubesql` with its `sqlQuery`. A query runs in the customer's
// warehouse, so every read is bounded: a row `limit` (the query's own when
// lower), a time budget per report that also bounds the polling of Cube's
// "Continue wait" answers, and a few reports at once. Read-only: only those
// two routes, and only SQL that starts with SELECT or WITH. The platform
// token never goes there: the client of the Core Data API holds the minted
// token alone (sent bare, as Cube takes it), registered for redaction first.
// Any failure is an answer (the card says it), never a throw.
import pLimit from 'p-limit';
import { request } from 'undici';
import * as z from 'zod';
import { tableOfLoad, tableOfSql, type DataRead } from '../core/chart-data.js';
import {
  DeploymentEnvironmentsList,
  DeploymentTokenResponse,
  MODEL_TOKEN_SECONDS,
  dataModelPaths,
} from '../domain/data-model.js';
import { ApiError } from '../errors.js';
import { addSecret } from '../redact.js';
import { ApiClient } from './client.js';
import { productionRest, refusedRestUrl, type CoreClientOptions } from './data-model.js';

/** Rows read of one report at most: more than any card can draw. */
const DATA_ROW_LIMIT = 1000;
/** Milliseconds one report's data may take, polls included. */
const DATA_BUDGET_MS = 30_000;
/** Reports read at once. */
const DATA_CONCURRENCY = 3;
/** Bytes of one SQL answer at most. */
const MAX_SQL_BYTES = 8 * 1024 * 1024;

export interface DataReaderOptions extends CoreClientOptions {
  limit?: number;
  budgetMs?: number;
  concurrency?: number;
  /** The first pause between "Continue wait" polls (it doubles, up to 2 s). */
  pollMs?: number;
}

const LoadAnswer = z.looseObject({
  error: z.string().optional(),
  data: z.array(z.record(z.string(), z.unknown())).optional(),
  annotation: z.record(z.string(), z.unknown()).optional(),
});

const message = (e: unknown) =>
  e instanceof ApiError && e.serverMessage !== undefined ? e.serverMessage : e instanceof Error ? e.message : String(e);

/** A reader of one deployment's data: `load` a JSON query, `sql` a SQL one; `close` when done. */
export class DataReader {
  private readonly core: ApiClient;
  private readonly limitOf: ReturnType<typeof pLimit>;
  private readonly rows: number;
  private readonly budget: number;
  private readonly poll: number;
  /** The `/v1` path under the rest url (`''` when the url ends in `/v1`). */
  private readonly v1: string;

  constructor(
    readonly restUrl: string,
    private readonly token: string,
    opts: DataReaderOptions = {},
  ) {
    const { limit, budgetMs, concurrency, pollMs, ...client } = opts;
    this.rows = limit ?? DATA_ROW_LIMIT;
    this.budget = budgetMs ?? DATA_BUDGET_MS;
    this.poll = pollMs ?? 250;
    this.limitOf = pLimit(concurrency ?? DATA_CONCURRENCY);
    this.v1 = /\/v1\/*$/.test(new URL(restUrl).pathname) ? '' : '/v1';
    this.core = new ApiClient({
      baseUrl: restUrl,
      token,
      authScheme: 'raw',
      connections: concurrency ?? DATA_CONCURRENCY,
      ...client,
    });
  }

  /** The rows of a `jsonQuery`, its `limit` at most the row limit; Cube's refusal as the answer's `why`. */
  load(query: Record<string, unknown>): Promise<DataRead> {
    return this.limitOf(async () => {
      const asked = typeof query['limit'] === 'number' && query['limit'] > 0 ? query['limit'] : Infinity;
      const q = { ...query, limit: Math.min(asked, this.rows) };
      const started = Date.now();
      let pause = this.poll;
      for (;;) {
        let answer: z.infer<typeof LoadAnswer>;
        try {
          answer = await this.core.request({
            method: 'POST',
            path: `${this.v1}/load`,
            body: { query: q },
            schema: LoadAnswer,
            // Read-only: asking again changes nothing.
            safeToRetryPost: true,
            label: 'a report’s data',
          });
        } catch (e) {
          const refused = e instanceof ApiError && e.status >= 400 && e.status < 500;
          return { ok: false, why: message(e), refused };
        }
        if (answer.error === 'Continue wait') {
          if (Date.now() - started + pause > this.budget)
            return {
              ok: false,
              why: `no data after ${Math.round(this.budget / 1000)} s (Cube answered "Continue wait")`,
            };
          await new Promise((r) => setTimeout(r, pause));
          pause = Math.min(pause * 2, 2000);
          continue;
        }
        if (answer.error !== undefined) return { ok: false, why: answer.error, refused: true };
        if (answer.data === undefined) return { ok: false, why: 'the answer has no data' };
        return {
          ok: true,
          table: tableOfLoad({ data: answer.data, annotation: answer.annotation ?? {} }, q, this.rows),
        };
      }
    });
  }

  /** The rows of a `sqlQuery` through the SQL API (`/v1/cubesql`); only a SELECT (or WITH) is sent. */
  sql(text: string): Promise<DataRead> {
    if (!/^\s*(select|with)\b/i.test(text))
      return Promise.resolve({ ok: false, why: 'only a SELECT is run for a picture; this SQL is not one' });
    return this.limitOf(async () => {
      const url = `${this.restUrl.replace(/\/+$/, '')}${this.v1}/cubesql`;
      try {
        const res = await request(url, {
          method: 'POST',
          headers: { authorization: this.token, 'content-type': 'application/json' },
          body: JSON.stringify({ query: text }),
          headersTimeout: this.budget,
          bodyTimeout: this.budget,
          signal: AbortSignal.timeout(this.budget),
        });
        const body = await readCapped(res.body, MAX_SQL_BYTES);
        if (res.statusCode !== 200) {
          let why = `HTTP ${res.statusCode}`;
          try {
            const e = JSON.parse(body) as { error?: unknown };
            if (typeof e.error === 'string') why = e.error;
          } catch {
            // not JSON: the status says it
          }
          return { ok: false, why, refused: res.statusCode >= 400 && res.statusCode < 500 };
        }
        return { ok: true, table: tableOfSql(body, this.rows) };
      } catch (e) {
        return { ok: false, why: `the SQL API: ${message(e)}` };
      }
    });
  }

  close(): Promise<void> {
    return this.core.close();
  }
}

async function readCapped(body: AsyncIterable<Buffer>, max: number): Promise<string> {
  const chunks: Buffer[] = [];
  let n = 0;
  for await (const c of body) {
    n += c.length;
    if (n > max) throw new Error(`the answer is over ${max / 1024 / 1024} MiB`);
    chunks.push(c);
  }
  return Buffer.concat(chunks).toString('utf8');
}

/** The data reader of a deployment: its production `rest` url and a minted token; or why there is none. */
export async function openDataReader(
  client: ApiClient,
  deploymentId: number,
  opts: DataReaderOptions = {},
): Promise<{ ok: true; reader: DataReader } | { ok: false; why: string }> {
  try {
    const [envs, token] = await Promise.all([
      client.get(dataModelPaths.environments(deploymentId), DeploymentEnvironmentsList, { type: 'production' }),
      client.request({
        method: 'POST',
        path: dataModelPaths.token(deploymentId),
        body: { expiresIn: MODEL_TOKEN_SECONDS },
        schema: DeploymentTokenResponse,
        safeToRetryPost: true,
      }),
    ]);
    // Registered the moment it arrives: no line printed after this may show it.
    addSecret(token.cubeApiToken);
    const rest = productionRest(envs.items);
    if (typeof rest === 'string') return { ok: false, why: rest };
    const refused = refusedRestUrl(rest.url);
    if (refused !== undefined) return { ok: false, why: `${refused}; the token was not sent` };
    return { ok: true, reader: new DataReader(rest.url, token.cubeApiToken, opts) };
  } catch (e) {
    return { ok: false, why: message(e) };
  }
}
