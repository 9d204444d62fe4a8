// Where each value of a file's documents stands in the text, found with the
// `yaml` library's node tree: only when a diagnostic or a lookup needs a
// position (the values are js-yaml's, yaml/parse.ts). Besides positions it
// lists what only a node tree shows: keys written more than once and keys
// that are not scalars (js-yaml turns `{a: 1}: x` into the key
// "[object Object]"), each where it stands.
import { createRequire } from 'node:module';
import type { Document, Node, Pair } from 'yaml';
import { lineCols, type LineCol, type NodePos, type Path } from './positions.js';
import { MAX_DEPTH } from './limits.js';

export interface DocLocation {
  start: LineCol;
  /** Positions by path, as PositionIndex keys them (the path's JSON). */
  positions: Map<string, NodePos>;
  /** Keys written a second time (or more) in their mapping. */
  duplicates: { key: string; pos: LineCol }[];
  /** Keys that are mappings or sequences (or aliases of one). */
  complexKeys: LineCol[];
  /** Where the tags of keys that are not plain data are written. */
  keyTags: LineCol[];
}

/**
 * The `yaml` library, loaded at first use: a valid bundle needs no position
 * past its root keys (found by rootKeys), and loading the library is a
 * noticeable part of a run's start-up (docs/performance.md).
 */
let yamlLib: typeof import('yaml') | undefined;
const library = (): typeof import('yaml') =>
  (yamlLib ??= createRequire(import.meta.url)('yaml') as typeof import('yaml'));

/** Tags of plain data: a node with another tag gets the position of its tag (`NodePos.tag`). */
const PLAIN_TAGS: ReadonlySet<string> = new Set([
  '!',
  ...['str', 'int', 'float', 'bool', 'null', 'map', 'seq'].map((t) => `tag:yaml.org,2002:${t}`),
]);

/** Every document of `text` by its index in the file (a document without content has none). */
export function locate(text: string): (DocLocation | undefined)[] {
  const lib = library();
  let docs: Document.Parsed[];
  try {
    docs = lib.parseAllDocuments(text, { prettyErrors: false, uniqueKeys: false });
  } catch {
    // The parser recurses per nesting level; what js-yaml read, it may still refuse: no positions then.
    return [];
  }
  const lineCol = lineCols(text);
  const at = (offset: number): LineCol => lineCol(Math.max(0, Math.min(offset, text.length)));
  return docs.map((doc) => (doc.contents ? new Locator(lib, doc, text, at).run(doc.contents) : undefined));
}

class Locator {
  private readonly out: DocLocation;

  constructor(
    private readonly lib: typeof import('yaml'),
    private readonly doc: Document.Parsed,
    private readonly text: string,
    private readonly at: (offset: number) => LineCol,
  ) {
    this.out = { start: { line: 1, col: 1 }, positions: new Map(), duplicates: [], complexKeys: [], keyTags: [] };
  }

  run(root: Node): DocLocation {
    this.out.start = this.at(root.range?.[0] ?? 0);
    this.node(root, [], undefined, 0);
    return this.out;
  }

  private set(path: Path, pos: NodePos): void {
    this.out.positions.set(JSON.stringify(path), pos);
  }

  private node(n: Node | null, path: Path, key: LineCol | undefined, depth: number): void {
    const { lib } = this;
    if (n === null || !n.range) {
      // `key:` with no value: null, reported at the key.
      const value = key ?? this.out.start;
      this.set(path, key ? { key, value } : { value });
      return;
    }
    const pos: NodePos = { value: this.at(n.range[0]) };
    if (key) pos.key = key;
    if (n.tag !== undefined && !PLAIN_TAGS.has(n.tag)) pos.tag = this.at(tagStart(this.text, n.range[0]));
    if (lib.isScalar(n) && typeof n.value === 'string' && n.value.includes('${')) {
      // Where a variable's column is known from its index in the value: plain and quoted one-line scalars.
      const quoted = n.type === 'QUOTE_DOUBLE' || n.type === 'QUOTE_SINGLE';
      if (!n.value.includes('\n') && (quoted || n.type === 'PLAIN')) pos.shift = quoted ? 1 : 0;
    }
    this.set(path, pos);
    // An alias stands where it is written; what it repeats has the positions of its anchor.
    if (lib.isAlias(n) || depth > MAX_DEPTH) return;
    if (lib.isSeq(n)) n.items.forEach((item, i) => this.node(item as Node | null, [...path, i], undefined, depth + 1));
    else if (lib.isMap(n)) this.map(n.items, path, pos.value, depth);
  }

  private map(pairs: Pair[], path: Path, mapPos: LineCol, depth: number): void {
    const { lib } = this;
    const seen = new Set<string>();
    for (const pair of pairs) {
      const k = pair.key as Node | null;
      const keyPos = k?.range ? this.at(k.range[0]) : mapPos;
      const target = lib.isAlias(k) ? k.resolve(this.doc) : k;
      if (lib.isMap(target) || lib.isSeq(target)) {
        this.out.complexKeys.push(keyPos);
        continue;
      }
      if (k?.range && k.tag !== undefined && !PLAIN_TAGS.has(k.tag))
        this.out.keyTags.push(this.at(tagStart(this.text, k.range[0])));
      const key = String(lib.isScalar(target) ? target.value : null);
      if (seen.has(key)) this.out.duplicates.push({ key, pos: keyPos });
      seen.add(key);
      this.node(pair.value as Node | null, [...path, key], keyPos, depth + 1);
    }
  }
}

/** Where the tag before the node at `offset` starts (past an anchor), or `offset` if none is found. */
function tagStart(text: string, offset: number): number {
  let end = offset;
  for (let i = 0; i < 2; i++) {
    while (end > 0 && /\s/.test(text[end - 1]!)) end--;
    let start = end;
    while (start > 0 && !/\s/.test(text[start - 1]!)) start--;
    if (text[start] === '!') return start;
    if (text[start] !== '&') break;
    end = start;
  }
  return offset;
}

/**
 * A root key as written at the start of a line (lastIndex): `key:`, unquoted.
 * Sticky, on the whole text, so that no line is copied out of it to be matched.
 */
const ROOT_KEY_LINE = /([^\s#'"?:,[\]{}&*!|>%@`-][^\n]*?)[ \t]*:(?:[ \t\r]|(?=\n)|$)/y;

/**
 * The keys of each document's block mapping at the root, each where it
 * stands, found in the text without a parser: a line that starts at column 1
 * is a root key, a comment, a document marker or something else (then
 * undefined). The caller keeps a document's keys only if they are exactly
 * its keys, in order: a line inside a multi-line string that looks like a key
 * would add one.
 */
export function rootKeys(text: string): { key: string; pos: LineCol }[][] | undefined {
  const docs: { key: string; pos: LineCol }[][] = [[]];
  let line = 1;
  for (let at = 0; at < text.length; line++) {
    const end = text.indexOf('\n', at);
    const next = end === -1 ? text.length : end + 1;
    const c = text.charCodeAt(at);
    // Blank, indented, or a comment.
    if (c !== 0x0a && c !== 0x0d && c !== 0x20 && c !== 0x23) {
      if (text.startsWith('---', at) && /^\r?$/.test(text.slice(at + 3, end === -1 ? text.length : end))) {
        // A document's start marker: it ends the document before it, if any.
        if (docs[docs.length - 1]!.length > 0) docs.push([]);
      } else {
        ROOT_KEY_LINE.lastIndex = at;
        const m = ROOT_KEY_LINE.exec(text);
        if (!m) return undefined;
        docs[docs.length - 1]!.push({ key: m[1]!, pos: { line, col: 1 } });
      }
    }
    at = next;
  }
  return docs;
}
