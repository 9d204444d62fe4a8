// An environment -> a ready client and port. An embedded environment starts
// the emulator in-process on a free loopback port and talks HTTP to it like
// to any server, so the same client code runs in both cases.
import type { ResolvedEnvironment } from '../config/types.js';
import type { ApiPort } from '../core/api-port.js';
import { ConfigError } from '../errors.js';
import { embeddedStateError } from './emulator-state-errors.js';
import { ApiClient, type ApiClientOptions } from './client.js';
import { httpPort } from './port.js';

/**
 * The command's settings: --concurrency, the semantic check's time budget (WSC_SEMANTIC_TIMEOUT, read by
 * api/semantic-run.ts), and what the client takes as it is.
 */
export type ConnectOptions = { concurrency: number; maxRetries: number; semanticTimeoutMs?: number } & Pick<
  ApiClientOptions,
  'requestTimeoutMs' | 'pageSize' | 'maxListItems' | 'maxListBytes' | 'trace' | 'notice' | 'retryPolicy'
>;

export interface Connection {
  client: ApiClient;
  port: ApiPort;
  deploymentId: number;
  baseUrl: string;
  embedded: boolean;
  /** Closes the client, and the embedded emulator after its state is flushed. */
  close(): Promise<void>;
}

export async function connect(env: ResolvedEnvironment, opts: ConnectOptions): Promise<Connection> {
  let baseUrl: string;
  let token: string;
  let stop: () => Promise<void> = async () => undefined;
  if (env.embedded) {
    const { createEmulator } = await import('../emulator/index.js');
    const emu = await createEmulator({
      port: 0,
      ...(env.stateFile !== undefined ? { stateFile: env.stateFile } : {}),
    }).catch((e: unknown) => {
      throw embeddedStateError(e, env.name, 'start') ?? e;
    });
    baseUrl = emu.url;
    token = emu.adminToken;
    stop = async () => {
      try {
        await emu.flush();
      } catch (e) {
        await emu.close().catch(() => undefined);
        throw embeddedStateError(e, env.name, 'end') ?? e;
      }
      await emu.close();
    };
  } else {
    if (!env.baseUrl) {
      throw new ConfigError('base_url_missing', `The environment "${env.name}" has no base URL.`, {
        hint: 'Set baseUrl in wsc.yaml, WSC_BASE_URL or --base-url.',
      });
    }
    if (!env.token) {
      throw new ConfigError('token_missing', `No token for the environment "${env.name}" (${env.baseUrl}).`, {
        hint: 'Set WSC_TOKEN, or `token: ${env.NAME}` for the environment in wsc.yaml.',
      });
    }
    baseUrl = env.baseUrl;
    token = env.token;
  }
  const { concurrency, semanticTimeoutMs: _semantic, ...clientOpts } = opts;
  const client = new ApiClient({
    baseUrl,
    token,
    authScheme: env.embedded ? 'bearer' : env.authScheme,
    ...(!env.embedded && env.tokenSource !== undefined ? { tokenSource: env.tokenSource } : {}),
    // The three lists of a live read run at once, whatever --concurrency says.
    connections: Math.max(concurrency, 3),
    ...clientOpts,
  });
  let closed = false;
  return {
    client,
    port: httpPort(client, env.deploymentId),
    deploymentId: env.deploymentId,
    baseUrl,
    embedded: env.embedded,
    close: async () => {
      if (closed) return;
      closed = true;
      try {
        await client.close();
      } finally {
        await stop();
      }
    },
  };
}
