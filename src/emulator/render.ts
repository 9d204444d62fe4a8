// Records -> response bodies, with the caller's capabilities (canEdit/canManage).
// Nested parts (meta, pivotItems, dashboards) are the records' own objects, not
// copies: every body is serialized to JSON text at once (index.ts), and the
// request log snapshots that text, so nothing can alias the store afterwards.
import { hasLevel, reportLevel, workbookLevel } from './access.js';
import type { Store } from './store.js';
import type { ReportRec, User, UserAttributeRec, WorkbookRec } from './types.js';

function owner(store: Store, userId: number) {
  const u = store.users.get(userId);
  return u
    ? { id: u.id, email: u.email, firstName: u.firstName, picture: null }
    : { id: userId, email: `user${userId}@example.invalid`, firstName: null, picture: null };
}

export function renderReport(store: Store, r: ReportRec, caller: User): Record<string, unknown> {
  const level = reportLevel(store, caller, r);
  return {
    id: r.id,
    deploymentId: r.deploymentId,
    publicId: r.publicId,
    name: r.name,
    title: r.title,
    description: r.description,
    type: 'REPORT',
    source: r.source,
    createdAt: r.createdAt,
    updatedAt: r.updatedAt,
    createdBy: r.createdBy,
    userId: r.userId,
    user: owner(store, r.userId),
    refreshedBy: r.userId,
    refreshedByUser: owner(store, r.userId),
    canEdit: hasLevel(level, 'edit'),
    canManage: hasLevel(level, 'manage'),
    folderId: r.folderId,
    folderPath: store.folderPath(r.folderId),
    workbookId: r.workbookId,
    version: r.version,
    sqlQuery: r.sqlQuery,
    jsonQuery: r.jsonQuery,
    meta: r.meta,
    pivotItems: r.pivotItems,
    endResultCell: r.endResultCell,
    resultLocation: r.resultLocation,
    externalWorkbookId: r.externalWorkbookId,
    externalWorkbookPlacements: [],
    rolesWithAccess: [],
  };
}

export function renderWorkbook(store: Store, w: WorkbookRec, caller: User): Record<string, unknown> {
  const level = workbookLevel(store, caller, w);
  const draft = w.meta['dashboardDraft'];
  return {
    id: w.id,
    deploymentId: w.deploymentId,
    name: w.name,
    slug: w.slug,
    folderId: w.folderId,
    folderPath: store.folderPath(w.folderId),
    meta: w.meta,
    calculatedFields: w.calculatedFields,
    createdAt: w.createdAt,
    updatedAt: w.updatedAt,
    type: 'WORKBOOK',
    createdBy: w.createdBy,
    userId: w.userId,
    user: owner(store, w.userId),
    isFavorite: w.isFavorite,
    canEdit: hasLevel(level, 'edit'),
    canManage: hasLevel(level, 'manage'),
    dashboardDraft: draft && typeof draft === 'object' ? draft : null,
    dashboardPublished: w.dashboardPublished,
    publishedDashboard: w.publishedDashboard,
  };
}

export function renderUserAttribute(a: UserAttributeRec): Record<string, unknown> {
  return {
    id: a.id,
    name: a.name,
    type: a.type,
    displayName: a.displayName,
    description: a.description,
    defaultValue: a.defaultValue,
  };
}

/** A body already serialized: index.ts sends its text as is. */
export class JsonText {
  constructor(readonly text: string) {}
}

/**
 * A list answer: `{items, data, count, pageInfo}`. `data` is the deprecated
 * twin of `items` the real API still sends; the items are serialized once and
 * the text used twice (serializing them was most of the cost of a page).
 */
export function listAnswer(items: unknown[], count: number, pageInfo: Record<string, unknown>): JsonText {
  const itemsText = JSON.stringify(items);
  return new JsonText(`{"items":${itemsText},"data":${itemsText},"count":${JSON.stringify(count)},"pageInfo":${JSON.stringify(pageInfo)}}`);
}
