// Position keys: the JSON of the path without brackets, built one segment at a time.
import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { childKey, PositionIndex, ROOT_KEY } from '../../src/yaml/positions.js';
import { runs } from '../helpers/property.js';

describe('PositionIndex', () => {
  test('childKey builds the JSON of the path, for any keys', () => {
    fc.assert(
      fc.property(
        fc.array(fc.oneof(fc.string({ unit: 'binary', maxLength: 6 }), fc.nat(100)), { maxLength: 5 }),
        (path) => {
          let key = ROOT_KEY;
          for (const seg of path) key = childKey(key, seg);
          expect(`[${key}]`).toBe(JSON.stringify(path));
        },
      ),
      { numRuns: runs(2000) },
    );
  });

  test('fills the rest at the first lookup the recorded positions cannot answer', () => {
    let fills = 0;
    const index = new PositionIndex({ line: 1, col: 1 }, (i) => {
      fills++;
      i.set(['a', 0], { value: { line: 2, col: 5 } });
    });
    index.set(['a'], { key: { line: 1, col: 1 }, value: { line: 2, col: 3 } });
    expect(index.get(['a'])?.value).toEqual({ line: 2, col: 3 });
    expect(fills).toBe(0);
    expect(index.find(['a', 0], 'value')).toEqual({ line: 2, col: 5 });
    expect(index.find(['a', 1], 'value')).toEqual({ line: 1, col: 1 });
    expect(fills).toBe(1);
  });
});
