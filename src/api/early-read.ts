// plan and apply read the deployment while the bundle loads (DESIGN §9: reads
// may start once wsc.yaml and the environment are valid, before the bundle's
// files are). The connection is made and the reports and workbooks are asked
// for at once; the user attributes and the folder tree wait for the bundle's
// hints (api/live.ts). A bundle that turns out invalid abandons the read: only
// GETs were sent. A connection error is the caller's to throw once the bundle
// is known valid, so that a bundle error still wins over it.
import type { LiveState } from '../core/model.js';
import type { ResolvedEnvironment } from '../config/types.js';
import { connect, type Connection, type ConnectOptions } from './connect.js';
import { readLiveState, type LiveHints } from './live.js';

export interface EarlyRead {
  /** The connection, or its error. */
  conn: Promise<Connection>;
  /** The live state, once `hints` has been given. */
  live: Promise<LiveState>;
  /** What the bundle says to read beyond the reports and workbooks. */
  hints(h: LiveHints): void;
  /** The run ends before the read is used: what is in flight is dropped and the connection closed. */
  abandon(): Promise<void>;
}

export function readEarly(env: ResolvedEnvironment, opts: ConnectOptions): EarlyRead {
  const conn = connect(env, opts);
  let give: (h: LiveHints) => void = () => undefined;
  let refuse: (e: Error) => void = () => undefined;
  const hints = new Promise<LiveHints>((res, rej) => {
    give = res;
    refuse = rej;
  });
  const live = conn.then((c) => readLiveState(c.client, c.deploymentId, hints));
  // Each is awaited later, or never when the run ends first: no rejection may go unhandled meanwhile.
  for (const p of [conn, live, hints]) p.catch(() => undefined);
  return {
    conn,
    live,
    hints: give,
    abandon: async () => {
      refuse(new Error('the run ended before the deployment was read'));
      const c = await conn.catch(() => undefined);
      await c?.close();
    },
  };
}
