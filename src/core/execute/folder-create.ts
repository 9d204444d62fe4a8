// Creating a folder is not idempotent: two writers (two pipeline runs, or one
// run retrying a create whose answer was lost) can make two folders of one
// name under one parent. The rule every wsc follows, so that concurrent runs
// converge on one tree: after each create, re-list the parent; of the folders
// with that name the lowest id wins (for the n-th twin, `Name[n]`, the n-th
// lowest: the ones before it were there first). A run whose own copy lost deletes it (the
// only folder wsc ever deletes: one it created in this run, still empty, as
// nothing is put in a folder before this check). A create whose outcome is
// unknown is never repeated blindly: the re-list tells whether it happened.
import type { Folder } from '../../domain/wire.js';
import { ApiError, NetworkError } from '../../errors.js';
import { isFolderRef, type FolderRef } from '../plan-model.js';
import type { ApiPort } from '../api-port.js';

export interface FolderCreated {
  /** The folder to use: ours, or the lower-id one another writer made. */
  id: number;
  /** Our copy lost to another writer's and was deleted (or could not be: then it is named here). */
  lost?: { ours: number; deleted: boolean };
}

/** A failure after which the folder may or may not exist (no answer, a 5xx, a success whose body was unreadable). */
function unknownOutcome(e: unknown): boolean {
  return e instanceof NetworkError || (e instanceof ApiError && (e.status >= 500 || e.status < 300));
}

/** Creates attempted when each answer is lost and the re-list does not show the folder. */
const MAX_BLIND_ATTEMPTS = 3;

export async function createFolderOnce(
  port: ApiPort,
  name: string,
  parentId: number | null,
  nth = 1,
): Promise<FolderCreated> {
  for (let attempt = 1; ; attempt++) {
    let ours: Folder | undefined;
    let failure: unknown;
    try {
      ours = await port.createFolder({ name, parentId });
    } catch (e) {
      if (!unknownOutcome(e)) throw e;
      failure = e;
    }
    const twins = (await port.listFolders(parentId)).filter((f) => f.name === name).sort((a, b) => a.id - b.id);
    const winner = twins[nth - 1];
    if (winner === undefined) {
      // Ours is not listed (yet): trust the answer if there was one.
      if (ours !== undefined) return { id: ours.id };
      if (attempt >= MAX_BLIND_ATTEMPTS) throw failure;
      continue;
    }
    if (ours === undefined || ours.id === winner.id) return { id: winner.id };
    const deleted = await port.deleteFolder(ours.id).then(
      () => true,
      () => false,
    );
    return { id: winner.id, lost: { ours: ours.id, deleted } };
  }
}

/** `folderId` (workbook and report bodies) holding `{ $folder }`, resolved from the ids written so far. */
export function resolveFolderId<T>(body: T, lookup: (address: string) => number | undefined): T {
  const v = (body as Record<string, unknown> | null)?.['folderId'];
  if (!isFolderRef(v)) return body;
  return { ...body, folderId: folderIdOf(v, lookup) };
}

export function folderIdOf(ref: FolderRef, lookup: (address: string) => number | undefined): number {
  const address = `folder/${ref.$folder}`;
  const id = lookup(address);
  if (id === undefined)
    throw new Error(`the reference to ${address} has no id: the folder was not created by this apply`);
  return id;
}
