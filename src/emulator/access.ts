// Who may do what: tokens map to users with a role; access to a workbook,
// report or folder is view < edit < manage, from ownership, a grant on the
// resource itself, or a grant on an enclosing folder (or, for a report, its
// workbook). Admins have manage on everything in their account.
import { forbidden, HttpError } from './http-error.js';
import type { Store } from './store.js';
import type { AccessLevel, ReportRec, User, WorkbookRec } from './types.js';

const RANK: Record<AccessLevel, number> = { view: 1, edit: 2, manage: 3 };
export type Level = AccessLevel | 'none';
const rank = (l: Level) => (l === 'none' ? 0 : RANK[l]);
const max = (a: Level, b: Level): Level => (rank(a) >= rank(b) ? a : b);

/** `Bearer T`, `Api-Key T` or a raw `T`, as the real API accepts; 401 otherwise. */
export function authenticate(store: Store, header: string | undefined): User {
  if (!header || header.trim() === '') throw new HttpError(401, 'Missing credentials');
  const m = /^(?:Bearer|Api-Key)\s+(.+)$/i.exec(header.trim());
  const token = (m ? m[1]! : header).trim();
  const user = store.tokens.get(token);
  if (!user) throw new HttpError(401, 'Invalid or expired token');
  return user;
}

export function folderLevel(store: Store, user: User, folderId: number | null): Level {
  let level: Level = 'none';
  const seen = new Set<number>();
  let id = folderId;
  while (id !== null && !seen.has(id)) {
    seen.add(id);
    const f = store.folders.get(id);
    if (!f) break;
    if (f.userId === user.id) return 'manage';
    level = max(level, store.grantIndex.get(`${user.id}:folder:${id}`) ?? 'none');
    id = f.parentId;
  }
  return level;
}

export function workbookLevel(store: Store, user: User, wb: WorkbookRec): Level {
  if (user.role === 'admin' || wb.userId === user.id) return 'manage';
  const direct = store.grantIndex.get(`${user.id}:workbook:${wb.id}`) ?? 'none';
  return max(direct, folderLevel(store, user, wb.folderId));
}

export function reportLevel(store: Store, user: User, r: ReportRec): Level {
  if (user.role === 'admin' || r.userId === user.id) return 'manage';
  let level: Level = store.grantIndex.get(`${user.id}:report:${r.id}`) ?? 'none';
  level = max(level, folderLevel(store, user, r.folderId));
  if (r.workbookId !== null) {
    const wb = store.workbooks.get(r.workbookId);
    if (wb) level = max(level, workbookLevel(store, user, wb));
  }
  return level;
}

export function hasLevel(level: Level, needed: AccessLevel): boolean {
  return rank(level) >= RANK[needed];
}

export function require(level: Level, needed: AccessLevel, what: string): void {
  if (!hasLevel(level, needed)) throw forbidden(`You need ${needed} access to ${what}`);
}

/** Creating workbooks and reports needs the AI BI User role or higher. */
export function requireCreator(user: User): void {
  if (user.role !== 'admin' && user.role !== 'ai-bi-user') {
    throw forbidden('Creating content requires the AI BI User role or higher');
  }
}

export function requireAdmin(user: User, what: string): void {
  if (user.role !== 'admin') throw forbidden(`Only an admin may ${what}`);
}

/** Destination folder of a create or move: must exist in the deployment; edit access needed. */
export function requireFolderEdit(store: Store, user: User, deploymentId: number, folderId: number | null): void {
  if (folderId === null) return;
  const f = store.folders.get(folderId);
  if (!f || f.deploymentId !== deploymentId) throw new HttpError(404, `Folder ${folderId} not found`);
  if (user.role === 'admin') return;
  require(folderLevel(store, user, folderId), 'edit', `folder ${folderId}`);
}
