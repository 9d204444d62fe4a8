// Folder routes: list one level by `parentId` with cursor
// pagination, create (edit access to the parent; AI BI User role or higher),
// ancestors, and delete (manage access; 400 while it holds folders; its
// workbooks and reports move to the root). Names need not be unique under a
// parent: two folders of one name can exist, as on the real service.
import { CreateFolderInput } from '../domain/wire.js';
import {
  folderLevel,
  hasLevel,
  require,
  requireCreator,
  requireFolderEdit,
  reportLevel,
  workbookLevel,
} from './access.js';
import { numericParam, type Ctx } from './context.js';
import { badRequest, notFound, validate } from './http-error.js';
import { afterId, idCursor, intParam, pageOf, pageSize } from './paging.js';
import { owner, pageAnswer } from './render.js';
import { byId, SortedIndex } from './sorted-index.js';
import { folderOf } from './seed-records.js';
import type { Folder } from './types.js';

/** Nesting past this depth is refused (the real service has a fixed maximum; its value is not stated). */
const MAX_FOLDER_DEPTH = 10;

function renderFolder(ctx: Ctx, f: Folder): Record<string, unknown> {
  return {
    id: f.id,
    name: f.name,
    position: f.position,
    deploymentId: f.deploymentId,
    createdAt: f.createdAt,
    updatedAt: f.updatedAt,
    type: 'FOLDER',
    parentId: f.parentId,
    folderPath: ctx.store.folderPath(f.id),
    createdBy: f.userId,
    updatedBy: null,
    user: owner(ctx.store, f.userId),
  };
}

/**
 * Folders the caller sees: every folder for an admin; else those it has
 * access to, and the ancestors of anything it can see (as navigation).
 */
function visibleFolders(ctx: Ctx): (f: Folder) => boolean {
  const { store, user } = ctx;
  const dep = ctx.deployment.id;
  if (user.role === 'admin') return (f) => f.deploymentId === dep;
  const seen = new Set<number>();
  const withAncestors = (id: number | null) => {
    for (const e of store.folderPath(id)) seen.add(e.id);
  };
  for (const f of store.folders.values())
    if (f.deploymentId === dep && hasLevel(folderLevel(store, user, f.id), 'view')) withAncestors(f.id);
  for (const w of store.workbooks.values())
    if (w.deploymentId === dep && w.folderId !== null && hasLevel(workbookLevel(store, user, w), 'view'))
      withAncestors(w.folderId);
  for (const r of store.reports.values())
    if (r.deploymentId === dep && r.folderId !== null && hasLevel(reportLevel(store, user, r), 'view'))
      withAncestors(r.folderId);
  return (f) => seen.has(f.id);
}

function findFolder(ctx: Ctx, id: number, visible = visibleFolders(ctx)): Folder {
  const f = ctx.store.folders.get(id);
  if (!f || f.deploymentId !== ctx.deployment.id || !visible(f)) throw notFound(`Folder ${id} not found`);
  return f;
}

export function listFolders(ctx: Ctx): unknown {
  const { store, query } = ctx;
  const first = pageSize(ctx);
  const parentParam = intParam(query, 'parentId', 0);
  const parentId = parentParam === undefined || parentParam === 0 ? null : parentParam;
  const visible = visibleFolders(ctx);
  if (parentId !== null) findFolder(ctx, parentId, visible);
  const after = afterId(query, 'ASC');
  const level = SortedIndex.from(
    [...store.folders.values()].filter(
      (f) => f.deploymentId === ctx.deployment.id && f.parentId === parentId && visible(f),
    ),
    byId,
  );
  const page = pageOf(level, { dir: 'ASC', first, visible: () => true, after });
  return pageAnswer(page, level.length, (f) => JSON.stringify(renderFolder(ctx, f)), idCursor('ASC'));
}

export function createFolder(ctx: Ctx): unknown {
  const { store, user } = ctx;
  requireCreator(user);
  const input = validate(CreateFolderInput, ctx.body);
  const parentId = input.parentId ?? null;
  requireFolderEdit(store, user, ctx.deployment.id, parentId);
  if (store.folderPath(parentId).length + 1 > MAX_FOLDER_DEPTH) {
    throw badRequest(`parentId: folders nest at most ${MAX_FOLDER_DEPTH} levels deep`);
  }
  const siblings = [...store.folders.values()].filter(
    (f) => f.deploymentId === ctx.deployment.id && f.parentId === parentId,
  );
  const position = input.position ?? siblings.length;
  const f = folderOf(
    { id: store.nextId('folder'), deploymentId: ctx.deployment.id, name: input.name, parentId, position },
    store.madeBy(user),
  );
  store.folders.set(f.id, f);
  ctx.changed();
  return renderFolder(ctx, f);
}

export function folderAncestors(ctx: Ctx): unknown {
  const f = findFolder(ctx, numericParam(ctx, 'id'));
  return ctx.store.folderPath(f.id).map((e) => renderFolder(ctx, ctx.store.folders.get(e.id)!));
}

/** Deleting a folder moves its workbooks and reports to the root; one that holds folders is refused. */
export function deleteFolder(ctx: Ctx): unknown {
  const { store, user } = ctx;
  const f = findFolder(ctx, numericParam(ctx, 'id'));
  if (user.role !== 'admin') require(folderLevel(store, user, f.id), 'manage', `folder ${f.id}`);
  if ([...store.folders.values()].some((c) => c.parentId === f.id))
    throw badRequest(`Folder ${f.id} has sub-folders; delete them first`);
  for (const w of store.workbooks.values()) {
    if (w.folderId === f.id) {
      w.folderId = null;
      w.updatedAt = store.now();
    }
  }
  for (const r of [...store.reports.values()]) {
    if (r.folderId === f.id) {
      store.mutateReport(r, (x) => {
        x.folderId = null;
        x.updatedAt = store.now();
      });
    }
  }
  store.folders.delete(f.id);
  ctx.changed();
  return {};
}
