import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  canonicalize,
  canonicalJson,
  contentHash,
  sameContent,
  sameJsonString,
  setMember,
  withoutNullMembers,
} from '../../src/core/canonical.js';
import { runs } from '../helpers/property.js';

// Values with what JSON lacks too (undefined, NaN, -0, holes, bigint, __proto__ members), and
// pairs that are often equal, so that both answers of sameContent are exercised.
const key = fc.constantFrom('a', 'b', 'c', '__proto__', 'constructor', 'é', '');
const leaf = fc.oneof(
  fc.constantFrom(null, undefined, 0, -0, 1, 1.5, NaN, Infinity, -Infinity, '', '1', 'null', 'a', true, false, 1n),
  fc.integer(),
  fc.string({ maxLength: 4 }),
);
const value: fc.Arbitrary<unknown> = fc.letrec<{ v: unknown }>((tie) => ({
  v: fc.oneof(
    { depthSize: 'small' },
    leaf,
    fc.array(tie('v'), { maxLength: 4 }),
    fc.array(fc.tuple(key, tie('v')), { maxLength: 4 }).map((entries) => {
      const o: Record<string, unknown> = {};
      for (const [k, v] of entries)
        Object.defineProperty(o, k, { value: v, enumerable: true, writable: true, configurable: true });
      return o;
    }),
  ),
})).v;
/** A variant of a value: members reordered, null members added or dropped, sometimes a leaf changed. */
function variant(v: unknown, flip: () => number): unknown {
  if (Array.isArray(v)) return v.map((x) => variant(x, flip));
  if (v !== null && typeof v === 'object') {
    const out: Record<string, unknown> = {};
    const keys = Object.keys(v).reverse();
    for (const k of keys) {
      const x = (v as Record<string, unknown>)[k];
      if ((x === null || x === undefined) && flip() < 0.3) continue;
      setMember(out as never, k, variant(x, flip) as never);
    }
    if (flip() < 0.2) out['z'] = flip() < 0.5 ? null : undefined;
    return out;
  }
  const r = flip();
  if (r < 0.05) return 'changed';
  if (r < 0.1 && v === null) return undefined;
  if (r < 0.15 && typeof v === 'number' && !Number.isFinite(v)) return null;
  return v;
}

describe('canonicalJson', () => {
  it.each([
    [{ b: 1, a: [3, { d: 1, c: 2 }] }, '{"a":[3,{"c":2,"d":1}],"b":1}'],
    [{ a: undefined, b: null }, '{"b":null}'],
    [undefined, 'null'],
    ['x', '"x"'],
    [[1, undefined], '[1,null]'],
  ])('%j → %s', (v, s) => {
    expect(canonicalJson(v)).toBe(s);
  });

  it('ignores key order, not array order', () => {
    expect(canonicalJson({ a: 1, b: 2 })).toBe(canonicalJson({ b: 2, a: 1 }));
    expect(canonicalJson([1, 2])).not.toBe(canonicalJson([2, 1]));
  });

  it('hashes canonically (sha256 hex)', () => {
    expect(contentHash({ a: 1, b: 2 })).toBe(contentHash({ b: 2, a: 1 }));
    expect(contentHash({ a: 1 })).not.toBe(contentHash({ a: 2 }));
    expect(contentHash(null)).toMatch(/^[0-9a-f]{64}$/);
  });
});

describe('the direct forms agree with their definitions', () => {
  it('canonicalJson(v) is JSON.stringify(canonicalize(v))', () => {
    fc.assert(
      fc.property(value, (v) => {
        expect(canonicalJson(v)).toBe(JSON.stringify(canonicalize(v)));
      }),
      { numRuns: runs(3000) },
    );
  });

  it('sameContent(a, b) is the canonical JSON of both without null members being equal', () => {
    fc.assert(
      fc.property(value, value, fc.integer(), (a, other, seed) => {
        let s = seed >>> 0 || 1;
        const flip = () => ((s = (s * 1103515245 + 12345) >>> 0), s / 0x100000000);
        for (const b of [other, variant(a, flip), a]) {
          const expected =
            JSON.stringify(canonicalize(withoutNullMembers(a))) === JSON.stringify(canonicalize(withoutNullMembers(b)));
          expect(sameContent(a, b)).toBe(expected);
          expect(sameContent(b, a)).toBe(expected);
        }
      }),
      { numRuns: runs(3000) },
    );
  });

  it('setMember sets __proto__ as an own member', () => {
    const o = {};
    setMember(o, '__proto__', { polluted: true });
    setMember(o, 'a', 1);
    expect(Object.keys(o)).toEqual(['__proto__', 'a']);
    expect(Object.getPrototypeOf(o)).toBe(Object.prototype);
    expect(({} as Record<string, unknown>)['polluted']).toBeUndefined();
  });
});

describe('sameContent (desired vs live)', () => {
  it.each([
    ['absent live equals null', null, undefined, true],
    ['null member equals absent member', { a: 1 }, { a: 1, b: null }, true],
    ['nested null members', { w: [{ x: 1 }] }, { w: [{ x: 1, y: null }] }, true],
    ['array null elements are kept', [null], [], false],
    ['value differs', { a: 1 }, { a: 2 }, false],
    ['a string is not a number', '1', 1, false],
    ['empty string is not null', '', null, false],
  ])('%s', (_n, a, b, same) => {
    expect(sameContent(a, b)).toBe(same);
  });
});

describe('sameJsonString (jsonQuery)', () => {
  it.each([
    ['formatting', '{"a":1,"b":[1,2]}', '{\n  "b": [1, 2],\n  "a": 1\n}', true],
    ['different content', '{"a":1}', '{"a":2}', false],
    ['unparsable: string equality', '{a', '{a', true],
    ['unparsable on one side', '{a', '{"a":1}', false],
    ['absent live vs null', null, undefined, true],
  ])('%s', (_n, a, b, same) => {
    expect(sameJsonString(a, b)).toBe(same);
  });
});
