// The one YAML reader (yaml/parse.ts): values by js-yaml, YAML 1.2 core
// scalars, and each guarantee it gives on its own, with the position of
// every problem. The properties over generated and damaged texts are in
// parse.property.test.ts; the limits on whole bundles in
// test/bundle/hostile.test.ts.
import { describe, expect, test } from 'vitest';
import { parseYaml } from '../../src/yaml/parse.js';
import type { VarLookup } from '../../src/yaml/variables.js';
import { MAX_DEPTH } from '../../src/yaml/limits.js';

const lookup: VarLookup = (ns, name) => {
  if (ns === 'vars' && name === 'n') return { found: true, value: 5 };
  if (ns === 'vars' && name === 's') return { found: true, value: 'str' };
  if (name === 'MY_TOKEN') return { found: false, refused: 'it looks like a secret' };
  return { found: false };
};

const read = (text: string, withLookup = false) => parseYaml('f.yaml', text, withLookup ? { lookup } : {});
/** A read's diagnostics, one line each: `rule line:col message`. */
const said = (r: ReturnType<typeof read>) =>
  r.diagnostics.map((d) => `${d.rule} ${d.pos.line}:${d.pos.col} ${d.message}`);
const brief = (text: string, withLookup = false) => said(read(text, withLookup));
const values = (text: string) => read(text).docs.map((d) => d.value);

describe('values', () => {
  test('YAML 1.2 core scalars: what YAML 1.1 reads as numbers, booleans or dates stays a string', () => {
    expect(
      values(
        'a: 1_000\nb: 0b1\nc: 2024-01-01\nd: yes\ne: ~\nf: 0x1F\ng: 0o17\nh: 1e3\ni: True\nj:\nk: "1"\nl: no\nm: +.5\nn: 1.\no: -0\n',
      ),
    ).toEqual([
      {
        a: '1_000',
        b: '0b1',
        c: '2024-01-01',
        d: 'yes',
        e: null,
        f: 31,
        g: 15,
        h: 1000,
        i: true,
        j: null,
        k: '1',
        l: 'no',
        m: 0.5,
        n: 1,
        o: -0,
      },
    ]);
  });

  test('plain-data tags are read; `!` makes a string', () => {
    expect(
      values('a: !!int 5\nb: !!str 5\nc: ! 5\nd: !!float 1\ne: !!null ~\nf: !!bool true\ng: !!map {x: 1}\n'),
    ).toEqual([{ a: 5, b: '5', c: '5', d: 1, e: null, f: true, g: { x: 1 } }]);
  });

  test('a comment line between a key and its indented value (the two former readers disagreed on it)', () => {
    const r = read('---\n$workbook: []\n"kind": x\n---\nkind:\n#x: |\n    x\n"a#b":\n kind: x\n---\nkind: x');
    expect(r.diagnostics).toEqual([]);
    expect(r.docs.map((d) => [d.index, d.value])).toEqual([
      [0, { $workbook: [], kind: 'x' }],
      [1, { kind: 'x', 'a#b': { kind: 'x' } }],
      [2, { kind: 'x' }],
    ]);
    // The `yaml` library refuses that document: its positions fall back to the document's start.
    expect(r.docs[1]!.positions.find(['a#b', 'kind'], 'key')).toEqual({ line: 5, col: 1 });
    expect(r.docs[2]!.positions.find(['kind'], 'value')).toEqual({ line: 11, col: 7 });
  });

  test('documents keep their index in the file; empty ones are skipped', () => {
    const r = read('# only a comment\n---\n---\na: 1\n---\n~\n---\nb: [x]\n...\n');
    expect(r.diagnostics).toEqual([]);
    expect(r.docs.map((d) => [d.index, d.value, d.positions.start])).toEqual([
      [1, { a: 1 }, { line: 4, col: 1 }],
      [3, { b: ['x'] }, { line: 8, col: 1 }],
    ]);
    expect(r.docs[1]!.positions.find(['b', 0], 'value')).toEqual({ line: 8, col: 5 });
  });

  test('an alias is a copy: the data is a tree, as if written out', () => {
    const [doc] = values('a: &x { k: [1, 2] }\nb: *x\n') as [{ a: { k: number[] }; b: { k: number[] } }];
    expect(doc.b).toEqual({ k: [1, 2] });
    expect(doc.b).not.toBe(doc.a);
    expect(doc.b.k).not.toBe(doc.a.k);
  });

  test('`<<` is a key like any other (YAML 1.2 has no merge keys)', () => {
    expect(values('<<: { a: 1 }\n')).toEqual([{ '<<': { a: 1 } }]);
  });
});

describe('problems, each at its file:line:col', () => {
  test('a syntax error: js-yaml says what and where; nothing of the file is read', () => {
    const r = read('a: 1\n---\nb: [x\nc: d\n');
    expect(r.diagnostics.map((d) => `${d.rule} ${d.pos.file}:${d.pos.line}:${d.pos.col} ${d.message}`)).toEqual([
      'yaml-syntax f.yaml:4:1 YAML syntax error: missed comma between flow collection entries',
    ]);
    expect(r.incomplete).toBe(true);
    expect(r.docs).toEqual([]);
    expect(brief('a: b: c\n')).toEqual(['yaml-syntax 1:5 YAML syntax error: bad indentation of a mapping entry']);
  });

  test('duplicate keys: every one, the rest of the file read on (the later value wins)', () => {
    const r = read('a: 1\nb:\n  c: 1\n  "c": 2\na: 3\n1: x\n"1": y\n');
    expect(said(r)).toEqual([
      'duplicate-key 4:3 duplicate key `c`',
      'duplicate-key 5:1 duplicate key `a`',
      'duplicate-key 7:1 duplicate key `1`',
    ]);
    expect(r.docs[0]!.value).toEqual({ a: 3, b: { c: 2 }, 1: 'y' });
    expect(r.incomplete).toBe(false);
  });

  test('keys that could reach a prototype are removed and reported at the key', () => {
    const r = read('a:\n  __proto__: { x: 1 }\n  b: [{ constructor: 1, c: 2 }]\n"prototype": 3\n');
    expect(said(r)).toEqual([
      'forbidden-key 2:3 key `__proto__` is not allowed',
      'forbidden-key 3:9 key `constructor` is not allowed',
      'forbidden-key 4:1 key `prototype` is not allowed',
    ]);
    expect(r.docs[0]!.value).toEqual({ a: { b: [{ c: 2 }] } });
    expect(Object.getPrototypeOf((r.docs[0]!.value as { a: object }).a)).toBe(Object.prototype);
  });

  test('keys that are mappings or sequences are refused, the flow mapping of issue 33 included', () => {
    expect(brief("[ {prototype: true, c: '{y}'}: 1, x ]\n")).toEqual(['yaml-key 1:3 keys must be plain strings']);
    expect(brief('a: 1\n[x, y]: 2\n')).toEqual(['yaml-key 2:1 keys must be plain strings']);
    expect(brief('? { a: 1 }\n: 2\n')).toEqual(['yaml-key 1:3 keys must be plain strings']);
    expect(brief('a: &k [1]\n*k : 2\n')).toEqual(['yaml-key 2:1 keys must be plain strings']);
    expect(read('[x]: 1\n').incomplete).toBe(true);
    // Only the text decides when to look for them; a plain key that looks like one is fine.
    expect(values('"[x]": 1\nb: "}: x"\n')).toEqual([{ '[x]': 1, b: '}: x' }]);
  });

  test('tags that are not plain data are refused at the tag, on values and on keys', () => {
    expect(brief('a: 1\nb: !!binary aGVsbG8=\n')).toEqual(['yaml-tag 2:4 unsupported YAML tag `!!binary`']);
    expect(brief('a: !foo\n  - 1\n')).toEqual(['yaml-tag 1:4 unsupported YAML tag `!foo`']);
    expect(brief('a: &x !!set { b }\n')).toEqual(['yaml-tag 1:7 unsupported YAML tag `!!set`']);
    expect(brief('a: 1\n!x k: 1\n')).toEqual(['yaml-tag 2:1 unsupported YAML tag `!x`']);
    expect(brief('- !!js/function "f"\n')).toEqual(['yaml-tag 1:3 unsupported YAML tag `!!js/function`']);
  });

  test('numbers without a JSON form are reported and read as null', () => {
    const r = read('a: .inf\nb: [1e999]\nc: .nan\n');
    expect(r.diagnostics.map((d) => `${d.rule} ${d.pos.line}:${d.pos.col}`)).toEqual([
      'yaml-number 1:4',
      'yaml-number 2:5',
      'yaml-number 3:4',
    ]);
    expect(r.docs[0]!.value).toEqual({ a: null, b: [null], c: null });
  });

  test('an alias inside its own anchor', () => {
    expect(brief('a: 1\nb: &x [1, *x]\n')).toEqual(['yaml-alias 2:11 alias `*x` cannot be resolved here']);
  });

  test('nesting past MAX_DEPTH, in flow, in block, and through an alias', () => {
    const message = `values are nested more than ${MAX_DEPTH} levels deep`;
    expect(brief(`a: ${'['.repeat(70)}${']'.repeat(70)}\n`).map((d) => d.replace(/ \d+:\d+ /, ' '))).toEqual([
      `yaml-limit ${message}`,
    ]);
    expect(brief(`${'- '.repeat(100_000)}x\n`).map((d) => d.replace(/ \d+:\d+ /, ' '))).toEqual([
      `yaml-limit ${message}`,
    ]);
    const deep = `${'['.repeat(40)}${']'.repeat(40)}`;
    expect(brief(`a: &x ${deep}\nb: [[[[[[[[[[[[[[[[[[[[[[[[[[[[*x]]]]]]]]]]]]]]]]]]]]]]]]]]]]\n`)).toEqual([
      `yaml-limit 2:32 ${message}`,
    ]);
  });

  test('variables: each problem at its column in a plain or quoted one-line scalar, else at the scalar', () => {
    const r = read(
      'a: x ${vars.nope}\nb: "q ${env.MY_TOKEN}"\nc: |\n  ${vars.zz}\nd: ${vars.n}\ne: ["${vars.s}"]\n',
      true,
    );
    expect(r.diagnostics).toEqual([]);
    expect(r.varProblems.map((u) => [u.path, u.problem.kind, u.pos.line, u.pos.col])).toEqual([
      [['a'], 'undefined', 1, 6],
      [['b'], 'refused', 2, 7],
      [['c'], 'undefined', 3, 4],
    ]);
    expect(r.docs[0]!.value).toEqual({
      a: 'x ${vars.nope}',
      b: 'q ${env.MY_TOKEN}',
      c: '${vars.zz}\n',
      d: 5,
      e: ['str'],
    });
  });

  test('`$${` is read once through an alias (the copy is not interpolated again)', () => {
    const r = read('a: &x { s: "$${vars.n}" }\nb: *x\n', true);
    expect(r.varProblems).toEqual([]);
    expect(r.docs[0]!.value).toEqual({ a: { s: '${vars.n}' }, b: { s: '${vars.n}' } });
  });
});

describe('positions', () => {
  test('a valid file costs no position past its root keys until one is looked up', () => {
    const r = read('kind: Report\nmeta:\n  a: [1, { b: 2 }]\n');
    const positions = r.docs[0]!.positions;
    expect(positions.topKey('meta')).toEqual({ line: 2, col: 1 });
    expect(positions.find(['meta', 'a', 1, 'b'], 'key')).toEqual({ line: 3, col: 12 });
    expect(positions.find(['meta', 'a', 1, 'b'], 'value')).toEqual({ line: 3, col: 15 });
    expect(positions.find(['meta', 'missing'], 'key')).toEqual({ line: 2, col: 1 });
  });
});
