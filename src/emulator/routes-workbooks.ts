// Workbook routes: create, upsert by slug (two-step, spec rule 8), list,
// get, delete, publish.
import { randomBase62 } from './prng.js';
import {
  DashboardConfig,
  normalizeSlug,
  PublishDashboardInput,
  UpdateWorkbookInput,
  WorkbookInput,
} from '../domain/wire.js';
import { hasLevel, require, requireCreator, requireFolderEdit, workbookLevel } from './access.js';
import { findInDeployment, numericParam, upsertGap, type Ctx } from './context.js';
import { prepareMeta } from './dashboard.js';
import { clone, deepEqual } from './equal.js';
import { badRequest, conflict, validate } from './http-error.js';
import { afterId, countVisible, idCursor, intParam, pageOf, pageSize } from './paging.js';
import { itemJson, pageAnswer, renderWorkbook } from './render.js';
import { byId, SortedIndex } from './sorted-index.js';
import { workbookOf } from './seed-records.js';
import type { WorkbookRec } from './types.js';

export const findWorkbook = (ctx: Ctx, id?: number) => findInDeployment(ctx, ctx.store.workbooks, 'Workbook', id);

/** A new workbook, stored. */
function addWorkbook(
  ctx: Ctx,
  input: { name?: string | null; folderId?: number | null },
  meta: Record<string, unknown> | undefined,
  slug: string | null,
): WorkbookRec {
  const { store, user } = ctx;
  const name = input.name ?? slug ?? 'Untitled workbook';
  const made = store.madeBy(user);
  const seed = {
    id: store.nextId('workbook'),
    deploymentId: ctx.deployment.id,
    name,
    slug,
    folderId: input.folderId,
    meta,
  };
  const rec = workbookOf(seed, made);
  store.insertWorkbook(rec);
  ctx.changed();
  return rec;
}

export function createWorkbook(ctx: Ctx): unknown {
  requireCreator(ctx.user);
  const input = validate(WorkbookInput, ctx.body);
  const meta = prepareMeta(input.meta);
  requireFolderEdit(ctx.store, ctx.user, ctx.deployment.id, input.folderId ?? null);
  return renderWorkbook(ctx.store, addWorkbook(ctx, input, meta, null), ctx.user);
}

export async function upsertWorkbookBySlug(ctx: Ctx): Promise<unknown> {
  const { store, user } = ctx;
  const depId = ctx.deployment.id;
  const slug = normalizeSlug(ctx.params['slug'] ?? '');
  if (slug === '') throw badRequest('slug: must not be empty');
  const input = validate(WorkbookInput, ctx.body);
  const meta = prepareMeta(input.meta);
  const sendsFolder = Object.hasOwn(ctx.body, 'folderId');
  const folderId = input.folderId ?? null;

  // Step 1: decide create-or-update and check access.
  const existing = store.workbookBySlug(depId, slug);
  if (existing) {
    const level = workbookLevel(store, user, existing);
    require(level, 'edit', `workbook "${slug}"`);
    if (sendsFolder) {
      require(level, 'manage', `workbook "${slug}" to move it`);
      requireFolderEdit(store, user, depId, folderId);
    }
  } else {
    requireCreator(user);
    if (sendsFolder) requireFolderEdit(store, user, depId, folderId);
  }

  // Step 2: apply, unless another writer created or deleted the slug's workbook meanwhile.
  await upsertGap(ctx, store.slugKey(depId, slug), `workbook holding slug "${slug}"`);
  if (!existing) return renderWorkbook(store, addWorkbook(ctx, input, meta, slug), user);
  setWorkbook(ctx, existing, {
    name: input.name ?? existing.name,
    folderId: sendsFolder ? folderId : existing.folderId,
    meta: meta ? { ...existing.meta, ...meta } : existing.meta,
  });
  return renderWorkbook(store, existing, user);
}

/** Sets a workbook's name, folder, meta and slug; updatedAt moves only on a real change. */
function setWorkbook(ctx: Ctx, wb: WorkbookRec, next: Pick<WorkbookRec, 'name' | 'folderId' | 'meta'>, slug = wb.slug) {
  if (slug === wb.slug && deepEqual(next, { name: wb.name, folderId: wb.folderId, meta: wb.meta })) return;
  Object.assign(wb, next);
  if (slug !== wb.slug) ctx.store.setWorkbookSlug(wb, slug);
  wb.updatedAt = ctx.store.now();
  ctx.changed();
}

export function listWorkbooks(ctx: Ctx): unknown {
  const { store, user, query } = ctx;
  const first = pageSize(ctx);
  const folderParam = intParam(query, 'folderId', 0);
  const after = afterId(query, 'ASC');
  // A root-only server lists the root level when no folderId is given.
  const level = folderParam ?? (ctx.workbookListing === 'root-only' ? 0 : undefined);
  const visible = (w: WorkbookRec) =>
    (level === undefined || (w.folderId ?? 0) === level) && hasLevel(workbookLevel(store, user, w), 'view');
  const index = store.workbooksByDep.get(ctx.deployment.id) ?? new SortedIndex(byId);
  const page = pageOf(index, { dir: 'ASC', first, visible, after });
  const count = user.role === 'admin' && level === undefined ? index.length : countVisible(index.items, visible);
  const text = (w: WorkbookRec) => itemJson(store, w, user, () => renderWorkbook(store, w, user));
  return pageAnswer(page, count, text, idCursor('ASC'));
}

export function getWorkbook(ctx: Ctx): unknown {
  const wb = findWorkbook(ctx);
  require(workbookLevel(ctx.store, ctx.user, wb), 'view', `workbook ${wb.id}`);
  return renderWorkbook(ctx.store, wb, ctx.user);
}

/**
 * PUT /workbooks/{id}: only the sent fields change; `meta` here replaces the
 * metadata (the upsert by slug merges it); `folderId` null moves to the root;
 * `slug` gives the workbook a slug, unique per deployment (409 when another
 * workbook holds it). `slugTakeover` is taken as a boolean and does nothing
 * more: what it does is not documented. The answer has no schema: `{}`.
 */
export function updateWorkbook(ctx: Ctx): unknown {
  const { store, user } = ctx;
  const wb = findWorkbook(ctx);
  const input = validate(UpdateWorkbookInput, ctx.body);
  const level = workbookLevel(store, user, wb);
  require(level, 'edit', `workbook ${wb.id}`);
  const sendsFolder = Object.hasOwn(ctx.body, 'folderId');
  if (sendsFolder) {
    require(level, 'manage', `workbook ${wb.id} to move it`);
    requireFolderEdit(store, user, ctx.deployment.id, input.folderId ?? null);
  }
  const meta = prepareMeta(input.meta);
  let slug: string | null | undefined;
  if (Object.hasOwn(ctx.body, 'slug')) {
    slug = input.slug == null ? null : normalizeSlug(input.slug);
    if (slug === '') throw badRequest('slug: must not be empty');
    const holder = slug === null ? undefined : store.workbookBySlug(ctx.deployment.id, slug);
    if (holder && holder !== wb) throw conflict(`The slug "${slug}" is already used by workbook ${holder.id}`);
  }
  const next = {
    name: input.name ?? wb.name,
    folderId: sendsFolder ? (input.folderId ?? null) : wb.folderId,
    // An equal meta is kept as it is: its member order does not change.
    meta: meta === undefined || deepEqual(meta, wb.meta) ? wb.meta : meta,
  };
  setWorkbook(ctx, wb, next, slug);
  return {};
}

/** Deleting a workbook detaches its reports (workbookId becomes null). */
export function deleteWorkbook(ctx: Ctx): unknown {
  const { store } = ctx;
  const wb = findWorkbook(ctx);
  require(workbookLevel(store, ctx.user, wb), 'manage', `workbook ${wb.id}`);
  store.deleteWorkbook(wb);
  for (const r of [...store.reports.values()]) {
    if (r.workbookId === wb.id) {
      store.mutateReport(r, (x) => {
        x.workbookId = null;
        x.updatedAt = store.now();
      });
    }
  }
  ctx.changed();
  return {};
}

export function publishWorkbook(ctx: Ctx): unknown {
  const { store, user } = ctx;
  const id = numericParam(ctx, 'id');
  const input = validate(PublishDashboardInput, ctx.body);
  if (input.workbookId !== id) throw badRequest(`workbookId: must equal the workbook id in the path (${id})`);
  const wb = findWorkbook(ctx, id);
  require(workbookLevel(store, user, wb), 'edit', `workbook ${wb.id}`);

  let config: Record<string, unknown>;
  if (input.config != null) {
    config = clone(ctx.body['config'] as Record<string, unknown>);
  } else {
    const draft = wb.meta['dashboardDraft'] ?? wb.dashboardDraft;
    if (!draft || typeof draft !== 'object') throw badRequest(`Workbook ${id} has no dashboard draft to publish`);
    config = clone(draft as Record<string, unknown>);
    validate(DashboardConfig, config, 'dashboardDraft');
  }
  const prev = wb.publishedDashboard as
    (Record<string, unknown> & { id: number; versionNumber: number; publicId: string }) | null;
  const allowEmbed = input.allowEmbed ?? (prev?.['allowEmbed'] as boolean | undefined) ?? false;
  const title = input.title ?? (prev?.['title'] as string | null | undefined) ?? null;
  const description = input.description ?? (prev?.['description'] as string | null | undefined) ?? null;
  // Publishing what is already published is idempotent: same record, same version.
  if (
    prev &&
    deepEqual(wb.dashboardPublished, config) &&
    prev['allowEmbed'] === allowEmbed &&
    prev['title'] === title &&
    prev['description'] === description
  ) {
    return clone(prev);
  }
  const widgets = Array.isArray(config['widgets']) ? (config['widgets'] as Record<string, unknown>[]) : [];
  const reportSnapshots: Record<string, unknown>[] = [];
  for (const [i, w] of widgets.entries()) {
    const reportId = (w['config'] as Record<string, unknown> | null | undefined)?.['reportId'];
    if (w['type'] !== 'CHART' || reportId === undefined || reportId === null) continue;
    const r = typeof reportId === 'number' ? store.reports.get(reportId) : undefined;
    if (!r || r.deploymentId !== ctx.deployment.id) {
      throw badRequest(
        `config.widgets[${i}].config.reportId: report ${String(reportId)} not found in deployment ${ctx.deployment.id}`,
      );
    }
    reportSnapshots.push({
      id: store.nextId('reportSnapshot'),
      reportId: r.id,
      versionNumber: r.version,
      publicId: r.publicId,
      name: r.name,
      title: r.title,
      description: r.description,
      sqlQuery: r.sqlQuery,
      meta: clone(r.meta),
    });
  }
  const record = {
    id: prev?.id ?? store.nextId('dashboard'),
    publicId: prev?.publicId ?? randomBase62(store.rng, 12),
    deploymentId: ctx.deployment.id,
    workbookId: wb.id,
    status: 'published',
    allowEmbed,
    config,
    versionNumber: (prev?.versionNumber ?? 0) + 1,
    versionId: store.nextId('dashboardVersion'),
    reportSnapshots,
    createdBy: user.id,
    title,
    description,
  };
  wb.dashboardPublished = clone(config);
  wb.publishedDashboard = clone(record);
  wb.updatedAt = store.now();
  ctx.changed();
  return record;
}
