// Folder paths of the bundle that a reader would take for one another:
// `Finance/Revenue Analytics` beside `Finance/revenue analytics`, or
// `Finаnce` (a Cyrillic `а`) beside `Finance`. Each is a folder of its own
// to the API, so the second would be created beside the first: an error
// naming both, a warning when wsc.yaml says `folderLookAlikes: allow`.
// (Against the live tree, core/plan/folder-alike.ts decides the same way.)
import type { Diagnostic } from '../errors.js';
import { folderLookKey, folderNamesAlike, formatFolderPath, parseFolderPath } from '../domain/folder-path.js';
import { visible } from '../visible.js';
import { posOf, type DocItem } from './checks.js';

const fmt = (p: { file: string; line: number; col: number }) => `${p.file}:${p.line}:${p.col}`;

/** Where a folder path (or a prefix of it) looks like another path of the bundle, once per pair. */
export function folderLookalikes(items: readonly DocItem[], lookAlikes: 'allow' | 'error'): Diagnostic[] {
  const first = new Map<string, { path: string[]; item: DocItem }>();
  const out: Diagnostic[] = [];
  const said = new Set<string>();
  for (const item of items) {
    const text = item.value['folder'];
    if (typeof text !== 'string') continue;
    let path: string[];
    try {
      path = parseFolderPath(text);
    } catch {
      continue; // the schema reported it
    }
    for (let n = 1; n <= path.length; n++) {
      const prefix = path.slice(0, n);
      const key = folderLookKey(prefix);
      const seen = first.get(key);
      if (!seen) {
        first.set(key, { path: prefix, item });
        continue;
      }
      const how = folderNamesAlike(prefix, seen.path);
      if (how === undefined) continue;
      const [a, b] = [formatFolderPath(prefix), formatFolderPath(seen.path)];
      if (!said.has(`${a}\n${b}`)) {
        said.add(`${a}\n${b}`);
        const at = posOf(seen.item, ['folder'], 'value');
        out.push({
          severity: lookAlikes === 'allow' ? 'warning' : 'error',
          rule: 'similar-folder',
          message:
            `folder \`${visible(a)}\` differs from \`${visible(b)}\` (${fmt(at)}) only in ${how}: ` +
            `they would be two folders; did you mean \`${visible(b)}\`?`,
          pos: posOf(item, ['folder'], 'value'),
          hint:
            'Write one folder path the same way in every file; if the bundle really wants both, say so with ' +
            '`folderLookAlikes: allow` in wsc.yaml.',
        });
      }
      break; // the first level that differs says it; deeper levels differ because of it
    }
  }
  return out;
}
