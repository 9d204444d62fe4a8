// A seed's entries as the store's records: every member a seed may leave out
// is filled in the way the server would have set it. Pure but for the two
// calls the store passes in (a timestamp for an entry without one, a fresh
// publicId for a report without one), which the store makes in seed order.
import { normalizeSlug } from '../domain/wire.js';
import { clone } from './equal.js';
import type {
  Folder,
  ReportRec,
  SeedCounters,
  SeedFolder,
  SeedReport,
  SeedState,
  SeedUser,
  SeedUserAttribute,
  SeedWorkbook,
  User,
  UserAttributeRec,
  WorkbookRec,
} from './types.js';

/** How records are completed: who owns what names no owner, and when what names no time was made. */
export interface SeedDefaults {
  owner: number;
  /** The entry's own time as ISO, else the store's clock. */
  time: (iso: string | undefined) => string;
}

/** `updatedAt` as given, else the creation time. */
function updatedAt(given: string | undefined, createdAt: string): string {
  return given ? new Date(given).toISOString() : createdAt;
}

/** The next id of each kind: the seed's counters, else one past the largest id it holds (and a floor per kind). */
export function countersOf(seed: SeedState): SeedCounters {
  const maxId = (xs: { id: number }[] | undefined) => (xs ?? []).reduce((m, x) => Math.max(m, x.id), 0);
  const c = seed.counters ?? {};
  const dash = dashboardIdsOf(seed);
  return {
    workbook: c.workbook ?? Math.max(100, maxId(seed.workbooks) + 1),
    report: c.report ?? Math.max(1000, maxId(seed.reports) + 1),
    folder: c.folder ?? Math.max(10, maxId(seed.folders) + 1),
    userAttribute: c.userAttribute ?? maxId(seed.userAttributes) + 1,
    dashboard: c.dashboard ?? dash.dashboard + 1,
    dashboardVersion: c.dashboardVersion ?? dash.version + 1,
    reportSnapshot: c.reportSnapshot ?? dash.snapshot + 1,
    lastTimestampMs: c.lastTimestampMs ?? 0,
  };
}

/** The largest ids the seeded published dashboards hold: new ones must not reuse them. */
function dashboardIdsOf(seed: SeedState): { dashboard: number; version: number; snapshot: number } {
  const max = { dashboard: 0, version: 0, snapshot: 0 };
  for (const w of seed.workbooks ?? []) {
    type Published = { id?: unknown; versionId?: unknown; reportSnapshots?: { id?: unknown }[] };
    const d = w.publishedDashboard as Published | null | undefined;
    if (!d) continue;
    if (typeof d.id === 'number') max.dashboard = Math.max(max.dashboard, d.id);
    if (typeof d.versionId === 'number') max.version = Math.max(max.version, d.versionId);
    for (const s of d.reportSnapshots ?? []) if (typeof s.id === 'number') max.snapshot = Math.max(max.snapshot, s.id);
  }
  return max;
}

export function userOf(u: SeedUser): User {
  return {
    id: u.id,
    email: u.email,
    firstName: u.firstName ?? null,
    role: u.role,
    tokens: [...u.tokens],
    accountId: u.accountId ?? 1,
    ...(u.deploymentIds ? { deploymentIds: [...u.deploymentIds] } : {}),
  };
}

export function folderOf(f: SeedFolder, d: SeedDefaults): Folder {
  const createdAt = d.time(f.createdAt);
  return {
    id: f.id,
    deploymentId: f.deploymentId,
    name: f.name,
    parentId: f.parentId ?? null,
    userId: f.userId ?? d.owner,
    position: f.position ?? 0,
    createdAt,
    updatedAt: updatedAt(f.updatedAt, createdAt),
  };
}

export function workbookOf(w: SeedWorkbook, d: SeedDefaults): WorkbookRec {
  const createdAt = d.time(w.createdAt);
  return {
    id: w.id,
    deploymentId: w.deploymentId,
    name: w.name ?? `Workbook ${w.id}`,
    slug: w.slug == null ? null : normalizeSlug(w.slug),
    folderId: w.folderId ?? null,
    meta: clone(w.meta ?? {}),
    calculatedFields: clone(w.calculatedFields ?? {}),
    userId: w.userId ?? d.owner,
    createdBy: w.createdBy ?? w.userId ?? d.owner,
    createdAt,
    updatedAt: updatedAt(w.updatedAt, createdAt),
    isFavorite: w.isFavorite ?? false,
    ...(w.dashboardDraft != null ? { dashboardDraft: clone(w.dashboardDraft) } : {}),
    dashboardPublished: clone(w.dashboardPublished ?? null),
    publishedDashboard: clone(w.publishedDashboard ?? null),
  };
}

/** `newPublicId` is called only for a report the seed gives none, after its creation time is taken. */
export function reportOf(r: SeedReport, d: SeedDefaults, newPublicId: () => string): ReportRec {
  const createdAt = d.time(r.createdAt);
  return {
    id: r.id,
    deploymentId: r.deploymentId,
    publicId: r.publicId === null ? null : (r.publicId ?? newPublicId()),
    name: r.name ?? `Report ${r.id}`,
    title: r.title ?? null,
    description: r.description ?? null,
    source: r.source ?? null,
    folderId: r.folderId ?? null,
    workbookId: r.workbookId ?? null,
    sqlQuery: r.sqlQuery ?? null,
    jsonQuery: r.jsonQuery ?? null,
    meta: clone(r.meta ?? null),
    pivotItems: clone(r.pivotItems ?? null),
    endResultCell: r.endResultCell ?? null,
    resultLocation: r.resultLocation ?? null,
    externalWorkbookId: r.externalWorkbookId ?? null,
    userId: r.userId ?? d.owner,
    createdBy: r.createdBy ?? r.userId ?? d.owner,
    createdAt,
    updatedAt: updatedAt(r.updatedAt, createdAt),
    version: r.version ?? 1,
  };
}

export function userAttributeOf(a: SeedUserAttribute): UserAttributeRec {
  return {
    id: a.id,
    accountId: a.accountId ?? 1,
    name: a.name,
    type: a.type,
    displayName: a.displayName ?? null,
    description: a.description ?? null,
    defaultValue: a.defaultValue ?? null,
  };
}
