// Documents written for the reader's property tests (parse.property.test.ts):
// strings that other YAML versions or careless writers read as something
// else, and documents in block and flow style, with comments, blank lines
// and several documents per file, each written with the line and column of
// every key and list item it holds.
import fc from 'fast-check';
import type { Path } from '../../src/yaml/positions.js';

/** Strings another YAML version, or a careless writer, would read as something else. */
export const lookalikes = [
  '1_000',
  '0b1',
  '2024-01-01',
  '2024-01-01T10:00:00Z',
  'yes',
  'no',
  'on',
  'off',
  'y',
  '~',
  'null',
  'NULL',
  'true',
  'False',
  '0o17',
  '0o8',
  '0x1F',
  '0xG',
  '1e3',
  '.5',
  '+.5',
  '1.',
  '-0',
  '007',
  '.inf',
  '-.Inf',
  '.nan',
  '12345678901234567890',
  '1:20',
  '<<',
  '=',
  '',
  ' ',
  '- a',
  '? x',
  ': y',
  '#',
  'a #b',
  '&a',
  '*a',
  '!tag',
  '!!binary x',
  '|',
  '>',
  '%YAML',
  '@',
  '`',
  '"',
  "'",
  '[x]',
  '{y}',
  'a: b',
  '${vars.n}',
  '$${x}',
  '---',
  '...',
  'a\n',
  '\n\n x',
  '  lead',
  'trail  ',
  '\t',
  '\u2028',
  'é',
  '😀',
];

export type Tree = string | number | boolean | null | Tree[] | { [k: string]: Tree };
const scalar: fc.Arbitrary<Tree> = fc.oneof(
  fc.constantFrom(...lookalikes, 'x', 'hello world', 'orders.m2', 'a-b', 'line one\nline two\n'),
  fc.integer({ min: -1000, max: 1000 }),
  fc.constantFrom(true, false, null, 1.5, -0.25),
);
const treeKey = fc.constantFrom(
  'kind',
  'slug',
  'name',
  'a',
  'b',
  'b c',
  '$report',
  'x-y',
  '1',
  'true',
  'null',
  '',
  'a:b',
  '#x',
  "it's",
  'q"q',
  'é',
  '<<',
  'k ',
);
const tree: fc.Arbitrary<Tree> = fc.letrec<{ t: Tree }>((tie) => ({
  t: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    scalar,
    fc.array(tie('t'), { maxLength: 4 }),
    fc.dictionary(treeKey, tie('t'), { maxKeys: 4 }),
  ),
})).t;
const rootTree = fc.dictionary(treeKey, tree, { minKeys: 1, maxKeys: 5 });

interface Expected {
  doc: number;
  path: Path;
  at: 'key' | 'value';
  line: number;
  col: number;
}

/** A small deterministic random source for the writing choices. */
function rng(seed: number) {
  let s = seed >>> 0 || 1;
  const next = () => {
    s ^= s << 13;
    s >>>= 0;
    s ^= s >>> 17;
    s ^= s << 5;
    s >>>= 0;
    return s / 0x100000000;
  };
  return { chance: (p: number) => next() < p, pick: <T>(xs: readonly T[]): T => xs[Math.floor(next() * xs.length)]! };
}
type R = ReturnType<typeof rng>;

const isObj = (v: Tree): v is { [k: string]: Tree } => v !== null && typeof v === 'object' && !Array.isArray(v);
const PLAIN_SAFE = /^[A-Za-z_$][A-Za-z0-9_.$-]*(?: [A-Za-z0-9_.$-]+)*$/;
const RESERVED = /^(?:true|false|null)$/i;

/** Text that writes a document, recording the line and column of what it writes. */
class Writer {
  text = '';
  line = 1;
  col = 1;
  readonly expected: Expected[] = [];
  constructor(
    readonly r: R,
    readonly doc: number,
  ) {}

  put(s: string): void {
    for (const ch of s) {
      if (ch === '\n') {
        this.line++;
        this.col = 1;
      } else this.col += ch.length;
    }
    this.text += s;
  }

  mark(path: Path, at: 'key' | 'value'): void {
    this.expected.push({ doc: this.doc, path, at, line: this.line, col: this.col });
  }

  scalar(v: string | number | boolean | null, inFlow: boolean): string {
    if (typeof v !== 'string') return v === null && this.r.chance(0.5) ? '~' : String(v);
    if (PLAIN_SAFE.test(v) && !RESERVED.test(v) && this.r.chance(0.7)) return v;
    // eslint-disable-next-line no-control-regex
    if (!/[\n\u0000-\u001f\u2028\u0085\\]/.test(v) && this.r.chance(0.4)) return `'${v.replace(/'/g, "''")}'`;
    void inFlow;
    return JSON.stringify(v).replace(/\u2028/g, '\\u2028');
  }

  comment(): string {
    return this.r.chance(0.15) ? this.r.pick([' # c', '  #c', ' #']) : '';
  }

  /** Blank lines and comment lines at any indentation, between entries. */
  between(): void {
    // At the first column: indented, it would be a line of a block scalar before it.
    if (this.r.chance(0.1)) this.put(this.r.pick(['\n', '# note\n']));
  }

  flow(v: Tree, path: Path): void {
    if (Array.isArray(v)) {
      this.put('[');
      v.forEach((x, i) => {
        if (i > 0) this.put(this.r.pick([', ', ',']));
        this.mark([...path, i], 'value');
        this.flow(x, [...path, i]);
      });
      this.put(']');
    } else if (isObj(v)) {
      this.put(this.r.pick(['{ ', '{']));
      Object.entries(v).forEach(([k, x], i) => {
        if (i > 0) this.put(', ');
        this.mark([...path, k], 'key');
        this.put(`${this.scalar(k, true)}: `);
        this.flow(x, [...path, k]);
      });
      this.put(this.r.pick([' }', '}']));
    } else if (typeof v === 'string' && v.includes('\n')) this.put(JSON.stringify(v));
    else this.put(this.scalar(v, true));
  }

  /** `v` as the value of a key or item at `indent`, from right after `key:` / `-`. */
  value(v: Tree, path: Path, indent: number, inSeq: boolean): void {
    const step = this.r.pick([1, 2, 2, 4]);
    const empty = (Array.isArray(v) && v.length === 0) || (isObj(v) && Object.keys(v).length === 0);
    if ((Array.isArray(v) || isObj(v)) && !empty && !this.r.chance(0.25)) {
      if (inSeq) {
        // Compact: `- key: v` / `- - x`, the item starting where its first entry does.
        this.put(' ');
        if (Array.isArray(v)) this.seq(v, path, this.col - 1, true);
        else this.map(v, path, this.col - 1, true);
        return;
      }
      this.put(`${this.comment()}\n`);
      this.between();
      const inner = Array.isArray(v) && this.r.chance(0.3) ? indent : indent + step;
      if (Array.isArray(v)) this.seq(v, path, inner, false);
      else this.map(v, path, inner, false);
      return;
    }
    if (typeof v === 'string' && v.endsWith('\n') && !v.slice(0, -1).includes('\n\n') && /^\S/.test(v)) {
      this.put(' ');
      if (inSeq) this.mark(path, 'value');
      this.put(`|${this.comment()}\n`);
      for (const l of v.slice(0, -1).split('\n')) this.put(`${' '.repeat(indent + step)}${l}\n`);
      return;
    }
    this.put(' ');
    if (inSeq) this.mark(path, 'value');
    this.flow(v, path);
    this.put(`${this.comment()}\n`);
  }

  map(m: { [k: string]: Tree }, path: Path, indent: number, compact: boolean): void {
    Object.entries(m).forEach(([k, v], i) => {
      if (i > 0 || !compact) {
        if (i > 0) this.between();
        this.put(' '.repeat(indent));
      }
      this.mark([...path, k], 'key');
      this.put(`${this.scalar(k, false)}:`);
      this.value(v, [...path, k], indent, false);
    });
  }

  seq(a: Tree[], path: Path, indent: number, compact: boolean): void {
    a.forEach((v, i) => {
      if (i > 0 || !compact) {
        if (i > 0) this.between();
        this.put(' '.repeat(indent));
      }
      this.put('-');
      this.value(v, [...path, i], indent, true);
    });
  }
}

export const written = fc
  .tuple(fc.array(rootTree, { minLength: 1, maxLength: 3 }), fc.integer(), fc.boolean())
  .map(([docs, seed, crlf]) => {
    const r = rng(seed);
    let text = r.chance(0.3) ? '# yaml-language-server: $schema=../schemas/report.schema.json\n' : '';
    const expected: Expected[] = [];
    let line = text === '' ? 1 : 2;
    docs.forEach((t, doc) => {
      if (doc > 0 || r.chance(0.2)) {
        text += '---\n';
        line++;
      }
      const w = new Writer(r, doc);
      w.map(t, [], 0, false);
      for (const e of w.expected) expected.push({ ...e, line: e.line + line - 1 });
      text += w.text;
      line += w.line - 1;
    });
    return { docs, text: crlf ? text.replace(/\n/g, '\r\n') : text, expected };
  });
