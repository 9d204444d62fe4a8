// Report routes: create, update, upsert by publicId (two-step like the slug
// upsert), list (keyset cursors, sorting, legacy limit/page), get, delete.
import {
  API_CODES,
  CreateReportInput,
  PLACEHOLDER_PUBLIC_ID_RE,
  PUBLIC_ID_RE,
  ReportInput,
  ReportsSortBy,
  SortDirection,
} from '../domain/wire.js';
import { hasLevel, require, requireCreator, requireFolderEdit, reportLevel, workbookLevel } from './access.js';
import { findInDeployment, upsertGap, type Ctx } from './context.js';
import { clone, deepEqual } from './equal.js';
import { badRequest, conflict, validate } from './http-error.js';
import { countVisible, decodeCursor, encodeCursor, intParam, pageOf } from './paging.js';
import { itemJson, pageAnswer, renderReport } from './render.js';
import { reportCmp, type ReportSortKey } from './store.js';
import { reportOf } from './seed-records.js';
import type { ReportRec, SeedReport } from './types.js';
import { findWorkbook } from './routes-workbooks.js';

/** Fields of the report input a write may change (publicId and source are handled apart). */
const FIELDS = [
  'name',
  'title',
  'folderId',
  'workbookId',
  'sqlQuery',
  'jsonQuery',
  'meta',
  'pivotItems',
  'endResultCell',
  'resultLocation',
  'externalWorkbookId',
] as const;
type Field = (typeof FIELDS)[number];

const findReport = (ctx: Ctx) => findInDeployment(ctx, ctx.store.reports, 'Report');

function checkPlaceholder(publicId: string): void {
  if (PLACEHOLDER_PUBLIC_ID_RE.test(publicId)) {
    throw badRequest(`publicId: "${publicId}" has the reserved placeholder shape; choose another id`);
  }
}

function checkPublicIdFree(ctx: Ctx, publicId: string, self?: ReportRec): void {
  const holder = ctx.store.reportByPublicId(ctx.deployment.accountId, publicId);
  if (holder && holder !== self) {
    throw conflict(
      holder.deploymentId === ctx.deployment.id
        ? `publicId "${publicId}" is already used by report ${holder.id}`
        : `publicId "${publicId}" is already used by a report in another deployment`,
    );
  }
}

/** Access to the destinations a write names: a folder (edit) and a workbook (edit). */
function checkDestinations(
  ctx: Ctx,
  input: { folderId?: number | null; workbookId?: number | null },
  current?: ReportRec,
): void {
  const { store, user } = ctx;
  if (Object.hasOwn(ctx.body, 'folderId') && (input.folderId ?? null) !== (current?.folderId ?? null)) {
    requireFolderEdit(store, user, ctx.deployment.id, input.folderId ?? null);
  }
  if (Object.hasOwn(ctx.body, 'workbookId') && input.workbookId != null && input.workbookId !== current?.workbookId) {
    const wb = findWorkbook(ctx, input.workbookId);
    require(workbookLevel(store, user, wb), 'edit', `workbook ${wb.id}`);
  }
}

/** A new report, stored. */
function addReport(ctx: Ctx, input: Record<string, unknown>, publicId: string): ReportRec {
  const { store, user } = ctx;
  const made = store.madeBy(user);
  const sent = FIELDS.filter((f) => f !== 'name' && Object.hasOwn(ctx.body, f)).map((f) => [
    f,
    clone(input[f] ?? null),
  ]);
  const seed: SeedReport = {
    ...(Object.fromEntries(sent) as Partial<SeedReport>),
    id: store.nextId('report'),
    deploymentId: ctx.deployment.id,
    publicId,
    name: (input['name'] as string | null | undefined) ?? 'Untitled report',
    source: input['source'] as string | null | undefined,
  };
  const rec = reportOf(seed, made, () => publicId);
  store.insertReport(rec);
  ctx.changed();
  return rec;
}

/** Applies the sent fields; bumps version and updatedAt only on a real change. */
function applyUpdate(ctx: Ctx, rec: ReportRec, input: Record<string, unknown>, adoptPublicId?: string): void {
  const changes: Partial<Record<Field, unknown>> = {};
  for (const f of FIELDS) {
    if (!Object.hasOwn(ctx.body, f)) continue;
    const v = input[f] ?? null;
    if (f === 'name' && v === null) continue;
    if (!deepEqual(v, rec[f])) changes[f] = clone(v);
  }
  const adopting = adoptPublicId !== undefined && adoptPublicId !== rec.publicId;
  if (Object.keys(changes).length === 0 && !adopting) return;
  ctx.store.mutateReport(rec, (r) => {
    Object.assign(r, changes);
    if (adopting) r.publicId = adoptPublicId;
    r.version += 1;
    r.updatedAt = ctx.store.now();
  });
  ctx.changed();
}

export function createReport(ctx: Ctx): unknown {
  requireCreator(ctx.user);
  const input = validate(CreateReportInput, ctx.body) as Record<string, unknown>;
  let publicId = input['publicId'] as string | null | undefined;
  if (publicId != null) {
    checkPlaceholder(publicId);
    checkPublicIdFree(ctx, publicId);
  } else {
    publicId = ctx.store.newPublicId(ctx.deployment.accountId);
  }
  checkDestinations(ctx, input);
  return renderReport(ctx.store, addReport(ctx, input, publicId), ctx.user);
}

export function updateReport(ctx: Ctx): unknown {
  const rec = findReport(ctx);
  require(reportLevel(ctx.store, ctx.user, rec), 'edit', `report ${rec.id}`);
  const input = validate(ReportInput, ctx.body) as Record<string, unknown>;
  const expected = ctx.body['expectedVersion'];
  if (expected !== undefined && expected !== null) {
    if (typeof expected !== 'number' || !Number.isInteger(expected))
      throw badRequest('expectedVersion: must be an integer');
    if (expected !== rec.version) {
      throw conflict(`Report ${rec.id} is at version ${rec.version}, not ${expected}`);
    }
  }
  const publicId = input['publicId'] as string | null | undefined;
  let adopt: string | undefined;
  if (publicId != null) {
    checkPlaceholder(publicId);
    if (!ctx.store.isLegacy(rec)) {
      if (publicId !== rec.publicId) {
        throw badRequest(`publicId: report ${rec.id} already has publicId "${rec.publicId}"; it cannot be changed`);
      }
    } else {
      checkPublicIdFree(ctx, publicId, rec);
      adopt = publicId;
    }
  }
  checkDestinations(ctx, input, rec);
  applyUpdate(ctx, rec, input, adopt);
  return renderReport(ctx.store, rec, ctx.user);
}

export async function upsertReportByPublicId(ctx: Ctx): Promise<unknown> {
  const { store, user } = ctx;
  const publicId = ctx.params['publicId'] ?? '';
  if (!PUBLIC_ID_RE.test(publicId)) throw badRequest('publicId: must be exactly 12 characters of [0-9A-Za-z]');
  const acct = ctx.deployment.accountId;
  // Only placeholder-shaped ids have legacy holders.
  if (store.legacyCount(acct, publicId) > 0) {
    throw conflict(
      `publicId "${publicId}" is a synthesized legacy id shared by reports ` +
        `without a stable publicId; give the report a real publicId with PUT ` +
        `/reports/{id}`,
      API_CODES.ambiguousLegacyId,
    );
  }
  checkPlaceholder(publicId);
  const input = validate(CreateReportInput, ctx.body) as Record<string, unknown>;
  if (input['publicId'] != null && input['publicId'] !== publicId) {
    throw badRequest('publicId: the body publicId must equal the one in the path');
  }

  const existing = store.reportByPublicId(acct, publicId);
  if (existing && existing.deploymentId !== ctx.deployment.id) {
    throw conflict(`publicId "${publicId}" is already used by a report in another deployment`);
  }
  if (existing) require(reportLevel(store, user, existing), 'edit', `report ${existing.id}`);
  else requireCreator(user);
  checkDestinations(ctx, input, existing);

  await upsertGap(ctx, store.publicIdKey(acct, publicId), `report holding publicId "${publicId}"`);
  if (existing) {
    applyUpdate(ctx, existing, input);
    return renderReport(store, existing, user);
  }
  return renderReport(store, addReport(ctx, input, publicId), user);
}

export function getReport(ctx: Ctx): unknown {
  const rec = findReport(ctx);
  require(reportLevel(ctx.store, ctx.user, rec), 'view', `report ${rec.id}`);
  ctx.store.lastViewed.set(`${ctx.user.id}:${rec.id}`, ctx.store.now());
  return renderReport(ctx.store, rec, ctx.user);
}

export function deleteReport(ctx: Ctx): unknown {
  const rec = findReport(ctx);
  require(reportLevel(ctx.store, ctx.user, rec), 'manage', `report ${rec.id}`);
  ctx.store.deleteReport(rec);
  ctx.changed();
  return {};
}

/**
 * GET /reports. Default order: createdAt ASC; ties (and DESC) by id in the
 * same direction. `first` defaults to ctx.defaultPageSize and is clamped to
 * ctx.maxPageSize.
 */
export function listReports(ctx: Ctx): unknown {
  const { store, user, query } = ctx;
  const sortByRaw = query.get('sortBy') ?? 'createdAt';
  const dirRaw = (query.get('sortDirection') ?? 'ASC').toUpperCase();
  const sortBy = ReportsSortBy.safeParse(sortByRaw);
  if (!sortBy.success) throw badRequest(`sortBy must be one of ${ReportsSortBy.options.join(', ')}`);
  const dirP = SortDirection.safeParse(dirRaw);
  if (!dirP.success) throw badRequest('sortDirection must be one of ASC, DESC');
  const dir = dirP.data;
  const firstQ = intParam(query, 'first', 1);
  const after = query.get('after');
  const limit = intParam(query, 'limit', 1);
  const pageNo = intParam(query, 'page', 1);
  const legacy = limit !== undefined || pageNo !== undefined;
  if (legacy && (firstQ !== undefined || after !== null)) {
    throw badRequest('limit/page cannot be combined with first/after');
  }
  if (after !== null && sortBy.data === 'lastViewedAt') {
    throw badRequest('Cursor pagination is not supported when sorting by lastViewedAt');
  }
  const filters = {
    workbookId: intParam(query, 'workbookId', 0),
    folderId: intParam(query, 'folderId', 0),
    externalWorkbookId: query.get('externalWorkbookId'),
    search: query.get('search')?.toLowerCase() ?? null,
  };
  const filtered = Object.values(filters).some((v) => v !== undefined && v !== null);
  const visible = (r: ReportRec) =>
    (filters.workbookId === undefined || r.workbookId === filters.workbookId) &&
    (filters.folderId === undefined || (r.folderId ?? 0) === filters.folderId) &&
    (filters.externalWorkbookId === null || r.externalWorkbookId === filters.externalWorkbookId) &&
    (filters.search === null || r.name.toLowerCase().includes(filters.search)) &&
    hasLevel(reportLevel(store, user, r), 'view');

  const depId = ctx.deployment.id;
  const sortKey: ReportSortKey = sortBy.data === 'lastViewedAt' ? 'createdAt' : sortBy.data;
  const index = store.reportIndex(depId, sortKey);
  const count = user.role === 'admin' && !filtered ? index.length : countVisible(index.items, visible);
  const text = (r: ReportRec) => itemJson(store, r, user, () => renderReport(store, r, user));
  const cursorOf = (r: ReportRec) =>
    sortBy.data === 'lastViewedAt' ? null : encodeCursor({ s: sortBy.data, d: dir, k: r[sortKey], i: r.id });

  if (sortBy.data === 'lastViewedAt' || legacy) {
    // No cursor column: order in memory (first page, or a legacy offset page).
    let all = index.items.filter(visible);
    if (sortBy.data === 'lastViewedAt') {
      const seen = (r: ReportRec) => ctx.store.lastViewed.get(`${user.id}:${r.id}`) ?? '';
      all = all.sort((a, b) => (seen(a) < seen(b) ? -1 : seen(a) > seen(b) ? 1 : a.id - b.id));
    }
    if (dir === 'DESC') all.reverse();
    const size = Math.min(limit ?? firstQ ?? ctx.defaultPageSize, ctx.maxPageSize);
    const offset = legacy ? ((pageNo ?? 1) - 1) * size : 0;
    const page = {
      items: all.slice(offset, offset + size),
      hasNextPage: offset + size < all.length,
      hasPreviousPage: offset > 0,
    };
    return pageAnswer(page, count, text, cursorOf);
  }

  const first = Math.min(firstQ ?? ctx.defaultPageSize, ctx.maxPageSize);
  const cursor = after === null ? undefined : decodeCursor(after, sortBy.data, dir);
  const cmp = reportCmp(sortKey);
  const probe = cursor && ({ [sortKey]: String(cursor.k), id: cursor.i } as unknown as ReportRec);
  const page = pageOf(index, { dir, first, visible, after: probe && ((e: ReportRec) => cmp(e, probe)) });
  return pageAnswer(page, count, text, cursorOf);
}
