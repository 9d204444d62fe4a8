// `folder: Finance/Revenue`: a folder by its path of names from the root.
// `/` separates names; inside a name `\/` is a slash and `\\` a backslash.
// `/` alone (or an empty path) is the root. A leading `/` is allowed and
// changes nothing: every path starts at the root. Names are kept exactly as
// written (no trimming: a trailing space is part of the name).

/** A parsed path: the names from the root down; [] is the root. */
export type FolderPath = string[];

/** The longest folder name the API takes. */
export const MAX_FOLDER_NAME = 255;

export class FolderPathError extends Error {}

export function parseFolderPath(text: string): FolderPath {
  if (text === '' || text === '/') return [];
  const names: string[] = [];
  let name = '';
  let i = text.startsWith('/') ? 1 : 0;
  for (; i < text.length; i++) {
    const ch = text[i]!;
    if (ch === '\\') {
      const next = text[i + 1];
      if (next !== '/' && next !== '\\') {
        throw new FolderPathError(
          next === undefined
            ? 'ends in a lone `\\`'
            : `has the unknown escape \`\\${next}\` (only \`\\/\` and \`\\\\\` are escapes)`,
        );
      }
      name += next;
      i++;
    } else if (ch === '/') {
      names.push(name);
      name = '';
    } else {
      name += ch;
    }
  }
  names.push(name);
  for (const n of names) {
    if (n === '') throw new FolderPathError('has an empty folder name (two `/` in a row, or a `/` at the end)');
    if (n.length > MAX_FOLDER_NAME)
      throw new FolderPathError(`has a folder name longer than ${MAX_FOLDER_NAME} characters`);
  }
  return names;
}

export function escapeFolderName(name: string): string {
  return name.replaceAll('\\', '\\\\').replaceAll('/', '\\/');
}

/** The text of a path, as `parseFolderPath` reads it back. */
export function formatFolderPath(path: readonly string[]): string {
  return path.length === 0 ? '/' : path.map(escapeFolderName).join('/');
}
