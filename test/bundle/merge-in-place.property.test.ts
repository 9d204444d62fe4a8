// The merge and the in-place edits together: whatever a draft's widgets did in
// the UI (moved, resized, retyped, added, removed, reordered), taking them
// into a file that export wrote gives a file that reads as the deployment's
// draft (no record: everything that differs is taken), and the lines of the
// widgets the UI did not touch keep their text (every such edit is made in the text).
import fc from 'fast-check';
import { parse } from 'yaml';
import { describe, expect, test } from 'vitest';
import { applyEdits, editInPlace } from '../../src/bundle/edit-in-place.js';
import { toYaml } from '../../src/bundle/write.js';
import { mergeResource } from '../../src/core/export/merge.js';
import type { JsonValue } from '../../src/core/json.js';
import { runs } from '../helpers/property.js';

const position = fc.record({
  x: fc.nat(11),
  y: fc.nat(20),
  w: fc.integer({ min: 1, max: 12 }),
  h: fc.integer({ min: 1, max: 8 }),
});
const widget = (id: string) =>
  fc.record({
    id: fc.constant(id),
    type: fc.constantFrom('TEXT', 'CHART', 'DIVIDER'),
    position,
    // A file's `${` starts a variable (export writes a literal one as `$${`); templated values are
    // decided apart from widgets (test/e2e/export-merge.test.ts), so the texts here hold none.
    config: fc.option(fc.record({ text: fc.string({ maxLength: 10 }).filter((t) => !t.includes('${')) }), {
      nil: undefined,
    }),
  });
const widgets = fc
  .uniqueArray(fc.constantFrom('a', 'b', 'c', 'd', 'e', 'f'), { maxLength: 6 })
  .chain((ids) => fc.tuple(...ids.map(widget)));

function clean(v: unknown): JsonValue {
  return JSON.parse(JSON.stringify(v)) as JsonValue;
}

describe('merge, then edit in place', () => {
  test('the file reads as the live draft afterwards; untouched widgets keep their lines', () => {
    fc.assert(
      fc.property(widgets, widgets, (fileWidgets, liveWidgets) => {
        const file = clean({
          kind: 'Workbook',
          slug: 'w',
          meta: { dashboardDraft: { title: 'T', widgets: fileWidgets } },
        });
        const live = clean({
          kind: 'Workbook',
          slug: 'w',
          meta: { dashboardDraft: { title: 'T', widgets: liveWidgets } },
        });
        const m = mergeResource({
          change: {
            address: 'workbook/w',
            kind: 'workbook',
            actions: ['update'],
            liveId: 1,
            changes: [{ path: 'meta.dashboardDraft', before: null, after: null }],
            requests: [],
          },
          record: undefined,
          live,
          exported: live as { [k: string]: JsonValue },
          raw: file as { [k: string]: JsonValue },
          rendered: file as { [k: string]: JsonValue },
        });
        expect(applyEdits(file, m.edits)).toEqual(live);
        const text = toYaml(file);
        const r = editInPlace(text, 0, m.edits);
        expect(parse(r.text)).toEqual(live);
        expect(r.inPlace).toBe(true);
        // A widget the UI left as it was keeps its text, wherever it now stands.
        const blocks = (t: string) =>
          t
            .split(/\n(?=\s+- id: )/)
            .slice(1)
            .map((b) => b.replace(/\n$/, ''));
        const before = new Set(blocks(text));
        for (const w of (file as any).meta.dashboardDraft.widgets as { id: string }[]) {
          const same = (live as any).meta.dashboardDraft.widgets.find((x: { id: string }) => x.id === w.id);
          if (same === undefined || JSON.stringify(same) !== JSON.stringify(w)) continue;
          const mine = blocks(text).find((b) => b.includes(`- id: ${w.id}\n`) || b.endsWith(`- id: ${w.id}`));
          expect(blocks(r.text).some((b) => b === mine || `${b}` === mine)).toBe(true);
          expect(before.has(mine!)).toBe(true);
        }
      }),
      { numRuns: runs(100) },
    );
  });
});
