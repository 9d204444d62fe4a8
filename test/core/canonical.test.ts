import { describe, expect, it } from 'vitest';
import {
  canonicalEqual,
  canonicalJson,
  contentHash,
  sameContent,
  sameJsonString,
} from '../../src/core/canonical.js';

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
    expect(canonicalEqual({ a: 1, b: 2 }, { b: 2, a: 1 })).toBe(true);
    expect(canonicalEqual([1, 2], [2, 1])).toBe(false);
  });

  it('hashes canonically (sha256 hex)', () => {
    expect(contentHash({ a: 1, b: 2 })).toBe(contentHash({ b: 2, a: 1 }));
    expect(contentHash({ a: 1 })).not.toBe(contentHash({ a: 2 }));
    expect(contentHash(null)).toMatch(/^[0-9a-f]{64}$/);
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
