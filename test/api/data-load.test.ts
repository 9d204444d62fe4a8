// The reader of reports' data against the emulator as a real HTTP server: a minted token alone goes to the
// Core Data API (never the platform token); "Continue wait" is polled until the data comes, within a time
// budget; the row limit caps a query's own; at most `concurrency` reads at once; a query Cube refuses is an
// answer that carries Cube's message; only a SELECT goes to the SQL API; nothing but reads is sent.
import { afterEach, describe, expect, test } from 'vitest';
import { ApiClient } from '../../src/api/client.js';
import { openDataReader, type DataReader } from '../../src/api/data-load.js';
import { createEmulator, type Emulator, type EmulatorOptions } from '../../src/emulator/index.js';

const open: { emu: Emulator; client: ApiClient; reader?: DataReader }[] = [];
afterEach(async () => {
  for (const o of open.splice(0)) {
    await o.reader?.close();
    await o.client.close();
    await o.emu.close();
  }
});

async function readerOf(opts: EmulatorOptions = {}, readerOpts: Parameters<typeof openDataReader>[2] = {}) {
  const emu = await createEmulator({ port: 0, randomSeed: 5, ...opts });
  const client = new ApiClient({ baseUrl: emu.url, token: emu.adminToken });
  const slot: (typeof open)[number] = { emu, client };
  open.push(slot);
  const opened = await openDataReader(client, 1, { pollMs: 20, ...readerOpts });
  if (!opened.ok) throw new Error(opened.why);
  slot.reader = opened.reader;
  return { emu, reader: opened.reader };
}

const Q = { measures: ['subscriptions.mrr'], dimensions: ['accounts.region'] };
const core = (emu: Emulator) => emu.log.filter((e) => e.path.startsWith('/cubejs-api/'));

describe('reading a report’s data', () => {
  test('the minted token alone, bare; numbers parsed; only reads sent', async () => {
    const { emu, reader } = await readerOf();
    const r = await reader.load(Q);
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    expect(r.table.rows).toHaveLength(5);
    expect(typeof r.table.rows[0]![1]).toBe('number');
    const auth = core(emu).map((e) => e.authorization);
    expect(auth).toHaveLength(1);
    expect(auth[0]).toMatch(/^cube-/);
    expect(auth[0]).not.toContain(emu.adminToken);
    // Platform side: the environments read, a token minted; nothing else written.
    const writes = emu.log.filter((e) => e.method !== 'GET' && !e.path.startsWith('/cubejs-api/'));
    expect(writes.map((e) => e.path)).toEqual(['/api/v1/deployments/1/token']);
  });

  test('"Continue wait" is polled until the data comes', async () => {
    const { emu, reader } = await readerOf({ faults: 'continue-wait=3' });
    const r = await reader.load(Q);
    expect(r.ok).toBe(true);
    expect(core(emu).map((e) => `${e.method} ${e.path}`)).toEqual(Array(4).fill('POST /cubejs-api/v1/load'));
  });

  test('a query that stays "Continue wait" ends at the time budget, said so', async () => {
    const { reader } = await readerOf({ faults: 'continue-wait=1000' }, { budgetMs: 300 });
    const started = Date.now();
    const r = await reader.load(Q);
    expect(Date.now() - started).toBeLessThan(2000);
    expect(r).toEqual({ ok: false, why: 'no data after 0 s (Cube answered "Continue wait")' });
  });

  test('the row limit caps the query’s own limit; a lower one is kept', async () => {
    const { emu, reader } = await readerOf({}, { limit: 7 });
    const series = { ...Q, timeDimensions: [{ dimension: 'subscriptions.billing_date', granularity: 'month' }] };
    const big = await reader.load({ ...series, limit: 5000 });
    const small = await reader.load({ ...series, limit: 3 });
    expect([big.ok && big.table.rows.length, small.ok && small.table.rows.length]).toEqual([7, 3]);
    expect(core(emu).map((e) => (e.requestBody as { query: { limit: number } }).query.limit)).toEqual([7, 3]);
  });

  test("a query Cube refuses: an answer with Cube's own message, marked refused", async () => {
    const { reader } = await readerOf();
    expect(await reader.load({ measures: ['subscriptions.mrrr'] })).toEqual({
      ok: false,
      why: "'mrrr' not found for path 'subscriptions.mrrr'",
      refused: true,
    });
  });

  test('at most `concurrency` reads at once', async () => {
    const { emu, reader } = await readerOf({ latencyMs: 80 }, { concurrency: 2 });
    const queries = [
      'subscriptions.mrr',
      'subscriptions.arr',
      'subscriptions.count',
      'accounts.count',
      'churn.logo_churn_rate',
    ];
    const all = await Promise.all(queries.map((m) => reader.load({ measures: [m] })));
    expect(all.every((r) => r.ok)).toBe(true);
    const spans = core(emu).map((e) => [Date.parse(e.startedAt), Date.parse(e.startedAt) + e.durationMs] as const);
    const most = Math.max(...spans.map(([s]) => spans.filter(([a, b]) => a <= s && s < b).length));
    expect(most).toBeLessThanOrEqual(2);
  });

  test('SQL: a SELECT goes to the SQL API; anything else is not sent', async () => {
    const { emu, reader } = await readerOf();
    const ok = await reader.sql('SELECT accounts.region, MEASURE(accounts.count) AS n FROM accounts GROUP BY 1');
    expect(ok.ok && ok.table.columns.map((c) => c.kind)).toEqual(['category', 'measure']);
    const refused = await reader.sql('SELECT MEASURE(accounts.nope) FROM accounts');
    expect(refused).toEqual({
      ok: false,
      why: "Error during planning: column 'accounts.nope' not found",
      refused: true,
    });
    expect(await reader.sql('DELETE FROM accounts')).toEqual({
      ok: false,
      why: 'only a SELECT is run for a picture; this SQL is not one',
    });
    expect(core(emu).map((e) => e.path)).toEqual(['/cubejs-api/v1/cubesql', '/cubejs-api/v1/cubesql']);
  });

  test('no data model: the reader is refused with why, and no data request is made', async () => {
    const emu = await createEmulator({ port: 0, model: null });
    const client = new ApiClient({ baseUrl: emu.url, token: emu.adminToken, maxRetries: 0 });
    open.push({ emu, client });
    const opened = await openDataReader(client, 1);
    expect(opened.ok).toBe(false);
    if (!opened.ok) expect(opened.why).toMatch(/rest/);
    expect(core(emu)).toEqual([]);
  });
});
