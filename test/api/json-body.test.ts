// parseJsonBody must be JSON.parse exactly: the twin shortcut may only change
// how much is parsed, never what comes out (or whether it throws).
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parseJsonBody } from '../../src/api/json-body.js';
import { listAnswer } from '../../src/emulator/render.js';
import { jsonOf } from '../helpers/json-arbitrary.js';
import { runs } from '../helpers/property.js';

type Outcome = { ok: true; value: unknown } | { ok: false };
const outcome = (f: () => unknown): Outcome => {
  try {
    return { ok: true, value: f() };
  } catch {
    return { ok: false };
  }
};
const agrees = (text: string) => {
  const want = outcome(() => JSON.parse(text.charCodeAt(0) === 0xfeff ? text.slice(1) : text));
  const got = outcome(() => parseJsonBody(text));
  expect(got).toStrictEqual(want);
};

// Keys that make twins and lookalikes likely: items, data, count, pageInfo, and nested copies.
const key = fc.constantFrom(
  'items',
  'data',
  'count',
  'pageInfo',
  'hasNextPage',
  'endCursor',
  'x',
  '__proto__',
  ',"data":',
);
const json: fc.Arbitrary<unknown> = jsonOf<unknown>(
  [
    fc.string({ maxLength: 6 }),
    fc.constantFrom(',"data":', '{"items":', ',"', '}'),
    fc.integer(),
    fc.boolean(),
    fc.constant(null),
  ],
  key,
);

describe('parseJsonBody', () => {
  it('parses the emulator list answer once per twin and gives what JSON.parse gives', () => {
    const items = [
      { id: 1, meta: { data: [1, 2], count: 3 } },
      { id: 2, name: ',"data":' },
    ];
    const text = listAnswer(
      items.map((i) => JSON.stringify(i)),
      2,
      { hasNextPage: true, hasPreviousPage: false, endCursor: 'c2' },
    ).bytes.toString('utf8');
    const v = parseJsonBody(text) as { items: unknown; data: unknown };
    expect(v).toStrictEqual(JSON.parse(text));
    // The shortcut was taken: the twin is the very same array.
    expect(v.data).toBe(v.items);
  });

  it('parses whole when the twin differs, a member repeats, or the body is not JSON', () => {
    for (const text of [
      '{"items":[1],"data":[2],"pageInfo":{}}',
      '{"items":[1],"data":[1],"items":[3]}',
      '{"items":[1],"data":[1],"data":[4]}',
      '{"items":[1],"data":[1],}',
      '{"items":[1],"data":[1]',
      '{"items":[1,],"data":[1,],"count":1}',
      '{"items":[1],"data":[1],"count":1}}',
      '\uFEFF{"items":[1],"data":[1],"count":1}',
      '{"items":,"data":,"count":1}',
      '{"items":"a","data":"a","__proto__":{"x":1}}',
    ]) {
      agrees(text);
    }
    expect((parseJsonBody('{"items":[1],"data":[1],"items":[3]}') as { items: unknown }).items).toStrictEqual([3]);
  });

  it('is JSON.parse for list-shaped bodies with random members, twins and cuts', () => {
    fc.assert(
      fc.property(
        json,
        fc.boolean(),
        fc.array(fc.tuple(key, json), { maxLength: 3 }),
        fc.option(fc.tuple(fc.nat(), fc.nat(4)), { nil: undefined }),
        (items, twin, rest, cut) => {
          const x = JSON.stringify(items) ?? 'null';
          const y = twin ? x : JSON.stringify([items]);
          let text = `{"items":${x},"data":${y}${rest.map(([k, v]) => `,${JSON.stringify(k)}:${JSON.stringify(v)}`).join('')}}`;
          // Damage: drop a few characters somewhere.
          if (cut) text = text.slice(0, cut[0] % (text.length + 1)) + text.slice((cut[0] % (text.length + 1)) + cut[1]);
          agrees(text);
        },
      ),
      { numRuns: runs(3000) },
    );
  });

  it('is JSON.parse for arbitrary text', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 40 }), (s) => agrees(`{"items":${s}`)),
      { numRuns: runs(2000) },
    );
  });
});
