// "Did you mean …": the edit distance that counts a swap of neighbours as one
// edit, checked against a plain recursive definition, and the near misses an
// unknown identity gets.
import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { KnownNames, editDistance, levenshtein, nearMissLimit, nearMisses, oneOf } from '../../src/domain/suggest.js';
import { runs } from '../helpers/property.js';

/** Optimal string alignment distance, by its definition (small strings only). */
function osa(a: string, b: string): number {
  const d: number[][] = Array.from({ length: a.length + 1 }, (_, i) =>
    Array.from({ length: b.length + 1 }, (_, j) => (i === 0 ? j : j === 0 ? i : 0)),
  );
  for (let i = 1; i <= a.length; i++) {
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      d[i]![j] = Math.min(d[i - 1]![j]! + 1, d[i]![j - 1]! + 1, d[i - 1]![j - 1]! + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1])
        d[i]![j] = Math.min(d[i]![j]!, d[i - 2]![j - 2]! + 1);
    }
  }
  return d[a.length]![b.length]!;
}

describe('editDistance', () => {
  test('a swap of two neighbours is one edit; a substitution one; past the limit it says limit + 1', () => {
    expect(editDistance('revenue-overveiw', 'revenue-overview', 2)).toBe(1);
    expect(levenshtein('revenue-overveiw', 'revenue-overview')).toBe(2);
    expect(editDistance('revmrrtrnd02', 'revmrrtrnd01', 2)).toBe(1);
    expect(editDistance('abcdef', 'uvwxyz', 2)).toBe(3);
    expect(editDistance('', 'abc', 5)).toBe(3);
  });

  test('equals the definition, capped at max + 1', () => {
    const word = fc.string({ unit: fc.constantFrom('a', 'b', 'c'), maxLength: 8 });
    fc.assert(
      fc.property(word, word, fc.integer({ min: 0, max: 4 }), (a, b, max) => {
        expect(editDistance(a, b, max)).toBe(Math.min(osa(a, b), max + 1));
      }),
      { numRuns: runs(300) },
    );
  });
});

describe('nearMisses', () => {
  const ids = ['revMrrTrnd01', 'revNrrKpi001', 'revArrRgn001', 'chrnRate0001'];
  test.each([
    ['revMrrTrnd02', ['revMrrTrnd01']],
    ['revmrrtrnd01', ['revMrrTrnd01']],
    ['revMrrTnrd01', ['revMrrTrnd01']],
    ['zzzzzzzzzzzz', []],
    ['revMrrTrnd01', []],
  ])('%s → %j', (word, expected) => {
    expect(nearMisses(word, ids)).toEqual(expected);
  });

  test('the same as comparing with every name by the definition (the quick filters lose nothing)', () => {
    const word = fc.string({ unit: fc.constantFrom('a', 'B', 'c', 'd', '1'), minLength: 1, maxLength: 10 });
    fc.assert(
      fc.property(word, fc.uniqueArray(word, { maxLength: 12 }), (w, known) => {
        const max = nearMissLimit(w);
        const dist = known.filter((k) => k !== w).map((k) => [k, osa(w.toLowerCase(), k.toLowerCase())] as const);
        const best = Math.min(...dist.map(([, d]) => d));
        const expected =
          best <= max
            ? dist
                .filter(([, d]) => d === best)
                .map(([k]) => k)
                .slice(0, 3)
            : [];
        expect(new KnownNames(known).nearMisses(w)).toEqual(expected);
      }),
      { numRuns: runs(300) },
    );
  });

  test('ties are all named (up to three), in the order known; short names need a closer match', () => {
    expect(nearMisses('sales-q3x', ['sales-q1x', 'sales-q2x', 'other'])).toEqual(['sales-q1x', 'sales-q2x']);
    expect(nearMisses('abc', ['abd'])).toEqual([]);
    expect(nearMisses('abcd', ['abce'])).toEqual(['abce']);
    expect(nearMisses('abcd', ['abef'])).toEqual([]);
    expect(oneOf(['a', 'b', 'c'])).toBe('`a`, `b` or `c`');
  });
});
