// Near misses between the folder paths a bundle names: `Finance/Revenue
// analytcs` in one file beside `Finance/Revenue analytics` in four others
// would plan a second folder. A path (or one of its parents) whose last name
// is a few edits from a sibling's is warned of at each file that names the
// rarer one. Paths that differ only in case or whitespace, and names that
// differ only in digits (`FY2025`, `FY2026`: siblings by design), are not
// near misses here.
import type { Diagnostic, SourcePos } from '../errors.js';
import { folderNamesAlike, formatFolderPath, parseFolderPath, FolderPathError, stepOf } from '../domain/folder-path.js';
import { editDistance, nearMissLimit } from '../domain/suggest.js';
import { posOf, type DocItem } from './checks.js';

/** Distinct folder paths (parents included) above which the pairwise comparison is skipped. */
const MAX_PATHS = 2000;

interface Named {
  /** The path as a file writes it (for messages). */
  text: string;
  names: string[];
  /** The documents that name this path (or a path below it); where they name it is looked up for a warning only. */
  uses: DocItem[];
}

function caseOrSpaceOnly(a: string, b: string): boolean {
  const norm = (s: string) => s.toLowerCase().replace(/\s+/g, ' ').trim();
  return norm(a) === norm(b);
}

function digitsOnly(a: string, b: string): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) {
    if (a[i] !== b[i] && !(/\d/.test(a[i]!) && /\d/.test(b[i]!))) return false;
  }
  return true;
}

function isNearMiss(a: string, b: string): boolean {
  // Alike but for case, white space or look-alike letters: checks-folders-alike.ts says so in its own words.
  if (a === b || caseOrSpaceOnly(a, b) || digitsOnly(a, b) || folderNamesAlike([a], [b]) !== undefined) return false;
  const max = Math.min(nearMissLimit(a), nearMissLimit(b));
  return max > 0 && editDistance(a.toLowerCase(), b.toLowerCase(), max) <= max;
}

export function folderNearMisses(items: readonly DocItem[]): Diagnostic[] {
  const byText = new Map<string, Named>();
  for (const item of items) {
    const raw = item.value['folder'];
    if (item.kind === 'UserAttribute' || typeof raw !== 'string') continue;
    let names: string[];
    try {
      names = parseFolderPath(raw);
    } catch (e) {
      if (e instanceof FolderPathError) continue; // the schema reports it
      throw e;
    }
    for (let depth = 1; depth <= names.length; depth++) {
      const prefix = names.slice(0, depth);
      const text = JSON.stringify(prefix);
      let named = byText.get(text);
      if (named === undefined) byText.set(text, (named = { text: formatFolderPath(prefix), names: prefix, uses: [] }));
      named.uses.push(item);
    }
  }
  if (byText.size > MAX_PATHS) return [];
  // Siblings: the same parent, compared by their last names.
  const byParent = new Map<string, Named[]>();
  for (const n of byText.values()) {
    const parent = JSON.stringify(n.names.slice(0, -1));
    const list = byParent.get(parent);
    if (list) list.push(n);
    else byParent.set(parent, [n]);
  }
  const pairs: [Named, Named][] = [];
  for (const siblings of byParent.values()) {
    for (const a of siblings) {
      for (const b of siblings) {
        if (a === b || a.uses.length > b.uses.length) continue;
        // By name: twins (`Finance`, `Finance[2]`) share one, and are two folders by design.
        const nameOf = (n: Named) => stepOf(n.names[n.names.length - 1]!).name;
        if (isNearMiss(nameOf(a), nameOf(b))) pairs.push([a, b]);
      }
    }
  }
  // One warning per file position, for the difference nearest the root (a parent's names its children's too).
  pairs.sort(([a], [b]) => a.names.length - b.names.length);
  // A value's position costs parsing its file again (yaml/positions.ts): only those a warning names are looked up.
  const out: Diagnostic[] = [];
  const warned = new Set<DocItem>();
  for (const [a, b] of pairs) {
    const first = folderPos(b.uses[0]!);
    for (const item of a.uses) {
      if (warned.has(item)) continue;
      warned.add(item);
      const pos = folderPos(item);
      out.push({
        severity: 'warning',
        rule: 'folder-near-miss',
        message:
          `folder \`${a.text}\` (named by ${count(a.uses.length)}) is close to \`${b.text}\` (named by ` +
          `${count(b.uses.length)}): did you mean \`${b.text}\`?`,
        pos,
        hint:
          `\`${b.text}\` is named at ${first.file}:${first.line}:${first.col}; ` +
          'a folder written two ways plans two folders.',
      });
    }
  }
  return out;
}

const folderPos = (item: DocItem): SourcePos => posOf(item, ['folder'], 'value');
const count = (n: number) => (n === 1 ? '1 file' : `${n} files`);
