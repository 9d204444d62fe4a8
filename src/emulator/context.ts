// What a route handler gets for one request.
import type { Rng } from './prng.js';
import type { Store } from './store.js';
import type { Deployment, User } from './types.js';

export interface Ctx {
  store: Store;
  user: User;
  /** Set for routes under /deployments/{id}; the deployment exists. */
  deployment: Deployment;
  params: Record<string, string>;
  query: URLSearchParams;
  /** Parsed JSON body; undefined when the request had none. */
  body: unknown;
  maxPageSize: number;
  defaultPageSize: number;
  /** Who may list the user attributes (EmulatorOptions.userAttributeReads). */
  userAttributeReads: 'anyone' | 'admin';
  /** What GET /workbooks without `folderId` lists. */
  workbookListing: 'all' | 'root-only';
  rng: Rng;
  /**
   * The pause between an upsert's decision (and access check) and its
   * application: a macrotask plus the configured latency, during which other
   * requests run.
   */
  gap(): Promise<void>;
  /** The state changed: schedule a write of the state file. */
  changed(): void;
  /** Per-viewer last view times (`${userId}:${reportId}`), for sortBy=lastViewedAt. */
  lastViewed: Map<string, string>;
}

export function hasOwn(o: unknown, key: string): boolean {
  return typeof o === 'object' && o !== null && Object.prototype.hasOwnProperty.call(o, key);
}

/** The body as an object: none -> {}, anything but a JSON object -> 400 by the caller's schema. */
export function bodyObject(body: unknown): unknown {
  return body === undefined || body === null ? {} : body;
}
