// Properties of the one YAML reader (yaml/parse.ts), on generated texts:
// (1) what the bundle writer writes reads back as the same data;
// (2) every key and list item of a generated document gets the position it
//     was written at (lazily, through the `yaml` library's node tree);
// (3) damaged and random texts never throw, end in values or diagnostics at
//     valid positions, and read the same twice.
// Counts through runs(); the seed is fixed in `npm test` (test/helpers/property.ts).
import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import type { JsonValue } from '../../src/core/json.js';
import { toYaml } from '../../src/bundle/write.js';
import { parseYaml, type ParseResult } from '../../src/yaml/parse.js';
import type { Path } from '../../src/yaml/positions.js';
import type { VarLookup } from '../../src/yaml/variables.js';
import { runs } from '../helpers/property.js';
import { lookalikes, written } from './written.js';

const FORBIDDEN = ['__proto__', 'constructor', 'prototype'];

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
