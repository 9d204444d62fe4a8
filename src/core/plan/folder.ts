// Folders by path: the bundle names folders by their names from the root
// (`folder: Finance/Revenue`); the planner resolves each path against the
// folders read from the target, plans the missing ones as creates (parents
// first), and gives workbooks and reports the `folderId` the path stands for:
// a live id, or `{ $folder: <path> }` when the folder is created by the same
// apply (the executor fills it from the create's answer). Two folders with one
// name under one parent (twins): `Name` is the lower id, and the plan warns;
// `Name[2]` is the second by id (domain/folder-path.ts), created when missing.
// wsc never deletes, renames or moves a folder here.
import { normalizeSlug, type Folder, type Report, type Workbook } from '../../domain/wire.js';
import { listSome } from '../../domain/suggest.js';
import { folderNamesAlike, formatFolderPath, segmentOf, stepOf } from '../../domain/folder-path.js';
import type { DesiredReport, DesiredState, DesiredWorkbook, LiveState } from '../model.js';
import {
  type FieldChange,
  type FolderRef,
  isFolderRef,
  type PlannedRequest,
  type PlanWarning,
  type ResourceChange,
} from '../plan-model.js';
import type { JsonValue } from '../json.js';
import { request, type Planned } from './compare.js';
import { lookAlikeError, type LookAlike } from './folder-alike.js';

export function folderAddress(path: readonly string[]): string {
  return `folder/${formatFolderPath(path)}`;
}

/** What a path resolves to: the root (null), a live folder id, or the create that makes it. */
type Resolved = number | null | FolderRef;

export interface FolderPlan {
  /** One create per missing folder, parents first. */
  planned: Planned[];
  warnings: PlanWarning[];
  /** The desired state with every `folder:` turned into `fields.folderId`. */
  desired: DesiredState;
  /** Relabels a resource's `folderId` change as `folder: A → B` and waits for the folder it needs. */
  finish(p: Planned, resource: DesiredWorkbook | DesiredReport, live: Workbook | Report | undefined): Planned;
}

interface Tree {
  byId: Map<number, Folder>;
  /** parent id (null: root) -> name -> folders, lowest id first. */
  children: Map<number | null, Map<string, Folder[]>>;
}

function indexTree(folders: readonly Folder[]): Tree {
  const byId = new Map<number, Folder>();
  const children = new Map<number | null, Map<string, Folder[]>>();
  for (const f of [...folders].sort((a, b) => a.id - b.id)) {
    if (byId.has(f.id)) continue;
    byId.set(f.id, f);
    const parent = f.parentId ?? null;
    let named = children.get(parent);
    if (!named) children.set(parent, (named = new Map<string, Folder[]>()));
    const list = named.get(f.name);
    if (list) list.push(f);
    else named.set(f.name, [f]);
  }
  return { byId, children };
}

/** The path of a live folder id: from the tree read, else from the resource's own `folderPath`. */
function livePathText(id: number | null | undefined, tree: Tree, folderPath: unknown): string {
  if (id === null || id === undefined) return '/';
  const names: string[] = [];
  const seen = new Set<number>();
  let cur: number | null | undefined = id;
  while (cur !== null && cur !== undefined && !seen.has(cur)) {
    seen.add(cur);
    const f = tree.byId.get(cur);
    if (!f) break;
    names.unshift(segmentOf(f.name, twinIndex(tree, f)));
    cur = f.parentId;
  }
  if (cur === null || cur === undefined) return formatFolderPath(names);
  if (Array.isArray(folderPath) && (folderPath.at(-1) as { id?: unknown } | undefined)?.id === id) {
    return formatFolderPath(folderPath.map((e) => segmentOf(String((e as { name?: unknown }).name))));
  }
  return `(folder id ${id})`;
}

/** Which of the folders of its name under its parent a folder is (1: the lowest id). */
function twinIndex(tree: Tree, f: Folder): number {
  const twins = tree.children.get(f.parentId ?? null)?.get(f.name) ?? [];
  return Math.max(1, twins.findIndex((t) => t.id === f.id) + 1);
}

/**
 * `lookAlikes`: wsc.yaml `folderLookAlikes`. A folder to create beside a live one a reader would take
 * for it is refused (exit 3, naming both) unless it is `allow` (then a warning): it would be a twin tree.
 */
export function planFolders(desired: DesiredState, live: LiveState, lookAlikes?: 'allow' | 'error'): FolderPlan {
  const tree = indexTree(live.folders ?? []);
  const resolved = new Map<string, Resolved>();
  const planned: Planned[] = [];
  const warnings: PlanWarning[] = [];
  const alike: LookAlike[] = [];

  const resolve = (path: readonly string[]): Resolved => {
    const key = formatFolderPath(path);
    const known = resolved.get(key);
    if (known !== undefined) return known;
    let out: Resolved;
    if (path.length === 0) out = null;
    else {
      const { name, nth } = stepOf(path[path.length - 1]!);
      const parentPath = path.slice(0, -1);
      const parent = resolve(parentPath);
      const found = typeof parent === 'number' || parent === null ? tree.children.get(parent)?.get(name) : undefined;
      const hit = found?.[nth - 1];
      if (hit !== undefined) {
        out = hit.id;
        if (nth === 1 && found!.length > 1) {
          const ids = listSome(found!.map((f) => String(f.id)));
          const others =
            found!.length > 2
              ? `\`${segmentOf(name, 2)}\` … \`${segmentOf(name, found!.length)}\``
              : `\`${segmentOf(name, 2)}\``;
          warnings.push({
            code: 'duplicate-folder',
            address: folderAddress(path),
            message:
              `${found!.length} folders named ${JSON.stringify(name)} under ` +
              `${formatFolderPath(parentPath)} (ids ${ids}): ` +
              `\`${segmentOf(name)}\` is the lower id, ${found![0]!.id}; ` +
              `${others} name${found!.length > 2 ? '' : 's'} the other${found!.length > 2 ? 's' : ''}.`,
          });
        }
      } else {
        // The n-th twin comes after the (n-1)-th: that one is found or created first.
        const before = nth > 1 ? resolve([...parentPath, segmentOf(name, nth - 1)]) : undefined;
        out = { $folder: key };
        planned.push(createFolder(path, parent, isFolderRef(before) ? before : undefined));
        // A first folder of its name, beside a live one a reader would take for it (a twin is meant to be one).
        if (nth === 1 && (typeof parent === 'number' || parent === null))
          alike.push(...similarLive(path, name, tree.children.get(parent)));
      }
    }
    resolved.set(key, out);
    return out;
  };

  const withFolderId = <T extends DesiredWorkbook | DesiredReport>(r: T): T =>
    r.folder === undefined
      ? r
      : { ...r, fields: { ...r.fields, folderId: resolve(r.folder) as JsonValue }, locate: r.locate };
  const out: DesiredState = {
    ...desired,
    workbooks: desired.workbooks.map(withFolderId),
    reports: desired.reports.map(withFolderId),
  };
  noteEmptied(desired, live, tree, resolve, warnings);
  if (alike.length > 0 && lookAlikes !== 'allow') throw lookAlikeError(alike, desired, (p) => liveSpelling(p, tree));
  for (const a of alike) {
    warnings.push({
      code: 'similar-folder',
      address: folderAddress(a.path),
      message:
        `folder ${formatFolderPath(a.path)} will be created beside the live folder ${a.live} (id ${a.id}), ` +
        `whose name differs only in ${a.how} (folderLookAlikes: allow in wsc.yaml).`,
    });
  }

  const finish = (
    p: Planned,
    resource: DesiredWorkbook | DesiredReport,
    lr: Workbook | Report | undefined,
  ): Planned => {
    if (resource.folder === undefined) return p;
    const rc = p.change;
    const after = formatFolderPath(resource.folder);
    const before = lr === undefined ? {} : { before: livePathText(lr.folderId, tree, lr.folderPath) };
    const changes = rc.changes.map((c): FieldChange =>
      c.path === 'folderId' ? { path: 'folder', ...before, after } : c,
    );
    const requests: PlannedRequest[] = rc.requests.map((r) => {
      const folderId = (r.operation as { body?: Record<string, unknown> }).body?.['folderId'];
      if (!isFolderRef(folderId)) return r;
      const dep = `${folderAddress(resource.folder!)}#create`;
      return r.dependsOn.includes(dep) ? r : { ...r, dependsOn: [...r.dependsOn, dep].sort() };
    });
    return { ...p, change: { ...rc, changes, requests } };
  };

  // Parents sort before their children (a path's prefix sorts first).
  planned.sort((a, b) => (a.change.address < b.change.address ? -1 : a.change.address > b.change.address ? 1 : 0));
  return { planned, warnings, desired: out, finish };
}

/**
 * A path as the live tree spells it, segment by segment: each name the live
 * folder's of that name, else of the one a reader takes for it; from the
 * first segment with neither, as written.
 */
function liveSpelling(path: readonly string[], tree: Tree): string[] {
  const out: string[] = [];
  let parent: number | null = null;
  for (let i = 0; i < path.length; i++) {
    const { name, nth } = stepOf(path[i]!);
    const siblings: Map<string, Folder[]> = tree.children.get(parent) ?? new Map<string, Folder[]>();
    const same = siblings.get(name) ? name : [...siblings.keys()].find((o) => folderNamesAlike([name], [o]));
    const hit = same === undefined ? undefined : siblings.get(same)![nth - 1];
    if (hit === undefined) return [...out, ...path.slice(i)];
    out.push(segmentOf(same!, nth));
    parent = hit.id;
  }
  return out;
}

/** The live folders beside a folder to create whose names a reader would take for its own. */
function similarLive(path: readonly string[], name: string, siblings: Map<string, Folder[]> | undefined): LookAlike[] {
  const out: LookAlike[] = [];
  for (const [other, folders] of siblings ?? []) {
    const how = folderNamesAlike([name], [other]);
    if (how === undefined) continue;
    const live = formatFolderPath([...path.slice(0, -1), segmentOf(other)]);
    out.push({ path, live, id: folders[0]!.id, how });
  }
  return out;
}

function createFolder(path: readonly string[], parent: Resolved, twinBefore?: FolderRef): Planned {
  const address = folderAddress(path);
  const { name, nth } = stepOf(path[path.length - 1]!);
  const changes: FieldChange[] = [{ path: 'name', after: name }];
  if (path.length > 1) changes.push({ path: 'parent', after: formatFolderPath(path.slice(0, -1)) });
  const dependsOn = isFolderRef(parent) ? [`folder/${parent.$folder}#create`] : [];
  if (twinBefore !== undefined) dependsOn.push(`folder/${twinBefore.$folder}#create`);
  const rc: ResourceChange = {
    address,
    kind: 'folder',
    actions: ['create'],
    changes,
    requests: [
      request(
        address,
        'create',
        1,
        { op: 'createFolder', name, parentId: parent, ...(nth > 1 ? { nth } : {}) },
        dependsOn,
      ),
    ],
  };
  // Nothing live to fingerprint: a folder that appears meanwhile is found by the re-list after the create.
  return { change: rc, fingerprints: () => [] };
}

/**
 * A live folder whose every workbook and report the plan moves elsewhere,
 * and that holds no folder: it is left empty, and wsc does not remove it.
 */
function noteEmptied(
  desired: DesiredState,
  live: LiveState,
  tree: Tree,
  resolve: (path: readonly string[]) => Resolved,
  warnings: PlanWarning[],
): void {
  const movedOut = new Map<number, number>();
  const note = (liveFolder: number | null | undefined, wanted: string[] | undefined) => {
    if (wanted === undefined || liveFolder === null || liveFolder === undefined) return;
    if (resolve(wanted) === liveFolder) return;
    movedOut.set(liveFolder, (movedOut.get(liveFolder) ?? 0) + 1);
  };
  const wbBySlug = new Map(
    live.workbooks.flatMap((w) => (typeof w.slug === 'string' ? [[normalizeSlug(w.slug), w]] : [])),
  );
  for (const w of desired.workbooks) note(wbBySlug.get(w.slug)?.folderId, w.folder);
  const reportsByPid = new Map(live.reports.map((r) => [r.publicId, r]));
  for (const r of desired.reports) note(reportsByPid.get(r.publicId)?.folderId, r.folder);
  if (movedOut.size === 0) return;
  const held = new Map<number, number>();
  const count = (id: number | null | undefined) => {
    if (id !== null && id !== undefined) held.set(id, (held.get(id) ?? 0) + 1);
  };
  for (const w of live.workbooks) count(w.folderId);
  for (const r of live.reports) count(r.folderId);
  for (const [id, n] of [...movedOut].sort((a, b) => a[0] - b[0])) {
    if ((held.get(id) ?? 0) !== n || (tree.children.get(id)?.size ?? 0) > 0) continue;
    const path = livePathText(id, tree, undefined);
    warnings.push({
      code: 'folder-left-empty',
      address: `folder/${path}`,
      message:
        `folder ${path} (id ${id}) will be left empty by this plan; wsc never ` +
        `deletes folders: remove it in the UI if it is no longer wanted.`,
    });
  }
}
