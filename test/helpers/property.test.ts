// WSC_PROPERTY_RUNS scales every property's count from one place.
import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { runs } from './property.js';

describe('property run counts', () => {
  test('unset or empty: each property runs its CI count', () => {
    expect(runs(300, {})).toBe(300);
    expect(runs(300, { WSC_PROPERTY_RUNS: '' })).toBe(300);
    expect(runs(undefined, {})).toBe(100);
  });

  test('a count scales every property alike, never below one case', () => {
    expect(runs(300, { WSC_PROPERTY_RUNS: '1000' })).toBe(3000);
    expect(runs(60, { WSC_PROPERTY_RUNS: '20' })).toBe(12);
    expect(runs(3, { WSC_PROPERTY_RUNS: '1' })).toBe(1);
  });

  test('anything but a positive number is refused, naming the variable', () => {
    for (const bad of ['0', '-5', 'many', 'Infinity']) {
      expect(() => runs(10, { WSC_PROPERTY_RUNS: bad })).toThrow(/WSC_PROPERTY_RUNS/);
    }
  });

  test('a property that states no count runs the scaled default', () => {
    let n = 0;
    fc.assert(fc.property(fc.integer(), () => void n++));
    expect(n).toBe(runs());
  });
});
