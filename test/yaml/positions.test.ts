// Positions by path, and the rest filled at the first lookup that needs them.
import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { lineColAt, lineStartAt, offsetAt, PositionIndex, restOfLine, type Path } from '../../src/yaml/positions.js';
import { anyString, runs } from '../helpers/property.js';

describe('PositionIndex', () => {
  test('keeps one position per path, for any keys', () => {
    const path = fc.array(fc.oneof(anyString({ maxLength: 6 }), fc.nat(100)), { maxLength: 5 });
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

describe('offsets ↔ lines and columns: the one conversion', () => {
  const texts = fc
    .array(fc.constantFrom('a', ' ', ':', '\n', '\r\n', '\t', 'é', '\uFEFF'), { maxLength: 40 })
    .map((a) => a.join(''));

  test('lineColAt and offsetAt are inverses on every offset; lineStartAt and restOfLine agree with them', () => {
    fc.assert(
      fc.property(texts, (text) => {
        for (let offset = 0; offset <= text.length; offset++) {
          const at = lineColAt(text, offset);
          expect(offsetAt(text, at)).toBe(offset);
          expect(lineStartAt(text, offset)).toBe(offset - at.col + 1);
          const eol = text.indexOf('\n', offset);
          expect(restOfLine(text, at)).toBe(text.slice(offset, eol === -1 ? text.length : eol));
        }
      }),
      { numRuns: runs(500) },
    );
  });

  test('CRLF: the carriage return ends its line, the next line starts after the line feed', () => {
    const text = 'kind: Report\r\nname: x\r\n';
    expect(lineColAt(text, text.indexOf('name'))).toEqual({ line: 2, col: 1 });
    expect(restOfLine(text, { line: 1, col: 7 })).toBe('Report\r');
    expect(lineColAt(text, text.length)).toEqual({ line: 3, col: 1 });
  });
});
