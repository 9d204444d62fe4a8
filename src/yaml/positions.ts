// Where each value of a YAML document came from, by path, so that a problem
// found on plain data (a zod issue, a cross-file check) can be reported at
// the key or value that caused it.

export type Path = readonly (string | number)[];
export interface LineCol {
  line: number;
  col: number;
}
export interface NodePos {
  /** The key of the mapping entry holding the value (absent for the root and sequence items). */
  key?: LineCol;
  value: LineCol;
  /** A tag that is not plain data, where it is written. */
  tag?: LineCol;
  /**
   * A string scalar holding `${`: how far its first character is from the
   * value's position (a quote: 1), when a variable's column can be known from
   * its index in the value (one line, plain or quoted).
   */
  shift?: number;
}

export class PositionIndex {
  /**
   * Made at the first position set: a document whose positions are never looked up past its root
   * keys has none (thousands of documents are kept until the run ends).
   */
  private map: Map<string, NodePos> | undefined;
  /** Positions of the root's keys alone (the key, not the value): what a valid bundle needs of every document. */
  private readonly topKeys = new Map<string, LineCol>();

  /**
   * `fill`, when given, records the positions not recorded yet; it runs at
   * the first lookup the recorded ones cannot answer. The reader records
   * only the root's keys (or nothing) while loading, and the file is read
   * again for positions when a problem is to be reported.
   */
  constructor(
    private startPos: LineCol | undefined,
    private fill?: (index: PositionIndex) => void,
  ) {}

  /** Where the document's root node starts. */
  get start(): LineCol {
    if (this.startPos === undefined) this.complete();
    return this.startPos ?? { line: 1, col: 1 };
  }

  set start(pos: LineCol) {
    this.startPos = pos;
  }

  set(path: Path, pos: NodePos): void {
    (this.map ??= new Map()).set(keyOf(path), pos);
  }

  /** `set` with the key of the path already built (a key of `entries()`). */
  setByKey(key: string, pos: NodePos): void {
    (this.map ??= new Map()).set(key, pos);
  }

  /** The position of the root's key `key` (its value's position is left to `fill`). */
  setTopKey(key: string, pos: LineCol): void {
    this.topKeys.set(key, pos);
  }

  /** The position of the root's key `key`, or of the document when there is no such key. */
  topKey(key: string): LineCol {
    return this.topKeys.get(key) ?? this.get([key])?.key ?? this.start;
  }

  get(path: Path): NodePos | undefined {
    const key = keyOf(path);
    const p = this.map?.get(key);
    if (p !== undefined || this.fill === undefined) return p;
    this.complete();
    return this.map?.get(key);
  }

  /** Every recorded position, by key. */
  entries(): [string, NodePos][] {
    this.complete();
    return [...(this.map?.entries() ?? [])];
  }

  private complete(): void {
    const fill = this.fill;
    this.fill = undefined;
    fill?.(this);
  }

  /**
   * The position to report for `path`: its key (`at: 'key'`) or its value,
   * falling back to the nearest ancestor that exists (a missing key is
   * reported at the key of the mapping that lacks it).
   */
  find(path: Path, at: 'key' | 'value'): LineCol {
    const exact = this.get(path);
    if (exact) return at === 'key' ? (exact.key ?? exact.value) : exact.value;
    for (let n = path.length - 1; n >= 0; n--) {
      const p = this.get(path.slice(0, n));
      if (p) return p.key ?? p.value;
    }
    return this.start;
  }
}

/** The map's key of a path: its JSON, unambiguous (`"1"` is not `1`, a comma in a key is quoted). */
function keyOf(path: Path): string {
  return JSON.stringify(path);
}

/**
 * The one conversion of offsets in a file's text to 1-based lines and columns (every position wsc reports):
 * a table of where lines start, asked by binary search, for the many nodes of a file.
 */
export function lineCols(text: string): (offset: number) => LineCol {
  const starts = [0];
  for (let i = text.indexOf('\n'); i !== -1; i = text.indexOf('\n', i + 1)) starts.push(i + 1);
  return (offset) => {
    let [lo, hi] = [0, starts.length - 1];
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (starts[mid]! <= offset) lo = mid;
      else hi = mid - 1;
    }
    return { line: lo + 1, col: offset - starts[lo]! + 1 };
  };
}

/** The line and column of `offset` in `text`. */
export function lineColAt(text: string, offset: number): LineCol {
  return lineCols(text)(offset);
}

/** The offset where the line holding `offset` starts (a column counted from 0 is `offset` less it). */
export function lineStartAt(text: string, offset: number): number {
  // lastIndexOf takes a negative start as 0, where a line feed is no line's start before it.
  return offset <= 0 ? 0 : text.lastIndexOf('\n', offset - 1) + 1;
}

/** The offset of a 1-based line and column in `text` (lineColAt's inverse). */
export function offsetAt(text: string, pos: LineCol): number {
  let offset = 0;
  for (let line = 1; line < pos.line; line++) {
    const nl = text.indexOf('\n', offset);
    if (nl === -1) return text.length;
    offset = nl + 1;
  }
  return Math.min(text.length, offset + pos.col - 1);
}

/** The text from a 1-based line and column to the end of that line (its line break left out). */
export function restOfLine(text: string, pos: LineCol): string {
  const from = offsetAt(text, pos);
  const eol = text.indexOf('\n', from);
  return text.slice(from, eol === -1 ? undefined : eol);
}
