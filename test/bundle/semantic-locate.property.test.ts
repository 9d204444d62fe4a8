// Property: over generated queries of every shape the bundle allows, the
// members found are exactly the ones generated (member and role), and each
// unknown member is reported at a file:line:col where its name stands in the
// file, whether the jsonQuery is written as a mapping, a block of JSON text
// or a quoted JSON string. Also for a SQL report's MEASURE() calls.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { stringify } from 'yaml';
import { loadBundle } from '../../src/bundle/load.js';
import { bundleMembers, checkMembers } from '../../src/core/semantic/check.js';
import { indexModel } from '../../src/core/semantic/model-index.js';
import { runs } from '../helpers/property.js';
import { bundle } from './tmp.js';

const opts = { vars: {}, env: {}, mayHoldUnknownRefs: false };
const noModel = indexModel({ cubes: [] });

const name = fc
  .tuple(fc.constantFrom('orders', 'accounts', 'o', 'line_items'), fc.stringMatching(/^[a-z][a-z_]{0,7}$/))
  .map(([c, m]) => `${c}.${m}`);

type Expected = [string, string][];

/** A filter tree (depth ≤ 3) and the members it names. */
const filter: fc.Memo<{ value: unknown; names: Expected }> = fc.memo((depth) =>
  depth <= 1
    ? fc
        .tuple(name, fc.constantFrom('member', 'dimension'))
        .map(([m, key]) => ({ value: { [key]: m, operator: 'set' }, names: [[m, 'filter']] as Expected }))
    : fc.oneof(
        filter(1),
        fc.tuple(fc.constantFrom('and', 'or'), fc.array(filter(depth - 1), { maxLength: 3 })).map(([g, fs]) => ({
          value: { [g]: fs.map((f) => f.value) },
          names: fs.flatMap((f) => f.names),
        })),
      ),
);

const query = fc
  .record({
    measures: fc.array(name, { maxLength: 3 }),
    dimensions: fc.array(name, { maxLength: 3 }),
    segments: fc.array(name, { maxLength: 2 }),
    timeDimensions: fc.array(name, { maxLength: 2 }),
    filters: fc.array(filter(3), { maxLength: 3 }),
    order: fc.oneof(
      fc.uniqueArray(name, { maxLength: 2 }).map((o) => ({ object: true, o })),
      fc.array(name, { maxLength: 2 }).map((o) => ({ object: false, o })),
    ),
  })
  .map((q) => {
    const names: Expected = [
      ...q.measures.map((m): [string, string] => [m, 'measure']),
      ...q.dimensions.map((m): [string, string] => [m, 'dimension']),
      ...q.segments.map((m): [string, string] => [m, 'segment']),
      ...q.timeDimensions.map((m): [string, string] => [m, 'timeDimension']),
      ...q.filters.flatMap((f) => f.names),
      ...q.order.o.map((m): [string, string] => [m, 'order']),
    ];
    const value = {
      measures: q.measures,
      dimensions: q.dimensions,
      segments: q.segments,
      timeDimensions: q.timeDimensions.map((dimension) => ({ dimension, granularity: 'day' })),
      filters: q.filters.map((f) => f.value),
      order: q.order.object ? Object.fromEntries(q.order.o.map((m) => [m, 'asc'])) : q.order.o.map((m) => [m, 'desc']),
    };
    return { value, names };
  });

const form = fc.constantFrom('mapping', 'block', 'single-quoted', 'double-quoted');

function reportYaml(jq: unknown, how: string): string {
  const head = 'kind: Report\npublicId: semProp00001\nname: p\n';
  const text = JSON.stringify(jq, null, how === 'block' ? 2 : undefined);
  if (how === 'mapping') return head + stringify({ jsonQuery: jq });
  if (how === 'block') return `${head}jsonQuery: |\n${text.replace(/^/gm, '  ')}\n`;
  if (how === 'single-quoted') return `${head}jsonQuery: '${text.replaceAll("'", "''")}'\n`;
  return `${head}jsonQuery: ${JSON.stringify(text)}\n`;
}

const sorted = (x: Expected) => x.map((p) => p.join(' ')).sort();
/** With no model every name is one `/v1/meta` does not list: pending for Cube's planner, placed all the same. */
const unlistedIn = (c: ReturnType<typeof checkMembers>) => ({
  issues: c.pending.flatMap((p) => p.uses.map((u) => u.issue)),
});

describe('member extraction and placement, generated queries', () => {
  test('every generated member is found with its role, and each is placed where its name stands', async () => {
    await fc.assert(
      fc.asyncProperty(query, form, async (q, how) => {
        const dir = bundle({ 'reports/r.yaml': reportYaml(q.value, how) });
        const { desired, diagnostics } = await loadBundle(dir, opts);
        expect(diagnostics.filter((d) => d.severity === 'error')).toEqual([]);
        const result = unlistedIn(checkMembers(bundleMembers(desired), noModel));
        expect(sorted(result.issues.map((i) => [i.member, i.role]))).toEqual(sorted(q.names));
        const lines = readFileSync(join(dir, 'reports/r.yaml'), 'utf8').split('\n');
        for (const i of result.issues) {
          expect(i.pos.file).toBe('reports/r.yaml');
          const at = lines[i.pos.line - 1]!.slice(i.pos.col - 1);
          // A plain scalar starts with the name; a quoted one (a mapping's key or value) with its quote.
          expect(at.replace(/^["']/, '').startsWith(i.member)).toBe(true);
        }
        // Text forms: the same name twice is placed at two different appearances.
        const seen = new Set(result.issues.map((i) => `${i.member}@${i.pos.line}:${i.pos.col}`));
        if (how !== 'mapping') expect(seen.size).toBe(result.issues.length);
      }),
      { numRuns: runs(60) },
    );
  });

  test("a SQL report's MEASURE() calls are placed in a block scalar at each appearance", async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.stringMatching(/^[a-z][a-z_]{0,7}$/), { minLength: 1, maxLength: 4 }),
        async (ms) => {
          const select = ms.map((m, i) => `MEASURE(orders.${m}) AS c${i}`).join(',\n    ');
          const text = `kind: Report\npublicId: semProp00002\nname: s\nsqlQuery: |\n  SELECT\n    ${select}\n  FROM orders\n`;
          const dir = bundle({ 'reports/s.yaml': text });
          const { desired } = await loadBundle(dir, opts);
          const result = unlistedIn(checkMembers(bundleMembers(desired), noModel));
          // The table it reads (unlisted too, in a model of nothing) first, at its FROM.
          expect(result.issues.map((i) => i.member)).toEqual(['orders', ...ms.map((m) => `orders.${m}`)]);
          const lines = text.split('\n');
          const [table, ...measures] = result.issues;
          expect(lines[table!.pos.line - 1]!.slice(table!.pos.col - 6)).toBe('FROM orders');
          for (const [k, i] of measures.entries()) {
            expect(lines[i.pos.line - 1]!.slice(i.pos.col - 1).startsWith(`orders.${ms[k]})`)).toBe(true);
          }
        },
      ),
      { numRuns: runs(30) },
    );
  });
});
