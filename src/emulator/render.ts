// Records -> response bodies, with the caller's capabilities (canEdit/canManage).
// Nested parts (meta, pivotItems, dashboards) are the records' own objects, not
// copies: every body is serialized to JSON text at once (index.ts), and the
// request log snapshots that text, so nothing can alias the store afterwards.
import { hasLevel, reportLevel, workbookLevel } from './access.js';
import type { PageResult } from './paging.js';
import type { Store } from './store.js';
import type { ReportRec, User, UserAttributeRec, WorkbookRec } from './types.js';

export function owner(store: Store, userId: number) {
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
    // A report without one answers without the member (it is optional).
    ...(r.publicId !== null ? { publicId: r.publicId } : {}),
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
  const inMeta = w.meta['dashboardDraft'];
  const draft = inMeta && typeof inMeta === 'object' ? inMeta : w.dashboardDraft;
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

/** The record but its account, in the record's member order (seed-records.ts). */
export function renderUserAttribute({
  accountId: _accountId,
  ...attribute
}: UserAttributeRec): Record<string, unknown> {
  return attribute;
}

/** A body already serialized: index.ts sends its bytes as they are. */
export class JsonText {
  constructor(readonly bytes: Buffer) {}
}

/**
 * The JSON text of one list item, kept per record: a list page is mostly
 * these, and serializing them was most of what a page cost the emulator (a
 * real server's speed is not what the benchmark measures). The text holds
 * for the caller it was made for, while the store's revision is unchanged:
 * index.ts moves the revision on before and after every request that may
 * write, so no text outlives a change of the record, its owner, folder or
 * grants.
 */
const itemTexts = new WeakMap<object, { revision: number; callerId: number; text: string }>();
export function itemJson(store: Store, rec: object, caller: User, render: () => unknown): string {
  const hit = itemTexts.get(rec);
  if (hit !== undefined && hit.revision === store.revision && hit.callerId === caller.id) return hit.text;
  const text = JSON.stringify(render());
  itemTexts.set(rec, { revision: store.revision, callerId: caller.id, text });
  return text;
}

/**
 * A list answer: `{items, data, count, pageInfo}`, from the items' JSON
 * texts. `data` is the deprecated twin of `items` the real API still sends:
 * the items are encoded once and their bytes sent twice.
 */
export function listAnswer(items: readonly string[], count: number, pageInfo: Record<string, unknown>): JsonText {
  const itemBytes = Buffer.from(`[${items.join(',')}]`, 'utf8');
  const tail = `,"count":${JSON.stringify(count)},"pageInfo":${JSON.stringify(pageInfo)}}`;
  return new JsonText(
    Buffer.concat([Buffer.from('{"items":'), itemBytes, Buffer.from(',"data":'), itemBytes, Buffer.from(tail, 'utf8')]),
  );
}

/** The list answer of one page: its items' texts, and the cursors of its first and last item. */
export function pageAnswer<T>(
  { items, hasNextPage, hasPreviousPage }: PageResult<T>,
  count: number,
  text: (e: T) => string,
  cursor: (e: T) => string | null,
): JsonText {
  return listAnswer(items.map(text), count, {
    hasNextPage,
    hasPreviousPage,
    startCursor: items.length > 0 ? cursor(items[0]!) : null,
    endCursor: items.length > 0 ? cursor(items[items.length - 1]!) : null,
  });
}
