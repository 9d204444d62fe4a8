// Starts a test HTTP server on a free loopback port: its base URL and a close
// that drops open connections first (so a hung request cannot hold it open).
import type { Server } from 'node:http';
import { createServer as createNetServer, type AddressInfo } from 'node:net';

export interface Listening {
  url: string;
  close(): Promise<void>;
}

export async function listenOnLoopback(server: Server): Promise<Listening> {
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((r) => {
        server.closeAllConnections();
        server.close(() => r());
      }),
  };
}

/** A loopback port free right now (for a child process that listens on a port it is given). */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = createNetServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const a = s.address();
      const port = typeof a === 'object' && a ? a.port : 0;
      s.close(() => resolve(port));
    });
  });
}
