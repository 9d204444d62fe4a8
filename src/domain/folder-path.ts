// `folder: Finance/Revenue`: a folder by its path of names from the root.
// `/` separates names; inside a name `\/` is a slash, `\\` a backslash and
// `\[` an opening bracket. `/` alone (or an empty path) is the root. A
// leading `/` is allowed and changes nothing: every path starts at the root.
// Names are kept exactly as written (no trimming: a trailing space is part of
// the name).
//
// Twin folders (two folders of one name under one parent, which the API
// allows): `Finance[2]` is the second folder named "Finance" there, counting
// by id (the lowest id is the first: `Finance` and `Finance[1]` name it).
// Creating `Finance[2]` where only one exists makes the second. A name that
// itself ends in `[` digits `]` is written with `\[` (`Plan \[2]`).

import { CONTROL_CHAR, CONTROL_OR_BIDI } from './unsafe-chars.js';

/**
 * A parsed path: its segments from the root down, each in canonical text
 * (`segmentOf`): the escaped name, with `[n]` for the n-th twin (n ≥ 2).
 * [] is the root. `formatFolderPath` joins them back.
 */
export type FolderPath = string[];

/** One segment read: the folder's name and which of the twins of that name it is (1: the lowest id). */
export interface FolderStep {
  name: string;
  nth: number;
}

/** The longest folder name the API takes. */
const MAX_FOLDER_NAME = 255;

/**
 * The deepest folder path wsc writes: the API refuses a folder past a fixed
 * nesting depth (400) without stating it; this is the depth wsc holds paths to
 * (and the emulator's).
 */
export const MAX_FOLDER_DEPTH = 10;

export class FolderPathError extends Error {}

/** A twin index at the end of a segment's text (unescaped `[`). */
const TWIN = /\[([1-9][0-9]{0,5})\]$/;

/** A name whose end would read as a twin index: its `[` is escaped when written. */
const LOOKS_LIKE_TWIN = /\[[0-9]+\]$/;

function escapeFolderName(name: string): string {
  const escaped = name.replaceAll('\\', '\\\\').replaceAll('/', '\\/');
  if (!LOOKS_LIKE_TWIN.test(name)) return escaped;
  const at = escaped.lastIndexOf('[');
  return `${escaped.slice(0, at)}\\${escaped.slice(at)}`;
}

/** The canonical text of one segment. */
export function segmentOf(name: string, nth = 1): string {
  return nth > 1 ? `${escapeFolderName(name)}[${nth}]` : escapeFolderName(name);
}

/** A segment's name (unescaped) and twin index. */
export function stepOf(segment: string): FolderStep {
  let nth = 1;
  let text = segment;
  const twin = TWIN.exec(segment);
  // `\[2]` is a name ending in `[2]`: the `[` is escaped when a backslash (itself not escaped) precedes it.
  if (twin && !escapedAt(segment, twin.index)) {
    nth = Number(twin[1]);
    text = segment.slice(0, twin.index);
  }
  let name = '';
  for (let i = 0; i < text.length; i++) {
    if (text[i] === '\\') i++;
    name += text[i] ?? '';
  }
  return { name, nth };
}

/** Whether the character at `i` is preceded by an odd number of backslashes. */
function escapedAt(text: string, i: number): boolean {
  let n = 0;
  for (let j = i - 1; j >= 0 && text[j] === '\\'; j--) n++;
  return n % 2 === 1;
}

export function parseFolderPath(text: string): FolderPath {
  if (text === '' || text === '/') return [];
  const raw: string[] = [];
  let seg = '';
  let i = text.startsWith('/') ? 1 : 0;
  for (; i < text.length; i++) {
    const ch = text[i]!;
    if (ch === '\\') {
      const next = text[i + 1];
      if (next !== '/' && next !== '\\' && next !== '[') {
        throw new FolderPathError(
          next === undefined
            ? 'ends in a lone `\\`'
            : `has the unknown escape \`\\${next}\` (only \`\\/\`, \`\\\\\` and \`\\[\` are escapes)`,
        );
      }
      seg += ch + next;
      i++;
    } else if (ch === '/') {
      raw.push(seg);
      seg = '';
    } else {
      seg += ch;
    }
  }
  raw.push(seg);
  return raw.map((s) => {
    const { name, nth } = stepOf(s);
    if (name === '') throw new FolderPathError('has an empty folder name (two `/` in a row, or a `/` at the end)');
    if (name.length > MAX_FOLDER_NAME)
      throw new FolderPathError(`has a folder name longer than ${MAX_FOLDER_NAME} characters`);
    if (name === '.' || name === '..')
      throw new FolderPathError(`has the folder name \`${name}\`, which would be created literally, not climb a level`);
    const hidden = CONTROL_OR_BIDI.exec(name);
    if (hidden) {
      const what = CONTROL_CHAR.test(hidden[0]) ? 'a control character' : 'a direction override';
      throw new FolderPathError(`has a folder name holding ${what} (${codePoint(hidden[0])})`);
    }
    return segmentOf(name, nth);
  });
}

function codePoint(ch: string): string {
  return `U+${ch.codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0')}`;
}

/**
 * Letters of other scripts drawn like Latin ones, as the Latin letter: enough
 * for a folder name typed on another keyboard layout (`Finаnce` with a
 * Cyrillic `а`) to meet its twin.
 */
const LOOKALIKES: Record<string, string> = Object.fromEntries(
  [
    // Cyrillic
    ['аеорсухіјѕԁһԛԝ', 'aeopcyxijsdhqw'],
    ['АВЕКМНОРСТХУІЈЅ', 'abekmhopctxyijs'],
    // Greek
    ['αοικνρ', 'aoikvp'],
    ['ΑΒΕΖΗΙΚΜΝΟΡΤΥΧ', 'abezhikmnoptyx'],
  ].flatMap(([from, to]) => [...from!].map((ch, i) => [ch, to![i]!])),
);

/** A folder name with case and white space folded: names equal here are the same to a reader. */
function plainKey(name: string): string {
  return name.normalize('NFKC').toLowerCase().replace(/\s+/gu, ' ').trim();
}

/** plainKey with look-alike letters as their Latin twins. */
function lookKey(name: string): string {
  return plainKey([...name.normalize('NFKC')].map((ch) => LOOKALIKES[ch] ?? ch).join(''));
}

/** A path's key for look-alike comparison: two paths with one key are the same path to a reader. */
export function folderLookKey(path: readonly string[]): string {
  return path.map(lookKey).join('/');
}

/**
 * How two different folder names (or paths) that a reader would take for one
 * differ: `case or white space`, `look-alike letters`, or undefined when they
 * are told apart at a glance (or are the same).
 */
export function folderNamesAlike(a: readonly string[], b: readonly string[]): string | undefined {
  if (a.length !== b.length || a.every((n, i) => n === b[i])) return undefined;
  if (folderLookKey(a) !== folderLookKey(b)) return undefined;
  return a.every((n, i) => plainKey(n) === plainKey(b[i]!)) ? 'case or white space' : 'look-alike letters';
}

/** The text of a path, as `parseFolderPath` reads it back. */
export function formatFolderPath(path: readonly string[]): string {
  return path.length === 0 ? '/' : path.join('/');
}

/** The path of folders named from the root, none of them a twin past the first. */
export function pathOfNames(names: readonly string[]): FolderPath {
  return names.map((n) => segmentOf(n));
}
