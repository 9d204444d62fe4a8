// File names of exported resources: safe whatever the name holds, stable,
// collision-free even on case-insensitive file systems, and independent of
// the order in which resources arrive.
import fc from 'fast-check';
import { posix, resolve, sep } from 'node:path';
import { describe, expect, test, vi } from 'vitest';
import { assignNames, fileStem, groupNames, MAX_STEM, NameRegistry } from '../../src/core/export/names.js';
import { deriveSlugs, mintPublicId, slugify } from '../../src/core/export/mint.js';
import { isPlaceholderPublicId, PUBLIC_ID_RE } from '../../src/domain/wire.js';
import { anyString, runs } from '../helpers/property.js';

describe('fileStem', () => {
  test.each([
    ['Revenue overview', 'revenue-overview'],
    ['../../etc/x', 'etc-x'],
    ['a/b', 'a-b'],
    ['a\\b', 'a-b'],
    ['nul\u0000byte', 'nul-byte'],
    ['.hidden', 'hidden'],
    ['...', 'unnamed'],
    ['', 'unnamed'],
    ['CON', '_con'],
    ['con', '_con'],
    ['Lpt1', '_lpt1'],
    ['Crème brûlée', 'creme-brulee'],
    ['Report', 'report'],
    ['report', 'report'],
    ['売上', 'unnamed'],
    ['snake_case-Name', 'snake_case-name'],
  ])('%j -> %j', (raw, stem) => {
    expect(fileStem(raw)).toBe(stem);
  });

  test('very long names are cut and keep a hash of the whole name', () => {
    const a = fileStem('x'.repeat(300));
    const b = fileStem(`${'x'.repeat(299)}y`);
    expect(a).toMatch(/^x{60}\.[0-9a-f]{8}$/);
    expect(a).not.toBe(b);
  });

  test('any string gives a safe stem that stays in its directory', () => {
    fc.assert(
      fc.property(anyString({ maxLength: 400 }), (raw) => {
        const s = fileStem(raw);
        expect(s).toMatch(/^[a-z0-9_][a-z0-9_.-]*$/);
        expect(s.length).toBeLessThanOrEqual(MAX_STEM + 9);
        expect(s).toBe(s.toLowerCase());
        const dir = resolve('/tmp/out/reports');
        expect(resolve(dir, `${s}.yaml`).startsWith(dir + sep)).toBe(true);
        expect(posix.basename(`${s}.yaml`)).toBe(`${s}.yaml`);
      }),
      { numRuns: runs(2000) },
    );
  });
});

describe('names of a set', () => {
  test('names that differ only in case (or map to one stem) all get a hash suffix', () => {
    const names = assignNames([
      { raw: 'Report', identity: 'AAAAAAAAAAA1' },
      { raw: 'report', identity: 'AAAAAAAAAAA2' },
      { raw: 'a/b', identity: 'AAAAAAAAAAA3' },
      { raw: 'a-b', identity: 'AAAAAAAAAAA4' },
      { raw: 'alone', identity: 'AAAAAAAAAAA5' },
    ]);
    expect(names.get('AAAAAAAAAAA5')).toBe('alone');
    for (const id of ['AAAAAAAAAAA1', 'AAAAAAAAAAA2']) expect(names.get(id)).toMatch(/^report\.[0-9a-f]{8}$/);
    for (const id of ['AAAAAAAAAAA3', 'AAAAAAAAAAA4']) expect(names.get(id)).toMatch(/^a-b\.[0-9a-f]{8}$/);
  });

  test('any set of names: no two files collide case-insensitively, whatever the arrival order', () => {
    fc.assert(
      fc.property(
        fc.uniqueArray(
          fc.record({
            raw: fc.oneof(
              fc.string({ maxLength: 12 }),
              fc.constantFrom('Report', 'report', 'REPORT', 'CON', '../x', 'a/b'),
            ),
            identity: fc.string({ minLength: 1, maxLength: 12 }),
          }),
          {
            selector: (x) => x.identity,
            maxLength: 40,
          },
        ),
        (items) => {
          const a = assignNames(items);
          const b = assignNames([...items].reverse());
          const lower = new Set<string>();
          for (const it of items) {
            const name = a.get(it.identity)!;
            expect(b.get(it.identity)).toBe(name);
            expect(lower.has(name.toLowerCase())).toBe(false);
            lower.add(name.toLowerCase());
          }
        },
      ),
    );
  });

  test('the registry renames an earlier file when a later one joins its stem', () => {
    const reg = new NameRegistry();
    expect(reg.claim('Sales', 'P1')).toEqual({ name: 'sales', renames: [] });
    const second = reg.claim('SALES', 'P2');
    const wanted = groupNames('sales', ['P1', 'P2']);
    expect(second).toEqual({ name: wanted.get('P2'), renames: [{ from: 'sales', to: wanted.get('P1') }] });
    // A third member: no rename, the others already carry suffixes.
    expect(reg.claim('sales', 'P3').renames).toEqual([]);
    // Re-keying renames the file to its new identity's suffix.
    const re = reg.reidentify('P1', 'P9');
    const after = groupNames('sales', ['P9', 'P2', 'P3']).get('P9')!;
    expect(re).toEqual({ name: after, renames: [{ from: wanted.get('P1'), to: after }] });
  });
});

describe('the registry, incrementally', () => {
  /** What the registry must hold: every group named as groupNames names it whole. */
  function expectGrouped(reg: NameRegistry, members: Map<string, string[]>): void {
    for (const [stem, ids] of members) {
      const wanted = groupNames(stem, ids);
      for (const id of ids) expect(reg.nameOf(id)).toBe(wanted.get(id));
    }
  }

  test('after any claims and re-keyings, names equal groupNames of each whole group, and renames lead there', () => {
    const op = fc.oneof(
      fc.record({ claim: fc.constantFrom('Sales', 'sales', 'Costs', 'Untitled', 'x') }),
      fc.record({ rekey: fc.nat() }),
    );
    fc.assert(
      fc.property(fc.array(op, { maxLength: 40 }), (ops) => {
        const reg = new NameRegistry();
        const members = new Map<string, string[]>();
        const files = new Map<string, string>(); // identity -> file name, as a caller tracks them
        let next = 0;
        for (const o of ops) {
          let result: { name: string; renames: { from: string; to: string }[] };
          let identity: string;
          if ('claim' in o) {
            identity = `P${next++}`;
            const stem = fileStem(o.claim);
            members.set(stem, [...(members.get(stem) ?? []), identity]);
            result = reg.claim(o.claim, identity);
          } else {
            const all = [...files.keys()];
            if (all.length === 0) continue;
            const old = all[o.rekey % all.length]!;
            identity = `P${next++}`;
            for (const ids of members.values()) if (ids.includes(old)) ids[ids.indexOf(old)] = identity;
            files.set(identity, files.get(old)!);
            files.delete(old);
            result = reg.reidentify(old, identity);
          }
          for (const r of result.renames) {
            const who = [...files].find(([, f]) => f === r.from);
            expect(who).toBeDefined();
            files.set(who![0], r.to);
          }
          files.set(identity, result.name);
          expectGrouped(reg, members);
          for (const [id, f] of files) expect(reg.nameOf(id)).toBe(f);
        }
      }),
      { numRuns: runs(300) },
    );
  });

  test('a hash clash at 8 characters lengthens the whole group, as groupNames does', () => {
    // sha256 of these two identities starts with the same 8 hex characters (15191f5e).
    const reg = new NameRegistry();
    reg.claim('Sales', 'P1');
    reg.claim('Sales', 'P24241');
    const r = reg.claim('Sales', 'P138551');
    const wanted = groupNames('sales', ['P1', 'P24241', 'P138551']);
    expect(wanted.get('P24241')).toMatch(/^sales\.[0-9a-f]{16}$/);
    expect(r.name).toBe(wanted.get('P138551'));
    expect(r.renames).toHaveLength(2);
    for (const id of ['P1', 'P24241', 'P138551']) expect(reg.nameOf(id)).toBe(wanted.get(id));
    // A later member uses the group's longer hash.
    expect(reg.claim('sales', 'P4')).toEqual({
      name: groupNames('sales', ['P1', 'P24241', 'P138551', 'P4']).get('P4'),
      renames: [],
    });
  });

  test('many resources of one name are named in linear time: the whole group is re-hashed only when it forms or clashes', () => {
    const reg = new NameRegistry();
    // settle() names a whole group (work proportional to its size): calling it
    // per claim was the quadratic behaviour. Counted, not timed.
    const settle = vi.spyOn(NameRegistry.prototype as unknown as { settle: (...a: unknown[]) => unknown }, 'settle');
    for (let i = 0; i < 20000; i++) reg.claim('Untitled', `P${i}`);
    expect(settle.mock.calls.length).toBeLessThan(10);
    settle.mockRestore();
    expect(new Set(Array.from({ length: 20000 }, (_, i) => reg.nameOf(`P${i}`))).size).toBe(20000);
  });
});

describe('minted identities', () => {
  test('minted publicIds are deterministic, well-formed, never placeholder-shaped, and avoid taken ids', () => {
    const a = mintPublicId(1, 42);
    expect(a).toBe(mintPublicId(1, 42));
    expect(a).toMatch(PUBLIC_ID_RE);
    expect(mintPublicId(2, 42)).not.toBe(a);
    expect(mintPublicId(1, 42, (id) => id === a)).not.toBe(a);
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 1e6 }), fc.integer({ min: 1, max: 1e9 }), (dep, id) => {
        const p = mintPublicId(dep, id);
        expect(p).toMatch(PUBLIC_ID_RE);
        expect(isPlaceholderPublicId(p)).toBe(false);
      }),
      { numRuns: runs(300) },
    );
  });

  test.each([
    ['Revenue Overview', 'revenue-overview'],
    ['  Ünïcödé  board ', 'unicode-board'],
    ['!!!', 'workbook'],
    ['a'.repeat(100), 'a'.repeat(60)],
  ])('slugify(%j) = %j', (name, slug) => {
    expect(slugify(name)).toBe(slug);
  });

  test('derived slugs avoid live slugs and each other, in workbook id order', () => {
    const out = deriveSlugs(
      [
        { id: 9, name: 'Sales' },
        { id: 3, name: 'sales' },
        { id: 5, name: 'Finance' },
      ],
      ['Sales', 'other'],
    );
    expect(Object.fromEntries(out)).toEqual({ 3: 'sales-2', 5: 'finance', 9: 'sales-3' });
  });
});
