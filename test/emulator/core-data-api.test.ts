// The emulator's Core Data API answers like Cube: /v1/meta in Cube's shape
// (production leaves hidden members out, dev mode lists them), the planner's
// verdict on every query of the contract bundle (/v1/sql GET and POST,
// /v1/dry-run) with the status and text the real Cube gave
// (contract-cube/queries.json, held to the real server by
// test/e2e/cube-contract.test.ts), and HS256 JWTs signed with a given secret.
import { createHmac } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { createEmulator, metaAnswer, type Emulator } from '../../src/emulator/index.js';
import { signJwt } from '../../src/emulator/jwt.js';
import { askSql, cubeContractModel, cubeQueries, queryText, verdict } from '../helpers/cube-queries.js';

const SECRET = 'contract-secret';
let emu: Emulator;
let base = '';
const token = () => signJwt({}, SECRET, 600);

beforeAll(async () => {
  emu = await createEmulator({ model: cubeContractModel(), cubeApiSecret: SECRET });
  base = `${emu.url}/cubejs-api/v1`;
});
afterAll(() => emu.close());

type Meta = { cubes: { name: string; type: string; connectedComponent?: number; [k: string]: any }[] };
const get = async (path: string, auth = token()) => {
  const r = await fetch(`${base}/${path}`, { headers: { authorization: auth } });
  return { status: r.status, body: await r.json() };
};

describe('/v1/sql: the planner verdict of the real Cube on every query of the contract bundle', () => {
  test.each(cubeQueries().map((c) => [c.name, c] as const))('%s', async (_name, c) => {
    const got = await askSql(base, token(), c);
    expect(verdict(got)).toEqual(c.expect);
    if (c.expect.status === 200) {
      const [text, params] = (Array.isArray(got.body) ? got.body[0] : got.body).sql.sql as [string, unknown[]];
      expect(text).toMatch(/^SELECT\b[\s\S]* FROM\b/);
      expect(Array.isArray(params)).toBe(true);
    }
    // POST {query} answers the same; so does /v1/dry-run (its own answer when valid).
    const post = await fetch(`${base}/sql`, {
      method: 'POST',
      headers: { authorization: token(), 'content-type': 'application/json' },
      body: JSON.stringify({ query: typeof c.query === 'string' ? c.query : c.query }),
    });
    expect(verdict({ status: post.status, body: await post.json() })).toEqual(c.expect);
    const dry = await askSql(base, token(), c, 'dry-run');
    expect(verdict(dry)).toEqual(c.expect);
    if (c.expect.status === 200) expect(dry.body.queryType).toBe('regularQuery');
  });

  test('a filter value is a parameter, and the join the query needs is in the SQL', async () => {
    const { body } = await get(
      `sql?query=${encodeURIComponent(JSON.stringify({ measures: ['orders.count'], dimensions: ['customers.region'], filters: [{ member: 'orders.status', operator: 'equals', values: ['completed'] }] }))}`,
    );
    const [text, params] = body.sql.sql as [string, unknown[]];
    expect(params).toEqual(['completed']);
    expect(text).toMatch(/FROM\s+orders AS "orders"\nLEFT JOIN customers/);
  });

  test('no query: 400 "Query param is required"', async () => {
    expect(await get('sql')).toEqual({ status: 400, body: { error: 'Query param is required' } });
  });
});

describe('/v1/meta in Cube shape', () => {
  test('production leaves out hidden members, private primary keys and hidden cubes; keeps Cube fields', async () => {
    const { status, body } = await get('meta');
    expect(status).toBe(200);
    const meta = body as Meta;
    expect(meta.cubes.map((c) => c.name)).toEqual(['orders', 'customers', 'events', 'sales']);
    const names = meta.cubes.flatMap((c) => [...c.measures, ...c.dimensions, ...c.segments].map((m: any) => m.name));
    for (const hidden of ['orders.id', 'orders.internal_cost', 'orders.customer_id', 'events.id'])
      expect(names).not.toContain(hidden);
    const orders = meta.cubes.find((c) => c.name === 'orders')!;
    expect(orders.measures.find((m: any) => m.name === 'orders.total')).toMatchObject({
      type: 'number',
      aggType: 'sum',
    });
    expect(
      orders.dimensions.find((d: any) => d.name === 'orders.created_at').granularities.map((g: any) => g.name),
    ).toEqual(['fiscal_year', 'sprint']);
    const customers = meta.cubes.find((c) => c.name === 'customers')!;
    expect(customers.dimensions.find((d: any) => d.name === 'customers.id')).toMatchObject({
      primaryKey: true,
      public: true,
    });
    // Cubes that join share a component; a cube with no join and a view have none.
    expect(orders.connectedComponent).toBe(customers.connectedComponent);
    expect(orders.connectedComponent).toEqual(expect.any(Number));
    expect(meta.cubes.find((c) => c.name === 'events')!.connectedComponent).toBeUndefined();
    const sales = meta.cubes.find((c) => c.name === 'sales')!;
    expect(sales.connectedComponent).toBeUndefined();
    expect(sales.dimensions.find((d: any) => d.name === 'sales.order_status').aliasMember).toBe('orders.status');
    // The model's own bookkeeping (joins) is not part of the answer.
    expect(JSON.stringify(meta)).not.toContain('"joins"');
  });

  test('dev mode lists the same hidden members and cubes with isVisible: false / public: false', async () => {
    const dev = await createEmulator({ model: cubeContractModel(), devMode: true, cubeApiSecret: SECRET });
    try {
      const r = await fetch(`${dev.url}/cubejs-api/v1/meta`, { headers: { authorization: token() } });
      const meta = (await r.json()) as Meta;
      const flags = (name: string) => {
        for (const c of meta.cubes)
          for (const m of [...c.measures, ...c.dimensions, ...c.segments])
            if (m.name === name) return [m.isVisible, m.public];
        return undefined;
      };
      expect(flags('orders.id')).toEqual([false, false]);
      expect(flags('orders.internal_cost')).toEqual([false, false]);
      expect(flags('audit_log.action')).toEqual([false, false]);
      expect(flags('customers.id')).toEqual([true, true]);
      expect(flags('orders.status')).toEqual([true, true]);
      expect(meta.cubes.find((c) => c.name === 'audit_log')).toMatchObject({ isVisible: false, public: false });
      // Production /v1/meta is dev mode without the hidden entries.
      const visible = metaAnswer(cubeContractModel());
      expect(visible.cubes.map((c) => c.name)).toEqual(meta.cubes.filter((c) => c['public']).map((c) => c.name));
    } finally {
      await dev.close();
    }
  });
});

describe('format=sql: a SQL-API query planned', () => {
  const ask = async (sql: string) => (await get(`sql?format=sql&query=${encodeURIComponent(sql)}`)).body.sql;
  test('known tables and members: ok; an unknown table or member: an error naming it', async () => {
    expect(await ask('SELECT status, MEASURE(orders.count) FROM orders GROUP BY 1')).toMatchObject({ status: 'ok' });
    expect(await ask("SELECT MEASURE(sales.count) FROM sales WHERE sales.order_status = 'a.b'")).toMatchObject({
      status: 'ok',
    });
    expect(await ask('SELECT MEASURE(orders.cnt) FROM orders')).toMatchObject({
      status: 'error',
      error: expect.stringContaining('orders.cnt'),
    });
    expect(await ask('SELECT 1 FROM nosuch')).toMatchObject({
      status: 'error',
      error: expect.stringContaining('nosuch'),
    });
  });
});

describe('tokens: HS256 JWTs signed with the Cube API secret', () => {
  const mint = async (e: Emulator) => {
    const r = await fetch(`${e.url}/api/v1/deployments/1/token`, {
      method: 'POST',
      headers: { authorization: 'Bearer dev-token', 'content-type': 'application/json' },
      body: JSON.stringify({ expiresIn: 120 }),
    });
    return ((await r.json()) as { cubeApiToken: string }).cubeApiToken;
  };

  test('the minted token is a JWT any holder of the secret can check, with the lifetime asked', async () => {
    const jwt = await mint(emu);
    const [head, body, mac] = jwt.split('.') as [string, string, string];
    expect(createHmac('sha256', SECRET).update(`${head}.${body}`).digest('base64url')).toBe(mac);
    expect(JSON.parse(Buffer.from(head, 'base64url').toString())).toEqual({ alg: 'HS256', typ: 'JWT' });
    const payload = JSON.parse(Buffer.from(body, 'base64url').toString()) as { iat: number; exp: number };
    expect(payload.exp - payload.iat).toBe(120);
    expect((await get('meta', jwt)).status).toBe(200);
  });

  test('another secret, a forged payload, an expired token or a platform token are refused', async () => {
    expect((await get('meta', signJwt({}, 'other-secret', 600))).status).toBe(401);
    const [h, , m] = token().split('.');
    const forged = `${h}.${Buffer.from('{"exp":99999999999}').toString('base64url')}.${m}`;
    expect((await get('meta', forged)).status).toBe(401);
    expect(await get('meta', signJwt({}, SECRET, 60, Date.now() - 120_000))).toMatchObject({ status: 401 });
    expect((await get('meta', 'dev-token')).status).toBe(403);
    expect((await get(`sql?query=${encodeURIComponent(queryText(cubeQueries()[0]!))}`, '')).status).toBe(401);
  });

  test('without a secret, minted tokens are opaque and a JWT is not taken', async () => {
    const plain = await createEmulator({ model: cubeContractModel() });
    try {
      const opaque = await mint(plain);
      expect(opaque).toMatch(/^cube-\w+$/);
      const meta = (auth: string) =>
        fetch(`${plain.url}/cubejs-api/v1/meta`, { headers: { authorization: auth } }).then((r) => r.status);
      expect(await meta(opaque)).toBe(200);
      expect(await meta(token())).toBe(401);
    } finally {
      await plain.close();
    }
  });
});
