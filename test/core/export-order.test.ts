// The one key order export writes: schema order for what the bundle schema
// describes, every other key sorted, at every depth, whatever order came in.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { DOC_SHAPES, inExportOrder } from '../../src/core/export/order.js';
import { canonicalJson } from '../../src/core/canonical.js';
import type { JsonValue } from '../../src/core/json.js';
import { runs } from '../helpers/property.js';

const keysDeep = (v: unknown, out: string[][] = []): string[][] => {
  if (v !== null && typeof v === 'object') {
    if (!Array.isArray(v)) out.push(Object.keys(v));
    for (const x of Object.values(v)) keysDeep(x, out);
  }
  return out;
};

describe('inExportOrder', () => {
  it('a workbook: document keys, draft, widget and position members in schema order; the rest sorted', () => {
    const doc = {
      publish: true,
      meta: {
        zeta: { b: 1, a: 2 },
        dashboardDraft: {
          widgets: [
            { style: {}, zNew: 1, config: { y: 1, x: 2 }, position: { h: 4, w: 6, y: 0, x: 0 }, type: 'TEXT', id: 'a' },
          ],
          filterBar: true,
          title: 'T',
          kind: 'CLASSIC',
        },
        alpha: 1,
      },
      name: 'n',
      slug: 's',
      kind: 'Workbook',
    };
    const out = inExportOrder(doc, DOC_SHAPES.workbook) as Record<string, any>;
    expect(Object.keys(out)).toEqual(['kind', 'slug', 'name', 'meta', 'publish']);
    expect(Object.keys(out.meta)).toEqual(['alpha', 'dashboardDraft', 'zeta']);
    expect(Object.keys(out.meta.zeta)).toEqual(['a', 'b']);
    expect(Object.keys(out.meta.dashboardDraft)).toEqual(['kind', 'title', 'widgets', 'filterBar']);
    const w = out.meta.dashboardDraft.widgets[0];
    expect(Object.keys(w)).toEqual(['id', 'type', 'position', 'config', 'style', 'zNew']);
    expect(Object.keys(w.position)).toEqual(['x', 'y', 'w', 'h']);
    expect(Object.keys(w.config)).toEqual(['x', 'y']);
  });

  it('keeps `__proto__` as a member, and loses nothing: the same canonical content, any input order', () => {
    const json = fc.letrec((tie) => ({
      value: fc.oneof(
        { depthSize: 'small' },
        fc.constantFrom<JsonValue>(null, true, 1, 'x'),
        fc.array(tie('value'), { maxLength: 3 }),
        fc.dictionary(fc.constantFrom('a', 'b', 'Z', 'é', '__proto__', 'widgets', 'id'), tie('value'), { maxKeys: 4 }),
      ),
    })).value as fc.Arbitrary<JsonValue>;
    fc.assert(
      fc.property(json, (v) => {
        const out = inExportOrder(v, DOC_SHAPES.workbook);
        expect(canonicalJson(out)).toBe(canonicalJson(v));
        // Equal content in the reverse order gives the same keys in the same order.
        const reversed = JSON.parse(JSON.stringify(v), (_k, x: unknown) =>
          x !== null && typeof x === 'object' && !Array.isArray(x)
            ? Object.fromEntries(Object.entries(x).reverse())
            : x,
        ) as JsonValue;
        expect(keysDeep(inExportOrder(reversed, DOC_SHAPES.workbook))).toEqual(keysDeep(out));
      }),
      { numRuns: runs(300) },
    );
  });
});
