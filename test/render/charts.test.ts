// The pictures drawn with data: one golden SVG per kind of chart (line, area, bar, pie, KPI, table), each
// also read for what it must show (so a golden file written wrong cannot pass); the same answer always gives
// the same picture, whatever was drawn before it (a property); numbers parsed from Cube's strings by what the
// annotation says; a KPI in its report's format. `WSC_UPDATE_GOLDEN=1` rewrites the files (then look at them).
import fc from 'fast-check';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it, test } from 'vitest';
import { tableOfLoad, tableOfSql, type DataRead, type DataTable } from '../../src/core/chart-data.js';
import type { ChartInput } from '../../src/preview/chart-types.js';
import { ChartDrawer, type ChartSource } from '../../src/preview/charts.js';
import { chartSpec, formatValue, type DrawnKind } from '../../src/preview/chart-spec.js';
import { renderChart } from '../../src/preview/chart-render.js';
import { runs } from '../helpers/property.js';

const GOLDEN = join(import.meta.dirname, '../golden/charts');

function golden(name: string, svg: string): void {
  const file = join(GOLDEN, `${name}.svg`);
  if (process.env['WSC_UPDATE_GOLDEN'] === '1') writeFileSync(file, svg);
  expect(existsSync(file), `${file} is missing: run with WSC_UPDATE_GOLDEN=1 and look at it`).toBe(true);
  expect(svg).toBe(readFileSync(file, 'utf8'));
}

/** A `/v1/load` answer as Cube gives it: numbers as strings, times without a zone. */
const answer = {
  data: ['2026-01-01', '2026-02-01', '2026-03-01', '2026-04-01'].flatMap((d, i) =>
    ['North', 'South'].map((region, j) => ({
      'subscriptions.billing_date.month': `${d}T00:00:00.000`,
      'subscriptions.billing_date': `${d}T00:00:00.000`,
      'accounts.region': region,
      'subscriptions.mrr': (1000 + 250 * i + 400 * j).toFixed(2),
    })),
  ),
  annotation: {
    measures: { 'subscriptions.mrr': { title: 'Subscriptions MRR', shortTitle: 'MRR', type: 'number' } },
    dimensions: { 'accounts.region': { title: 'Accounts Region', shortTitle: 'Region', type: 'string' } },
    timeDimensions: {
      'subscriptions.billing_date.month': { title: 'Billing date', shortTitle: 'Month', type: 'time' },
    },
  },
};
const query = {
  measures: ['subscriptions.mrr'],
  dimensions: ['accounts.region'],
  timeDimensions: [{ dimension: 'subscriptions.billing_date', granularity: 'month' }],
};
const series = tableOfLoad(answer, query, 1000);

async function draw(kind: DrawnKind, table: DataTable, format?: unknown): Promise<string> {
  const spec = chartSpec({ kind, table, width: 360, height: 180, ...(format ? { format: format as never } : {}) });
  if ('why' in spec) throw new Error(spec.why);
  return renderChart(spec.spec, `g-${kind}`);
}

describe('the data of a chart', () => {
  test('a /v1/load answer: numbers parsed from strings, times as UTC, columns titled as Cube titles them', () => {
    expect(series.columns).toEqual([
      { key: 'subscriptions.billing_date.month', title: 'Month', kind: 'time' },
      { key: 'accounts.region', title: 'Region', kind: 'category' },
      { key: 'subscriptions.mrr', title: 'MRR', kind: 'measure' },
    ]);
    expect(series.rows[1]).toEqual([Date.UTC(2026, 0, 1), 'South', 1400]);
    expect(series.truncated).toBe(false);
    const cut = tableOfLoad(answer, query, 3);
    expect([cut.rows.length, cut.truncated]).toEqual([3, true]);
    // A value that is not a number is no number (never NaN drawn as 0).
    const odd = tableOfLoad(
      { data: [{ 'subscriptions.mrr': 'n/a' }], annotation: answer.annotation },
      { measures: ['subscriptions.mrr'] },
      10,
    );
    expect(odd.rows).toEqual([[null]]);
  });

  test('a /v1/cubesql answer: the schema line types the columns; values parsed', () => {
    const text = `${JSON.stringify({
      schema: [
        { name: 'month', column_type: 'Timestamp' },
        { name: 'region', column_type: 'String' },
        { name: 'mrr', column_type: 'Double' },
      ],
    })}\n${JSON.stringify({ data: [['2026-01-01T00:00:00.000', 'North', '12.5']] })}\n`;
    const t = tableOfSql(text, 10);
    expect(t.columns.map((c) => c.kind)).toEqual(['time', 'category', 'measure']);
    expect(t.rows).toEqual([[Date.UTC(2026, 0, 1), 'North', 12.5]]);
    expect(() => tableOfSql('{"error":"boom"}\n', 10)).toThrow('boom');
  });

  test("a KPI's value in the report's meta.format, the same in any locale", () => {
    expect(formatValue(1.0843, { type: 'percent', decimalPlaces: 1 })).toBe('108.4%');
    expect(formatValue(1234567.891, { type: 'currency', currency: 'EUR' })).toBe('€1,234,568');
    expect(formatValue(1234567.891, { type: 'number', decimalPlaces: 2 })).toBe('1,234,567.89');
    expect(formatValue(1234567.891, undefined)).toBe('1,234,567.89');
    expect(formatValue(null, undefined)).toBe('—');
  });

  test('no rows, or no measure: the card says why instead of an empty picture', () => {
    expect(chartSpec({ kind: 'line', table: { ...series, rows: [] }, width: 300, height: 150 })).toEqual({
      why: 'the query answered no rows',
    });
    const noMeasure = { ...series, columns: series.columns.slice(0, 2), rows: series.rows.map((r) => r.slice(0, 2)) };
    expect(chartSpec({ kind: 'bar', table: noMeasure, width: 300, height: 150 })).toEqual({
      why: 'a bar needs a measure; the answer has none',
    });
  });
});

describe('a golden picture per kind', () => {
  it.each([
    ['line', (svg: string) => expect(svg).toMatch(/class="mark-line role-mark/)],
    ['area', (svg: string) => expect(svg).toMatch(/class="mark-area role-mark/)],
    ['bar', (svg: string) => expect(svg).toMatch(/class="mark-rect role-mark/)],
    ['pie', (svg: string) => expect(svg).toMatch(/class="mark-arc role-mark/)],
    ['kpi', (svg: string) => expect(svg).toContain('>140,000.0%<')],
    ['table', (svg: string) => expect(svg).toContain('>1,400<')],
  ] as const)('%s', async (kind, check) => {
    const table = kind === 'kpi' ? { ...series, rows: [[Date.UTC(2026, 0, 1), 'North', 1400]] } : series;
    const svg = await draw(kind, table, kind === 'kpi' ? { type: 'percent', decimalPlaces: 1 } : undefined);
    check(svg);
    // The series' names and the measure's title are drawn (not for a KPI: its title only).
    if (kind !== 'kpi' && kind !== 'table') expect(svg).toContain('>North<');
    expect(svg).toContain(kind === 'kpi' || kind === 'table' ? '>MRR<' : 'MRR');
    // Its ids are its own: prefixed, numbered from 0 in order.
    for (const m of svg.matchAll(/\bid="([^"]+)"/g)) expect(m[1]).toMatch(new RegExp(`^g-${kind}-\\d+$`));
    golden(kind, svg);
  });
});

test('property: the same answer always gives the same picture, whatever was drawn before it', async () => {
  const kinds: DrawnKind[] = ['line', 'area', 'bar', 'pie', 'kpi', 'table'];
  const cell = fc.tuple(fc.constantFrom('North', 'South', 'East'), fc.double({ min: -1e6, max: 1e6, noNaN: true }));
  await fc.assert(
    fc.asyncProperty(
      fc.constantFrom(...kinds),
      fc.array(cell, { minLength: 1, maxLength: 8 }),
      fc.constantFrom(...kinds),
      async (kind, rows, other) => {
        const table: DataTable = {
          columns: [
            { key: 'r', title: 'Region', kind: 'category' },
            { key: 'm', title: 'Amount', kind: 'measure' },
          ],
          rows: rows.map(([r, m]) => [r, m]),
          truncated: false,
        };
        const first = await draw(kind, table);
        await draw(other, table);
        expect(await draw(kind, structuredClone(table))).toBe(first);
      },
    ),
    { numRuns: runs(15) },
  );
});

describe('the drawer', () => {
  const card = (jsonQuery: string): ChartInput => ({ jsonQuery, kind: 'bar', visualization: 'bar' });
  const counting = (answers: DataRead[]) => {
    const asked: string[] = [];
    const source: ChartSource = {
      load: (q) => {
        asked.push(JSON.stringify(q));
        return Promise.resolve(answers.shift() ?? { ok: true, table: series });
      },
      sql: () => Promise.reject(new Error('no SQL here')),
    };
    return { asked, source };
  };

  test("a page's reloads read a query once (shared reads); a failed read is read again, Cube's refusal is not", async () => {
    const q = JSON.stringify(query);
    const { asked, source } = counting([{ ok: false, why: 'socket hang up' }]);
    const reads = new Map<string, Promise<DataRead>>();
    expect(await new ChartDrawer(source, reads).draw(card(q), 300, 150)).toEqual({ why: 'no data: socket hang up' });
    await new Promise((r) => setImmediate(r));
    const drawn = await new ChartDrawer(source, reads).draw(card(q), 300, 150);
    expect(drawn.svg).toContain('mark-rect');
    await new ChartDrawer(source, reads).draw(card(q), 320, 160);
    expect(asked).toHaveLength(2);
    const refused = counting([{ ok: false, why: "'x' not found for path 'a.x'", refused: true }]);
    const kept = new Map<string, Promise<DataRead>>();
    expect(await new ChartDrawer(refused.source, kept).draw(card('{"measures":["a.x"]}'), 300, 150)).toEqual({
      error: "'x' not found for path 'a.x'",
    });
    await new Promise((r) => setImmediate(r));
    await new ChartDrawer(refused.source, kept).draw(card('{"measures":["a.x"]}'), 300, 150);
    expect(refused.asked).toHaveLength(1);
  });

  test('a source that rejects (it should not): the card says why, nothing unhandled, the query read again next time', async () => {
    const unhandled: unknown[] = [];
    const onUnhandled = (e: unknown) => unhandled.push(e);
    process.on('unhandledRejection', onUnhandled);
    try {
      let calls = 0;
      const source: ChartSource = {
        load: () =>
          ++calls === 1
            ? Promise.reject(new Error('a bug in the reader'))
            : Promise.resolve({ ok: true, table: series }),
        sql: () => Promise.reject(new Error('no SQL here')),
      };
      const reads = new Map<string, Promise<DataRead>>();
      expect(await new ChartDrawer(source, reads).draw(card(JSON.stringify(query)), 300, 150)).toEqual({
        why: 'no data: a bug in the reader',
      });
      await new Promise((r) => setImmediate(r));
      expect((await new ChartDrawer(source, reads).draw(card(JSON.stringify(query)), 300, 150)).svg).toContain(
        'mark-rect',
      );
      expect(calls).toBe(2);
      await new Promise((r) => setTimeout(r, 10));
      expect(unhandled).toEqual([]);
    } finally {
      process.off('unhandledRejection', onUnhandled);
    }
  });

  test('a kind not drawn with data, or a query that is not JSON: the card says why, nothing is read', async () => {
    const { asked, source } = counting([]);
    const d = new ChartDrawer(source);
    expect(await d.draw({ ...card('{}'), kind: 'pivot' }, 300, 150)).toEqual({
      why: 'a pivot table is drawn as a box: wsc draws lines, areas, bars, pies, KPIs and tables with data',
    });
    expect(await d.draw(card('{nope'), 300, 150)).toEqual({ why: 'its jsonQuery is not JSON' });
    expect(asked).toEqual([]);
  });
});
