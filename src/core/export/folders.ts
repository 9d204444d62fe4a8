// Export names folders by path (`folder: A/B`), never by id. The folder tree
// is read once, from the source, for the first item in a folder: a folder's
// twins (another folder of its name under its parent) are known only from its
// siblings, and a twin is written `Name[2]` (domain/folder-path.ts). Where the
// tree does not hold an item's folder, the item's own `folderPath` names it.
import type { Folder } from '../../domain/wire.js';
import { formatFolderPath, pathOfNames, segmentOf } from '../../domain/folder-path.js';

function ownPath(folderId: number, folderPath: unknown): string[] | undefined {
  if (!Array.isArray(folderPath) || folderPath.length === 0) return undefined;
  const last = folderPath[folderPath.length - 1] as { id?: unknown } | null;
  if (last?.id !== folderId) return undefined;
  const names = folderPath.map((e) => (e as { name?: unknown } | null)?.name);
  return names.every((n): n is string => typeof n === 'string' && n !== '') ? names : undefined;
}

export class FolderPaths {
  private tree: Map<number, Folder> | undefined;
  /** `parentId/name` -> the ids of the folders of that name there, lowest first. */
  private readonly twins = new Map<string, number[]>();

  constructor(private readonly readTree: (() => Promise<Folder[]>) | undefined) {}

  /** Reads the tree, once, for the first item in a folder. */
  async prepare(folderId: number | null | undefined): Promise<void> {
    if (folderId === null || folderId === undefined || this.tree !== undefined || this.readTree === undefined) return;
    const folders = [...(await this.readTree())].sort((a, b) => a.id - b.id);
    this.tree = new Map(folders.map((f) => [f.id, f]));
    for (const f of this.tree.values()) {
      const key = `${f.parentId ?? 0}/${f.name}`;
      this.twins.set(key, [...(this.twins.get(key) ?? []), f.id]);
    }
  }

  /** The segment of a folder of the tree: its name, with `[n]` when it is the n-th of twins. */
  private segment(f: Folder): string {
    const ids = this.twins.get(`${f.parentId ?? 0}/${f.name}`) ?? [];
    return segmentOf(f.name, Math.max(1, ids.indexOf(f.id) + 1));
  }

  pathOf(folderId: number, folderPath: unknown): string | undefined {
    if (this.tree !== undefined && this.tree.has(folderId)) {
      const segments: string[] = [];
      const seen = new Set<number>();
      let id: number | null | undefined = folderId;
      while (id !== null && id !== undefined) {
        const f = this.tree.get(id);
        if (f === undefined || seen.has(id)) break;
        seen.add(id);
        segments.unshift(this.segment(f));
        id = f.parentId;
      }
      if (id === null || id === undefined) return formatFolderPath(segments);
    }
    // Not in the tree this token reads (or no tree): its own ancestors, if they end at it.
    const own = ownPath(folderId, folderPath);
    return own !== undefined ? formatFolderPath(pathOfNames(own)) : undefined;
  }
}
