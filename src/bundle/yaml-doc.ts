// YAML text -> plain data with positions. wsc converts the YAML node tree
// itself rather than calling `toJS()`, so that it can (1) remember where
// every value came from, (2) interpolate variables scalar by scalar with a
// position for each problem, (3) refuse keys that could reach an object's
// prototype, and (4) bound alias expansion, nesting and node counts, so a
// hostile file costs bounded time and memory.
import { createRequire } from 'node:module';
import type { Document, Node, Scalar } from 'yaml';
import type { Diagnostic } from '../errors.js';
import { FORBIDDEN_KEYS } from '../domain/forbidden-keys.js';
import { hasVariables, interpolate, type VarLookup, type VarProblem } from '../config/variables.js';
import { PositionIndex, type LineCol, type Path } from './positions.js';
import { parseSubset, type OnString } from './yaml-subset.js';

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
const ALLOWED_TAGS: ReadonlySet<string> = new Set(
  ['!', ...['str', 'int', 'float', 'bool', 'null', 'map', 'seq'].map((t) => `tag:yaml.org,2002:${t}`)],
);

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
  // Most bundle files are in the subset the fast reader handles; it gives up
  // (undefined) on anything else, and the library path below decides.
  const varProblems: VarUse[] = [];
  const lookup = opts.lookup;
  const onString: OnString = lookup ? (v, style, path, pos, doc) => interpolateScalar(v, style, path, pos, doc, lookup, varProblems) : (v) => v;
  const fast = parseSubset(text, onString, MAX_DEPTH - 1);
  if (fast) return { docs: fast.map((d, index) => ({ index, value: d.value, positions: d.positions })), diagnostics: [], varProblems, incomplete: false };
  return parseWithLibrary(file, text, opts);
}

/** parseYaml without the fast reader: the reference it is tested against. */
export function parseYamlWithLibrary(file: string, text: string, opts: ParseOptions = {}): ParseResult {
  return sizeLimits(file, text) ?? parseWithLibrary(file, text, opts);
}

/** A refusal when the text is over the limits that bound parsing time, before any parsing. */
function sizeLimits(file: string, text: string): ParseResult | undefined {
  const refuse = (message: string, line: number, col: number): ParseResult => ({
    docs: [],
    diagnostics: [{ severity: 'error', rule: 'yaml-limit', message, pos: { file, line, col } }],
    varProblems: [],
    incomplete: true,
  });
  // A text this short cannot pass either limit (an element takes a character,
  // a document four): most bundle files skip the scan.
  const size = text.length <= Math.min(MAX_ELEMENTS, 4 * MAX_DOCUMENTS) ? { elements: 0, documents: 0 } : structureSize(text);
  if (size.elements > MAX_ELEMENTS || size.documents > MAX_DOCUMENTS) {
    const what = size.documents > MAX_DOCUMENTS ? `more than ${MAX_DOCUMENTS} documents` : `more than ${MAX_ELEMENTS} lines and list items`;
    return refuse(`file has ${what}; split it into several files`, 1, 1);
  }
  const flowDepth = text.length <= MAX_FLOW_DEPTH ? { depth: 0, offset: 0 } : maxBracketDepth(text);
  if (flowDepth.depth > MAX_FLOW_DEPTH) {
    const before = text.slice(0, flowDepth.offset);
    const line = before.split('\n').length;
    return refuse(`values are nested more than ${MAX_FLOW_DEPTH} levels deep`, line, flowDepth.offset - before.lastIndexOf('\n'));
  }
  return undefined;
}

/**
 * A string scalar with `${...}` interpolated; problems are recorded at the
 * variable's column when the scalar is on one line and its style lets the
 * column be known, else at the scalar.
 */
function interpolateScalar(v: string, style: string | undefined, path: Path, pos: LineCol, doc: number, lookup: VarLookup, varProblems: VarUse[]): unknown {
  // Most scalars hold no variable: no result object for them.
  if (!hasVariables(v)) return v;
  const r = interpolate(v, lookup);
  if (!r.changed) return v;
  const singleLine = !v.includes('\n');
  const shift = style === 'PLAIN' ? 0 : style === 'QUOTE_DOUBLE' || style === 'QUOTE_SINGLE' ? 1 : -1;
  for (const problem of r.problems) {
    const p = singleLine && shift >= 0 ? { line: pos.line, col: pos.col + shift + problem.index } : pos;
    varProblems.push({ doc, path: [...path], pos: p, problem });
  }
  return r.value;
}

/**
 * The `yaml` library, loaded at first use: most bundles never need it (the
 * fast reader takes their files), and loading it costs about 40 ms.
 */
let yamlLib: typeof import('yaml') | undefined;
const library = (): typeof import('yaml') => (yamlLib ??= createRequire(import.meta.url)('yaml') as typeof import('yaml'));

function parseWithLibrary(file: string, text: string, opts: ParseOptions): ParseResult {
  const { isAlias, isMap, isPair, isScalar, isSeq, LineCounter, parseAllDocuments } = library();
  const lc = new LineCounter();
  const diagnostics: Diagnostic[] = [];
  const varProblems: VarUse[] = [];
  const docs: ParsedDoc[] = [];
  let incomplete = false;
  const at = (offset: number): LineCol => lc.linePos(Math.max(0, Math.min(offset, text.length)));
  const diag = (severity: 'error' | 'warning', rule: string, message: string, pos: LineCol, hint?: string) =>
    diagnostics.push({ severity, rule, message, pos: { file, line: pos.line, col: pos.col }, ...(hint ? { hint } : {}) });

  let parsed: Document.Parsed[];
  try {
    parsed = parseAllDocuments(text, { lineCounter: lc, prettyErrors: false, // Duplicate keys are found by the converter with a Set: the parser's own
    // check compares each key with all earlier ones (quadratic on big maps).
    uniqueKeys: false, strict: true }) as Document.Parsed[];
    if (!Array.isArray(parsed)) parsed = [];
  } catch (e) {
    // The parser recurses per nesting level; absurd nesting ends here.
    diag('error', 'yaml-syntax', `cannot parse YAML: ${e instanceof RangeError ? 'nesting too deep' : String((e as Error).message ?? e)}`, { line: 1, col: 1 });
    return { docs, diagnostics, varProblems, incomplete: true };
  }

  parsed.forEach((doc, index) => {
    let fatal = false;
    for (const e of doc.errors) {
      const pos = at(e.pos[0]);
      if (e.code === 'DUPLICATE_KEY') {
        const m = /^("[^"\n]*"|'[^'\n]*'|[^:\n]+?)\s*:/.exec(text.slice(e.pos[0], e.pos[0] + 200));
        const key = (m?.[1] ?? text.slice(e.pos[0], e.pos[1])).trim();
        diag('error', 'duplicate-key', `duplicate key \`${key}\``, pos, 'A mapping may name each key once; the later value would silently win.');
      } else {
        fatal = true;
        diag('error', 'yaml-syntax', `YAML syntax error: ${firstLine(e.message)}`, pos);
      }
    }
    for (const w of doc.warnings) {
      const pos = at(w.pos[0]);
      if (w.code === 'TAG_RESOLVE_FAILED') {
        fatal = true;
        const tag = text.slice(w.pos[0], w.pos[1]).split(/\s/)[0] ?? '';
        diag('error', 'yaml-tag', `unsupported YAML tag \`${tag}\``, pos, 'Bundle files hold plain YAML data: remove the tag.');
      } else {
        diag('warning', 'yaml', firstLine(w.message), pos);
      }
    }
    if (fatal) {
      incomplete = true;
      return;
    }
    const root = doc.contents;
    if (root === null || (isScalar(root) && root.value === null && root.tag === undefined && isBlank(text, root.range))) return;
    const start = at(root.range[0]);
    const positions = new PositionIndex(start);
    const state = { nodes: 0, aliasNodes: 0, aliasDepth: 0, aliasOrigin: start, stack: new Set<Node>() };

    const convert = (node: unknown, path: (string | number)[], keyPos: LineCol | undefined, depth: number): unknown => {
      if (++state.nodes > MAX_NODES) throw new LimitExceeded('yaml-limit', `the document has more than ${MAX_NODES} values`, start);
      if (state.aliasDepth > 0 && ++state.aliasNodes > MAX_ALIAS_NODES) {
        throw new LimitExceeded('yaml-alias-limit', `YAML aliases expand to more than ${MAX_ALIAS_NODES} values (an alias bomb?)`, state.aliasOrigin);
      }
      if (node === null || node === undefined) {
        // `key:` with no value: null, reported at the key.
        const p = keyPos ?? start;
        positions.set(path, { key: keyPos, value: p });
        return null;
      }
      const n = node as Node;
      const valuePos = n.range ? at(n.range[0]) : (keyPos ?? start);
      if (isAlias(n)) {
        const target = n.resolve(doc);
        if (!target || state.stack.has(target)) {
          throw new LimitExceeded('yaml-alias', `alias \`*${n.source}\` cannot be resolved here`, valuePos);
        }
        if (state.aliasDepth++ === 0) state.aliasOrigin = valuePos;
        state.stack.add(target);
        try {
          const v = convert(target, path, keyPos, depth);
          positions.set(path, { key: keyPos, value: valuePos });
          return v;
        } finally {
          state.stack.delete(target);
          state.aliasDepth--;
        }
      }
      positions.set(path, { key: keyPos, value: valuePos });
      if (n.tag !== undefined && !ALLOWED_TAGS.has(n.tag)) {
        throw new LimitExceeded('yaml-tag', `unsupported YAML tag \`${n.tag.replace(/^tag:yaml\.org,2002:/, '!!')}\``, valuePos);
      }
      if (isScalar(n)) return scalar(n, path, valuePos);
      if (depth >= MAX_DEPTH) throw new LimitExceeded('yaml-limit', `values are nested more than ${MAX_DEPTH} levels deep`, valuePos);
      if (isMap(n)) {
        const obj: Record<string, unknown> = {};
        const seen = new Set<string>();
        for (const pair of n.items) {
          if (!isPair(pair)) continue;
          const k = pair.key as Node | null;
          const kPos = k && k.range ? at(k.range[0]) : valuePos;
          if (!isScalar(k) || (k.value !== null && typeof k.value === 'object')) {
            diag('error', 'yaml-key', 'keys must be plain strings', kPos);
            continue;
          }
          const key = String(k.value);
          if (seen.has(key)) {
            diag('error', 'duplicate-key', `duplicate key \`${key}\``, kPos, 'A mapping may name each key once; the later value would silently win.');
          }
          seen.add(key);
          if (FORBIDDEN_KEYS.has(key)) {
            diag('error', 'forbidden-key', `key \`${key}\` is not allowed`, kPos, 'It could alter object prototypes in tools that merge this data; rename or remove it.');
            continue;
          }
          const v = convert(pair.value, [...path, key], kPos, depth + 1);
          Object.defineProperty(obj, key, { value: v, enumerable: true, writable: true, configurable: true });
        }
        return obj;
      }
      if (isSeq(n)) {
        return n.items.map((item, i) => convert(item, [...path, i], undefined, depth + 1));
      }
      return null;
    };

    const scalar = (n: Scalar, path: Path, pos: LineCol): unknown => {
      const v = n.value;
      if (typeof v === 'number' && !Number.isFinite(v)) {
        diag('error', 'yaml-number', 'numbers must be finite (`.inf` and `.nan` have no JSON form)', pos);
        return null;
      }
      if (typeof v === 'bigint') return Number(v);
      if (v !== null && typeof v === 'object') throw new LimitExceeded('yaml-tag', 'unsupported YAML value (not plain data)', pos);
      if (typeof v !== 'string' || !opts.lookup) return v;
      return interpolateScalar(v, n.type, path, pos, index, opts.lookup, varProblems);
    };

    try {
      const value = convert(root, [], undefined, 0);
      docs.push({ index, value, positions });
    } catch (e) {
      if (!(e instanceof LimitExceeded)) throw e;
      incomplete = true;
      diag('error', e.rule, e.message, e.pos);
    }
  });
  return { docs, diagnostics, varProblems, incomplete };
}

/**
 * The YAML parser costs tens of microseconds per line or flow item, so a
 * file of a few MiB of tiny entries would take tens of seconds: files are
 * capped by lines + commas (a cheap upper bound of the entries) and by
 * documents, before parsing. Real bundle files are far below both.
 */
export const MAX_ELEMENTS = 50_000;
export const MAX_DOCUMENTS = 1_000;
function structureSize(text: string): { elements: number; documents: number } {
  let elements = 0;
  let documents = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 0x0a) {
      elements++;
      if (text.startsWith('---', i + 1)) documents++;
    } else if (c === 0x2c) elements++;
  }
  return { elements, documents };
}

/**
 * Deepest nesting of `[`/`{` in the text, quotes ignored (brackets in a
 * string only ever overcount, and balanced ones cancel out). The YAML parser
 * recurses per level and takes seconds on a few MiB of `[[[[`, so such text
 * is refused before parsing.
 */
export const MAX_FLOW_DEPTH = 1000;
function maxBracketDepth(text: string): { depth: number; offset: number } {
  let depth = 0;
  let max = 0;
  let offset = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 0x5b || c === 0x7b) {
      if (++depth > max) {
        max = depth;
        offset = i;
        if (max > MAX_FLOW_DEPTH) break;
      }
    } else if ((c === 0x5d || c === 0x7d) && depth > 0) depth--;
  }
  return { depth: max, offset };
}

function firstLine(s: string): string {
  return s.split('\n')[0]!.trim();
}

function isBlank(text: string, range: readonly number[] | undefined): boolean {
  if (!range) return true;
  return text.slice(range[0], range[1]).trim() === '';
}
