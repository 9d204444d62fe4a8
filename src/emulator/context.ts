// What a route handler gets for one request.
import { API_CODES } from '../domain/wire.js';
import { badRequest, conflict, notFound } from './http-error.js';
import type { Store } from './store.js';
import type { DataModelState, Deployment, User } from './types.js';

export interface Ctx {
  store: Store;
  user: User;
  /** Set for routes under /deployments/{id}; the deployment exists. */
  deployment: Deployment;
  params: Record<string, string>;
  query: URLSearchParams;
  /** The JSON body, an object: `{}` when the request had none (or sent null). */
  body: Record<string, unknown>;
  maxPageSize: number;
  defaultPageSize: number;
  /** Who may list the user attributes (EmulatorOptions.userAttributeReads). */
  userAttributeReads: 'anyone' | 'admin';
  /** What GET /workbooks without `folderId` lists. */
  workbookListing: 'all' | 'root-only';
  /**
   * The pause between an upsert's decision (and access check) and its
   * application: a macrotask plus the configured latency, during which other
   * requests run.
   */
  gap(): Promise<void>;
  /** The state changed: schedule a write of the state file. */
  changed(): void;
  /** The emulator's API description (api-document.ts), as GET /api/v1/spec answers it. */
  apiDocument(): unknown;
  /** The data model served, and the `rest` url the environments list gives. */
  dataModel: DataModelState;
}

/** A path parameter that must be a number, as the real server validates it. */
export function numericParam(ctx: Ctx, name: string): number {
  const v = ctx.params[name] ?? '';
  if (!/^\d+$/.test(v)) throw badRequest(`Validation failed (numeric string is expected): ${name}`);
  return Number(v);
}

/** The record of the request's deployment with this id (by default the path's), else a 404. */
export function findInDeployment<T extends { deploymentId: number }>(
  ctx: Ctx,
  records: Map<number, T>,
  what: string,
  id = numericParam(ctx, 'id'),
): T {
  const rec = records.get(id);
  if (!rec || rec.deploymentId !== ctx.deployment.id) throw notFound(`${what} ${id} not found`);
  return rec;
}

/**
 * The gap of a two-step upsert, after its decision: a 409 upsert_branch_changed
 * when the record holding `key` was created or deleted meanwhile.
 */
export async function upsertGap(ctx: Ctx, key: string, holder: string): Promise<void> {
  const generation = ctx.store.generation(key);
  await ctx.gap();
  if (ctx.store.generation(key) !== generation) {
    throw conflict(`The ${holder} was created or deleted concurrently; retry`, API_CODES.upsertBranchChanged);
  }
}
