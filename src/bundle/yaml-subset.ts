// A fast reader for the common subset of YAML that `wsc export` writes and
// people write by hand: documents (separated by bare `---` lines) whose roots
// are block mappings; block mappings and sequences (compact `- key: v` items
// too); single-line flow collections; plain, single- and double-quoted
// single-line scalars; literal block scalars `|` / `|-`; comments; LF or CRLF.
//
// Why: the `yaml` library (lexer, CST, composer, node objects) costs about
// half a millisecond per small file, which dominates validating a bundle of
// thousands of files. This reader builds the plain values directly, and
// positions only when they are asked for (see PositionIndex).
//
// It must give exactly what the library path of yaml-doc.ts gives (values,
// positions, variable problems) or give up: at anything outside the subset or
// doubtful (anchors, aliases, tags, directives, `...`, empty documents, tabs,
// lone CRs, multi-line plain or quoted scalars, folded, `|+` or indented-header
// block scalars, keys that are not strings, duplicate or forbidden keys,
// `.inf`/`.nan`, anything that would be a diagnostic) it returns undefined
// and the caller uses the library, which then reports whatever there is to
// report. test/bundle/yaml-subset.test.ts compares both paths on generated
// documents and on mutations of them.
import { childKey, PositionIndex, ROOT_KEY, type LineCol, type NodePos } from './positions.js';

export type ScalarStyle = 'PLAIN' | 'QUOTE_DOUBLE' | 'QUOTE_SINGLE' | 'BLOCK_LITERAL';

/** Called for every string scalar (interpolation), in document `doc`; `path` is live: copy it to keep it. */
export type OnString = (value: string, style: ScalarStyle, path: readonly (string | number)[], pos: LineCol, doc: number) => unknown;

export interface SubsetDoc {
  value: Record<string, unknown>;
  positions: PositionIndex;
}

/** Given to onString for a string without `${` when positions are not recorded: never reported. */
const NO_POS: LineCol = Object.freeze({ line: 0, col: 0 });

/** Thrown inside the reader when the text leaves the subset (a plain object: no stack trace to capture). */
const OUT = { outOfSubset: true };
const out = (): never => {
  throw OUT;
};

// Characters anywhere in the text that send it to the library: tab, a CR not
// in a CRLF line break (those are read as LF: no value or column changes), BOM,
// NEL and Unicode line separators, C0/C1 controls. (Lines starting with `...`
// or `%`, and `---` lines other than a bare separator, are found where lines start.)
// eslint-disable-next-line no-control-regex
const DOUBTFUL = /[\t\uFEFF\u0085\u2028\u2029\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F-\u009F]/;

const LONE_CR = /\r(?!\n)/;
const CRLF = /\r\n/g;

/** Keys the library path refuses (yaml-doc.ts FORBIDDEN_KEYS) or that YAML 1.1 readers treat as merges. */
const REFUSED_KEYS: ReadonlySet<string> = new Set(['__proto__', 'constructor', 'prototype', '<<']);

/** Longest implicit key the library accepts is 1024 characters; stay clear of the edge. */
const MAX_KEY_CHARS = 1000;

const NL = 10;
const SP = 32;
const HASH = 35;
const DQ = 34;
const SQ = 39;
const COLON = 58;
const DASH = 45;
const COMMA = 44;
const LBRACK = 91;
const RBRACK = 93;
const LBRACE = 123;
const RBRACE = 125;
const PIPE = 124;
const BACKSLASH = 92;

/** `?:,[]{}#&*!|>'"%@\`` : a plain scalar cannot start with these (`-` is handled apart). */
function isIndicator(c: number): boolean {
  switch (c) {
    case 63: // ?
    case COLON:
    case COMMA:
    case LBRACK:
    case RBRACK:
    case LBRACE:
    case RBRACE:
    case HASH:
    case 38: // &
    case 42: // *
    case 33: // !
    case PIPE:
    case 62: // >
    case SQ:
    case DQ:
    case 37: // %
    case 64: // @
    case 96: // `
      return true;
    default:
      return false;
  }
}

const isFlowIndicator = (c: number) => c === COMMA || c === LBRACK || c === RBRACK || c === LBRACE || c === RBRACE;

// YAML 1.2 core schema, in the library's order (yaml/dist/schema/core).
const NULL_RE = /^(?:~|[Nn]ull|NULL)?$/;
const BOOL_RE = /^(?:[Tt]rue|TRUE|[Ff]alse|FALSE)$/;
const INT_OCT_RE = /^0o[0-7]+$/;
const INT_RE = /^[-+]?[0-9]+$/;
const INT_HEX_RE = /^0x[0-9a-fA-F]+$/;
const FLOAT_NAN_RE = /^(?:[-+]?\.(?:inf|Inf|INF)|\.nan|\.NaN|\.NAN)$/;
const FLOAT_EXP_RE = /^[-+]?(?:\.[0-9]+|[0-9]+(?:\.[0-9]*)?)[eE][-+]?[0-9]+$/;
const FLOAT_RE = /^[-+]?(?:\.[0-9]+|[0-9]+\.[0-9]*)$/;

/** A plain scalar's value as the library resolves it; `.inf`/`.nan` and overflowing numbers leave the subset (the library path reports them). */
export function resolvePlain(s: string): string | number | boolean | null {
  if (s === '') return null;
  const c = s.charCodeAt(0);
  // Most plain scalars start with a letter that no tag can match: skip the tests.
  const maybeTagged =
    (c >= 48 && c <= 57) || c === 43 || c === 45 || c === 46 || c === 126 || c === 110 || c === 78 || c === 116 || c === 84 || c === 102 || c === 70;
  if (!maybeTagged) return s;
  if (NULL_RE.test(s)) return null;
  if (BOOL_RE.test(s)) return s[0] === 't' || s[0] === 'T';
  if (INT_OCT_RE.test(s)) return finite(parseInt(s.substring(2), 8));
  if (INT_RE.test(s)) return finite(parseInt(s, 10));
  if (INT_HEX_RE.test(s)) return finite(parseInt(s.substring(2), 16));
  if (FLOAT_NAN_RE.test(s)) return out();
  if (FLOAT_EXP_RE.test(s)) return finite(parseFloat(s));
  if (FLOAT_RE.test(s)) return finite(parseFloat(s));
  return s;
}

/** A literal too large for a double (1e999, 400 digits) is ±Infinity: the library path reports it. */
function finite(n: number): number {
  return Number.isFinite(n) ? n : out();
}

/**
 * Keys read lately, by first and last character and length. Bundle files
 * repeat the same keys; reusing the string already read (compared in place)
 * spares slicing, hashing and interning it again for every file.
 */
const KEY_CACHE: (string | undefined)[] = new Array<string | undefined>(1024);
function keyAt(t: string, k: number, e: number): string {
  const len = e - k;
  const slot = (t.charCodeAt(k) * 31 + t.charCodeAt(e - 1) * 7 + len) & 1023;
  const cached = KEY_CACHE[slot];
  if (cached !== undefined && cached.length === len && t.startsWith(cached, k)) return cached;
  const s = t.slice(k, e);
  KEY_CACHE[slot] = s;
  return s;
}

const ESCAPES: Record<string, string> = {
  '0': '\0',
  a: '\x07',
  b: '\b',
  e: '\x1b',
  f: '\f',
  n: '\n',
  r: '\r',
  t: '\t',
  v: '\v',
  N: '\u0085',
  _: '\u00a0',
  L: '\u2028',
  P: '\u2029',
  ' ': ' ',
  '"': '"',
  '/': '/',
  '\\': '\\',
};
const HEX_RE = /^[0-9a-fA-F]+$/;

/**
 * Reads `text` if it is in the subset; undefined otherwise (and for an empty
 * document). `maxDepth`: collections nested deeper leave the subset, so the
 * library path reports the limit.
 */
export function parseSubset(text: string, onString: OnString, maxDepth: number): SubsetDoc[] | undefined {
  if (DOUBTFUL.test(text)) return undefined;
  if (text.includes('\r')) {
    if (LONE_CR.test(text)) return undefined;
    text = text.replace(CRLF, '\n');
  }
  try {
    return new SubsetReader(text, onString, maxDepth, false).documents();
  } catch (e) {
    if (e === OUT) return undefined;
    throw e;
  }
}

const asIs: OnString = (v) => v;

class SubsetReader {
  private readonly len: number;
  /** Start of the current line; the reader moves line by line. */
  private i = 0;
  private lineNo = 1;
  private readonly path: (string | number)[] = [];
  private positions!: PositionIndex;
  /** Index of the document being read. */
  private doc = 0;

  /**
   * @param recordAll record the position of every value; otherwise only of
   * the root and its keys, and the index reads the text again, recording
   * all, when asked for another (positions are a third of the reading time,
   * and rarely used).
   */
  constructor(
    private readonly t: string,
    private readonly onString: OnString,
    private readonly maxDepth: number,
    private readonly recordAll: boolean,
  ) {
    this.len = t.length;
  }

  /**
   * Every document of the text. `fill`: read again to record all positions
   * of document `fill.doc` into `fill.into`.
   */
  documents(fill?: { doc: number; into: PositionIndex }): SubsetDoc[] {
    const docs: SubsetDoc[] = [];
    let indent = this.skipToContent();
    if (indent === 0 && this.isSeparator(this.i)) indent = this.nextDocument();
    for (;;) {
      // An empty document, or an indented root: the library decides.
      if (indent !== 0 || this.isSeparator(this.i)) return out();
      const first = this.i;
      if (this.isDashItem(first)) return out();
      const start = this.pos(first);
      const { t, maxDepth, doc } = this;
      this.positions =
        fill?.doc === doc
          ? fill.into
          : new PositionIndex(start, (into) => void new SubsetReader(t, asIs, maxDepth, true).documents({ doc, into }));
      this.positions.setKey(ROOT_KEY, { key: undefined, value: start });
      docs.push({ value: this.blockMap(0, first, ROOT_KEY, 0), positions: this.positions });
      indent = this.skipToContent();
      if (indent === -1) return docs;
      if (!this.isSeparator(this.i)) return out();
      indent = this.nextDocument();
      this.doc++;
    }
  }

  /** A line of exactly `---` at `k` (a line start): the next document. Other lines starting with a marker or a directive leave the subset. */
  private isSeparator(k: number): boolean {
    const t = this.t;
    const c = t.charCodeAt(k);
    if (c === 37) return out(); // %: a directive
    if (c !== DASH && c !== 46) return false;
    if (!(t.startsWith('---', k) || t.startsWith('...', k))) return false;
    if (c === DASH && (k + 3 >= this.len || t.charCodeAt(k + 3) === NL)) return true;
    return out(); // `...`, or `---` with something after it
  }

  /** Past a separator line: the indentation of the next content line, as skipToContent. */
  private nextDocument(): number {
    const nl = this.t.indexOf('\n', this.i);
    if (nl < 0) {
      this.i = this.len;
      return -1;
    }
    this.i = nl + 1;
    this.lineNo++;
    return this.skipToContent();
  }

  /** Whether values in a collection at `depth` get their positions recorded now. */
  private records(depth: number): boolean {
    return depth === 0 || this.recordAll;
  }

  /** onString, with the position computed only when it can be needed (a `${` to report). */
  private str(value: string, style: ScalarStyle, pos: LineCol | undefined, offset: number): unknown {
    if (pos === undefined && value.includes('${')) pos = this.pos(offset);
    return this.onString(value, style, this.path, pos ?? NO_POS, this.doc);
  }

  /** Line and column of an offset on the current line. */
  private pos(offset: number): LineCol {
    return { line: this.lineNo, col: offset - this.i + 1 };
  }

  /** Records a position: `key` is a path key (childKey) when recording all, else a key of the root. */
  private set(key: string, keyPos: LineCol | undefined, value: LineCol): void {
    const p: NodePos = { key: keyPos, value };
    if (this.recordAll) this.positions.setKey(key, p);
    else this.positions.setTop(key, p);
  }

  private isDashItem(k: number): boolean {
    if (this.t.charCodeAt(k) !== DASH) return false;
    const n = this.t.charCodeAt(k + 1);
    return n === SP || n === NL || k + 1 >= this.len;
  }

  /**
   * From the start of a line, skips blank and comment lines. Returns the
   * indentation of the next content line (the reader then stands at its
   * start), or -1 at the end of the text.
   */
  private skipToContent(): number {
    const t = this.t;
    for (;;) {
      if (this.i >= this.len) return -1;
      let k = this.i;
      while (t.charCodeAt(k) === SP) k++;
      if (k >= this.len) {
        this.i = this.len;
        return -1;
      }
      const c = t.charCodeAt(k);
      if (c !== NL && c !== HASH) return k - this.i;
      const nl = t.indexOf('\n', k);
      if (nl < 0) {
        this.i = this.len;
        return -1;
      }
      this.i = nl + 1;
      this.lineNo++;
    }
  }

  /** After a value at `k` on the current line: only spaces and a comment may follow; moves to the next line. */
  private finishLine(k: number): void {
    const t = this.t;
    const from = k;
    while (t.charCodeAt(k) === SP) k++;
    if (k < this.len) {
      const c = t.charCodeAt(k);
      if (c === HASH) {
        if (k === from && t.charCodeAt(k - 1) !== SP) out(); // `"x"#c`: the library wants a space
      } else if (c !== NL) out();
    }
    const nl = t.indexOf('\n', k);
    if (nl < 0) this.i = this.len;
    else {
      this.i = nl + 1;
      this.lineNo++;
    }
  }

  /** A block mapping at indentation `m` whose first key starts at `first` on the current line. */
  private blockMap(m: number, first: number, pkey: string, depth: number): Record<string, unknown> {
    if (depth >= this.maxDepth) out();
    const t = this.t;
    const obj: Record<string, unknown> = {};
    let k = first;
    for (;;) {
      const keyStart = k;
      let key: string;
      let afterColon: number;
      const c = t.charCodeAt(k);
      if (c === DQ || c === SQ) {
        const q = this.quoted(k);
        key = q.value;
        let j = q.end;
        while (t.charCodeAt(j) === SP) j++;
        if (t.charCodeAt(j) !== COLON) out();
        const n = t.charCodeAt(j + 1);
        if (!(n === SP || n === NL || j + 1 >= this.len)) out();
        afterColon = j + 1;
      } else {
        if (isIndicator(c) || c === DASH) out();
        const colon = this.plainKeyEnd(k);
        if (colon < 0) out();
        let e = colon;
        while (t.charCodeAt(e - 1) === SP) e--;
        const resolved = resolvePlain(keyAt(t, k, e));
        if (typeof resolved !== 'string') out();
        key = resolved as string;
        afterColon = colon + 1;
      }
      if (afterColon - keyStart > MAX_KEY_CHARS) out();
      if (REFUSED_KEYS.has(key) || Object.hasOwn(obj, key)) out();
      const rec = this.records(depth);
      this.path.push(key);
      obj[key] = this.value(afterColon, m, !rec ? '' : this.recordAll ? childKey(pkey, key) : key, depth, rec ? this.pos(keyStart) : undefined, true);
      this.path.pop();
      const ind = this.skipToContent();
      if (ind < m) return obj; // also the end of the text (-1)
      if (ind > m) out();
      if (m === 0 && this.isSeparator(this.i)) return obj; // the next document
      k = this.i + m;
    }
  }

  /**
   * Where the plain key starting at `k` ends: the offset of its `:` (followed
   * by a space or the end of the line), or -1 when the line holds no such key.
   */
  private plainKeyEnd(k: number): number {
    const t = this.t;
    for (let j = k; j < this.len; j++) {
      const c = t.charCodeAt(j);
      if (c === NL) return -1;
      if (c === COLON) {
        const n = t.charCodeAt(j + 1);
        if (n === SP || n === NL || j + 1 >= this.len) return j;
      } else if (c === HASH) {
        if (t.charCodeAt(j - 1) === SP) return -1;
      } else if (isFlowIndicator(c)) return -1;
    }
    return -1;
  }

  /** A block sequence at indentation `n` whose first `-` is at `first` on the current line. */
  private blockSeq(n: number, first: number, pkey: string, depth: number): unknown[] {
    if (depth >= this.maxDepth) out();
    const arr: unknown[] = [];
    let k = first;
    for (let idx = 0; ; idx++) {
      this.path.push(idx);
      arr.push(this.value(k + 1, n, this.recordAll ? childKey(pkey, idx) : '', depth, undefined, false));
      this.path.pop();
      const ind = this.skipToContent();
      if (ind < n) return arr;
      if (ind > n) out();
      k = this.i + n;
      if (!this.isDashItem(k)) return arr; // the mapping around it continues
    }
  }

  /**
   * The value after a mapping's `:` or a sequence's `-` at `off` on the
   * current line; `n` is the indentation of that mapping or sequence. Records
   * its position; leaves the reader at the start of a line after it.
   */
  private value(off: number, n: number, ckey: string, depth: number, keyPos: LineCol | undefined, inMap: boolean): unknown {
    const t = this.t;
    const rec = this.records(depth);
    let j = off;
    while (t.charCodeAt(j) === SP) j++;
    const c = j < this.len ? t.charCodeAt(j) : NL;
    if (c === NL || c === HASH) {
      // Nothing on this line: a block collection below, or null.
      const emptyPos = rec ? this.pos(j) : undefined;
      this.finishLine(j);
      const ind = this.skipToContent();
      if (ind >= 0) {
        const start = this.i + ind;
        const dash = this.isDashItem(start);
        if (ind > n || (inMap && ind === n && dash)) {
          if (rec) this.set(ckey, keyPos, this.pos(start));
          return dash ? this.blockSeq(ind, start, ckey, depth + 1) : this.blockMap(ind, start, ckey, depth + 1);
        }
      }
      if (rec) this.set(ckey, keyPos, emptyPos!);
      return null;
    }
    const vpos = rec ? this.pos(j) : undefined;
    if (rec) this.set(ckey, keyPos, vpos!);
    if (c === DQ || c === SQ) {
      const q = this.quoted(j);
      if (!inMap && this.colonFollows(q.end)) return this.blockMap(j - this.i, j, ckey, depth + 1);
      const v = this.str(q.value, c === DQ ? 'QUOTE_DOUBLE' : 'QUOTE_SINGLE', vpos, j);
      this.finishLine(q.end);
      return v;
    }
    if (c === LBRACK || c === LBRACE) {
      const r = this.flow(j, ckey, depth + 1);
      this.finishLine(r.end);
      return r.value;
    }
    if (c === PIPE) return this.blockLiteral(j, n, vpos ?? this.pos(j));
    if (c === DASH && this.isDashItem(j)) {
      if (inMap) out(); // `key: - x`
      return this.blockSeq(j - this.i, j, ckey, depth + 1); // `- - x`
    }
    if (isIndicator(c)) out();
    // A plain scalar to the end of the line or a comment; in a sequence item, `key: ...` starts a compact mapping.
    let k = j;
    for (; k < this.len; k++) {
      const ch = t.charCodeAt(k);
      if (ch === NL) break;
      if (ch === COLON) {
        const nx = t.charCodeAt(k + 1);
        if (nx === SP || nx === NL || k + 1 >= this.len) {
          if (inMap) out(); // `a: b: c`
          return this.blockMap(j - this.i, j, ckey, depth + 1);
        }
      } else if (ch === HASH && t.charCodeAt(k - 1) === SP) break;
    }
    let e = k;
    while (t.charCodeAt(e - 1) === SP) e--;
    const raw = resolvePlain(t.slice(j, e));
    const v = typeof raw === 'string' ? this.str(raw, 'PLAIN', vpos, j) : raw;
    this.finishLine(k);
    return v;
  }

  /** After a quoted scalar ending at `k`: `:` then a space or the end of the line (a quoted key). */
  private colonFollows(k: number): boolean {
    const t = this.t;
    while (t.charCodeAt(k) === SP) k++;
    if (t.charCodeAt(k) !== COLON) return false;
    const n = t.charCodeAt(k + 1);
    if (n === SP || n === NL || k + 1 >= this.len) return true;
    return out();
  }

  /** A single-line quoted scalar starting at `k` (its quote); `end` is just past the closing quote. */
  private quoted(k: number): { value: string; end: number } {
    const t = this.t;
    const q = t.charCodeAt(k);
    let v = '';
    let from = k + 1;
    for (let j = k + 1; j < this.len; j++) {
      const c = t.charCodeAt(j);
      if (c === NL) break;
      if (c === q) {
        if (q === SQ && t.charCodeAt(j + 1) === SQ) {
          v += t.slice(from, j + 1);
          from = ++j + 1;
          continue;
        }
        return { value: v + t.slice(from, j), end: j + 1 };
      }
      if (q === DQ && c === BACKSLASH) {
        v += t.slice(from, j);
        const e = t[j + 1];
        if (e === undefined) break;
        const simple = ESCAPES[e];
        if (simple !== undefined) {
          v += simple;
          j += 1;
        } else if (e === 'x' || e === 'u' || e === 'U') {
          const n = e === 'x' ? 2 : e === 'u' ? 4 : 8;
          const hex = t.substr(j + 2, n);
          if (hex.length !== n || !HEX_RE.test(hex)) out();
          const code = parseInt(hex, 16);
          if (code > 0x10ffff) out();
          v += String.fromCodePoint(code);
          j += 1 + n;
        } else out();
        from = j + 1;
      }
    }
    return out(); // unterminated on this line: multi-line or an error
  }

  /** A single-line flow collection starting at `k` (`[` or `{`). */
  private flow(k: number, pkey: string, depth: number): { value: unknown; end: number } {
    if (depth >= this.maxDepth) out();
    const t = this.t;
    const isMap = t.charCodeAt(k) === LBRACE;
    const close = isMap ? RBRACE : RBRACK;
    let j = k + 1;
    while (t.charCodeAt(j) === SP) j++;
    if (t.charCodeAt(j) === close) return { value: isMap ? {} : [], end: j + 1 };
    const obj: Record<string, unknown> = {};
    const arr: unknown[] = [];
    for (let idx = 0; ; idx++) {
      if (isMap) {
        const keyStart = j;
        const c = t.charCodeAt(j);
        let key: string;
        if (c === DQ || c === SQ) {
          const q = this.quoted(j);
          key = q.value;
          j = q.end;
          while (t.charCodeAt(j) === SP) j++;
          if (t.charCodeAt(j) !== COLON) out();
        } else {
          if (isIndicator(c) || c === DASH) out();
          const e = this.flowPlainEnd(j, true);
          if (t.charCodeAt(e) !== COLON) out();
          let s = e;
          while (t.charCodeAt(s - 1) === SP) s--;
          const resolved = resolvePlain(keyAt(t, j, s));
          if (typeof resolved !== 'string') out();
          key = resolved as string;
          j = e;
        }
        if (t.charCodeAt(j + 1) !== SP) out();
        j += 2;
        while (t.charCodeAt(j) === SP) j++;
        if (REFUSED_KEYS.has(key) || Object.hasOwn(obj, key)) out();
        const rec = this.recordAll;
        this.path.push(key);
        const r = this.flowNode(j, rec ? childKey(pkey, key) : '', depth, rec ? this.pos(keyStart) : undefined);
        this.path.pop();
        obj[key] = r.value;
        j = r.end;
      } else {
        this.path.push(idx);
        const r = this.flowNode(j, this.recordAll ? childKey(pkey, idx) : '', depth, undefined);
        this.path.pop();
        arr.push(r.value);
        j = r.end;
      }
      while (t.charCodeAt(j) === SP) j++;
      const c = t.charCodeAt(j);
      if (c === close) return { value: isMap ? obj : arr, end: j + 1 };
      if (c !== COMMA) out();
      j++;
      while (t.charCodeAt(j) === SP) j++;
      if (t.charCodeAt(j) === close) out(); // trailing comma
    }
  }

  /** A value inside a flow collection at `j`. */
  private flowNode(j: number, ckey: string, depth: number, keyPos: LineCol | undefined): { value: unknown; end: number } {
    const t = this.t;
    const c = t.charCodeAt(j);
    const vpos = this.recordAll ? this.pos(j) : undefined;
    if (vpos) this.set(ckey, keyPos, vpos);
    if (c === DQ || c === SQ) {
      const q = this.quoted(j);
      return { value: this.str(q.value, c === DQ ? 'QUOTE_DOUBLE' : 'QUOTE_SINGLE', vpos, j), end: q.end };
    }
    if (c === LBRACK || c === LBRACE) return this.flow(j, ckey, depth + 1);
    if (isIndicator(c)) out();
    if (c === DASH) {
      const n = t.charCodeAt(j + 1);
      if (n === SP || n === NL || isFlowIndicator(n) || j + 1 >= this.len) out();
    }
    const e = this.flowPlainEnd(j, false);
    let s = e;
    while (t.charCodeAt(s - 1) === SP) s--;
    if (s === j) out();
    const v = resolvePlain(t.slice(j, s));
    return { value: typeof v === 'string' ? this.str(v, 'PLAIN', vpos, j) : v, end: e };
  }

  /**
   * End of a plain scalar in a flow collection: at a flow indicator, or (for
   * a key) at `: `. A `:` otherwise, a `#`, or the end of the line leave the subset.
   */
  private flowPlainEnd(j: number, key: boolean): number {
    const t = this.t;
    for (; j < this.len; j++) {
      const c = t.charCodeAt(j);
      if (isFlowIndicator(c)) return j;
      if (c === COLON) {
        if (key && t.charCodeAt(j + 1) === SP) return j;
        out();
      }
      if (c === HASH || c === NL) out();
    }
    return out();
  }

  /**
   * A literal block scalar (`|` or `|-`) whose header is at `k`; `n` is the
   * indentation of the collection holding it, which its content must exceed.
   */
  private blockLiteral(k: number, n: number, vpos: LineCol): unknown {
    const t = this.t;
    let j = k + 1;
    const strip = t.charCodeAt(j) === DASH;
    if (strip) j++;
    const h = t.charCodeAt(j);
    if (!(h === SP || h === NL || j >= this.len)) out(); // `|+`, an indentation indicator, ...
    this.finishLine(j);
    const lines: string[] = [];
    let indent = -1;
    let trailingEmpty = 0;
    for (;;) {
      if (this.i >= this.len) break;
      let s = this.i;
      while (t.charCodeAt(s) === SP) s++;
      const spaces = s - this.i;
      const nl = t.indexOf('\n', s);
      const eol = nl < 0 ? this.len : nl;
      if (s === eol) {
        // A blank line: leading ones, or more spaces than the content's indentation, are the library's business.
        if (indent < 0 || spaces > indent) out();
        lines.push('');
        trailingEmpty++;
      } else {
        if (indent < 0) {
          if (spaces <= n) out(); // no content
          indent = spaces;
        } else if (spaces < indent) {
          if (spaces > n) out(); // less indented than the content but still inside the collection
          break;
        }
        lines.push(t.slice(this.i + indent, eol));
        trailingEmpty = 0;
      }
      if (nl < 0) {
        this.i = this.len;
        break;
      }
      this.i = nl + 1;
      this.lineNo++;
    }
    if (indent < 0) out();
    if (trailingEmpty > 0) lines.length -= trailingEmpty;
    const value = strip ? lines.join('\n') : `${lines.join('\n')}\n`;
    return this.str(value, 'BLOCK_LITERAL', vpos, -1);
  }
}
