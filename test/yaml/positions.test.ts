// Positions by path, and the rest filled at the first lookup that needs them.
import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { PositionIndex, type Path } from '../../src/yaml/positions.js';
import { runs } from '../helpers/property.js';

describe('PositionIndex', () => {
  test('keeps one position per path, for any keys', () => {
    const path = fc.array(fc.oneof(fc.string({ unit: 'binary', maxLength: 6 }), fc.nat(100)), { maxLength: 5 });
    const same = (a: Path, b: Path) => a.length === b.length && a.every((seg, i) => seg === b[i]);
    fc.assert(
      fc.property(fc.uniqueArray(path, { comparator: same, maxLength: 8 }), (paths) => {
        const index = new PositionIndex({ line: 1, col: 1 });
        paths.forEach((p, i) => index.set(p, { value: { line: i + 1, col: 1 } }));
        paths.forEach((p, i) => expect(index.get(p)?.value.line).toBe(i + 1));
      }),
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
