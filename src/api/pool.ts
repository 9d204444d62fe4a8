// undici's connection pool and its `request`, without the rest of undici.
// The package's index also loads fetch, WebSocket, EventSource, the cache and
// mock layers and more: a megabyte of code that wsc never runs, which cost
// ~30 ms of CPU on every networked command just to load (measured bundled,
// 52 vs 23 ms). The index itself only mixes the API functions into the
// dispatcher's prototype; here `request` is called on the pool instead.
// These are internal paths of undici 7, so the version is pinned exactly in
// package.json; the client's tests and every end-to-end test go through here.
import type { Dispatcher, Pool } from 'undici';
import PoolClass from 'undici/lib/dispatcher/pool.js';
import requestOn from 'undici/lib/api/api-request.js';

export interface HttpPool {
  request(opts: Dispatcher.RequestOptions): Promise<Dispatcher.ResponseData>;
  destroy(): Promise<void>;
}

export function createPool(origin: string, opts: Pool.Options): HttpPool {
  const pool = new PoolClass(origin, opts);
  return {
    request: (o) => requestOn.call(pool, o),
    destroy: () => pool.destroy(),
  };
}
