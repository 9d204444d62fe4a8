// WSC_PROPERTY_RUNS scales every property's count from one place.
import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { DEFAULT_PROPERTY_SEED, propertySeed, runs } from './property.js';

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

  test('the seed is fixed unless WSC_PROPERTY_SEED asks for a random one or names another', () => {
    expect(propertySeed({})).toBe(DEFAULT_PROPERTY_SEED);
    expect(propertySeed({ WSC_PROPERTY_SEED: '' })).toBe(DEFAULT_PROPERTY_SEED);
    expect(propertySeed({ WSC_PROPERTY_SEED: 'random' })).toBeUndefined();
    expect(propertySeed({ WSC_PROPERTY_SEED: '-929216421' })).toBe(-929216421);
    for (const bad of ['1.5', 'x', 'Infinity']) {
      expect(() => propertySeed({ WSC_PROPERTY_SEED: bad })).toThrow(/WSC_PROPERTY_SEED/);
    }
  });

  test('two runs of a property without a seed of its own draw the same cases', () => {
    const draw = (): number[] => {
      const seen: number[] = [];
      fc.assert(
        fc.property(fc.integer(), (n) => void seen.push(n)),
        { numRuns: 20 },
      );
      return seen;
    };
    if (propertySeed() === undefined) return; // a soak asked for fresh seeds
    expect(draw()).toEqual(draw());
  });
});
