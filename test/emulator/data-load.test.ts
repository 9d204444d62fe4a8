// The emulator's Core Data API serves data: `/v1/load` answers rows made from its model (a series over time,
// categories, numbers as strings), the same rows every time, with Cube's annotation; Cube's refusals for what
// the model lacks (the planner's, as `/v1/sql` gives them); a hidden member answered, as Cube answers it;
// "Continue wait" under `continue-wait=N`; the minted token alone opens it; `/v1/cubesql` answers
// newline-delimited JSON for the SQL it reads and refuses the rest.
import { request } from 'undici';
import { afterEach, describe, expect, test } from 'vitest';
import { createEmulator, type Emulator, type EmulatorOptions } from '../../src/emulator/index.js';

const open: Emulator[] = [];
afterEach(async () => {
  for (const e of open.splice(0)) await e.close();
});

async function emulator(opts: EmulatorOptions = {}): Promise<{ emu: Emulator; token: string }> {
  const emu = await createEmulator({ port: 0, randomSeed: 3, ...opts });
  open.push(emu);
  const res = await request(`${emu.url}/api/v1/deployments/1/token`, {
    method: 'POST',
    headers: { authorization: `Bearer ${emu.adminToken}`, 'content-type': 'application/json' },
    body: JSON.stringify({ expiresIn: 300 }),
  });
  const { cubeApiToken } = (await res.body.json()) as { cubeApiToken: string };
  return { emu, token: cubeApiToken };
}

async function post(
  emu: Emulator,
  path: string,
  body: unknown,
  auth: string,
): Promise<{ status: number; text: string }> {
  const res = await request(`${emu.url}/cubejs-api/v1/${path}`, {
    method: 'POST',
    headers: { authorization: auth, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  return { status: res.statusCode, text: await res.body.text() };
}

const SERIES = {
  measures: ['subscriptions.mrr', 'subscriptions.count'],
  dimensions: ['accounts.region'],
  timeDimensions: [{ dimension: 'subscriptions.billing_date', granularity: 'month' }],
};

describe('the emulator serves data at /v1/load', () => {
  test('a series over time by category, numbers as strings, with Cube annotation; the same every time', async () => {
    const { emu, token } = await emulator();
    const a = await post(emu, 'load', { query: SERIES }, token);
    expect(a.status).toBe(200);
    const body = JSON.parse(a.text);
    // 12 months × 5 regions.
    expect(body.data).toHaveLength(60);
    const row = body.data[0];
    expect(row['subscriptions.billing_date.month']).toMatch(/^\d{4}-\d\d-01T00:00:00\.000$/);
    expect(row['subscriptions.billing_date']).toBe(row['subscriptions.billing_date.month']);
    expect(typeof row['subscriptions.mrr']).toBe('string');
    expect(Number(row['subscriptions.mrr'])).toBeGreaterThan(0);
    expect(row['subscriptions.count']).toMatch(/^\d+$/);
    expect(new Set(body.data.map((r: Record<string, string>) => r['accounts.region'])).size).toBe(5);
    expect(new Set(body.data.map((r: Record<string, string>) => r['subscriptions.billing_date'])).size).toBe(12);
    expect(body.annotation.measures['subscriptions.mrr']).toMatchObject({ title: 'MRR', type: 'number' });
    expect(body.annotation.dimensions['accounts.region']).toMatchObject({ type: 'string' });
    expect(body.annotation.timeDimensions['subscriptions.billing_date.month']).toMatchObject({ type: 'time' });
    // Asked again (GET ?query= too): the same rows.
    const again = await request(`${emu.url}/cubejs-api/v1/load?query=${encodeURIComponent(JSON.stringify(SERIES))}`, {
      headers: { authorization: token },
    });
    expect(((await again.body.json()) as { data: unknown }).data).toEqual(body.data);
    // A second emulator (another seed) answers the same data.
    const other = await emulator({ randomSeed: 99 });
    expect(JSON.parse((await post(other.emu, 'load', { query: SERIES }, other.token)).text).data).toEqual(body.data);
  });

  test('a member /v1/meta hides (a primary key) is answered, as Cube answers it', async () => {
    const { emu, token } = await emulator();
    const a = await post(emu, 'load', { query: { measures: ['accounts.count'], dimensions: ['accounts.id'] } }, token);
    expect(a.status, a.text).toBe(200);
    expect(JSON.parse(a.text).data).toHaveLength(5);
  });

  test('limit, order and a dateRange are honoured', async () => {
    const { emu, token } = await emulator();
    const q = {
      measures: ['subscriptions.arr'],
      dimensions: ['accounts.region'],
      order: { 'subscriptions.arr': 'desc' },
      limit: 3,
    };
    const { data } = JSON.parse((await post(emu, 'load', { query: q }, token)).text);
    expect(data).toHaveLength(3);
    const values = data.map((r: Record<string, string>) => Number(r['subscriptions.arr']));
    expect([...values].sort((x, y) => y - x)).toEqual(values);
    const ranged = {
      measures: ['subscriptions.count'],
      timeDimensions: [
        { dimension: 'subscriptions.billing_date', granularity: 'day', dateRange: ['2026-03-01', '2026-03-05'] },
      ],
    };
    const days = JSON.parse((await post(emu, 'load', { query: ranged }, token)).text).data;
    expect(days.map((r: Record<string, string>) => r['subscriptions.billing_date.day']!.slice(0, 10))).toEqual([
      '2026-03-01',
      '2026-03-02',
      '2026-03-03',
      '2026-03-04',
      '2026-03-05',
    ]);
  });

  test("what the model lacks is refused as Cube refuses it: 400 and Cube's {error}", async () => {
    const { emu, token } = await emulator();
    const cases: [unknown, RegExp][] = [
      [{ measures: ['nosuchcube.count'] }, /Cube 'nosuchcube' not found for path 'nosuchcube.count'/],
      [{ measures: ['subscriptions.mrrr'] }, /'mrrr' not found for path 'subscriptions.mrrr'/],
      // A dimension under measures: Cube's planner says it as for a missing member.
      [{ measures: ['accounts.region'] }, /'region' not found for path 'accounts.region'/],
      [
        {
          measures: ['subscriptions.count'],
          timeDimensions: [{ dimension: 'subscriptions.billing_date', granularity: 'fiscal_yr' }],
        },
        /Granularity "fiscal_yr" does not exist in dimension subscriptions.billing_date/,
      ],
    ];
    for (const [query, message] of cases) {
      const a = await post(emu, 'load', { query }, token);
      expect(a.status).toBe(400);
      expect(JSON.parse(a.text).error).toMatch(message);
    }
  });

  test('under continue-wait=2 the first two asks of a query answer "Continue wait", the third the data', async () => {
    const { emu, token } = await emulator({ faults: 'continue-wait=2' });
    const answers = [];
    for (let i = 0; i < 3; i++) answers.push(JSON.parse((await post(emu, 'load', { query: SERIES }, token)).text));
    expect(answers[0]).toEqual({ error: 'Continue wait' });
    expect(answers[1]).toEqual({ error: 'Continue wait' });
    expect(answers[2].data).toHaveLength(60);
  });

  test("the minted token alone opens it: none or the platform token is 403, in Cube's words", async () => {
    const { emu } = await emulator();
    const none = await post(emu, 'load', { query: SERIES }, '');
    expect([none.status, JSON.parse(none.text)]).toEqual([403, { error: "Authorization header isn't set" }]);
    const platform = await post(emu, 'load', { query: SERIES }, emu.adminToken);
    expect([platform.status, JSON.parse(platform.text)]).toEqual([403, { error: 'Invalid token' }]);
    expect((await post(emu, 'load', { query: SERIES }, `Bearer ${emu.adminToken}`)).status).toBe(403);
  });

  test('/v1/cubesql answers a schema line then data for the SQL it reads, and refuses the rest', async () => {
    const { emu, token } = await emulator();
    const sql =
      "SELECT DATE_TRUNC('month', subscriptions.billing_date) AS month, accounts.region, MEASURE(subscriptions.mrr) AS mrr\nFROM subscriptions\nCROSS JOIN accounts\nGROUP BY 1, 2\nLIMIT 7";
    const a = await post(emu, 'cubesql', { query: sql }, token);
    expect(a.status).toBe(200);
    const lines = a.text
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    expect(lines[0].schema).toEqual([
      { name: 'month', column_type: 'Timestamp' },
      { name: 'region', column_type: 'String' },
      { name: 'mrr', column_type: 'Double' },
    ]);
    expect(lines[1].data).toHaveLength(7);
    expect(typeof lines[1].data[0][2]).toBe('string');
    // The request log reads the answer as its lines' values (a JSON parse of the whole would throw).
    expect(emu.log.at(-1)!.responseBody).toEqual(lines);
    const bad = await post(emu, 'cubesql', { query: 'SELECT MEASURE(nosuch.thing) FROM subscriptions' }, token);
    expect(bad.status).toBe(400);
    expect(JSON.parse(bad.text).error).toMatch(/column 'nosuch.thing' not found/);
    const notSelect = await post(emu, 'cubesql', { query: 'DELETE FROM subscriptions' }, token);
    expect(notSelect.status).toBe(400);
  });
});
