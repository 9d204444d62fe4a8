// readLiveState against a server that damages its answers at random. A real
// HTTP proxy on loopback stands between the client and the emulator and, per
// answer, by a schedule fast-check draws: changes the status, cuts the body,
// answers HTML, empties it, sets a random member anywhere in the JSON to a
// random value, deletes one, or repeats a page's items. Whatever it does, the
// read either succeeds with items that passed their schemas, or fails with an
// ApiError or NetworkError that names the request (`GET /api/v1/...`) and
// words the problem without stray `undefined` or `[object Object]`; never
// another kind of error, never a write. test/e2e/hostile-server.test.ts pins
// the message of each hand-picked behaviour; this covers the combinations.
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import fc from 'fast-check';
import { request } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiClient } from '../../src/api/client.js';
import { readLiveState } from '../../src/api/live.js';
import { Report, UserAttribute, Workbook } from '../../src/domain/wire.js';
import { createEmulator, generateSeed, type Emulator } from '../../src/emulator/index.js';
import { ApiError, NetworkError } from '../../src/errors.js';
import { damageJson, jsonDamage, type JsonDamage } from '../helpers/json-damage.js';
import { runs } from '../helpers/property.js';

type Damage =
  | { kind: 'none' }
  | { kind: 'status'; status: number }
  | { kind: 'cut'; at: number }
  | { kind: 'html'; asJson: boolean }
  | { kind: 'empty' }
  | JsonDamage
  | { kind: 'repeatItems' };

const damage: fc.Arbitrary<Damage> = fc.oneof(
  { weight: 3, arbitrary: fc.constant({ kind: 'none' as const }) },
  fc.record({
    kind: fc.constant('status' as const),
    status: fc.constantFrom(200, 201, 204, 301, 304, 400, 401, 403, 404, 409, 418, 429, 500, 502, 503),
  }),
  fc.record({ kind: fc.constant('cut' as const), at: fc.double({ min: 0, max: 1, noNaN: true }) }),
  fc.record({ kind: fc.constant('html' as const), asJson: fc.boolean() }),
  fc.constant({ kind: 'empty' as const }),
  { weight: 6, arbitrary: jsonDamage },
  fc.constant({ kind: 'repeatItems' as const }),
);

/** The damaged answer: status, content type, body. */
function damaged(d: Damage, status: number, body: string): { status: number; type: string; body: string } {
  const json = 'application/json; charset=utf-8';
  switch (d.kind) {
    case 'none':
      return { status, type: json, body };
    case 'status':
      return { status: d.status, type: json, body: d.status === 204 || d.status === 304 ? '' : body };
    case 'cut':
      return { status, type: json, body: body.slice(0, Math.floor(d.at * body.length)) };
    case 'html':
      return {
        status,
        type: d.asJson ? json : 'text/html',
        body: '<!doctype html><html><body><h1>Gateway</h1></body></html>',
      };
    case 'empty':
      return { status, type: json, body: '' };
    default: {
      let v: unknown;
      try {
        v = JSON.parse(body);
      } catch {
        return { status, type: json, body };
      }
      if (d.kind === 'repeatItems') {
        const o = v as { items?: unknown[]; data?: unknown[] };
        if (Array.isArray(o.items)) o.items = [...o.items, ...o.items];
        if (Array.isArray(o.data)) o.data = [...o.data, ...o.data];
        return { status, type: json, body: JSON.stringify(v) };
      }
      damageJson(v, d);
      return { status, type: json, body: JSON.stringify(v) };
    }
  }
}

describe('readLiveState behind a proxy that damages answers at random', () => {
  let emu: Emulator;
  let proxyUrl = '';
  let schedule: Damage[] = [];
  let answered = 0;
  const methods: string[] = [];
  const proxy = createServer((req: IncomingMessage, res: ServerResponse) => {
    methods.push(req.method ?? '');
    const d = schedule[answered++] ?? { kind: 'none' };
    void request(`${emu.url}${req.url}`, { method: 'GET', headers: { authorization: req.headers.authorization ?? '' } })
      .then(async (r) => {
        const out = damaged(d, r.statusCode, await r.body.text());
        res.writeHead(out.status, { 'content-type': out.type });
        res.end(out.body);
      })
      .catch(() => res.destroy());
  });

  beforeAll(async () => {
    emu = await createEmulator({
      port: 0,
      randomSeed: 5,
      seed: generateSeed({ reports: 23, workbooks: 4, withDashboards: true, randomSeed: 5 }),
    });
    await new Promise<void>((ok) => proxy.listen(0, '127.0.0.1', ok));
    proxyUrl = `http://127.0.0.1:${(proxy.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    proxy.closeAllConnections();
    await new Promise<void>((ok) => proxy.close(() => ok()));
    await emu.close();
  });

  it('succeeds with valid items, or fails with an API or network error naming the request; never another error, never a write', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(damage, { minLength: 1, maxLength: 12 }), async (s) => {
        schedule = s;
        answered = 0;
        methods.length = 0;
        // Pages of 5, so the lists take several; retries without waiting.
        const client = new ApiClient({
          baseUrl: proxyUrl,
          token: emu.adminToken,
          pageSize: 5,
          maxRetries: 2,
          sleep: async () => undefined,
          requestTimeoutMs: 5_000,
        });
        try {
          const live = await readLiveState(client, 1);
          for (const r of live.reports) expect(Report.safeParse(r).success).toBe(true);
          for (const w of live.workbooks) expect(Workbook.safeParse(w).success).toBe(true);
          for (const a of live.userAttributes) expect(UserAttribute.safeParse(a).success).toBe(true);
          // Each list holds an item once: a repeat is refused, not planned on.
          for (const list of [live.reports, live.workbooks, live.userAttributes])
            expect(new Set(list.map((x) => x.id)).size).toBe(list.length);
        } catch (e) {
          const where = `${String(e)}\nschedule ${JSON.stringify(s)}`;
          expect(e instanceof ApiError || e instanceof NetworkError, where).toBe(true);
          const err = e as ApiError | NetworkError;
          expect(err.method, where).toBe('GET');
          expect(err.path, where).toMatch(/^\/api\/v1\//);
          expect(err.message, where).toContain(`GET ${err.path}`);
          expect(err.message + (err.hint ?? ''), where).not.toMatch(/\bundefined\b|\[object Object\]|\bNaN\b/);
        } finally {
          await client.close();
        }
        expect(methods.every((m) => m === 'GET')).toBe(true);
      }),
      { numRuns: runs(150) },
    );
  }, 120_000);
});
