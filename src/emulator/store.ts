// The in-memory state: records by id, per-deployment indexes for paging,
// the account-wide publicId index, per-key generation counters for the
// upsert race, and a logical clock. Loading a seed normalises it; snapshot()
// writes it back in the same (SeedState) format.
import { PLACEHOLDER_PUBLIC_ID_RE } from '../domain/wire.js';
import { clone } from './equal.js';
import { randomBase62, type Rng } from './prng.js';
import {
  countersOf,
  folderOf,
  reportOf,
  userAttributeOf,
  userOf,
  workbookOf,
  type SeedDefaults,
} from './seed-records.js';
import { byId, SortedIndex } from './sorted-index.js';
import type {
  Deployment,
  Folder,
  ReportRec,
  SeedCounters,
  SeedGrant,
  SeedState,
  User,
  UserAttributeRec,
  WorkbookRec,
} from './types.js';

export type ReportSortKey = 'name' | 'createdAt' | 'updatedAt';
const REPORT_SORT_KEYS: ReportSortKey[] = ['name', 'createdAt', 'updatedAt'];

function cmpStr(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
export function reportCmp(key: ReportSortKey) {
  return (a: ReportRec, b: ReportRec): number => cmpStr(a[key], b[key]) || a.id - b.id;
}

export class Store {
  /** Moved on around every request that may write (index.ts); cached list texts hold for one revision. */
  revision = 0;
  deployments = new Map<number, Deployment>();
  users = new Map<number, User>();
  tokens = new Map<string, User>();
  grants: SeedGrant[] = [];
  /** `${userId}:${type}:${id}` -> grant level, for O(1) access checks. */
  grantIndex = new Map<string, SeedGrant['level']>();
  folders = new Map<number, Folder>();
  workbooks = new Map<number, WorkbookRec>();
  reports = new Map<number, ReportRec>();
  userAttributes = new Map<number, UserAttributeRec>();
  counters: SeedCounters;

  /** deploymentId -> workbooks by id. */
  workbooksByDep = new Map<number, SortedIndex<WorkbookRec>>();
  /** deploymentId -> sort key -> reports. */
  reportsByDep = new Map<number, Record<ReportSortKey, SortedIndex<ReportRec>>>();
  /** `${deploymentId}:${slug}` -> workbook. */
  slugIndex = new Map<string, WorkbookRec>();
  /** `${accountId}:${publicId}` -> the report holding a stable publicId. */
  publicIdIndex = new Map<string, ReportRec>();
  /** `${accountId}:${placeholder}` -> count of legacy reports showing it. */
  legacyIds = new Map<string, number>();
  userAttributesById = new SortedIndex<UserAttributeRec>(byId);
  /** Bumped whenever the record holding a key is created or deleted. */
  generations = new Map<string, number>();
  /** Per-viewer last view times (`${userId}:${reportId}`), for sortBy=lastViewedAt; not persisted. */
  lastViewed = new Map<string, string>();

  constructor(
    seed: SeedState,
    /** Generated ids: publicIds, published dashboards. */
    readonly rng: Rng,
  ) {
    this.counters = countersOf(seed);
    for (const d of seed.deployments) {
      this.deployments.set(d.id, { id: d.id, accountId: d.accountId ?? 1, name: d.name ?? `Deployment ${d.id}` });
    }
    for (const u of seed.users) this.insertUser(userOf(u));
    for (const g of seed.grants ?? []) this.addGrant(g);
    // In this order: an entry without a time takes the next tick of the clock.
    const defaults: SeedDefaults = {
      owner: this.defaultOwner(),
      time: (iso) => (iso ? new Date(iso).toISOString() : this.now()),
    };
    for (const f of seed.folders ?? []) this.folders.set(f.id, folderOf(f, defaults));
    for (const w of seed.workbooks ?? []) this.insertWorkbook(workbookOf(w, defaults));
    for (const r of seed.reports ?? []) {
      this.insertReport(reportOf(r, defaults, () => this.newPublicId(this.accountOf(r.deploymentId))));
    }
    for (const a of seed.userAttributes ?? []) this.insertUserAttribute(userAttributeOf(a));
    this.catchUpClock();
  }

  private insertUser(user: User): void {
    this.users.set(user.id, user);
    for (const t of user.tokens) this.tokens.set(t, user);
  }

  /** Who owns a seeded resource that names no owner: the first admin, else the first user. */
  private defaultOwner(): number {
    const users = [...this.users.values()];
    return (users.find((u) => u.role === 'admin') ?? users[0])?.id ?? 1;
  }

  insertUserAttribute(rec: UserAttributeRec): void {
    this.userAttributes.set(rec.id, rec);
    this.userAttributesById.insert(rec);
  }

  /** Timestamps issued from now on must follow every one already in the state. */
  private catchUpClock(): void {
    let last = this.counters.lastTimestampMs;
    const see = (iso: string) => {
      const ms = Date.parse(iso);
      if (Number.isFinite(ms) && ms > last) last = ms;
    };
    for (const r of [...this.workbooks.values(), ...this.reports.values()]) {
      see(r.createdAt);
      see(r.updatedAt);
    }
    this.counters.lastTimestampMs = last;
  }

  // -------------------------------------------------------------------------
  // Clock and ids

  /** An ISO timestamp strictly later than every one issued before. */
  now(): string {
    const ms = Math.max(Date.now(), this.counters.lastTimestampMs + 1);
    this.counters.lastTimestampMs = ms;
    return new Date(ms).toISOString();
  }

  /** How a record made now by `user` is completed (seed-records.ts): owned by the user, made now. */
  madeBy(user: User): SeedDefaults {
    const now = this.now();
    return { owner: user.id, time: () => now };
  }

  nextId(kind: keyof Omit<SeedCounters, 'lastTimestampMs'>): number {
    return this.counters[kind]++;
  }

  /** A fresh, unused, never placeholder-shaped publicId. */
  newPublicId(accountId: number): string {
    for (;;) {
      const id = randomBase62(this.rng, 12);
      if (PLACEHOLDER_PUBLIC_ID_RE.test(id)) continue;
      if (this.publicIdIndex.has(`${accountId}:${id}`)) continue;
      return id;
    }
  }

  generation(key: string): number {
    return this.generations.get(key) ?? 0;
  }
  bump(key: string): void {
    this.generations.set(key, this.generation(key) + 1);
  }

  accountOf(deploymentId: number): number {
    return this.deployments.get(deploymentId)?.accountId ?? 1;
  }

  addGrant(g: SeedGrant): void {
    this.grants.push({ ...g });
    const key = `${g.userId}:${g.resourceType}:${g.resourceId}`;
    const rank = { view: 1, edit: 2, manage: 3 } as const;
    const prev = this.grantIndex.get(key);
    if (!prev || rank[g.level] > rank[prev]) this.grantIndex.set(key, g.level);
  }

  // -------------------------------------------------------------------------
  // Workbooks

  slugKey(deploymentId: number, slug: string): string {
    return `wb:${deploymentId}:${slug}`;
  }

  insertWorkbook(rec: WorkbookRec): void {
    this.workbooks.set(rec.id, rec);
    let idx = this.workbooksByDep.get(rec.deploymentId);
    if (!idx) this.workbooksByDep.set(rec.deploymentId, (idx = new SortedIndex(byId)));
    idx.insert(rec);
    this.indexSlug(rec);
  }

  deleteWorkbook(rec: WorkbookRec): void {
    this.workbooks.delete(rec.id);
    this.workbooksByDep.get(rec.deploymentId)?.remove(rec);
    this.unindexSlug(rec);
  }

  /** Gives a workbook another slug (or none): the slug index and both keys' generations follow. */
  setWorkbookSlug(rec: WorkbookRec, slug: string | null): void {
    this.unindexSlug(rec);
    rec.slug = slug;
    this.indexSlug(rec);
  }

  private indexSlug(rec: WorkbookRec): void {
    if (rec.slug === null) return;
    const key = this.slugKey(rec.deploymentId, rec.slug);
    this.slugIndex.set(key, rec);
    this.bump(key);
  }

  private unindexSlug(rec: WorkbookRec): void {
    if (rec.slug === null) return;
    const key = this.slugKey(rec.deploymentId, rec.slug);
    if (this.slugIndex.get(key) === rec) this.slugIndex.delete(key);
    this.bump(key);
  }

  workbookBySlug(deploymentId: number, slug: string): WorkbookRec | undefined {
    return this.slugIndex.get(this.slugKey(deploymentId, slug));
  }

  // -------------------------------------------------------------------------
  // Reports

  publicIdKey(accountId: number, publicId: string): string {
    return `rp:${accountId}:${publicId}`;
  }

  /** A report without a stable publicId: none at all, or a placeholder. */
  isLegacy(rec: ReportRec): boolean {
    return rec.publicId === null || PLACEHOLDER_PUBLIC_ID_RE.test(rec.publicId);
  }

  private reportIndexes(deploymentId: number): Record<ReportSortKey, SortedIndex<ReportRec>> {
    let idx = this.reportsByDep.get(deploymentId);
    if (!idx) {
      idx = Object.fromEntries(REPORT_SORT_KEYS.map((k) => [k, new SortedIndex(reportCmp(k))])) as Record<
        ReportSortKey,
        SortedIndex<ReportRec>
      >;
      this.reportsByDep.set(deploymentId, idx);
    }
    return idx;
  }

  reportIndex(deploymentId: number, key: ReportSortKey): SortedIndex<ReportRec> {
    return this.reportIndexes(deploymentId)[key];
  }

  insertReport(rec: ReportRec): void {
    this.reports.set(rec.id, rec);
    const idx = this.reportIndexes(rec.deploymentId);
    for (const k of REPORT_SORT_KEYS) idx[k].insert(rec);
    this.indexPublicId(rec);
  }

  private indexPublicId(rec: ReportRec): void {
    if (rec.publicId === null) return;
    const acct = this.accountOf(rec.deploymentId);
    if (this.isLegacy(rec)) {
      const k = `${acct}:${rec.publicId}`;
      this.legacyIds.set(k, (this.legacyIds.get(k) ?? 0) + 1);
    } else {
      const key = this.publicIdKey(acct, rec.publicId);
      this.publicIdIndex.set(key, rec);
      this.bump(key);
    }
  }

  private unindexPublicId(rec: ReportRec, publicId = rec.publicId): void {
    if (publicId === null) return;
    const acct = this.accountOf(rec.deploymentId);
    if (PLACEHOLDER_PUBLIC_ID_RE.test(publicId)) {
      const k = `${acct}:${publicId}`;
      const n = (this.legacyIds.get(k) ?? 1) - 1;
      if (n <= 0) this.legacyIds.delete(k);
      else this.legacyIds.set(k, n);
    } else {
      const key = this.publicIdKey(acct, publicId);
      if (this.publicIdIndex.get(key) === rec) this.publicIdIndex.delete(key);
      this.bump(key);
    }
  }

  deleteReport(rec: ReportRec): void {
    this.reports.delete(rec.id);
    const idx = this.reportIndexes(rec.deploymentId);
    for (const k of REPORT_SORT_KEYS) idx[k].remove(rec);
    this.unindexPublicId(rec);
  }

  /** Change a report in place, keeping every index right. */
  mutateReport(rec: ReportRec, change: (r: ReportRec) => void): void {
    const idx = this.reportIndexes(rec.deploymentId);
    for (const k of REPORT_SORT_KEYS) idx[k].remove(rec);
    const before = rec.publicId;
    change(rec);
    // Only a publicId change (adoption) moves the report between keys.
    if (rec.publicId !== before) {
      this.unindexPublicId(rec, before);
      this.indexPublicId(rec);
    }
    for (const k of REPORT_SORT_KEYS) idx[k].insert(rec);
  }

  reportByPublicId(accountId: number, publicId: string): ReportRec | undefined {
    return this.publicIdIndex.get(this.publicIdKey(accountId, publicId));
  }

  legacyCount(accountId: number, publicId: string): number {
    return this.legacyIds.get(`${accountId}:${publicId}`) ?? 0;
  }

  // -------------------------------------------------------------------------
  // Folders

  folderPath(folderId: number | null): { id: number; name: string }[] {
    const path: { id: number; name: string }[] = [];
    const seen = new Set<number>();
    let id = folderId;
    while (id !== null && !seen.has(id)) {
      seen.add(id);
      const f = this.folders.get(id);
      if (!f) break;
      path.unshift({ id: f.id, name: f.name });
      id = f.parentId;
    }
    return path;
  }

  // -------------------------------------------------------------------------

  snapshot(): SeedState {
    return clone(this.state());
  }

  /** The state file's text (no deep copy first: stringify is the copy). */
  serialize(): string {
    return JSON.stringify(this.state());
  }

  private state(): SeedState {
    return {
      formatVersion: 1 as const,
      deployments: [...this.deployments.values()],
      users: [...this.users.values()],
      grants: this.grants,
      folders: [...this.folders.values()],
      workbooks: [...this.workbooks.values()].sort(byId),
      reports: [...this.reports.values()].sort(byId),
      userAttributes: this.userAttributesById.items,
      counters: this.counters,
    };
  }
}
