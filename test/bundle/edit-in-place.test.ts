// Edits made in a YAML file's text: what they change reads back as the data
// wanted, and every line they do not touch keeps its text (flow or block
// style, quoting, comments, the other documents of the file).
import fc from 'fast-check';
import { parse, parseAllDocuments } from 'yaml';
import { describe, expect, test } from 'vitest';
import { editInPlace } from '../../src/bundle/edit-in-place.js';
import type { DocEdit } from '../../src/core/export/merge.js';
import { toYaml } from '../../src/bundle/write.js';
import { runs } from '../helpers/property.js';

const FILE = `# a comment on top
kind: Workbook
slug: w   # trailing comment
meta:
  tags: [a, b]
  sql: |
    SELECT 1
    LIMIT 25
  draft:
    widgets:
      - id: one
        position: { x: 0, y: 0, w: 4, h: 2 }
        config:
          text: "quoted ${'$'}{vars.x}"
      # between the widgets
      - id: two
        position: { x: 4, y: 0, w: 4, h: 2 }
---
kind: Report
publicId: abcdefghijkl
`;

function changed(before: string, after: string): string[] {
  const a = before.split('\n');
  const b = after.split('\n');
  return b.filter((l) => !a.includes(l));
}

describe('editInPlace', () => {
  test.each<[string, DocEdit[], string[]]>([
    [
      'a scalar in a flow mapping',
      [{ op: 'set', path: ['meta', 'draft', 'widgets', 1, 'position', 'h'], value: 3 }],
      ['        position: { x: 4, y: 0, w: 4, h: 3 }'],
    ],
    ['a block literal', [{ op: 'set', path: ['meta', 'sql'], value: 'SELECT 1\nLIMIT 50\n' }], ['    LIMIT 50']],
    ['a flow sequence', [{ op: 'set', path: ['meta', 'tags'], value: ['a', 'c'] }], ['  tags: [a, c]']],
    [
      'a new key in a flow mapping',
      [{ op: 'set', path: ['meta', 'draft', 'widgets', 0, 'position', 'z'], value: 1 }],
      ['        position: { x: 0, y: 0, w: 4, h: 2, z: 1 }'],
    ],
    ['a new key in a block mapping', [{ op: 'set', path: ['meta', 'owner'], value: 'me' }], ['  owner: me']],
    [
      'a double-quoted scalar keeps its quotes',
      [{ op: 'set', path: ['meta', 'draft', 'widgets', 0, 'config', 'text'], value: 'new' }],
      ['          text: "new"'],
    ],
    [
      "a reorder keeps each item's lines and the comment after the first",
      [{ op: 'arrange', path: ['meta', 'draft', 'widgets'], items: [{ keep: 1 }, { keep: 0 }] }],
      [],
    ],
  ])('%s', (_, edits, lines) => {
    const r = editInPlace(FILE, 0, edits);
    expect(r.inPlace).toBe(true);
    expect(changed(FILE, r.text)).toEqual(lines);
    // The comments and the other document are where they were.
    expect(r.text).toContain('# a comment on top\n');
    expect(r.text).toContain('slug: w   # trailing comment\n');
    expect(r.text.endsWith('---\nkind: Report\npublicId: abcdefghijkl\n')).toBe(true);
    expect(parseAllDocuments(r.text).map((d) => d.errors.length)).toEqual([0, 0]);
  });

  test('a reorder moves the lines whole', () => {
    const r = editInPlace(FILE, 0, [
      { op: 'arrange', path: ['meta', 'draft', 'widgets'], items: [{ keep: 1 }, { keep: 0 }] },
    ]);
    expect(parse(r.text.split('---')[0]!).meta.draft.widgets.map((w: { id: string }) => w.id)).toEqual(['two', 'one']);
    expect(r.text).toContain('      - id: one\n        position: { x: 0, y: 0, w: 4, h: 2 }\n');
  });

  test('a delete removes the key and its lines only', () => {
    const r = editInPlace(FILE, 0, [{ op: 'delete', path: ['meta', 'tags'] }]);
    expect(r.inPlace).toBe(true);
    expect(r.text).toBe(FILE.replace('  tags: [a, b]\n', ''));
  });

  test('any scalar set in a file export wrote changes that line alone, and reads back as the data wanted', () => {
    const leaf = fc.oneof(fc.integer(), fc.boolean(), fc.string({ maxLength: 12 }), fc.constant(null));
    const value = fc.dictionary(
      fc.string({ unit: fc.constantFrom('a', 'b', 'c', 'd'), minLength: 1, maxLength: 3 }),
      fc.oneof(leaf, fc.dictionary(fc.constantFrom('x', 'y', 'z'), leaf, { minKeys: 1, maxKeys: 3 })),
      { minKeys: 1, maxKeys: 6 },
    );
    fc.assert(
      fc.property(value, fc.nat(), leaf, (v, pick, next) => {
        const text = toYaml(v);
        const paths: (string | number)[][] = [];
        for (const [k, x] of Object.entries(v)) {
          if (x !== null && typeof x === 'object') for (const j of Object.keys(x)) paths.push([k, j]);
          else paths.push([k]);
        }
        const path = paths[pick % paths.length]!;
        const r = editInPlace(text, 0, [{ op: 'set', path, value: next }]);
        const want = structuredClone(v) as any;
        if (path.length === 1) want[path[0]!] = next;
        else want[path[0]!][path[1]!] = next;
        expect(parse(r.text)).toEqual(want);
        if (r.inPlace) {
          const before = text.split('\n');
          const after = r.text.split('\n');
          expect(after.length).toBe(before.length);
          expect(after.filter((l, i) => l !== before[i]).length).toBeLessThanOrEqual(1);
        }
      }),
      { numRuns: runs(200) },
    );
  });
});
