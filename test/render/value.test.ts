import { describe, expect, it } from 'vitest';
import { fieldView, inlineValue, lineDiff, valueLines } from '../../src/render/value.js';

describe('plan values', () => {
  it.each([
    [undefined, '(none)'],
    [null, 'null'],
    ['Sales', '"Sales"'],
    [12, '12'],
    [{ $report: 'revqZ1x8Kp0a' }, '(known after apply)'],
    [{ b: 1, a: { $workbook: 'sales' } }, '{"a":(known after apply),"b":1}'],
  ])('inline %j → %s', (v, s) => {
    expect(inlineValue(v as never)).toBe(s);
  });

  it('short values are inline; multi-line, long and jsonQuery values are line diffs', () => {
    expect(fieldView({ path: 'name', before: 'a', after: 'b' })).toEqual({ kind: 'inline', path: 'name', before: '"a"', after: '"b"' });
    expect(fieldView({ path: 'name', after: 'b' })).toEqual({ kind: 'inline', path: 'name', after: '"b"' });
    expect(fieldView({ path: 'sqlQuery', before: 'select 1\nfrom t', after: 'select 2\nfrom t' })).toEqual({
      kind: 'block',
      path: 'sqlQuery',
      lines: [
        { sign: '@', text: '@@ -1,2 +1,2 @@' },
        { sign: '-', text: 'select 1' },
        { sign: '+', text: 'select 2' },
        { sign: ' ', text: 'from t' },
      ],
    });
    expect(fieldView({ path: 'meta.x', after: { long: 'x'.repeat(80) } }).kind).toBe('block');
  });

  it('jsonQuery is shown as pretty JSON with sorted keys (not JSON: as text)', () => {
    expect(valueLines('{"b":1,"a":[1]}', 'jsonQuery')).toEqual(['{', '  "a": [', '    1', '  ],', '  "b": 1', '}']);
    expect(valueLines('{nope', 'jsonQuery')).toEqual(['{nope']);
  });

  it('a diff keeps three lines of context', () => {
    const before = ['1', '2', '3', '4', '5', '6', '7', '8', '9'];
    const after = [...before];
    after[8] = 'nine';
    expect(lineDiff(before, after).map((l) => `${l.sign}${l.text}`)).toEqual(['@@@ -6,4 +6,4 @@', ' 6', ' 7', ' 8', '-9', '+nine']);
  });
});
