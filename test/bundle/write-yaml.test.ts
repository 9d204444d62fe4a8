// The direct YAML writer against the yaml library: for any JSON value, toYaml
// (direct writer first) gives exactly the text the library-based toYaml gave
// before the direct writer existed. The reference below is that function,
// copied verbatim, so a change to the fallback in write.ts cannot hide a
// difference. Export's files are compared byte for byte, so this equality is
// the whole contract.
import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { Document, isMap, isPair, isScalar, isSeq, visit, type Node } from 'yaml';
import { toYaml } from '../../src/bundle/write.js';
import { directYaml } from '../../src/bundle/write-yaml.js';
import type { JsonValue } from '../../src/core/model.js';
import { jsonOf } from '../helpers/json-arbitrary.js';
import { runs } from '../helpers/property.js';

// ---- reference: src/bundle/write.ts toYaml before the direct writer ----
const NEEDS_QUOTES = /[\uFEFF\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F-\u009F\u2028\u2029\uD800-\uDFFF]/;
function flowSafe(node: unknown): number | undefined {
  if (!isScalar(node)) return undefined;
  const v = node.value;
  if (v === null || typeof v === 'boolean' || (typeof v === 'number' && Number.isFinite(v))) return String(v).length;
  if (typeof v === 'string' && /^[A-Za-z0-9_$][A-Za-z0-9_.$-]*$/.test(v) && !/^(true|false|null)$/i.test(v)) return v.length;
  return undefined;
}
function flowIfSmall(node: Node): void {
  const MAX_ITEMS = 6;
  const MAX_CHARS = 60;
  if (isMap(node)) {
    if (node.items.length === 0 || node.items.length > MAX_ITEMS) return;
    let chars = 0;
    for (const pair of node.items) {
      const k = isPair(pair) ? flowSafe(pair.key) : undefined;
      const v = isPair(pair) ? flowSafe(pair.value) : undefined;
      if (k === undefined || v === undefined) return;
      chars += k + v + 4;
    }
    if (chars <= MAX_CHARS) node.flow = true;
  } else if (isSeq(node)) {
    if (node.items.length === 0 || node.items.length > MAX_ITEMS) return;
    let chars = 0;
    for (const item of node.items) {
      const n = flowSafe(item);
      if (n === undefined) return;
      chars += n + 2;
    }
    if (chars <= MAX_CHARS) node.flow = true;
  }
}
function referenceYaml(value: JsonValue, opts: { flow?: boolean } = {}): string {
  const flow = opts.flow !== false;
  const doc = new Document(value, { aliasDuplicateObjects: false, version: '1.2' });
  visit(doc, {
    Scalar(_key, node) {
      if (typeof node.value === 'string' && NEEDS_QUOTES.test(node.value)) node.type = 'QUOTE_DOUBLE';
    },
    Map(_key, node) {
      if (flow && node !== doc.contents) flowIfSmall(node);
    },
    Seq(_key, node) {
      if (flow && node !== doc.contents) flowIfSmall(node);
    },
  });
  return doc
    .toString({ lineWidth: 0, minContentWidth: 0, indent: 2, indentSeq: true })
    .replace(/[\u007F-\u0084\u0086-\u009F]/g, (ch) => `\\x${ch.charCodeAt(0).toString(16).toUpperCase()}`);
}
// ---- end of reference ----

const tricky = [
  'yes', 'no', 'on', 'null', 'Null', 'NULL', 'nUll', '~', '', ' ', 'true', 'True', 'TRUE', 'tRue', 'false', '1e3', '1E+3', '-1.5e-3', '.5e1',
  '0o17', '0o8', '0x1F', '0xg', '0', '-0', '+12', '1.', '.5', '-.5', '1.2.3', '.inf', '-.Inf', '+.INF', '.nan', '.NaN', '.NAN', 'nan',
  '-', '- a', '-a', '?', '? x', '?x', ': y', ':y', 'a:', 'a: b', 'a:b', '#', 'a #b', 'a#b', '&a', '*a', '!tag', '|', '>', '%', '%x', '@', '`',
  '"', "'", `"'`, 'a"b', "a'b", 'a\n', '\n', '\n\n x', 'x\n\n', 'x\n \n', ' x\ny', '\n x\ny', 'a\n\nb\n\n\nc', 'a\nb\n', 'a\nb\n\n', '  lead', 'trail  ',
  '\t', 'a\tb', '\tx', 'x\t', 'a\n\tb', '\r', 'a\r\nb', '\u2028', '\uFEFFbom', '\u0085', 'a\u0085b', '\u00a0', '\u0000', '\u0007', '\u000b', '\u001b',
  '\u007f', '\u009f', '\ud83d\ude00', '\ud83d', 'x\ude00', '---', '--- x', '...', '.. .', 'a\n---\nb', 'a\n...', '%a\nb', '<<', '[a]', 'a,b', '{', '}',
  'a]', 'x y', 'x  y', 'é', 'Ünïcödé', 'a\\b', 'a\\nb', '${x}', '$${x}', '$report', 'x'.repeat(1100), 'orders.m0', 'chart-1000', 'A_b.c-d$',
];
const text = fc.oneof(
  fc.constantFrom(...tricky),
  fc.string({ unit: 'binary', maxLength: 40 }),
  fc.string({ unit: fc.integer({ min: 0, max: 0xa0 }).map((c) => String.fromCharCode(c)), maxLength: 12 }),
  fc.string({ unit: fc.constantFrom('a', ' ', '\n', '\t', '#', ':', '-', '"', "'", '.', '0', '1', 'e', 'x', '[', ','), maxLength: 12 }),
  fc.stringMatching(/^[A-Za-z0-9_$][A-Za-z0-9_.$-]{0,12}$/),
);
const key = text.filter((k) => !['__proto__', 'constructor', 'prototype'].includes(k));
const json = jsonOf<JsonValue>(
  [text, fc.double({ noNaN: true, noDefaultInfinity: true }), fc.constantFrom(0, -0, 1e21, 1e-7, 123456789012345680000, 0.1, -5, 2 ** 53), fc.integer(), fc.boolean(), fc.constant(null)],
  key,
  7,
) as fc.Arbitrary<JsonValue>;
const doc = fc.dictionary(key, json, { maxKeys: 6 });

/** What export builds: the bundle schema's shapes with ordinary names, queries and dashboards. */
const word = fc.stringMatching(/^[A-Za-z][A-Za-z0-9 _.-]{0,20}$/);
const exportLike = fc.record({
  kind: fc.constantFrom('Report', 'Workbook'),
  publicId: fc.stringMatching(/^[A-Za-z0-9]{12}$/),
  name: word,
  sqlQuery: fc.array(word, { minLength: 1, maxLength: 4 }).map((l) => l.join('\n')),
  workbookId: fc.oneof(fc.integer({ min: 1 }), fc.record({ $workbook: fc.stringMatching(/^[a-z0-9][a-z0-9-]{0,19}$/) })),
  jsonQuery: fc.record({ measures: fc.array(word, { maxLength: 3 }), limit: fc.integer({ min: 0, max: 1000 }) }),
  meta: fc.record({
    chart: fc.record({ type: fc.constantFrom('bar', 'line') }),
    widgets: fc.array(
      fc.record({
        id: word,
        position: fc.record({ x: fc.nat(12), y: fc.nat(99), w: fc.nat(12), h: fc.nat(12) }),
        config: fc.record({ reportId: fc.record({ $report: fc.stringMatching(/^[A-Za-z0-9]{12}$/) }) }),
      }),
      { maxLength: 4 },
    ),
  }),
});

describe('direct YAML writer', () => {
  test('toYaml gives the reference text for any JSON mapping, flow or not', () => {
    let direct = 0;
    fc.assert(
      fc.property(doc, fc.boolean(), (d, flow) => {
        if (directYaml(d, flow) !== undefined) direct++;
        expect(toYaml(d, { flow })).toBe(referenceYaml(d, { flow }));
      }),
      { numRuns: runs(3000) },
    );
    // Most of these (tricky strings included) are written directly, not left to the library.
    expect(direct).toBeGreaterThan(1500);
  });

  test('toYaml gives the reference text for any JSON value', () => {
    fc.assert(
      fc.property(json, (v) => {
        expect(toYaml(v)).toBe(referenceYaml(v));
      }),
      { numRuns: runs(1000) },
    );
  });

  test('each tricky string, as a key and as a value, in block and in flow position', () => {
    for (const s of tricky) {
      const shapes: JsonValue[] = [{ [s]: 1 }, { k: s }, { k: [s] }, { k: { [s]: s } }, { k: [[s, 1]] }, { a: { b: [{ c: s, d: [s] }] } }];
      for (const d of shapes) {
        for (const flow of [true, false]) expect(toYaml(d, { flow }), JSON.stringify(d)).toBe(referenceYaml(d, { flow }));
      }
    }
  });

  test('what export writes takes the direct writer, and gives the reference text', () => {
    fc.assert(
      fc.property(exportLike, (d) => {
        const direct = directYaml(d as unknown as JsonValue, true);
        expect(direct).toBeDefined();
        expect(direct).toBe(referenceYaml(d as unknown as JsonValue));
      }),
      { numRuns: runs(500) },
    );
  });

  test('the direct writer leaves only rare values to the library', () => {
    // Quoted multi-line strings, explicit keys, `---`/`...` starts and non-mappings.
    expect(directYaml({ a: 'x\n  ' }, true)).toBeUndefined();
    expect(directYaml({ ['k'.repeat(1100)]: 1 }, true)).toBeUndefined();
    expect(directYaml({ a: '--- x' }, true)).toBeUndefined();
    expect(directYaml([1], true)).toBeUndefined();
    expect(directYaml({ a: 'line 1\nline 2', b: 'ünï "q"', c: '\u0007' }, true)).toBeDefined();
  });
});
