import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  formatFolderPath,
  FolderPathError,
  parseFolderPath,
  pathOfNames,
  segmentOf,
  stepOf,
} from '../../src/domain/folder-path.js';
import { runs } from '../helpers/property.js';

describe('folder paths', () => {
  it.each([
    ['/', []],
    ['', []],
    ['Finance', ['Finance']],
    ['/Finance/Revenue', ['Finance', 'Revenue']],
    ['Finance/Revenue', ['Finance', 'Revenue']],
    ['Q1 \\/ Q2 /x', ['Q1 / Q2 ', 'x']],
    ['a\\\\b', ['a\\b']],
    [' lead/trail ', [' lead', 'trail ']],
    ['Équipe ☃', ['Équipe ☃']],
  ])('%j reads as %j', (text, names) => {
    expect(parseFolderPath(text).map((s) => stepOf(s).name)).toEqual(names);
  });

  it.each([
    ['Finance[2]', [{ name: 'Finance', nth: 2 }], 'Finance[2]'],
    [
      'Finance[1]/Revenue',
      [
        { name: 'Finance', nth: 1 },
        { name: 'Revenue', nth: 1 },
      ],
      'Finance/Revenue',
    ],
    ['Plan \\[2]', [{ name: 'Plan [2]', nth: 1 }], 'Plan \\[2]'],
    ['Plan \\[2][3]', [{ name: 'Plan [2]', nth: 3 }], 'Plan \\[2][3]'],
    ['a\\\\[2]', [{ name: 'a\\', nth: 2 }], 'a\\\\[2]'],
    ['[x]', [{ name: '[x]', nth: 1 }], '[x]'],
  ])('twins: %j reads as %j and is written %j', (text, steps, canonical) => {
    const path = parseFolderPath(text);
    expect(path.map(stepOf)).toEqual(steps);
    expect(formatFolderPath(path)).toBe(canonical);
  });

  it.each([
    ['a//b', /empty folder name/],
    ['a/', /empty folder name/],
    ['//', /empty folder name/],
    ['a\\b', /unknown escape `\\b`/],
    ['a\\', /lone/],
    ['[2]', /empty folder name/],
    [`${'x'.repeat(256)}`, /longer than 255/],
  ])('%j is refused', (text, why) => {
    expect(() => parseFolderPath(text)).toThrow(FolderPathError);
    expect(() => parseFolderPath(text)).toThrow(why);
  });

  it('writes the root as / and escapes / and \\ in names', () => {
    expect(formatFolderPath([])).toBe('/');
    expect(formatFolderPath(pathOfNames(['A/B', 'c\\d']))).toBe('A\\/B/c\\\\d');
  });

  it('reads back every path it writes (names of any characters, 1..255 long)', () => {
    const name = fc.string({
      minLength: 1,
      maxLength: 20,
      unit: fc.constantFrom('a', '/', '\\', ' ', 'é', '☃', '$', '{', '[', ']', '2'),
    });
    const step = fc.record({ name, nth: fc.integer({ min: 1, max: 4 }) });
    fc.assert(
      fc.property(fc.array(step, { maxLength: 6 }), (steps) => {
        const path = steps.map((s) => segmentOf(s.name, s.nth));
        expect(parseFolderPath(formatFolderPath(path)).map(stepOf)).toEqual(steps);
      }),
      { numRuns: runs(2000) },
    );
  });
});
