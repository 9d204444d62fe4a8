import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { formatFolderPath, FolderPathError, parseFolderPath } from '../../src/domain/folder-path.js';
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
    expect(parseFolderPath(text)).toEqual(names);
  });

  it.each([
    ['a//b', /empty folder name/],
    ['a/', /empty folder name/],
    ['//', /empty folder name/],
    ['a\\b', /unknown escape `\\b`/],
    ['a\\', /lone/],
    [`${'x'.repeat(256)}`, /longer than 255/],
  ])('%j is refused', (text, why) => {
    expect(() => parseFolderPath(text)).toThrow(FolderPathError);
    expect(() => parseFolderPath(text)).toThrow(why);
  });

  it('writes the root as / and escapes / and \\ in names', () => {
    expect(formatFolderPath([])).toBe('/');
    expect(formatFolderPath(['A/B', 'c\\d'])).toBe('A\\/B/c\\\\d');
  });

  it('reads back every path it writes (names of any characters, 1..255 long)', () => {
    const name = fc.string({
      minLength: 1,
      maxLength: 20,
      unit: fc.constantFrom('a', '/', '\\', ' ', 'é', '☃', '$', '{'),
    });
    fc.assert(
      fc.property(fc.array(name, { maxLength: 6 }), (names) => {
        expect(parseFolderPath(formatFolderPath(names))).toEqual(names);
      }),
      { numRuns: runs(2000) },
    );
  });
});
