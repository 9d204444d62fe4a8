import { describe, expect, it } from 'vitest';
import { fieldView, inlineValue, lineDiff, orderLike, valueLines, yamlPathAt } from '../../src/render/value.js';

describe('plan values', () => {
  it.each([
    [undefined, '(none)'],
    [null, 'null'],
    ['Sales', '"Sales"'],
    [12, '12'],
    [{ $report: 'revqZ1x8Kp0a' }, '{ $report: revqZ1x8Kp0a }'],
    [{ b: 1, a: { $workbook: 'sales' } }, '{ b: 1, a: { $workbook: sales } }'],
    [['x', { k: 'a: b' }], '[ x, { k: "a: b" } ]'],
  ])('inline %j → %s (structured values as YAML flow, in their own order)', (v, s) => {
    expect(inlineValue(v as never)).toBe(s);
  });

  it('short values are inline; multi-line, long and jsonQuery values are line diffs', () => {
    expect(fieldView({ path: 'name', before: 'a', after: 'b' })).toEqual({
      kind: 'inline',
      path: 'name',
      before: '"a"',
      after: '"b"',
    });
    expect(fieldView({ path: 'name', after: 'b' })).toEqual({ kind: 'inline', path: 'name', after: '"b"' });
    expect(fieldView({ path: 'sqlQuery', before: 'select 1\nfrom t', after: 'select 2\nfrom t' })).toEqual({
      kind: 'block',
      path: 'sqlQuery',
      lines: [
        { sign: '@', text: '@@ sqlQuery line 1 @@' },
        { sign: '-', text: 'select 1' },
        { sign: '+', text: 'select 2' },
        { sign: ' ', text: 'from t' },
      ],
    });
    expect(fieldView({ path: 'meta.x', after: { long: 'x'.repeat(80) } })).toEqual({
      kind: 'block',
      path: 'meta.x',
      lines: [{ sign: '+', text: `long: ${'x'.repeat(80)}` }],
    });
  });

  it('a workbook id reads as the workbook the file names, by its slug, not as numbers', () => {
    const c = {
      path: 'workbookId',
      before: 101,
      after: 102,
      shown: { before: { $workbook: 'revenue-overview' }, after: { $workbook: 'sales-pipeline' } },
    };
    expect(fieldView(c)).toEqual({
      kind: 'inline',
      path: 'workbookId',
      before: '{ $workbook: revenue-overview }',
      after: '{ $workbook: sales-pipeline }',
    });
  });

  it("jsonQuery is shown as YAML, as a file writes it, the live side in the file's key order (not JSON: as text)", () => {
    expect(valueLines('{"b":1,"a":[1]}', 'jsonQuery')).toEqual(['b: 1', 'a:', '  - 1']);
    expect(valueLines('{"a":[1],"b":1}', 'jsonQuery', '{"b":2,"a":[1]}')).toEqual(['b: 1', 'a:', '  - 1']);
    expect(valueLines('{nope', 'jsonQuery')).toEqual(['{nope']);
    expect(JSON.stringify(orderLike({ a: 1, c: 3, b: { y: 1, x: 2 } }, { b: { x: 0, y: 0 }, a: 0 }))).toBe(
      '{"b":{"x":2,"y":1},"a":1,"c":3}',
    );
  });

  it('a jsonQuery diff is headed by the YAML keys above its change, not JSON line numbers', () => {
    const before = JSON.stringify({
      measures: ['orders.count'],
      filters: [{ member: 'orders.status', values: ['paid'] }],
    });
    const after = JSON.stringify({
      measures: ['orders.count'],
      filters: [{ member: 'orders.status', values: ['paid', 'open'] }],
    });
    const v = fieldView({ path: 'jsonQuery', before, after });
    expect(v.kind === 'block' && v.lines.map((l) => (l.sign === '@' ? l.text : `${l.sign}${l.text}`))).toEqual([
      '@@ jsonQuery: filters > values @@',
      '   - member: orders.status',
      '     values:',
      '       - paid',
      '+      - open',
    ]);
  });

  it('finds the keys above a YAML line by indentation, list items included', () => {
    const lines = ['a:', '  b:', '    - c: 1', '      d:', '        - 2', 'e: 3'];
    expect(yamlPathAt(lines, 4)).toEqual(['a', 'b', 'd']);
    expect(yamlPathAt(lines, 2)).toEqual(['a', 'b']);
    expect(yamlPathAt(lines, 5)).toEqual([]);
  });

  it('a diff keeps three lines of context; its header names the field and the line of the change', () => {
    const before = ['1', '2', '3', '4', '5', '6', '7', '8', '9'];
    const after = [...before];
    after[8] = 'nine';
    expect(lineDiff(before, after, { path: 'sqlQuery', structured: false }).map((l) => `${l.sign}${l.text}`)).toEqual([
      '@@@ sqlQuery line 9 @@',
      ' 6',
      ' 7',
      ' 8',
      '-9',
      '+nine',
    ]);
  });
});
