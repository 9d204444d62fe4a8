// The defaults' texts are derived from the numbers: a size is written as the
// flags take it, and reads back as the same number.
import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { MAX_LIST_BYTES, sizeText } from '../src/defaults.js';
import { parseBytes } from '../src/env.js';
import { runs } from './helpers/property.js';

describe('sizeText', () => {
  test('the list-bytes default reads as the docs say it', () => {
    expect(sizeText(MAX_LIST_BYTES)).toBe('512M');
    expect([sizeText(2 * 1024 ** 3), sizeText(64 * 1024), sizeText(1000)]).toEqual(['2G', '64K', '1000']);
  });

  test('what it writes, parseBytes reads back as the same number', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 2 ** 40 }), (n) => parseBytes(sizeText(n)) === n),
      { numRuns: runs(200) },
    );
  });
});
