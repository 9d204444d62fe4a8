// The semantic check end to end: the built CLI against the emulator (its
// data model from its default model or a given one), and small servers for
// a Core Data API that answers what the emulator would not.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { describe, expect, test } from 'vitest';
import { emulatorEnv, runCli, target, withCoreDataApi, withEmulator, writeFiles } from './helpers/index.js';
import type { Emulator } from './helpers/index.js';
import type { CoreApiOptions, CoreApiServer } from '../helpers/core-api-server.js';
import { CUBE_META, HIDDEN } from '../helpers/cube-model.js';

// A model shaped as a production Cube serves it (a primary key and a cube left
// out of /v1/meta, a view, custom granularities, an unjoined cube), and a Core
// Data API whose planner judges queries on every member the model has.
const MEMBERS = [
  ...CUBE_META.cubes
    .flatMap((c) => [...(c.measures ?? []), ...(c.dimensions ?? []), ...(c.segments ?? [])])
    .map((m) => m.name),
  ...HIDDEN.dimensions,
  ...HIDDEN.measures,
  ...HIDDEN.cube.measures,
  ...HIDDEN.cube.dimensions,
];

/** Runs fn against an emulator whose Core Data API serves that model (and `opts`); both closed after. */
const withCube = (fn: (emu: Emulator, cube: CoreApiServer) => Promise<void>, opts: Partial<CoreApiOptions> = {}) =>
  withCoreDataApi({ meta: CUBE_META, members: MEMBERS, ...opts }, fn);

const report = (id: string, query: string) => `kind: Report\npublicId: ${id}\nname: ${id}\njsonQuery:\n${query}`;
const VALID = {
  // A primary key (private by default), a member of a hidden cube, a view's member: Cube runs all three.
  'reports/pk.yaml': report('semPk0000001', '  measures: [orders.count]\n  dimensions: [orders.id]\n'),
  'reports/audit.yaml': report('semAudit0001', '  measures: [audit_log.count]\n'),
  'reports/view.yaml': report(
    'semView00001',
    '  measures: [sales.count]\n  timeDimensions:\n    - dimension: sales.created_at\n      granularity: month\n',
  ),
};
const INVALID = {
  // Cube refuses: an unknown member (a typo), a dimension under measures, a view member by its cube name.
  'reports/typo.yaml': report('semTypo00001', '  measures: [orders.cont]\n'),
  'reports/role.yaml': report('semRole00001', '  measures: [orders.status]\n'),
  'workbooks/w.yaml':
    'kind: Workbook\nslug: sales\nname: Sales\nmeta:\n  dashboardDraft:\n    widgets:\n' +
    '      - id: status-filter\n        type: FILTER\n        position: { x: 0, y: 0, w: 4, h: 2 }\n' +
    '        config:\n          member: sales.status\n',
};
/** A report every model of the emulator holds the members of. */
const good = () =>
  writeFiles({
    'reports/arr.yaml':
      'kind: Report\npublicId: semArr000001\nname: ARR\njsonQuery:\n  measures: [subscriptions.arr]\n',
  });
const nonGets = (emu: Emulator) => emu.log.filter((e) => e.method !== 'GET').map((e) => `${e.method} ${e.path}`);
const modelPaths = (emu: Emulator) =>
  emu.log.filter((e) => /\/(environments|token)$|^\/cubejs-api\//.test(e.path)).map((e) => `${e.method} ${e.path}`);

const ISSUES = [
  '✗ reports/role.yaml:5:14 report/semRole00001 jsonQuery.measures[0]: `orders.status` is a string dimension, ' +
    'not a measure: Cube refuses it in `measures`',
  "✗ reports/typo.yaml:5:14 report/semTypo00001 jsonQuery.measures[0]: Cube refuses the query: 'cont' not found " +
    "for path 'orders.cont' (did you mean `orders.count`?)",
  '✗ workbooks/w.yaml:11:19 workbook/sales widget status-filter config.member: Cube refuses the query: ' +
    "'status' not found for path 'sales.status' (did you mean `sales.order_status`?)",
];

describe("Cube decides: no false alarm on what /v1/meta leaves out, Cube's own reason for what it refuses", () => {
  test('valid queries naming a primary key, a hidden cube and a view pass (exit 0); Cube was asked, with the minted token', async () => {
    await withCube(async (emu, cube) => {
      const r = await runCli(['plan', '--dir', writeFiles(VALID), ...target(emu)], { env: emulatorEnv });
      expect(r.code, r.stdout + r.stderr).toBe(0);
      expect(r.stdout).toContain('Plan: 3 to create');
      expect(r.stdout + r.stderr).not.toMatch(/no cube|not a member/);
      expect(r.stderr).toContain("Cube's planner asked about 2 queries, 2 name(s) not in /v1/meta accepted");
      const asked = cube.log.filter((e) => e.path.endsWith('/v1/sql'));
      expect(asked.map((e) => JSON.parse(e.query['query']!))).toEqual(
        expect.arrayContaining([
          { measures: ['orders.count'], dimensions: ['orders.id'] },
          { measures: ['audit_log.count'] },
        ]),
      );
      const minted = emu.log.find((e) => e.path === '/api/v1/deployments/1/token')!;
      const token = (minted.responseBody as { cubeApiToken: string }).cubeApiToken;
      expect(new Set(cube.log.map((e) => e.authorization))).toEqual(new Set([token]));
    });
  });

  test("plan exits 3 for what Cube refuses, each at file:line:col in Cube's words or the model's rules, in human, markdown and JSON", async () => {
    await withCube(async (emu, cube) => {
      const dir = writeFiles({ ...VALID, ...INVALID });
      const r = await runCli(['plan', '--dir', dir, ...target(emu)], { env: emulatorEnv });
      expect(r.code, r.stderr).toBe(3);
      for (const line of ISSUES) expect(r.stdout).toContain(`${line}\n`);
      expect(r.stdout).toContain('3 refused');
      expect(r.stderr).toContain('[semantic_check_failed]');
      // The query the model's rules refuse is not asked: no request for it.
      const asked = cube.log.filter((e) => e.path.endsWith('/v1/sql')).map((e) => e.query['query']);
      expect(asked).not.toContain(JSON.stringify({ measures: ['orders.status'] }));

      const md = await runCli(['plan', '--output', 'markdown', '--dir', dir, ...target(emu)], { env: emulatorEnv });
      expect(md.code).toBe(3);
      expect(md.stdout).toContain(
        '| <code>workbooks/w.yaml:11:19</code> <code>workbook/sales widget status-filter config.member</code> ' +
          '| <code>sales.status</code> | <code>sales.order_status</code> |',
      );

      const js = await runCli(['plan', '--output', 'json', '--dir', dir, ...target(emu)], { env: emulatorEnv });
      expect(js.code).toBe(3);
      const out = JSON.parse(js.stdout);
      expect(out.semanticCheck).toMatchObject({ status: 'checked', checked: 8 });
      expect(
        out.semanticIssues.map((i: Record<string, unknown>) => [i.member, i.file, i.line, i.col, i.by, i.suggestion]),
      ).toEqual([
        ['orders.status', 'reports/role.yaml', 5, 14, 'meta', undefined],
        ['orders.cont', 'reports/typo.yaml', 5, 14, 'cube', 'orders.count'],
        ['sales.status', 'workbooks/w.yaml', 11, 19, 'cube', 'sales.order_status'],
      ]);
      expect(out.semanticWarnings).toEqual([]);
      expect(out.summary).toMatchObject({ create: 6 });
      // Nothing is listed above a JSON plan on stderr: the error lists each itself, at its file:line:col.
      expect(js.stderr).not.toContain('listed above');
      expect(js.stderr).toContain('  reports/typo.yaml:5:14: report/semTypo00001 jsonQuery.measures[0]: Cube refuses');
      expect(js.stderr).toContain('  workbooks/w.yaml:11:19: workbook/sales widget status-filter config.member: Cube');
    });
  });

  test('apply sends no write (exit 3, each listed); --skip-semantic-check and wsc.yaml turn the check off', async () => {
    await withCube(async (emu) => {
      const dir = writeFiles(INVALID);
      const a = await runCli(['apply', '--auto-approve', '--dir', dir, ...target(emu)], { env: emulatorEnv });
      expect(a.code, a.stderr).toBe(3);
      for (const line of ISSUES) expect(a.stderr).toContain(line.slice(2).replace(/:(\d+) /, ':$1: '));
      expect(nonGets(emu)).toEqual(['POST /api/v1/deployments/1/token']);
      expect(emu.snapshot().reports).toEqual([]);

      emu.clearLog();
      const p = await runCli(['plan', '--skip-semantic-check', '--dir', dir, ...target(emu)], { env: emulatorEnv });
      expect(p.code, p.stderr).toBe(0);
      expect(p.stdout).toMatch(/^Semantic check: off \(--skip-semantic-check\)\.\n/);
      expect(modelPaths(emu)).toEqual([]);

      const withYaml = writeFiles(
        {
          'wsc.yaml':
            `environments:\n  dev:\n    baseUrl: ${emu.url}\n    deploymentId: 1\n    token: \${env.WSC_TOKEN}\n` +
            '    semanticCheck: false\n',
        },
        dir,
      );
      emu.clearLog();
      const y = await runCli(['plan', '--dir', withYaml], { env: emulatorEnv });
      expect(y.code, y.stderr).toBe(0);
      expect(y.stdout).toMatch(/^Semantic check: off \(semanticCheck: false in wsc\.yaml for dev\)\.\n/);
      expect(modelPaths(emu)).toEqual([]);
    });
  });

  test('Cube is asked only about what the plan creates or changes; a planner that cannot answer makes warnings, not errors', async () => {
    await withCube(async (emu, cube) => {
      const dir = writeFiles(VALID);
      const a = await runCli(['apply', '--auto-approve', '--dir', dir, ...target(emu)], { env: emulatorEnv });
      expect(a.code, a.stderr).toBe(0);
      cube.log.length = 0;
      // Unchanged now: nothing is asked, and what meta does not list is a warning that says why.
      const r = await runCli(['plan', '--dir', dir, ...target(emu)], { env: emulatorEnv });
      expect(r.code, r.stderr).toBe(0);
      expect(cube.log.filter((e) => e.path.endsWith('/v1/sql'))).toEqual([]);
      expect(r.stdout).toContain(
        '! reports/pk.yaml:6:16 report/semPk0000001 jsonQuery.dimensions[0]: `orders.id` is not public in the data ' +
          'model (primary keys are private unless `public: true`); the plan does not change report/semPk0000001, ' +
          'so Cube was not asked',
      );
    });
    // A planner that answers 502.
    await withCube(
      async (emu) => {
        const r = await runCli(['plan', '--max-retries', '0', '--dir', writeFiles(INVALID), ...target(emu)], {
          env: emulatorEnv,
        });
        // The model's own rule is still an error; what only Cube could refuse is a warning.
        expect(r.code, r.stderr).toBe(3);
        expect(r.stdout).toContain(ISSUES[0]);
        expect(r.stdout).toMatch(
          /! reports\/typo\.yaml:5:14 .*`orders\.cont` is not public in the data model .*\(did you mean `orders\.count`\?\); Cube's planner could not be asked \(.*502/,
        );
      },
      { planner: 502 },
    );
  });
});

describe("against the emulator's own Core Data API (its Cube-shaped model and planner)", () => {
  test('a primary key, a hidden cube and a private member pass; a typo, a wrong role and a view name by its cube member are refused', async () => {
    await withEmulator({}, async (emu) => {
      const ok = writeFiles({
        'reports/pk.yaml': report(
          'emuPk0000001',
          '  measures: [subscriptions.count]\n  dimensions: [subscriptions.id]\n',
        ),
        'reports/audit.yaml': report('emuAudit0001', '  measures: [audit_log.count]\n'),
        'reports/cost.yaml': report('emuCost00001', '  measures: [orders.internal_cost]\n'),
      });
      const r = await runCli(['plan', '--dir', ok, ...target(emu)], { env: emulatorEnv });
      expect(r.code, r.stdout + r.stderr).toBe(0);
      expect(r.stdout + r.stderr).not.toMatch(/no cube|not a member|refuses/);
      const asked = emu.log.filter((e) => e.path === '/cubejs-api/v1/sql');
      expect(asked).toHaveLength(3);
      const token = (
        emu.log.find((e) => e.path === '/api/v1/deployments/1/token')!.responseBody as { cubeApiToken: string }
      ).cubeApiToken;
      expect(new Set(asked.map((e) => e.authorization))).toEqual(new Set([token]));

      const bad = writeFiles({
        'reports/typo.yaml': report('emuTypo00001', '  measures: [orders.cont]\n'),
        'reports/role.yaml': report('emuRole00001', '  measures: [orders.status]\n'),
        'reports/view.yaml': report(
          'emuView00001',
          '  measures: [revenue.arr]\n  dimensions: [revenue.billing_date]\n',
        ),
      });
      const b = await runCli(['plan', '--dir', bad, ...target(emu)], { env: emulatorEnv });
      expect(b.code, b.stdout + b.stderr).toBe(3);
      expect(b.stdout).toMatch(
        /✗ reports\/typo\.yaml:5:14 report\/emuTypo00001 jsonQuery\.measures\[0\]: Cube refuses the query: .*orders\.cont.* \(did you mean `orders\.count`\?\)/,
      );
      expect(b.stdout).toContain(
        '✗ reports/role.yaml:5:14 report/emuRole00001 jsonQuery.measures[0]: `orders.status` is a',
      );
      expect(b.stdout).toMatch(
        /✗ reports\/view\.yaml:6:16 report\/emuView00001 jsonQuery\.dimensions\[0\]: Cube refuses the query: .*revenue\.billing_date.* \(did you mean `revenue\.month`\?\)/,
      );
    });
  });
});

describe("a report's SQL is asked of the planner with format=sql", () => {
  test("a private measure passes; a typo in MEASURE() is refused in Cube's words, at its place", async () => {
    await withEmulator({}, async (emu) => {
      const sql = (id: string, m: string) =>
        `kind: Report\npublicId: ${id}\nname: ${id}\nsqlQuery: |\n  SELECT MEASURE(${m}) AS c FROM orders\n`;
      const ok = await runCli(
        [
          'plan',
          '--dir',
          writeFiles({ 'reports/s.yaml': sql('emuSql000001', 'orders.internal_cost') }),
          ...target(emu),
        ],
        {
          env: emulatorEnv,
        },
      );
      expect(ok.code, ok.stdout + ok.stderr).toBe(0);
      const asked = emu.log.filter((e) => e.path === '/cubejs-api/v1/sql');
      expect(asked.map((e) => e.query)).toEqual([
        expect.objectContaining({ format: 'sql', query: 'SELECT MEASURE(orders.internal_cost) AS c FROM orders\n' }),
      ]);
      const bad = await runCli(
        ['plan', '--dir', writeFiles({ 'reports/s.yaml': sql('emuSql000002', 'orders.cont') }), ...target(emu)],
        {
          env: emulatorEnv,
        },
      );
      expect(bad.code, bad.stdout + bad.stderr).toBe(3);
      expect(bad.stdout).toMatch(
        /✗ reports\/s\.yaml:5:18 report\/emuSql000002 sqlQuery MEASURE\(orders\.cont\): Cube refuses the query: .+ \(did you mean `orders\.count`\?\)/,
      );
    });
  });
});

describe('what is checked', () => {
  test('members of reports the bundle does not manage are not checked', async () => {
    const seed = {
      deployments: [{ id: 1 }],
      users: [{ id: 1, email: 'a@x', role: 'admin' as const, tokens: ['dev-token'] }],
      reports: [{ id: 7, deploymentId: 1, publicId: 'liveGhost001', jsonQuery: '{"measures":["ghost.nothing"]}' }],
    };
    await withEmulator({ seed }, async (emu) => {
      const r = await runCli(['plan', '--dir', good(), ...target(emu)], { env: emulatorEnv });
      expect(r.code, r.stdout + r.stderr).toBe(0);
      expect(r.stderr).toContain('Semantic check: 1 member use(s) checked');
      expect(r.stderr).toContain('no error.');
      expect(r.stdout + r.stderr).not.toContain('ghost');
    });
  });
});

describe('tokens', () => {
  test('the platform token never reaches the Core Data API: only the minted, short-lived one does, redacted', async () => {
    const dir = good();
    await withEmulator({}, async (emu) => {
      const r = await runCli(['plan', '--verbose', '--dir', dir, ...target(emu)], { env: emulatorEnv, spawn: true });
      expect(r.code, r.stderr).toBe(0);
      const mint = emu.log.find((e) => e.path === '/api/v1/deployments/1/token')!;
      expect(mint.requestBody).toEqual({ expiresIn: 300 });
      const minted = (mint.responseBody as { cubeApiToken: string }).cubeApiToken;
      const core = emu.log.filter((e) => e.path.startsWith('/cubejs-api/'));
      expect(core.map((e) => [e.method, e.path, e.status, e.authorization])).toEqual([
        ['GET', '/cubejs-api/v1/meta', 200, minted],
      ]);
      // ...and the minted token goes nowhere else; the platform token nowhere but the platform.
      for (const e of emu.log.filter((x) => !x.path.startsWith('/cubejs-api/'))) {
        expect(e.authorization).toBe('Bearer dev-token');
      }
      expect(r.stderr).toMatch(
        /→ GET \/meta for the data model \(Core Data API 127\.0\.0\.1:\d+\) \(Authorization: \*\*\*\)/,
      );
      expect(r.stdout + r.stderr).not.toContain(minted);
    });
  });

  test('the Core Data API refuses a platform token and no token (403, as Cube), and takes a minted one', async () => {
    await withEmulator({}, async (emu) => {
      const meta = (auth?: string) =>
        fetch(`${emu.url}/cubejs-api/v1/meta`, auth === undefined ? {} : { headers: { authorization: auth } });
      expect((await meta('Bearer dev-token')).status).toBe(403);
      expect((await meta('dev-token')).status).toBe(403);
      expect((await meta()).status).toBe(403);
      const post = (body: unknown) =>
        fetch(`${emu.url}/api/v1/deployments/1/token`, {
          method: 'POST',
          headers: { authorization: 'Bearer dev-token', 'content-type': 'application/json' },
          body: JSON.stringify(body),
        });
      expect((await post({ expiresIn: 30 })).status).toBe(400);
      const { cubeApiToken } = (await (await post({ expiresIn: 60 })).json()) as { cubeApiToken: string };
      const ok = await meta(cubeApiToken);
      expect(ok.status).toBe(200);
      const body = (await ok.json()) as { cubes: { name: string }[] };
      expect(body.cubes.map((c) => c.name)).toContain('subscriptions');
      const validate = await fetch(`${emu.url}/build/api/v1/deployments/1/data-model/validate`, {
        headers: { authorization: 'Bearer dev-token' },
      });
      // The compile counts every cube, the hidden one (audit_log) too, which /v1/meta leaves out.
      expect(await validate.json()).toMatchObject({ valid: true, cubesCount: body.cubes.length + 1, deploymentId: 1 });
    });
  });
});

/** A server answering every request with `status` and `body` as HTML. */
async function htmlServer(): Promise<{ url: string; server: Server; seen: string[] }> {
  const seen: string[] = [];
  const server = createServer((req, res) => {
    seen.push(`${req.method} ${req.url} ${req.headers.authorization ?? ''}`);
    res.writeHead(200, { 'content-type': 'text/html' });
    res.end('<!doctype html><html><body>app</body></html>');
  });
  server.listen(0, '127.0.0.1');
  await new Promise((r) => server.once('listening', r));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, server, seen };
}

describe('a model that cannot be read is a warning, and the plan goes on', () => {
  const planWarns = async (opts: Parameters<typeof withEmulator>[0], why: RegExp, more: string[] = []) =>
    withEmulator(opts, async (emu) => {
      const r = await runCli(['plan', '--dir', good(), ...target(emu), ...more], { env: emulatorEnv });
      expect(r.code, r.stderr).toBe(0);
      expect(r.stdout).toContain('Plan: 1 to create');
      expect(r.stdout).toMatch(/^Semantic check: not done, the data model of deployment 1 could not be read \(/);
      expect(r.stderr).toMatch(/warning the semantic check did not run: the data model could not be read \(/);
      expect(r.stderr).toMatch(why);
      expect(r.stderr).toContain('Tried: GET /api/v1/deployments/1/environments and POST /api/v1/deployments/1/token');
      return { emu, r };
    });

  test('no `rest` credentials', async () => {
    await planWarns({ model: null }, /its production environment has no `rest` API credentials/);
  });

  test("the Core Data API refuses the minted token (Cube's 403 Invalid token): worded as that, not as the platform token's", async () => {
    // Another emulator's Core Data API does not take this one's minted tokens, as a Cube with another secret.
    await withEmulator({}, async (other) => {
      const { r } = await planWarns(
        { coreDataApiUrl: `${other.url}/cubejs-api/v1` },
        /the Core Data API refused the deployment token wsc minted \(GET \/meta -> 403 Forbidden: Invalid token\)/,
      );
      expect(r.stderr).not.toMatch(/Access denied|WSC_TOKEN|token is valid/);
    });
  });

  test('the Core Data API unreachable: what was tried names its url', async () => {
    const closed = await htmlServer();
    const url = closed.url;
    await new Promise((r) => closed.server.close(r));
    // No retry: a refused connection is retried with backoff, and what is tried is named either way.
    await planWarns({ coreDataApiUrl: `${url}/cubejs-api/v1` }, new RegExp(`then GET ${url}/cubejs-api/v1/meta`), [
      '--max-retries',
      '0',
    ]);
  });

  test('the Core Data API answers a web page, not JSON', async () => {
    const html = await htmlServer();
    try {
      const { emu } = await planWarns(
        { coreDataApiUrl: `${html.url}/cubejs-api` },
        /GET \/v1\/meta answered 200 with a web page, not JSON/,
      );
      // It got the minted token, bare, and never the platform token.
      expect(html.seen).toHaveLength(1);
      expect(html.seen[0]).toMatch(/^GET \/cubejs-api\/v1\/meta cube-\w+$/);
      expect(html.seen.join()).not.toContain('dev-token');
      expect(emu.log.some((e) => e.path === '/api/v1/deployments/1/token')).toBe(true);
    } finally {
      html.server.close();
    }
  });

  test('a rest url that is not https (or loopback) is refused: the token is not sent', async () => {
    await planWarns(
      { coreDataApiUrl: 'ftp://models.example.com/v1' },
      /uses ftp:\/\/; only https:\/\/ is accepted; the token was not sent/,
    );
    await planWarns(
      { coreDataApiUrl: 'http://models.example.com/cubejs-api/v1' },
      /http:\/\/ on models\.example\.com: the token would travel unencrypted; the token was not sent/,
    );
  });
});

describe('wsc validate --semantic-check', () => {
  test("offline without the flag; with it, each refused query is an error diagnostic (exit 3), Cube's words, nothing written", async () => {
    await withCube(async (emu) => {
      const dir = writeFiles({ ...VALID, ...INVALID });
      const plain = await runCli(['validate', '--dir', dir, ...target(emu)], { env: emulatorEnv });
      expect(plain.code, plain.stdout).toBe(0);
      expect(emu.log).toEqual([]);

      const r = await runCli(['validate', '--semantic-check', '--dir', dir, ...target(emu)], { env: emulatorEnv });
      expect(r.code, r.stdout + r.stderr).toBe(3);
      expect(r.stdout).toContain(
        "reports/typo.yaml:5:14 error report/semTypo00001 jsonQuery.measures[0]: Cube refuses the query: 'cont' " +
          "not found for path 'orders.cont' (did you mean `orders.count`?) [refused-by-cube]\n",
      );
      expect(r.stdout).toMatch(/reports\/role\.yaml:5:14 error .*`orders\.status`.* \[refused-by-model\]\n/);
      expect(r.stdout).not.toContain('orders.id');
      expect(r.stdout).toContain('Fix the errors above; nothing was written to any API.');
      expect(nonGets(emu)).toEqual(['POST /api/v1/deployments/1/token']);

      const ok = await runCli(['validate', '--semantic-check', '--dir', writeFiles(VALID), ...target(emu)], {
        env: emulatorEnv,
      });
      expect(ok.code, ok.stdout).toBe(0);
    });
  });
});

describe('wsc preview --model', () => {
  test('a file that is not a /v1/meta answer is refused before anything is drawn (exit 3)', async () => {
    const dir = good();
    const bad = writeFiles({ 'meta.json': '{"cube": []}', 'broken.json': '{' });
    for (const [file, why] of [
      ['meta.json', 'not a /v1/meta answer'],
      ['broken.json', 'not JSON'],
      ['missing.json', 'missing.json: no such file or directory (ENOENT).'],
      ['', ': is a directory (EISDIR).'],
    ] as const) {
      const r = await runCli(['preview', '--dir', dir, '--out', `${bad}/svg`, '--model', `${bad}/${file}`]);
      expect(r.code, r.stderr).toBe(3);
      expect(r.stderr).toContain(why);
      expect(r.stderr).toContain('[preview_model]');
    }
  });
});

describe('the cost of the check', () => {
  test('its reads leave beside the live read; two round trips in sequence, so at most one more than the reads', async () => {
    const dir = good();
    await withEmulator({ latencyMs: 250 }, async (emu) => {
      const r = await runCli(['plan', '--dir', dir, ...target(emu)], { env: emulatorEnv });
      expect(r.code, r.stderr).toBe(0);
      const span = (path: string | RegExp) => {
        const e = emu.log.find((x) => (typeof path === 'string' ? x.path === path : path.test(x.path)))!;
        const start = Date.parse(e.startedAt);
        return { start, end: start + e.durationMs };
      };
      const reports = span('/api/v1/deployments/1/reports');
      const envs = span('/api/v1/deployments/1/environments');
      const token = span('/api/v1/deployments/1/token');
      const meta = span('/cubejs-api/v1/meta');
      // The environments and the token are asked for while the first list page is on its way...
      expect(envs.start).toBeLessThan(reports.end);
      expect(token.start).toBeLessThan(reports.end);
      // ...and /v1/meta once both are in: the one request in sequence after them.
      expect(meta.start).toBeGreaterThanOrEqual(Math.max(envs.end, token.end));
    });
  });
});
