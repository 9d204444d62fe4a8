// Properties of the one YAML reader (yaml/parse.ts), on generated texts:
// (1) what the bundle writer writes reads back as the same data;
// (2) every key and list item of a generated document gets the position it
//     was written at (lazily, through the `yaml` library's node tree);
// (3) damaged and random texts never throw, end in values or diagnostics at
//     valid positions, and read the same twice.
// Counts through runs(); the seed is fixed in `npm test` (test/helpers/property.ts).
import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import type { JsonValue } from '../../src/core/model.js';
import { toYaml } from '../../src/bundle/write.js';
import { parseYaml, type ParseResult } from '../../src/yaml/parse.js';
import type { Path } from '../../src/yaml/positions.js';
import type { VarLookup } from '../../src/yaml/variables.js';
import { runs } from '../helpers/property.js';

const FORBIDDEN = ['__proto__', 'constructor', 'prototype'];

/** Strings another YAML version, or a careless writer, would read as something else. */
const lookalikes = [
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

// ---------------------------------------------------------------------------
// (1) writer -> reader

const str = fc.oneof(
  fc.constantFrom(...lookalikes),
  fc.string({ maxLength: 12 }),
  fc.string({ unit: 'grapheme', maxLength: 6 }),
);
const key = str.filter((k) => !FORBIDDEN.includes(k));
const json: fc.Arbitrary<JsonValue> = fc.letrec<{ v: JsonValue }>((tie) => ({
  v: fc.oneof(
    { depthSize: 'small' },
    str,
    fc.double({ noNaN: true, noDefaultInfinity: true }),
    fc.integer(),
    fc.boolean(),
    fc.constant(null),
    fc.array(tie('v'), { maxLength: 4 }),
    fc.dictionary(key, tie('v'), { maxKeys: 4 }),
  ),
})).v;

describe('(1) what the bundle writer writes reads back as the same data', () => {
  test('block and flow style, key order kept', () => {
    fc.assert(
      fc.property(fc.dictionary(key, json, { minKeys: 1, maxKeys: 6 }), fc.boolean(), (doc, flow) => {
        const text = toYaml(doc, { flow });
        const r = parseYaml('f.yaml', text);
        expect(r.diagnostics, text).toEqual([]);
        expect(r.docs.map((d) => d.value)).toEqual([doc]);
        expect(JSON.stringify(r.docs[0]!.value)).toBe(JSON.stringify(doc));
      }),
      { numRuns: runs(400) },
    );
  });
});

// ---------------------------------------------------------------------------
// (2) positions: documents written here, with where each key and item went.

type Tree = string | number | boolean | null | Tree[] | { [k: string]: Tree };
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
      else this.map(v as { [k: string]: Tree }, path, inner, false);
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

const written = fc
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

describe('(2) every key and item of a generated document gets the position it was written at', () => {
  test('positions of keys and list items, looked up after loading', () => {
    fc.assert(
      fc.property(written, ({ docs, text, expected }) => {
        const r = parseYaml('f.yaml', text);
        expect(r.diagnostics, text).toEqual([]);
        expect(r.docs.map((d) => d.value)).toEqual(docs);
        for (const e of expected) {
          const positions = r.docs.find((d) => d.index === e.doc)!.positions;
          const where = `${JSON.stringify(text)} doc ${e.doc} ${JSON.stringify(e.path)} ${e.at}`;
          if (e.path.length === 1 && e.at === 'key')
            expect(positions.topKey(String(e.path[0])), where).toEqual({ line: e.line, col: e.col });
          expect(positions.find(e.path, e.at), where).toEqual({ line: e.line, col: e.col });
        }
      }),
      { numRuns: runs(300) },
    );
  });
});

// ---------------------------------------------------------------------------
// (3) damaged and random texts

const tricky = [
  '',
  ' ',
  '\n',
  ':',
  ': ',
  '-',
  '- ',
  '#',
  '"',
  "'",
  '[',
  ']',
  '{',
  '}',
  ',',
  '|',
  '>',
  '&a ',
  '*a',
  '!t ',
  '!!binary ',
  '? ',
  '\t',
  '\r',
  '---\n',
  '...\n',
  '\\',
  '${',
  '${vars.nope}',
  '__proto__: ',
  '<<: ',
];
const mutated = (base: fc.Arbitrary<string>) =>
  fc
    .tuple(base, fc.array(fc.tuple(fc.nat(), fc.nat(3), fc.constantFrom(...tricky)), { minLength: 1, maxLength: 3 }))
    .map(([text, edits]) => {
      let t = text;
      for (const [at, del, ins] of edits) {
        const i = t.length === 0 ? 0 : at % (t.length + 1);
        t = t.slice(0, i) + ins + t.slice(i + del);
      }
      return t;
    });
const exported = fc
  .tuple(fc.dictionary(key, json, { minKeys: 1, maxKeys: 5 }), fc.boolean())
  .map(([doc, flow]) => toYaml(doc, { flow }));
const texts = fc.oneof(
  mutated(written.map((w) => w.text)),
  mutated(exported),
  fc.string({ unit: fc.constantFrom(...tricky, 'a', 'b', '1', ' ', '\n'), maxLength: 40 }),
);

const lookup: VarLookup = (ns, name) => (ns === 'vars' && name === 'n' ? { found: true, value: 5 } : { found: false });

/** Every path of a value, parents first. */
function paths(v: unknown, path: Path = []): Path[] {
  const out: Path[] = [path];
  if (Array.isArray(v)) v.forEach((x, i) => out.push(...paths(x, [...path, i])));
  else if (v !== null && typeof v === 'object')
    for (const [k, x] of Object.entries(v)) out.push(...paths(x, [...path, k]));
  return out;
}

const summary = (r: ParseResult) => ({
  docs: r.docs.map((d) => ({ index: d.index, value: d.value, start: d.positions.start })),
  diagnostics: r.diagnostics,
  varProblems: r.varProblems,
  incomplete: r.incomplete,
});

describe('(3) damaged and random texts', () => {
  test('never throw; values or diagnostics, each at a valid line:col; the same result twice', () => {
    fc.assert(
      fc.property(texts, (text) => {
        const r = parseYaml('f.yaml', text, { lookup });
        const lines = text.split(/\r\n|\r|\n/).length;
        const valid = (p: { line: number; col: number }) =>
          Number.isInteger(p.line) && p.line >= 1 && p.line <= lines && Number.isInteger(p.col) && p.col >= 1;
        for (const d of r.diagnostics) expect(valid(d.pos), `${JSON.stringify(text)} ${JSON.stringify(d)}`).toBe(true);
        for (const u of r.varProblems) expect(valid(u.pos), JSON.stringify(text)).toBe(true);
        // A document left out is always said.
        if (r.incomplete)
          expect(
            r.diagnostics.some((d) => d.severity === 'error'),
            JSON.stringify(text),
          ).toBe(true);
        for (const d of r.docs) {
          for (const p of paths(d.value)) {
            expect(valid(d.positions.find(p, 'key')), JSON.stringify(text)).toBe(true);
            expect(valid(d.positions.find(p, 'value')), JSON.stringify(text)).toBe(true);
          }
        }
        expect(summary(parseYaml('f.yaml', text, { lookup }))).toEqual(summary(r));
      }),
      { numRuns: runs(1500) },
    );
  });
});
