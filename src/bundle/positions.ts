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
}

export class PositionIndex {
  private readonly map = new Map<string, NodePos>();
  /** Positions of the root's keys, by key (a reader's cheap record: no path key to build). */
  private readonly top = new Map<string, NodePos>();

  /**
   * `fill`, when given, records the positions not recorded yet; it runs at
   * the first lookup the recorded ones cannot answer. The fast YAML reader
   * records only the top-level keys while loading (what a valid bundle
   * needs) and reads a file again for the rest, when a problem is reported.
   */
  constructor(
    readonly start: LineCol,
    private fill?: (index: PositionIndex) => void,
  ) {}

  set(path: Path, pos: NodePos): void {
    this.map.set(keyOf(path), pos);
  }

  /** `set` for a parser that builds the key while it descends (see childKey), without a path array per value. */
  setKey(key: string, pos: NodePos): void {
    this.map.set(key, pos);
  }

  /** The position of the root's key `key` and its value. */
  setTop(key: string, pos: NodePos): void {
    this.top.set(key, pos);
  }

  get(path: Path): NodePos | undefined {
    if (path.length === 1 && typeof path[0] === 'string') {
      const p = this.top.get(path[0]);
      if (p !== undefined) return p;
    }
    const key = keyOf(path);
    const p = this.map.get(key);
    if (p !== undefined || this.fill === undefined) return p;
    this.complete();
    return this.map.get(key);
  }

  /** Every recorded position, by key (tests, debugging). */
  entries(): [string, NodePos][] {
    this.complete();
    const all = new Map(this.map);
    for (const [k, p] of this.top) if (!all.has(childKey(ROOT_KEY, k))) all.set(childKey(ROOT_KEY, k), p);
    return [...all.entries()];
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

/**
 * What JSON.stringify escapes in a string (quote, backslash, controls, lone
 * surrogates); other keys are quoted directly.
 */
// eslint-disable-next-line no-control-regex
const NEEDS_ESCAPE = /["\\\u0000-\u001F\uD800-\uDFFF]/;

/** The key of the document root. */
export const ROOT_KEY = '';

/**
 * The key of `path` extended by `seg`: the path's JSON without its brackets
 * (`"meta","widgets",0`), so it can be built one segment at a time. JSON
 * quoting keeps it unambiguous (`"1"` is not `1`, a comma in a key is quoted).
 */
export function childKey(parent: string, seg: string | number): string {
  const s = typeof seg === 'number' ? String(seg) : NEEDS_ESCAPE.test(seg) ? JSON.stringify(seg) : `"${seg}"`;
  return parent === ROOT_KEY ? s : `${parent},${s}`;
}

function keyOf(path: Path): string {
  let key = ROOT_KEY;
  for (const seg of path) key = childKey(key, seg);
  return key;
}
