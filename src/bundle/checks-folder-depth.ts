// A folder path deeper than the API nests folders: validate says so, rather
// than apply creating the first levels and failing on the one past the limit
// (exit 4, with folders left behind). The API states a fixed maximum depth
// without its value; wsc holds paths to MAX_FOLDER_DEPTH (domain/folder-path.ts).
import type { Diagnostic } from '../errors.js';
import { MAX_FOLDER_DEPTH, parseFolderPath } from '../domain/folder-path.js';
import { posOf, type DocItem } from './checks.js';

/** An error at each `folder:` whose path has more than MAX_FOLDER_DEPTH names. */
export function folderDepth(items: readonly DocItem[]): Diagnostic[] {
  const out: Diagnostic[] = [];
  for (const item of items) {
    const text = item.value['folder'];
    if (typeof text !== 'string') continue;
    let depth: number;
    try {
      depth = parseFolderPath(text).length;
    } catch {
      continue; // the schema reported it
    }
    if (depth <= MAX_FOLDER_DEPTH) continue;
    out.push({
      severity: 'error',
      rule: 'folder-too-deep',
      message: `folder path is ${depth} levels deep; the API nests folders at most ${MAX_FOLDER_DEPTH} levels`,
      pos: posOf(item, ['folder'], 'value'),
      hint: `Use a path of at most ${MAX_FOLDER_DEPTH} folder names.`,
    });
  }
  return out;
}
