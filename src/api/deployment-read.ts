// How plan and apply read the deployment: after the bundle has loaded, or,
// for a bundle of some hundreds of files or more, while it loads (DESIGN §9:
// reads may start once wsc.yaml and the environment are valid, before the
// bundle's files are), on a worker thread for a large bundle
// (bundle/load-off-thread.ts), in turns with the reads on this thread
// otherwise (bundle/load.ts loadFoundInTurns). Early, the connection is made
// and the reports and workbooks are asked for at once; the user attributes and
// the folder tree wait for the bundle's hints (api/live.ts). A bundle that
// turns out invalid abandons the read: GETs only were sent (and the data
// model's token, which changes no content). A connection error is thrown by
// `start`, once the bundle is known valid, so a bundle error still wins over
// it. A smaller bundle keeps the stricter order: nothing is sent before the
// bundle is valid.
import type { LiveState } from '../core/model.js';
import type { ResolvedEnvironment } from '../config/types.js';
import { connect, type Connection, type ConnectOptions } from './connect.js';
import { readLiveState, type LiveHints } from './live.js';
import { startModelRead, type ModelRead } from './semantic-run.js';

export interface DeploymentRead {
  /**
   * The connection and the live state read with the bundle's hints; a connection error is thrown here.
   * `model`: the data model's read, started early beside the lists when the semantic check may run.
   */
  start(hints: LiveHints): Promise<{ conn: Connection; live: Promise<LiveState>; model?: ModelRead }>;
  /** The run ends before the read is used: what is in flight is dropped and the connection closed. */
  abandon(): Promise<void>;
}

/**
 * `early.lists`: read while the bundle loads. `early.semantic`: whether (or once) the data model is to be read
 * too, beside the lists (its token is then minted before the bundle is known valid: a POST that changes no
 * content); it must be settled by the time `start` is called.
 */
export function readDeployment(
  env: ResolvedEnvironment,
  opts: ConnectOptions,
  early: { lists: boolean; semantic: boolean | Promise<boolean> },
): DeploymentRead {
  if (!early.lists) {
    return {
      start: async (hints) => {
        const conn = await connect(env, opts);
        return { conn, live: readLiveState(conn.client, conn.deploymentId, hints) };
      },
      abandon: async () => undefined,
    };
  }
  const conn = connect(env, opts);
  let give: (h: LiveHints) => void = () => undefined;
  let refuse: (e: Error) => void = () => undefined;
  const hints = new Promise<LiveHints>((res, rej) => {
    give = res;
    refuse = rej;
  });
  const live = conn.then((c) => readLiveState(c.client, c.deploymentId, hints));
  const model = Promise.resolve(early.semantic).then((go) =>
    go ? conn.then((c) => startModelRead(c, opts)) : undefined,
  );
  // Each is awaited later, or never when the run ends first: no rejection may go unhandled meanwhile.
  for (const p of [conn, live, hints, model]) p.catch(() => undefined);
  return {
    start: async (h) => {
      give(h);
      const m = await model;
      return { conn: await conn, live, ...(m ? { model: m } : {}) };
    },
    abandon: async () => {
      refuse(new Error('the run ended before the deployment was read'));
      (await model.catch(() => undefined))?.drop();
      const c = await conn.catch(() => undefined);
      await c?.close();
    },
  };
}
