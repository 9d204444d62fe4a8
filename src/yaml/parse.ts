// YAML text -> plain data with positions. Two readers, one result:
// - js-yaml reads the common case (plain documents) about ten times faster
//   than the `yaml` library. Positions are then only the root keys', found in
//   the text; the rest are read at the first lookup that needs them.
// - Anything the fast path is not sure to read exactly as the library would
//   (a parse error, an alias, a tag, a forbidden key, a variable problem...)
//   is read by the `yaml` library's node tree, converted here so as to keep
//   where every value came from, interpolate variables scalar by scalar (each
//   problem at its position), refuse keys that could reach an object's
//   prototype, and bound aliases, nesting and node counts (a hostile file costs
//   bounded time and memory). Its diagnostics are the only ones either gives.
import { createRequire } from 'node:module';
import jsyaml from 'js-yaml';
import type { Alias, Document, Node, Scalar, YAMLMap } from 'yaml';
import type { Diagnostic } from '../errors.js';
import { FORBIDDEN_KEYS } from '../domain/forbidden-keys.js';
import { hasVariables, interpolate, type VarLookup, type VarProblem } from './variables.js';
import { lineColAt, PositionIndex, type LineCol, type Path } from './positions.js';

/** Nodes produced by alias expansion, per document (the "billion laughs" guard). */
export const MAX_ALIAS_NODES = 10_000;
/** Nodes per document. */
export const MAX_NODES = 1_000_000;
/** Nesting depth of mappings and sequences. */
export const MAX_DEPTH = 64;

export interface ParsedDoc {
  /** 0-based index of the document in its file. */
  index: number;
  value: unknown;
  positions: PositionIndex;
}

export interface VarUse {
  /** Index of the document in the file. */
  doc: number;
  path: Path;
  pos: LineCol;
  problem: VarProblem;
}

export interface ParseResult {
  docs: ParsedDoc[];
  diagnostics: Diagnostic[];
  /** Variable problems, for the caller to judge (bundle: errors; wsc.yaml: only in the selected environment). */
  varProblems: VarUse[];
  /** Some document could not be read at all. */
  incomplete: boolean;
}

export interface ParseOptions {
  /** Interpolate `${...}` in scalars with this lookup; without it scalars stay as written. */
  lookup?: VarLookup;
}

/** Tags of plain data (YAML 1.2 core schema); anything else (`!!binary`, `!!js/function`, `!custom`) is refused. */
const ALLOWED_TAGS: ReadonlySet<string> = new Set([
  '!',
  ...['str', 'int', 'float', 'bool', 'null', 'map', 'seq'].map((t) => `tag:yaml.org,2002:${t}`),
]);

/** Stops converting a document: a limit, or content that is not plain data. */
class LimitExceeded extends Error {
  constructor(
    readonly rule: string,
    message: string,
    readonly pos: LineCol,
  ) {
    super(message);
  }
}

export function parseYaml(file: string, text: string, opts: ParseOptions = {}): ParseResult {
  const refused = sizeLimits(file, text);
  if (refused) return refused;
  return parseFast(file, text, opts) ?? parseWithLibrary(file, text, opts);
}

/** parseYaml without the fast path: the reference it is tested against. */
export function parseYamlWithLibrary(file: string, text: string, opts: ParseOptions = {}): ParseResult {
  return sizeLimits(file, text) ?? parseWithLibrary(file, text, opts);
}

/**
 * Scalars resolved as the `yaml` library's core schema resolves them (js-yaml's
 * own core schema also takes `0b1`, `1_000` and `+.5e3`-like forms as numbers).
 */
const CORE_INT = /^(?:[-+]?[0-9]+|0o[0-7]+|0x[0-9a-fA-F]+)$/;
const CORE_FLOAT =
  /^(?:[-+]?(?:\.[0-9]+|[0-9]+(?:\.[0-9]*)?)(?:[eE][-+]?[0-9]+)?|[-+]?\.(?:inf|Inf|INF)|\.(?:nan|NaN|NAN))$/;
const coreNumber = (s: string): number => {
  if (s.startsWith('0o')) return parseInt(s.slice(2), 8);
  if (s.startsWith('0x')) return parseInt(s.slice(2), 16);
  if (/^[-+]?[0-9]+$/.test(s)) return parseInt(s, 10);
  if (/\.(?:nan|NaN|NAN)$/.test(s)) return NaN;
  if (/\.(?:inf|Inf|INF)$/.test(s)) return s.startsWith('-') ? -Infinity : Infinity;
  return parseFloat(s);
};
// js-yaml's null and bool types (not in its type definitions) read what the library's do.
const { null: coreNull, bool: coreBool } = (jsyaml as unknown as { types: Record<string, jsyaml.Type> }).types;
const SCHEMA = jsyaml.FAILSAFE_SCHEMA.extend({
  implicit: [
    coreNull!,
    coreBool!,
    // Integers and floats are one type: only the value read matters here.
    new jsyaml.Type('tag:yaml.org,2002:float', {
      kind: 'scalar',
      resolve: (s: unknown) => typeof s === 'string' && (CORE_INT.test(s) || CORE_FLOAT.test(s)),
      construct: coreNumber,
    }),
  ],
});

/**
 * Text whose reading by js-yaml could differ from the library's, found by
 * comparing the two on generated texts (test/yaml/parse.test.ts). Anchors
 * go there too, so the fast path never meets an alias (a shared node would
 * be expanded by every reader of the data). Text in a string that only looks
 * like one of these takes the library path, which reads it right, slower.
 */
const NOT_FAST = new RegExp(
  [
    /^%/, // a directive
    /(?:^|[\s,[{])(?:\?(?:[ \t\r]|$)|&\S|!(?!=))/, // an explicit key, an anchor, a tag
    /[\]}][ \t]*:(?:[ \t\r]|$)/, // a flow collection as a key
    /\t|\r(?!\n)/, // a tab, a carriage return alone
    /::|[[{,]\s*:/, // `::`, a `:` opening a flow entry
    /^(?:---|\.\.\.)(?!\r?$)/, // a document marker (`---`, `...`) with text after it
    /(?:^|[ ])-[ ]*(?:#.*)?\r?$/, // a sequence item whose value starts on the next line
    /[|>](?:[-+]?[1-9]|\+)/, // a block scalar with an indentation indicator, or kept final line breaks
  ]
    .map((r) => r.source)
    .join('|'),
  'm',
);

/**
 * A line js-yaml may read more leniently than the library when a quoted
 * string or a flow collection goes on past its end (the library refuses some
 * of those that are not indented enough): a quote that opens a string (at
 * the start of a value) and is not closed on its line, or unbalanced
 * brackets outside strings and comments; also a `#` right after a closing
 * quote or bracket (the library refuses it as a comment without a space).
 * Only its speed depends on what this lets through.
 */
function lenientLines(text: string): boolean {
  let open = 0;
  let quote = 0;
  let prev = 0x0a;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 0x0a) {
      if (quote !== 0 || open !== 0) return true;
    } else if (quote === 0x22) {
      // An escaped line break (`\` at the end of a line) continues the string on the next line, as an
      // unclosed quote does: the library judges it.
      if (c === 0x5c && (text.charCodeAt(i + 1) === 0x0a || text.charCodeAt(i + 1) === 0x0d)) return true;
      if (c === 0x5c) i++;
      else if (c === 0x22) {
        quote = 0;
        if (text.charCodeAt(i + 1) === 0x23) return true;
      }
    } else if (quote === 0x27) {
      if (c === 0x27 && text.charCodeAt(i + 1) === 0x27) i++;
      else if (c === 0x27) {
        quote = 0;
        if (text.charCodeAt(i + 1) === 0x23) return true;
      }
    } else if ((c === 0x22 || c === 0x27) && VALUE_START.has(prev)) {
      quote = c;
    } else if (c === 0x23 && (prev === 0x20 || prev === 0x0a)) {
      // A comment, to the end of the line.
      const end = text.indexOf('\n', i);
      if (end === -1) break;
      i = end - 1;
    } else if (c === 0x5b || c === 0x7b) open++;
    else if (c === 0x5d || c === 0x7d) {
      open--;
      if (text.charCodeAt(i + 1) === 0x23) return true;
    }
    prev = c;
  }
  return quote !== 0 || open !== 0;
}

/** Characters after which a quote opens a quoted string: line start, space, `[`, `{`, `,`, `-`, `:`. */
const VALUE_START = new Set([0x0a, 0x20, 0x5b, 0x7b, 0x2c, 0x2d, 0x3a]);

/** One plain document, read by js-yaml; undefined when the library must read it. Exported for its tests. */
export function parseFast(file: string, text: string, opts: ParseOptions): ParseResult | undefined {
  if (NOT_FAST.test(text) || lenientLines(text)) return undefined;
  let values: unknown[];
  try {
    // maxDepth (not in js-yaml's type definitions) bounds its recursion; what is deeper than
    // MAX_DEPTH is judged by the library path.
    const options = { schema: SCHEMA, filename: file, maxDepth: MAX_DEPTH + 2 } as jsyaml.LoadOptions;
    values = jsyaml.loadAll(text, null, options);
  } catch {
    return undefined;
  }
  // An empty document: the library tells where it is (and skips it).
  if (values.length === 0 || values.some((v) => v === null || v === undefined)) return undefined;
  const walk = { nodes: 0, lookup: opts.lookup };
  try {
    for (let i = 0; i < values.length; i++) values[i] = plain(values[i], walk, 0);
  } catch (e) {
    if (e === NOT_PLAIN) return undefined;
    throw e;
  }
  const keys = rootKeys(text);
  const reread: Reread = { file, text, full: undefined };
  const docs = values.map((value, index): ParsedDoc => {
    const positions = new PositionIndex(undefined, fillFrom(reread, index));
    const found = keys?.length === values.length ? keys[index]! : undefined;
    const own = value !== null && typeof value === 'object' && !Array.isArray(value) ? Object.keys(value) : undefined;
    if (found && own && found.length > 0 && found.length === own.length && found.every((k, i) => k.key === own[i])) {
      positions.start = found[0]!.pos;
      for (const k of found) positions.setTopKey(k.key, k.pos);
    }
    return { index, value, positions };
  });
  return { docs, diagnostics: [], varProblems: [], incomplete: false };
}

/** A file the fast path read, to be read again by the library (once) when a position is looked up. */
interface Reread {
  file: string;
  text: string;
  full: ParseResult | undefined;
}

/**
 * The `fill` of a document's PositionIndex. A function of its own so that
 * the closure, kept with the document, holds only the file's text and not
 * what parseFast found on the way (the root keys, every document's value).
 */
function fillFrom(reread: Reread, index: number): (positions: PositionIndex) => void {
  return (positions) => {
    reread.full ??= parseWithLibrary(reread.file, reread.text, {});
    const doc = reread.full.docs.find((d) => d.index === index);
    if (!doc) return;
    positions.start = doc.positions.start;
    for (const [key, pos] of doc.positions.entries()) positions.setByKey(key, pos);
  };
}

/** Thrown by `plain` when the library must read the document. */
const NOT_PLAIN = new Error('not plain');

/**
 * The document as the library path gives it: variables interpolated, checked
 * for what that path refuses or reports (a forbidden key, a number without a
 * JSON form, too deep, too many values, a variable problem), which throw
 * NOT_PLAIN.
 */
function plain(v: unknown, walk: { nodes: number; lookup: VarLookup | undefined }, depth: number): unknown {
  if (++walk.nodes > MAX_NODES) throw NOT_PLAIN;
  if (typeof v === 'string') {
    if (walk.lookup === undefined || !hasVariables(v)) return v;
    const r = interpolate(v, walk.lookup);
    if (r.problems.length > 0) throw NOT_PLAIN;
    return r.value;
  }
  if (typeof v === 'number') {
    if (!Number.isFinite(v)) throw NOT_PLAIN;
    return v;
  }
  if (v === null || typeof v !== 'object') return v;
  if (depth >= MAX_DEPTH) throw NOT_PLAIN;
  if (Array.isArray(v)) {
    for (let i = 0; i < v.length; i++) v[i] = plain(v[i], walk, depth + 1);
    return v;
  }
  const obj = v as Record<string, unknown>;
  for (const key of Object.keys(obj)) {
    if (FORBIDDEN_KEYS.has(key)) throw NOT_PLAIN;
    obj[key] = plain(obj[key], walk, depth + 1);
  }
  return obj;
}

/**
 * A root key as written at the start of a line (lastIndex): `key:`, unquoted.
 * Sticky, on the whole text, so that no line is copied out of it to be matched.
 */
const ROOT_KEY_LINE = /([^\s#'"?:,[\]{}&*!|>%@`-][^\n]*?)[ \t]*:(?:[ \t\r]|(?=\n)|$)/y;

/**
 * The keys of each document's block mapping at the root, each where it
 * stands, found in the text: a line that starts at column 1 is a root key, a
 * comment, a document marker or something else (then undefined). The caller
 * keeps a document's keys only if they are exactly its keys, in order: a
 * line inside a multi-line string that looks like a key would add one.
 */
function rootKeys(text: string): { key: string; pos: LineCol }[][] | undefined {
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

/** A refusal when the text is over the limits that bound parsing time, before any parsing. */
function sizeLimits(file: string, text: string): ParseResult | undefined {
  const refuse = (message: string, at: LineCol): ParseResult => ({
    docs: [],
    diagnostics: [{ severity: 'error', rule: 'yaml-limit', message, pos: { file, ...at } }],
    varProblems: [],
    incomplete: true,
  });
  // A text this short cannot pass any limit (an element or a nesting level
  // takes a character, a document four): most bundle files skip the scan.
  if (text.length <= MAX_FLOW_DEPTH) return undefined;
  const size = structureSize(text);
  if (size.elements > MAX_ELEMENTS || size.documents > MAX_DOCUMENTS) {
    const what =
      size.documents > MAX_DOCUMENTS
        ? `more than ${MAX_DOCUMENTS} documents`
        : `more than ${MAX_ELEMENTS} lines and list items`;
    return refuse(`file has ${what}; split it into several files`, { line: 1, col: 1 });
  }
  if (size.depth > MAX_FLOW_DEPTH)
    return refuse(`values are nested more than ${MAX_FLOW_DEPTH} levels deep`, lineColAt(text, size.offset));
  return undefined;
}

/**
 * The `yaml` library, loaded at first use: most bundles never need it (the
 * fast path takes their files), and loading it is a noticeable part of a
 * run's start-up (docs/performance.md).
 */
let yamlLib: typeof import('yaml') | undefined;
const library = (): typeof import('yaml') =>
  (yamlLib ??= createRequire(import.meta.url)('yaml') as typeof import('yaml'));

/** What the library path shares across a file's documents. */
interface LibraryRead {
  lib: typeof import('yaml');
  text: string;
  opts: ParseOptions;
  /** The line and column of an offset in the text. */
  at: (offset: number) => LineCol;
  diag: (severity: 'error' | 'warning', rule: string, message: string, pos: LineCol, hint?: string) => void;
  varProblems: VarUse[];
}

function parseWithLibrary(file: string, text: string, opts: ParseOptions): ParseResult {
  const lib = library();
  const lc = new lib.LineCounter();
  const out: ParseResult = { docs: [], diagnostics: [], varProblems: [], incomplete: false };
  const read: LibraryRead = {
    lib,
    text,
    opts,
    at: (offset) => lc.linePos(Math.max(0, Math.min(offset, text.length))),
    diag: (severity, rule, message, pos, hint) =>
      out.diagnostics.push({
        severity,
        rule,
        message,
        pos: { file, line: pos.line, col: pos.col },
        ...(hint ? { hint } : {}),
      }),
    varProblems: out.varProblems,
  };

  let parsed: Document.Parsed[];
  try {
    parsed = lib.parseAllDocuments(text, {
      lineCounter: lc,
      prettyErrors: false,
      // Duplicate keys are found by the converter with a Set: the parser's own
      // check compares each key with all earlier ones (quadratic on big maps).
      uniqueKeys: false,
      strict: true,
    });
  } catch (e) {
    // The parser recurses per nesting level; absurd nesting ends here.
    const why = e instanceof RangeError ? 'nesting too deep' : String((e as Error).message ?? e);
    read.diag('error', 'yaml-syntax', `cannot parse YAML: ${why}`, { line: 1, col: 1 });
    return { ...out, incomplete: true };
  }

  parsed.forEach((doc, index) => {
    if (!reportParserFindings(read, doc)) {
      out.incomplete = true;
      return;
    }
    const root = doc.contents;
    // An empty document (no node, or a null scalar with nothing written): skipped.
    if (root === null) return;
    const [from, to] = root.range;
    if (lib.isScalar(root) && root.value === null && root.tag === undefined && text.slice(from, to).trim() === '')
      return;
    const converter = new DocumentConverter(read, doc, index, read.at(from));
    try {
      const value = converter.convert(root, [], undefined, 0);
      out.docs.push({ index, value, positions: converter.positions });
    } catch (e) {
      if (!(e instanceof LimitExceeded)) throw e;
      out.incomplete = true;
      read.diag('error', e.rule, e.message, e.pos);
    }
  });
  return out;
}

/** The parser's errors and warnings for a document, as diagnostics; false when the document cannot be used. */
function reportParserFindings(read: LibraryRead, doc: Document.Parsed): boolean {
  let usable = doc.errors.length === 0;
  for (const e of doc.errors)
    read.diag('error', 'yaml-syntax', `YAML syntax error: ${firstLine(e.message)}`, read.at(e.pos[0]));
  for (const w of doc.warnings) {
    const pos = read.at(w.pos[0]);
    if (w.code !== 'TAG_RESOLVE_FAILED') {
      read.diag('warning', 'yaml', firstLine(w.message), pos);
      continue;
    }
    usable = false;
    const tag = read.text.slice(w.pos[0], w.pos[1]).split(/\s/)[0] ?? '';
    read.diag(
      'error',
      'yaml-tag',
      `unsupported YAML tag \`${tag}\``,
      pos,
      'Bundle files hold plain YAML data: remove the tag.',
    );
  }
  return usable;
}

/**
 * One document's node tree -> plain data, recording where each value came
 * from. Aliases are expanded (bounded: MAX_ALIAS_NODES, and no alias inside
 * its own target), as are the node count and the nesting depth; a forbidden
 * or duplicate key is reported and the rest read on.
 */
class DocumentConverter {
  readonly positions: PositionIndex;
  private nodes = 0;
  /** Nodes produced by the alias being expanded, and where the outermost one stands. */
  private aliasNodes = 0;
  private aliasDepth = 0;
  private aliasOrigin: LineCol;
  /** The alias targets being expanded, outermost first. */
  private readonly expanding = new Set<Node>();

  constructor(
    private readonly read: LibraryRead,
    private readonly doc: Document.Parsed,
    private readonly index: number,
    private readonly start: LineCol,
  ) {
    this.positions = new PositionIndex(start);
    this.aliasOrigin = start;
  }

  convert(node: unknown, path: Path, keyPos: LineCol | undefined, depth: number): unknown {
    const { lib } = this.read;
    if (++this.nodes > MAX_NODES)
      throw new LimitExceeded('yaml-limit', `the document has more than ${MAX_NODES} values`, this.start);
    if (this.aliasDepth > 0 && ++this.aliasNodes > MAX_ALIAS_NODES) {
      throw new LimitExceeded(
        'yaml-alias-limit',
        `YAML aliases expand to more than ${MAX_ALIAS_NODES} values (an alias bomb?)`,
        this.aliasOrigin,
      );
    }
    if (node === null || node === undefined) {
      // `key:` with no value: null, reported at the key.
      this.positions.set(path, { key: keyPos, value: keyPos ?? this.start });
      return null;
    }
    const n = node as Node;
    const valuePos = n.range ? this.read.at(n.range[0]) : (keyPos ?? this.start);
    if (lib.isAlias(n)) return this.alias(n, path, keyPos, valuePos, depth);
    this.positions.set(path, { key: keyPos, value: valuePos });
    if (n.tag !== undefined && !ALLOWED_TAGS.has(n.tag)) {
      const tag = n.tag.replace(/^tag:yaml\.org,2002:/, '!!');
      throw new LimitExceeded('yaml-tag', `unsupported YAML tag \`${tag}\``, valuePos);
    }
    if (lib.isScalar(n)) return this.scalar(n, path, valuePos);
    if (depth >= MAX_DEPTH)
      throw new LimitExceeded('yaml-limit', `values are nested more than ${MAX_DEPTH} levels deep`, valuePos);
    if (lib.isMap(n)) return this.map(n, path, valuePos, depth);
    if (lib.isSeq(n)) return n.items.map((item, i) => this.convert(item, [...path, i], undefined, depth + 1));
    return null;
  }

  private alias(n: Alias, path: Path, keyPos: LineCol | undefined, valuePos: LineCol, depth: number): unknown {
    const target = n.resolve(this.doc);
    if (!target || this.expanding.has(target))
      throw new LimitExceeded('yaml-alias', `alias \`*${n.source}\` cannot be resolved here`, valuePos);
    if (this.aliasDepth++ === 0) this.aliasOrigin = valuePos;
    this.expanding.add(target);
    try {
      const v = this.convert(target, path, keyPos, depth);
      this.positions.set(path, { key: keyPos, value: valuePos });
      return v;
    } finally {
      this.expanding.delete(target);
      this.aliasDepth--;
    }
  }

  private map(n: YAMLMap, path: Path, valuePos: LineCol, depth: number): Record<string, unknown> {
    const { lib, at, diag } = this.read;
    const obj: Record<string, unknown> = {};
    const seen = new Set<string>();
    for (const pair of n.items) {
      if (!lib.isPair(pair)) continue;
      const k = pair.key as Node | null;
      const kPos = k && k.range ? at(k.range[0]) : valuePos;
      if (!lib.isScalar(k) || (k.value !== null && typeof k.value === 'object')) {
        diag('error', 'yaml-key', 'keys must be plain strings', kPos);
        continue;
      }
      const key = String(k.value);
      if (seen.has(key)) {
        const hint = 'A mapping may name each key once; the later value would silently win.';
        diag('error', 'duplicate-key', `duplicate key \`${key}\``, kPos, hint);
      }
      seen.add(key);
      if (FORBIDDEN_KEYS.has(key)) {
        const hint = 'It could alter object prototypes in tools that merge this data; rename or remove it.';
        diag('error', 'forbidden-key', `key \`${key}\` is not allowed`, kPos, hint);
        continue;
      }
      const v = this.convert(pair.value, [...path, key], kPos, depth + 1);
      Object.defineProperty(obj, key, { value: v, enumerable: true, writable: true, configurable: true });
    }
    return obj;
  }

  private scalar(n: Scalar, path: Path, pos: LineCol): unknown {
    const v = n.value;
    if (typeof v === 'number' && !Number.isFinite(v)) {
      this.read.diag('error', 'yaml-number', 'numbers must be finite (`.inf` and `.nan` have no JSON form)', pos);
      return null;
    }
    if (typeof v === 'bigint') return Number(v);
    if (v !== null && typeof v === 'object')
      throw new LimitExceeded('yaml-tag', 'unsupported YAML value (not plain data)', pos);
    // Most scalars hold no variable: no result object for them.
    const { lookup } = this.read.opts;
    if (typeof v !== 'string' || !lookup || !hasVariables(v)) return v;
    // A problem is recorded at the variable's column when the scalar is on
    // one line and its style lets the column be known, else at the scalar.
    const r = interpolate(v, lookup);
    const shift = n.type === 'PLAIN' ? 0 : n.type === 'QUOTE_DOUBLE' || n.type === 'QUOTE_SINGLE' ? 1 : -1;
    for (const problem of r.problems) {
      const p = !v.includes('\n') && shift >= 0 ? { line: pos.line, col: pos.col + shift + problem.index } : pos;
      this.read.varProblems.push({ doc: this.index, path: [...path], pos: p, problem });
    }
    return r.value;
  }
}

/**
 * The YAML parser costs tens of microseconds per line or flow item, so a
 * file of a few MiB of tiny entries would take tens of seconds, and it
 * recurses per level of `[`/`{`, taking seconds on a few MiB of `[[[[`: files
 * are capped by lines + commas (a cheap upper bound of the entries), by
 * documents and by bracket depth, before parsing. Real bundle files are far
 * below all three.
 */
export const MAX_ELEMENTS = 50_000;
export const MAX_DOCUMENTS = 1_000;
export const MAX_FLOW_DEPTH = 1000;

/**
 * Elements, documents, and the deepest nesting of `[`/`{` with where it first
 * passes MAX_FLOW_DEPTH, quotes ignored (brackets in a string only ever
 * overcount, and balanced ones cancel out).
 */
function structureSize(text: string): { elements: number; documents: number; depth: number; offset: number } {
  let elements = 0;
  let documents = 0;
  let depth = 0;
  let max = 0;
  let offset = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 0x0a) {
      elements++;
      if (text.startsWith('---', i + 1)) documents++;
    } else if (c === 0x2c) elements++;
    else if (c === 0x5b || c === 0x7b) {
      if (++depth > max && max <= MAX_FLOW_DEPTH) {
        max = depth;
        offset = i;
      }
    } else if ((c === 0x5d || c === 0x7d) && depth > 0) depth--;
  }
  return { elements, documents, depth: max, offset };
}

function firstLine(s: string): string {
  return s.split('\n')[0]!.trim();
}
