// Contract: the emulator's Core Data API against the real one. The open-source
// Cube server (contract-cube/: @cubejs-backend/server 1.7.43, DuckDB, its own
// lockfile) runs in production mode on a YAML model with cubes, a view,
// hidden members, primary keys, segments, custom granularities and an
// unjoined cube, over a DuckDB file the test makes. The same bundle of valid
// and invalid queries (contract-cube/queries.json) goes to both planners'
// /v1/sql and /v1/dry-run: the verdicts (status and text) must be equal, and
// equal to the one recorded. Production /v1/meta must have the same shape on
// both. The emulator's JWTs (--cube-api-secret) open the real server, and wsc
// itself, pointed at the real Cube through the emulator's environments
// (--core-data-api-url), refuses exactly what Cube refuses.
//
// contract-cube/ is installed by `npm ci --prefix contract-cube --ignore-scripts`
// (.ci/run does); without it the suite is skipped with a message saying so,
// and WSC_REQUIRE_CONTRACT=1 (.ci/run sets it) turns the skip into a failure.
import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MetaAnswer } from '../../src/domain/data-model.js';
import { createEmulator, metaAnswer, type Emulator } from '../../src/emulator/index.js';
import { signJwt } from '../../src/emulator/jwt.js';
import { contractGate, cubeNeeds } from '../helpers/contract-gate.js';
import { askSql, cubeContractModel, cubeQueries, verdict, type CubeQueryCase } from '../helpers/cube-queries.js';
import { freePort } from '../helpers/listen.js';
import { runs } from '../helpers/property.js';
import { agrees, httpPlanner } from '../helpers/semantic-queries.js';
import { verdictsDiffering } from './helpers/semantic-plan.js';
import { cleanupTemp, ensureBuilt, root, runCli, tempDir, writeFiles } from './helpers/index.js';

const dir = join(root, 'contract-cube');
const gate = contractGate(
  process.env,
  cubeNeeds({
    server: join(dir, 'server.mjs'),
    installed: join(dir, 'node_modules/@cubejs-backend/server/package.json'),
  }),
);
if (gate.missing && !gate.required) {
  console.warn(`cube-contract.test.ts skipped: ${gate.missing} (WSC_REQUIRE_CONTRACT=1 makes this a failure)`);
}
const SECRET = 'cube-contract-secret';
const token = () => signJwt({}, SECRET, 600);

describe('contract: the open-source Cube server is there when CI asks for it', () => {
  it.runIf(gate.required)('installed, as WSC_REQUIRE_CONTRACT asks (.ci/run: npm ci --prefix contract-cube)', () => {
    expect(gate.missing, `WSC_REQUIRE_CONTRACT is set but ${gate.missing}`).toBeUndefined();
  });
});

/** The real server on a free port: its Core Data API base, and a stop. */
async function startCube(work: string): Promise<{ base: string; child: ChildProcess; log: () => string }> {
  const port = await freePort();
  const child = spawn(process.execPath, [join(dir, 'server.mjs')], {
    cwd: work,
    env: {
      PATH: process.env['PATH'] ?? '',
      HOME: work,
      PORT: String(port),
      CUBEJS_API_SECRET: SECRET,
      CUBEJS_DB_DUCKDB_DATABASE_PATH: join(work, 'contract.duckdb'),
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  child.stdout.setEncoding('utf8').on('data', (d: string) => (out += d));
  child.stderr.setEncoding('utf8').on('data', (d: string) => (out += d));
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`the Cube server did not start in 90 s:\n${out}`)), 90_000);
    child.stdout.on('data', () => {
      if (/^ready \d+$/m.test(out)) {
        clearTimeout(timer);
        resolve();
      }
    });
    child.on('exit', (code) => reject(new Error(`the Cube server exited ${code}:\n${out}`)));
  });
  return { base: `http://127.0.0.1:${port}/cubejs-api/v1`, child, log: () => out };
}

/** The fields of /v1/meta that a client reads, as a comparable list (titles and formats left out). */
function shape(meta: { cubes: Record<string, any>[] }): unknown {
  const members = (list: Record<string, any>[] = []) =>
    list
      .map((m) => ({
        name: m['name'],
        type: m['type'] ?? null,
        aggType: m['aggType'] ?? null,
        primaryKey: m['primaryKey'] ?? false,
        aliasMember: m['aliasMember'] ?? null,
        granularities: (m['granularities'] ?? []).map((g: any) => [g.name, g.interval, g.offset ?? g.origin]),
        visible: [m['isVisible'], m['public']],
      }))
      .sort((a, b) => String(a.name).localeCompare(String(b.name)));
  const components = new Map<number, string[]>();
  for (const c of meta.cubes)
    if (c['connectedComponent'] !== undefined)
      components.set(c['connectedComponent'], [...(components.get(c['connectedComponent']) ?? []), c['name']]);
  return {
    cubes: meta.cubes
      .map((c) => ({
        name: c['name'],
        type: c['type'],
        visible: [c['isVisible'], c['public']],
        measures: members(c['measures']),
        dimensions: members(c['dimensions']),
        segments: members(c['segments']),
      }))
      .sort((a, b) => String(a.name).localeCompare(String(b.name))),
    // Which cubes share a component (the numbers themselves are Cube's to choose).
    joined: [...components.values()].map((names) => names.sort().join(' + ')).sort(),
  };
}

/**
 * Where wsc's semantic check and Cube disagree today, each named: the
 * last test below asserts this exact list, so a fix (or a new disagreement)
 * changes it. A false alarm is the worst: wsc exits 3 for a query Cube runs.
 * None is left: an unknown key or time zone is asked of Cube's planner.
 * test/e2e/semantic-contract-queries.test.ts holds the same list against the
 * emulator's planner, without the real Cube.
 */
const KNOWN_DISAGREEMENTS: string[] = [];

describe.skipIf(gate.missing !== undefined)('contract: the emulator plans queries as the open-source Cube does', () => {
  let cube: Awaited<ReturnType<typeof startCube>>;
  let emu: Emulator;
  let emuBase = '';
  const work = tempDir('wsc-cube-contract-');

  beforeAll(async () => {
    cube = await startCube(work);
    emu = await createEmulator({ model: cubeContractModel(), cubeApiSecret: SECRET });
    emuBase = `${emu.url}/cubejs-api/v1`;
  }, 120_000);
  afterAll(async () => {
    cube?.child.kill('SIGTERM');
    await emu?.close();
    cleanupTemp();
  });

  it('production /v1/meta: the same cubes, members, types, primary keys, aliases, granularities and joins', async () => {
    const read = async (base: string) =>
      (await fetch(`${base}/meta`, { headers: { authorization: token() } })).json() as Promise<{
        cubes: Record<string, any>[];
      }>;
    const [real, emulated] = await Promise.all([read(cube.base), read(emuBase)]);
    expect(shape(emulated)).toEqual(shape(real));
    // What the bundle's verdicts rest on: a private primary key, a hidden member and a hidden cube are left out.
    const names = real.cubes.flatMap((c) => [
      c['name'],
      ...[...c['measures'], ...c['dimensions'], ...c['segments']].map((m: any) => m.name),
    ]);
    for (const hidden of ['orders.id', 'orders.internal_cost', 'audit_log']) expect(names).not.toContain(hidden);
  });

  const cases = cubeQueries().map((c) => [c.name, c] as const);
  it.each(cases)('GET /v1/sql and /v1/dry-run: %s', async (_name, c) => {
    const real = await askSql(cube.base, token(), c);
    expect(verdict(real), 'the real Cube gives the recorded verdict').toEqual(c.expect);
    expect(verdict(await askSql(emuBase, token(), c))).toEqual(verdict(real));
    const [realDry, emuDry] = await Promise.all([
      askSql(cube.base, token(), c, 'dry-run'),
      askSql(emuBase, token(), c, 'dry-run'),
    ]);
    expect(verdict(emuDry)).toEqual(verdict(realDry));
    if (real.status === 200) {
      // A compareDateRange query is planned once per range: a list of answers.
      const [one, many] = [(b: any) => (Array.isArray(b) ? b : [b]), (b: any) => (Array.isArray(b) ? b.length : 0)];
      expect(one(real.body).every((a: any) => typeof a.sql.sql[0] === 'string')).toBe(true);
      expect(many((await askSql(emuBase, token(), c)).body)).toBe(many(real.body));
    }
  });

  it('random queries over the model (members in any role, suffixes, granularities, filters): the same verdict', async () => {
    const model = cubeContractModel();
    const of = (role: 'measures' | 'dimensions' | 'segments') => model.cubes.flatMap((c) => c[role].map((m) => m.name));
    const anyName = fc.constantFrom(
      ...of('measures'),
      ...of('dimensions'),
      ...of('segments'),
      'orders.statuss',
      'nosuch.count',
      'sales.internal_cost',
    );
    // Mostly a member of the right role (or its cube's joined ones), now and then any name: both verdicts drawn.
    const pick = (role: 'measures' | 'dimensions' | 'segments') =>
      fc.oneof({ weight: 6, arbitrary: fc.constantFrom(...of(role)) }, { weight: 1, arbitrary: anyName });
    const grain = fc.constantFrom('month', 'week', 'fiscal_year', 'sprint', 'fiscal_yr');
    const suffixed = fc
      .tuple(pick('dimensions'), fc.option(grain, { freq: 3, nil: undefined }))
      .map(([n, g]) => (g === undefined ? n : `${n}.${g}`));
    const leaf = fc.record(
      {
        member: fc.oneof({ weight: 4, arbitrary: pick('dimensions') }, { weight: 1, arbitrary: suffixed }),
        operator: fc.constantFrom('equals', 'set', 'gt', 'like'),
        values: fc.constantFrom(['x'], [1], []),
      },
      { requiredKeys: ['member', 'operator'] },
    );
    const members = fc.record(
      {
        measures: fc.array(pick('measures'), { maxLength: 2 }),
        dimensions: fc.array(suffixed, { maxLength: 2 }),
        segments: fc.array(pick('segments'), { maxLength: 1 }),
        timeDimensions: fc.array(
          fc.record({ dimension: pick('dimensions'), granularity: grain }, { requiredKeys: ['dimension'] }),
          { maxLength: 1 },
        ),
        filters: fc.array(fc.oneof(leaf, fc.record({ or: fc.array(leaf, { minLength: 1, maxLength: 2 }) })), {
          maxLength: 2,
        }),
        order: fc.oneof(
          fc.dictionary(suffixed, fc.constantFrom('asc', 'desc', 'up'), { maxKeys: 1 }),
          fc.array(fc.tuple(suffixed, fc.constantFrom('asc', 'desc', 'up')), { maxLength: 1 }),
        ),
      },
      { requiredKeys: [] },
    );
    // Now and then a key of the query format Cube checks before planning, valid or not.
    const formatKey = fc.constantFrom(
      ...[
        ['limit', 5],
        ['limit', '5'],
        ['limit', 2.5],
        ['offset', -1],
        ['timezone', 'Europe/Paris'],
        ['timezone', 'Mars/Olympus'],
        ['total', 'yes'],
        ['ungrouped', false],
        ['colour', 'red'],
      ].map(([k, v]) => ({ [k as string]: v })),
    );
    const query = fc
      .tuple(members, fc.option(formatKey, { freq: 3, nil: undefined }))
      .map(([q, extra]) => ({ ...q, ...extra }));
    // Which verdicts were drawn: planned, the planner's errors (UserError), the format's; a generator of one
    // kind would prove nothing.
    const seen = { planned: 0, planner: 0, format: 0 };
    await fc.assert(
      fc.asyncProperty(query, async (q) => {
        const c: CubeQueryCase = { name: 'random', query: q, expect: { status: 0 } };
        const [real, emulated] = await Promise.all([askSql(cube.base, token(), c), askSql(emuBase, token(), c)]);
        expect(verdict(emulated)).toEqual(verdict(real));
        seen[real.status === 200 ? 'planned' : real.body.type === 'UserError' ? 'planner' : 'format']++;
      }),
      { numRuns: runs(150) },
    );
    for (const n of Object.values(seen)) expect(n).toBeGreaterThan(runs(150) / 40);
  }, 120_000);

  it("the semantic check's property against the real Cube: on generated queries wsc refuses what Cube refuses", async () => {
    const real = MetaAnswer.parse(
      await (await fetch(`${cube.base}/meta`, { headers: { authorization: token() } })).json(),
    );
    // The names production /v1/meta leaves out, which Cube still plans (the generator draws them too).
    const all = (m: MetaAnswer) =>
      m.cubes.flatMap((c) => [...(c.measures ?? []), ...(c.dimensions ?? [])].map((x) => x.name));
    const listed = new Set(all(metaAnswer(cubeContractModel())));
    const hidden = all(metaAnswer(cubeContractModel(), 'dev')).filter((n) => !listed.has(n));
    expect(hidden).toEqual(expect.arrayContaining(['orders.id', 'orders.internal_cost', 'audit_log.action']));
    await agrees(real, hidden, httpPlanner(cube.base, token()), runs(100));
  }, 120_000);

  it('POST /v1/sql {query}: the same verdicts as GET, on both', async () => {
    const post = async (base: string, c: CubeQueryCase) => {
      const r = await fetch(`${base}/sql`, {
        method: 'POST',
        headers: { authorization: token(), 'content-type': 'application/json' },
        body: JSON.stringify({ query: c.query }),
      });
      return verdict({ status: r.status, body: await r.json() });
    };
    for (const c of cubeQueries().filter((q) => typeof q.query !== 'string')) {
      const real = await post(cube.base, c);
      expect([c.name, real]).toEqual([c.name, c.expect]);
      expect([c.name, await post(emuBase, c)]).toEqual([c.name, real]);
    }
  });

  it('what the planner accepts but the warehouse refuses fails when its SQL runs on DuckDB; a valid query runs', async () => {
    const { makeDb } = (await import(pathToFileURL(join(dir, 'make-db.mjs')).href)) as {
      makeDb: (file: string) => Promise<void>;
    };
    const { DuckDBInstance } = await import(
      pathToFileURL(join(dir, 'node_modules/@duckdb/node-api/lib/index.js')).href
    );
    const file = join(work, 'own.duckdb');
    await makeDb(file);
    const db = await DuckDBInstance.create(file);
    const conn = await db.connect();
    const run = async (c: CubeQueryCase) => {
      const [sql, params] = (await askSql(cube.base, token(), c)).body.sql.sql as [string, string[]];
      // DuckDB numbers its parameters: Cube's `?` placeholders become $1, $2, …
      let n = 0;
      const text = sql.replace(/\?/g, () => `$${++n}`);
      return conn.run(text, params.length ? params : undefined);
    };
    try {
      const all = cubeQueries();
      const failing = all.filter((c) => c.failsInWarehouse);
      expect(failing.length).toBeGreaterThanOrEqual(2);
      for (const c of failing) await expect(run(c), c.name).rejects.toThrow(/timestamp|Conversion|convert/i);
      for (const name of [
        'a measure and a dimension',
        'a join (orders to customers)',
        'a primary key (not in production /v1/meta)',
      ])
        await run(all.find((c) => c.name === name)!);
    } finally {
      conn.closeSync();
      db.closeSync();
    }
  });

  it('a token the emulator mints with --cube-api-secret opens the real Cube (what wsc sends it)', async () => {
    const e = await createEmulator({ cubeApiSecret: SECRET, coreDataApiUrl: cube.base });
    try {
      const r = await fetch(`${e.url}/api/v1/deployments/1/token`, {
        method: 'POST',
        headers: { authorization: 'Bearer dev-token', 'content-type': 'application/json' },
        body: JSON.stringify({ expiresIn: 300 }),
      });
      const { cubeApiToken } = (await r.json()) as { cubeApiToken: string };
      expect((await fetch(`${cube.base}/meta`, { headers: { authorization: cubeApiToken } })).status).toBe(200);
      // A token Cube does not take, and none: the emulator refuses them in Cube's words (403, its body).
      const refusal = async (base: string, auth: string | undefined) => {
        const r = await fetch(`${base}/meta`, auth === undefined ? {} : { headers: { authorization: auth } });
        return { status: r.status, body: (await r.json()) as unknown };
      };
      for (const auth of [signJwt({}, 'another', 60), 'dev-token', undefined]) {
        const real = await refusal(cube.base, auth);
        expect(real.status).toBe(403);
        expect(await refusal(emuBase, auth)).toEqual(real);
      }
    } finally {
      await e.close();
    }
  });

  it('wsc plan against the real Cube refuses exactly the queries Cube refuses (or whose SQL the warehouse refuses)', async () => {
    const queries = cubeQueries().filter((c) => typeof c.query === 'object' && c.expect.status !== 500);
    const e = await createEmulator({ cubeApiSecret: SECRET, coreDataApiUrl: cube.base });
    try {
      // Each query whose verdict differs: a false alarm (wsc refuses, Cube runs it) or a miss.
      const { wrong, code } = await verdictsDiffering(queries, e);
      expect(wrong).toEqual(KNOWN_DISAGREEMENTS);
      expect(code).toBe(3);
    } finally {
      await e.close();
    }
  }, 60_000);

  it('docs/emulator.md\'s "A local open-source Cube", followed literally: wsc plan reads the real Cube', async () => {
    const doc = readFileSync(join(root, 'docs/emulator.md'), 'utf8');
    const block = /### A local open-source Cube[\s\S]*?```sh\n([\s\S]*?)```/.exec(doc)![1]!.trim().split('\n');
    expect(block[0]).toBe('npm ci --prefix contract-cube --ignore-scripts');
    // The server line sets what startCube sets (its port and secret are this test's).
    expect(block[1]).toMatch(
      /^PORT=4000 CUBEJS_API_SECRET=local-secret CUBEJS_DB_DUCKDB_DATABASE_PATH=\S+ node contract-cube\/server\.mjs &$/,
    );
    const cubePort = new URL(cube.base).port;
    const ours = (line: string, emuPort: string) =>
      line
        .replace(/ &$/, '')
        .replaceAll('4000', cubePort)
        .replaceAll('4010', emuPort)
        .replaceAll('local-secret', SECRET)
        .split(' ');
    const emuPort = String(await freePort());
    const [wsc, command, ...emuArgs] = ours(block[2]!, emuPort);
    expect([wsc, command]).toEqual(['wsc', 'emulator']);
    ensureBuilt();
    const child = spawn(process.execPath, [join(root, 'bin/wsc.js'), 'emulator', ...emuArgs], {
      env: { PATH: process.env['PATH'] ?? '', NO_COLOR: '1', CI: 'true' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    try {
      await new Promise<void>((resolve, reject) => {
        let out = '';
        child.stdout.setEncoding('utf8').on('data', (d: string) => {
          out += d;
          if (out.includes('token: ')) resolve();
        });
        child.on('exit', (code) => reject(new Error(`wsc emulator exited ${code}: ${out}`)));
      });
      const bundle = writeFiles({
        // A private primary key, a member with public: false through a view, a custom granularity: Cube runs them.
        'reports/pk.yaml':
          'kind: Report\npublicId: docPk0000001\nname: pk\njsonQuery:\n  measures: [orders.count]\n  dimensions: [orders.id]\n',
        'reports/view.yaml':
          'kind: Report\npublicId: docView00001\nname: view\njsonQuery:\n  measures: [sales.cost]\n' +
          '  dimensions: [sales.created_at.fiscal_year]\n',
      });
      const [env, wsc2, ...planArgs] = ours(block[3]!.replace('my-bundle', bundle), emuPort);
      expect([env, wsc2]).toEqual(['WSC_TOKEN=dev-token', 'wsc']);
      const r = await runCli(planArgs, { env: { WSC_TOKEN: 'dev-token' } });
      expect(r.code, r.stdout + r.stderr).toBe(0);
      expect(r.stdout).toContain('Plan: 2 to create');
      expect(r.stderr).toMatch(/Cube's planner asked about 1 quer/);
    } finally {
      child.kill('SIGINT');
    }
  }, 60_000);
});
