import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { pageOf } from '../../src/emulator/paging.js';
import { SortedIndex } from '../../src/emulator/sorted-index.js';
import '../helpers/property.js';

interface Item {
  id: number;
  key: string;
}
const cmp = (a: Item, b: Item) => (a.key < b.key ? -1 : a.key > b.key ? 1 : a.id - b.id);

describe('SortedIndex + keyset pages', () => {
  it('stays sorted under any inserts and removals', () => {
    fc.assert(
      fc.property(
        fc.array(fc.tuple(fc.boolean(), fc.integer({ min: 0, max: 30 }), fc.constantFrom('a', 'b', 'c', 'd'))),
        (ops) => {
          const idx = new SortedIndex<Item>(cmp);
          const live = new Map<number, Item>();
          for (const [add, id, key] of ops) {
            const cur = live.get(id);
            if (add && !cur) {
              const it = { id, key };
              live.set(id, it);
              idx.insert(it);
            } else if (!add && cur) {
              expect(idx.remove(cur)).toBe(true);
              live.delete(id);
            }
          }
          expect(idx.items).toEqual([...live.values()].sort(cmp));
        },
      ),
    );
  });

  it('a walk by cursors sees every item that lives throughout, once and in order, whatever changes between pages', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 40 }),
        fc.integer({ min: 1, max: 7 }),
        fc.constantFrom<'ASC' | 'DESC'>('ASC', 'DESC'),
        fc.array(fc.tuple(fc.boolean(), fc.integer({ min: 0, max: 80 })), { maxLength: 60 }),
        (n, first, dir, changes) => {
          const keyOf = (id: number) => String.fromCharCode(97 + (id % 5));
          const idx = SortedIndex.from<Item>(
            Array.from({ length: n }, (_, id) => ({ id, key: keyOf(id) })),
            cmp,
          );
          const touched = new Set<number>();
          const seen: Item[] = [];
          let after: Item | undefined;
          let c = 0;
          for (let guard = 0; guard < 200; guard++) {
            const probe = after;
            const page = pageOf(idx, {
              dir,
              first,
              visible: () => true,
              ...(probe ? { after: (e: Item) => cmp(e, probe) } : {}),
            });
            expect(page.items.length).toBeLessThanOrEqual(first);
            seen.push(...page.items);
            if (!page.hasNextPage) break;
            after = page.items[page.items.length - 1];
            // Between pages: a few inserts and deletes.
            for (let k = 0; k < 2 && c < changes.length; k++, c++) {
              const [add, id] = changes[c]!;
              touched.add(id);
              const cur = idx.items.find((x) => x.id === id);
              if (add && !cur) idx.insert({ id, key: keyOf(id) });
              else if (!add && cur) idx.remove(cur);
            }
          }
          const stable = Array.from({ length: n }, (_, id) => id).filter((id) => !touched.has(id));
          const seenIds = seen.map((x) => x.id);
          for (const id of stable) expect(seenIds.filter((x) => x === id)).toHaveLength(1);
          expect(new Set(seenIds).size).toBe(seenIds.length);
          const order = dir === 'ASC' ? cmp : (a: Item, b: Item) => cmp(b, a);
          expect(seen).toEqual([...seen].sort(order));
        },
      ),
    );
  });
});
