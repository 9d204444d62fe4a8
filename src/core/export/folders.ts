// Export names folders by path (`folder: A/B`), never by id. A workbook or
// report carries its `folderPath` (the folders from the root down to its
// own); only when that does not end at its folder is the folder tree read,
// once, from the source.
import type { Folder } from '../../domain/wire.js';
import { formatFolderPath } from '../../domain/folder-path.js';

function ownPath(folderId: number, folderPath: unknown): string[] | undefined {
  if (!Array.isArray(folderPath) || folderPath.length === 0) return undefined;
  const last = folderPath[folderPath.length - 1] as { id?: unknown } | null;
  if (last?.id !== folderId) return undefined;
  const names = folderPath.map((e) => (e as { name?: unknown } | null)?.name);
  return names.every((n): n is string => typeof n === 'string' && n !== '') ? names : undefined;
}

export class FolderPaths {
  private tree: Map<number, Folder> | undefined;

  constructor(private readonly readTree: (() => Promise<Folder[]>) | undefined) {}

  /** Reads the tree if this item's folder cannot be named without it. */
  async prepare(folderId: number | null | undefined, folderPath: unknown): Promise<void> {
    if (folderId === null || folderId === undefined || this.tree !== undefined || this.readTree === undefined) return;
    if (ownPath(folderId, folderPath) !== undefined) return;
    this.tree = new Map((await this.readTree()).map((f) => [f.id, f]));
  }

  pathOf(folderId: number, folderPath: unknown): string | undefined {
    const own = ownPath(folderId, folderPath);
    if (own !== undefined) return formatFolderPath(own);
    if (this.tree === undefined) return undefined;
    const names: string[] = [];
    const seen = new Set<number>();
    let id: number | null | undefined = folderId;
    while (id !== null && id !== undefined) {
      const f = this.tree.get(id);
      if (f === undefined || seen.has(id)) return undefined;
      seen.add(id);
      names.unshift(f.name);
      id = f.parentId;
    }
    return formatFolderPath(names);
  }
}
