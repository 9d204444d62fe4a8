// The executor's orchestration over an in-memory ApiPort: order, bounded
// concurrency, reference resolution, skipped dependents, and the read-back
// that makes report creation exactly-once. (End-to-end claims about apply run
// the built CLI against the emulator: test/e2e/apply*.test.ts.)
import { describe, expect, test } from 'vitest';
import type { Folder, Report, UserAttribute, Workbook } from '../../src/domain/wire.js';
import { execute, INTERRUPTED, type ApplyEvent } from '../../src/core/execute/index.js';
import type { ApiPort } from '../../src/core/api-port.js';
import type { Plan, PlannedRequest, ResourceChange } from '../../src/core/plan-model.js';
import { ApiError, InternalError, NetworkError } from '../../src/errors.js';
import { executablePlan } from './builders.js';

const DEP = 1;

function report(over: Partial<Report> & { id: number; publicId: string }): Report {
  const user = { id: 1, email: 'a@example.com' };
  return {
    deploymentId: DEP,
    name: 'r',
    type: 'REPORT',
    createdAt: '2026-01-01T00:00:00.000Z',
    updatedAt: '2026-01-01T00:00:00.000Z',
    userId: 1,
    user,
    refreshedByUser: user,
    ...over,
  };
}

type Call = { fn: string; args: unknown[] };
type Hook = (fn: string, args: unknown[]) => Promise<unknown> | undefined;

/** An in-memory port: assigns ids, records every call, lets a test fail or delay calls. */
class FakePort implements ApiPort {
  calls: Call[] = [];
  reports: Report[] = [];
  userAttributes: UserAttribute[] = [];
  workbooks = new Map<string, number>();
  nextId = 100;
  inFlight = 0;
  maxInFlight = 0;
  constructor(private hook: Hook = () => undefined) {}

  private async call<T>(fn: string, args: unknown[], real: () => T): Promise<T> {
    this.calls.push({ fn, args });
    this.inFlight++;
    this.maxInFlight = Math.max(this.maxInFlight, this.inFlight);
    try {
      const hooked = this.hook(fn, args);
      if (hooked) await hooked;
      await new Promise((r) => setImmediate(r));
      return real();
    } finally {
      this.inFlight--;
    }
  }
  upsertWorkbookBySlug(slug: string, body: unknown) {
    return this.call('upsertWorkbookBySlug', [slug, body], () => {
      if (!this.workbooks.has(slug)) this.workbooks.set(slug, this.nextId++);
      return { id: this.workbooks.get(slug)! } as Workbook;
    });
  }
  adoptWorkbook(id: number, slug: string) {
    return this.call('adoptWorkbook', [id, slug], () => {
      this.workbooks.set(slug, id);
    });
  }
  createReport(body: Record<string, unknown>) {
    return this.call('createReport', [body], () => {
      const r = report({ ...(body as object), id: this.nextId++, publicId: body['publicId'] as string });
      this.reports.push(r);
      return r;
    });
  }
  updateReport(id: number, body: Record<string, unknown>) {
    return this.call('updateReport', [id, body], () => report({ id, publicId: (body['publicId'] as string) ?? 'x' }));
  }
  readReport(id: number) {
    return this.call('readReport', [id], () => this.reports.find((r) => r.id === id) ?? report({ id, publicId: 'x' }));
  }
  readWorkbook(id: number): Promise<never> {
    return this.call('readWorkbook', [id], () => {
      throw new Error('not used by these tests');
    });
  }
  findReportsByPublicId(publicId: string) {
    return this.call('findReportsByPublicId', [publicId], () => this.reports.filter((r) => r.publicId === publicId));
  }
  publishWorkbook(id: number, body: unknown) {
    return this.call('publishWorkbook', [id, body], () => ({}));
  }
  createUserAttribute(body: { name: string; type: string }) {
    return this.call('createUserAttribute', [body], () => ({ id: this.nextId++, name: body.name, type: body.type }));
  }
  updateUserAttribute(id: number, body: unknown) {
    return this.call('updateUserAttribute', [id, body], () => ({ id, name: 'n', type: 'string' }));
  }
  deleteReport(reportId: number) {
    return this.call('deleteReport', [reportId], () => undefined);
  }
  deleteWorkbook(workbookId: number) {
    return this.call('deleteWorkbook', [workbookId], () => undefined);
  }
  folders: Folder[] = [];
  createFolder(body: { name: string; parentId: number | null }) {
    return this.call('createFolder', [body], () => {
      const f = { id: this.nextId++, name: body.name, parentId: body.parentId } as Folder;
      this.folders.push(f);
      return f;
    });
  }
  listFolders(parentId: number | null) {
    return this.call('listFolders', [parentId], () => this.folders.filter((f) => (f.parentId ?? null) === parentId));
  }
  deleteFolder(id: number) {
    return this.call('deleteFolder', [id], () => {
      this.folders = this.folders.filter((f) => f.id !== id);
    });
  }
  findUserAttributeByName(name: string) {
    return this.call('findUserAttributeByName', [name], () => this.userAttributes.find((a) => a.name === name));
  }
}

const pos = (file: string) => ({ file, line: 1, col: 1 });

function req(
  id: string,
  address: string,
  phase: PlannedRequest['phase'],
  operation: PlannedRequest['operation'],
  dependsOn: string[] = [],
): PlannedRequest {
  return { id, address, phase, operation, dependsOn };
}

function change(
  address: string,
  actions: ResourceChange['actions'],
  requests: PlannedRequest[],
  extra: Partial<ResourceChange> = {},
): ResourceChange {
  const kind = address.split('/')[0] as ResourceChange['kind'];
  return {
    address,
    kind,
    actions,
    changes: [],
    requests,
    pos: pos(`${kind}s/${address.split('/')[1]}.yaml`),
    ...extra,
  };
}

/** `n` independent report creates. */
function reportCreates(n: number): ResourceChange[] {
  return Array.from({ length: n }, (_, i) => {
    const pid = `rep${String(i).padStart(9, '0')}`;
    return change(
      `report/${pid}`,
      ['create'],
      [req(`report/${pid}#create`, `report/${pid}`, 2, { op: 'createReport', body: { publicId: pid, name: pid } })],
    );
  });
}

function plan(changes: ResourceChange[]): Plan {
  return executablePlan(changes, { environment: 'staging', deploymentId: DEP });
}

/** A new workbook whose dashboard charts a new report that lives in it, published. */
/** Live report 9 adopted into the bundle's `publicId`: one PUT. */
function adoptPlan(publicId: string): Plan {
  const address = `report/${publicId}`;
  const body = { publicId };
  return plan([
    change(address, ['adopt'], [req('a', address, 2, { op: 'updateReport', reportId: 9, body })], { liveId: 9 }),
  ]);
}

function dashboardPlan(opts: { declareDeps: boolean }): Plan {
  const d = opts.declareDeps;
  return plan([
    change(
      'workbook/sales',
      ['create', 'publish'],
      [
        req('workbook/sales#upsert', 'workbook/sales', 1, {
          op: 'upsertWorkbook',
          slug: 'sales',
          body: { name: 'Sales' },
        }),
        req(
          'workbook/sales#draft',
          'workbook/sales',
          3,
          {
            op: 'upsertWorkbook',
            slug: 'sales',
            body: {
              meta: {
                dashboardDraft: {
                  widgets: [
                    {
                      type: 'CHART',
                      position: { x: 0, y: 0, w: 1, h: 1 },
                      config: {
                        reportId: { $report: 'revAAAAAAAA1' },
                        nested: [{ other: { $report: 'oldBBBBBBBB2' } }],
                      },
                    },
                  ],
                },
              },
            },
          },
          d ? ['workbook/sales#upsert', 'report/revAAAAAAAA1#create'] : [],
        ),
        req(
          'workbook/sales#publish',
          'workbook/sales',
          4,
          { op: 'publishWorkbook', workbook: { $workbook: 'sales' }, body: {} },
          d ? ['workbook/sales#draft'] : [],
        ),
      ],
    ),
    change(
      'report/revAAAAAAAA1',
      ['create'],
      [
        req(
          'report/revAAAAAAAA1#create',
          'report/revAAAAAAAA1',
          2,
          {
            op: 'createReport',
            body: { publicId: 'revAAAAAAAA1', name: 'Revenue', workbookId: { $workbook: 'sales' } },
          },
          d ? ['workbook/sales#upsert'] : [],
        ),
      ],
    ),
    change('report/oldBBBBBBBB2', ['noop'], [], { liveId: 7 }),
    change(
      'user-attribute/region',
      ['update'],
      [
        req('user-attribute/region#update', 'user-attribute/region', 0, {
          op: 'updateUserAttribute',
          id: 3,
          body: { displayName: 'Region' },
        }),
      ],
      { liveId: 3 },
    ),
  ]);
}

describe('execute: order and references', () => {
  test.each([true, false])(
    'runs workbook, report, draft, publish in order and resolves references (declared deps: %s)',
    async (declareDeps) => {
      const port = new FakePort();
      const events: ApplyEvent[] = [];
      const result = await execute(dashboardPlan({ declareDeps }), port, {
        concurrency: 8,
        onEvent: (e) => events.push(e),
      });

      const order = port.calls.map((c) => c.fn).filter((f) => f !== 'updateUserAttribute');
      expect(order).toEqual(['upsertWorkbookBySlug', 'createReport', 'upsertWorkbookBySlug', 'publishWorkbook']);
      const wbId = port.workbooks.get('sales')!;
      const created = port.reports[0]!;
      expect(port.calls.find((c) => c.fn === 'createReport')?.args[0]).toEqual({
        publicId: 'revAAAAAAAA1',
        name: 'Revenue',
        workbookId: wbId,
      });
      const draftBody = port.calls.filter((c) => c.fn === 'upsertWorkbookBySlug')[1]!.args[1] as any;
      expect(draftBody.meta.dashboardDraft.widgets[0].config).toEqual({ reportId: created.id, nested: [{ other: 7 }] });
      expect(port.calls.find((c) => c.fn === 'publishWorkbook')?.args).toEqual([wbId, { workbookId: wbId }]);

      expect(result.failed).toEqual([]);
      expect(result.skipped).toEqual([]);
      expect(result.applied).toHaveLength(5);
      expect(result.counts).toEqual({ created: 2, updated: 1, adopted: 0, published: 1 });
      expect(result.resources.map((r) => [r.address, r.status, r.id])).toEqual([
        ['workbook/sales', 'applied', wbId],
        ['report/revAAAAAAAA1', 'applied', created.id],
        ['user-attribute/region', 'applied', 3],
      ]);
      // each phase is announced once and closed once with its counts
      const phases = events
        .filter((e) => e.type === 'phase-start')
        .map((e) => (e as { phase: number }).phase)
        .sort();
      expect(phases).toEqual([0, 1, 2, 3, 4]);
      expect(events.filter((e) => e.type === 'phase-end')).toHaveLength(5);
      expect(events.filter((e) => e.type === 'request-done')).toHaveLength(5);
    },
  );

  test('user attributes do not wait for the workbook chain', async () => {
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    const port = new FakePort((fn) => (fn === 'upsertWorkbookBySlug' ? gate : undefined));
    const done = execute(dashboardPlan({ declareDeps: true }), port, { concurrency: 8 });
    await new Promise((r) => setTimeout(r, 10));
    expect(port.calls.map((c) => c.fn)).toEqual(['upsertWorkbookBySlug', 'updateUserAttribute']);
    release();
    await done;
  });

  test('never runs more than `concurrency` requests at once, and does use the allowance', async () => {
    const changes = reportCreates(20);
    for (const concurrency of [1, 3, 8]) {
      const port = new FakePort(() => new Promise((r) => setTimeout(r, 2)));
      const result = await execute(plan(changes), port, { concurrency });
      expect(result.applied).toHaveLength(20);
      expect(port.maxInFlight).toBe(concurrency);
    }
  });

  test('a cycle or an unknown dependency is an internal error before anything is sent', async () => {
    const port = new FakePort();
    const cyclic = plan([
      change(
        'workbook/a',
        ['create'],
        [req('a', 'workbook/a', 1, { op: 'upsertWorkbook', slug: 'a', body: {} }, ['b'])],
      ),
      change(
        'workbook/b',
        ['create'],
        [req('b', 'workbook/b', 1, { op: 'upsertWorkbook', slug: 'b', body: {} }, ['a'])],
      ),
    ]);
    await expect(execute(cyclic, port, { concurrency: 2 })).rejects.toThrow(/cycle: a -> b -> a|cycle: b -> a -> b/);
    const dangling = plan([
      change(
        'workbook/a',
        ['create'],
        [req('a', 'workbook/a', 1, { op: 'upsertWorkbook', slug: 'a', body: {} }, ['zzz'])],
      ),
    ]);
    await expect(execute(dangling, port, { concurrency: 2 })).rejects.toBeInstanceOf(InternalError);
    expect(port.calls).toEqual([]);
  });
});

const apiError = (status: number, method: string, path: string, apiCode?: string, serverMessage?: string) =>
  new ApiError({ method, path, status, apiCode, serverMessage }, `${method} ${path} failed with ${status}`);

describe('execute: failures', () => {
  test('dependents of a failed request are skipped, independent ones go on', async () => {
    const port = new FakePort((fn) =>
      fn === 'upsertWorkbookBySlug'
        ? Promise.reject(apiError(500, 'PUT', '/api/v1/deployments/1/workbooks/by-slug/sales', undefined, 'boom'))
        : undefined,
    );
    const events: ApplyEvent[] = [];
    const result = await execute(dashboardPlan({ declareDeps: true }), port, {
      concurrency: 4,
      onEvent: (e) => events.push(e),
    });
    expect(port.calls.map((c) => c.fn)).toEqual(['upsertWorkbookBySlug', 'updateUserAttribute']);
    expect(result.failed.map((f) => [f.request.id, f.error.message, f.pos?.file])).toEqual([
      [
        'workbook/sales#upsert',
        'PUT /api/v1/deployments/1/workbooks/by-slug/sales failed with 500',
        'workbooks/sales.yaml',
      ],
    ]);
    expect(result.skipped.map((s) => [s.request.id, s.reason])).toEqual([
      ['workbook/sales#draft', 'depends on workbook/sales#upsert which failed'],
      ['workbook/sales#publish', 'depends on workbook/sales#upsert which failed'],
      ['report/revAAAAAAAA1#create', 'depends on workbook/sales#upsert which failed'],
    ]);
    expect(result.applied.map((a) => a.request.id)).toEqual(['user-attribute/region#update']);
    expect(result.resources.map((r) => [r.address, r.status])).toEqual([
      ['workbook/sales', 'failed'],
      ['report/revAAAAAAAA1', 'skipped'],
      ['user-attribute/region', 'applied'],
    ]);
    expect(result.counts).toEqual({ created: 0, updated: 1, adopted: 0, published: 0 });
    expect(events.filter((e) => e.type === 'request-skip')).toHaveLength(3);
  });

  test('a failed publish leaves the created workbook counted as created, not published', async () => {
    const port = new FakePort((fn) =>
      fn === 'publishWorkbook' ? Promise.reject(apiError(422, 'POST', '/p')) : undefined,
    );
    const result = await execute(dashboardPlan({ declareDeps: true }), port, { concurrency: 4 });
    expect(result.counts).toEqual({ created: 2, updated: 1, adopted: 0, published: 0 });
    expect(result.resources[0]).toMatchObject({ address: 'workbook/sales', status: 'partial' });
    // The publish that failed is not among what the workbook had done.
    expect(result.resources[0]!.actions).toContain('publish');
    expect(result.resources[0]!.done).not.toContain('publish');
  });

  test('a report that failed: its workbook, made before it, counts as created (once), not published', async () => {
    const port = new FakePort((fn) =>
      fn === 'createReport' ? Promise.reject(apiError(422, 'POST', '/r')) : undefined,
    );
    const result = await execute(dashboardPlan({ declareDeps: true }), port, { concurrency: 4 });
    expect(result.counts).toEqual({ created: 1, updated: 1, adopted: 0, published: 0 });
    expect(result.resources.map((r) => [r.address, r.status, r.done])).toEqual([
      ['workbook/sales', 'partial', ['create']],
      ['report/revAAAAAAAA1', 'failed', []],
      ['user-attribute/region', 'applied', ['update']],
    ]);
  });

  test('an error that is not a WscError becomes an internal error naming the request', async () => {
    const port = new FakePort((fn) =>
      fn === 'updateUserAttribute' ? Promise.reject(new TypeError('x is undefined')) : undefined,
    );
    const result = await execute(dashboardPlan({ declareDeps: true }), port, { concurrency: 4 });
    expect(result.failed[0]?.error).toBeInstanceOf(InternalError);
    expect(result.failed[0]?.error.message).toBe('user-attribute/region#update: x is undefined');
  });
});

describe('execute: report creation is exactly once', () => {
  const pid = 'revAAAAAAAA1';
  const body = {
    publicId: pid,
    name: 'Revenue',
    jsonQuery: '{"measures":["a"],"dimensions":[]}',
    meta: { owner: 'fin' },
  };
  const onePlan = () =>
    plan([
      change(
        `report/${pid}`,
        ['create'],
        [req(`report/${pid}#create`, `report/${pid}`, 2, { op: 'createReport', body })],
      ),
    ]);
  const conflict = () => apiError(409, 'POST', '/api/v1/deployments/1/reports', undefined, 'publicId already used');

  test('409 after a lost answer: the report read back is ours, counted once, as found already there', async () => {
    // the first POST committed but its answer was lost; the retry (inside the port) met 409
    const port = new FakePort((fn) => (fn === 'createReport' ? Promise.reject(conflict()) : undefined));
    port.reports.push(
      report({
        id: 55,
        publicId: pid,
        name: 'Revenue',
        jsonQuery: '{"dimensions":[],"measures":["a"]}',
        meta: { owner: 'fin', extra: 1 },
      }),
    );
    const events: ApplyEvent[] = [];
    const result = await execute(onePlan(), port, { concurrency: 1, onEvent: (e) => events.push(e) });
    expect(result.failed).toEqual([]);
    expect(result.applied).toEqual([
      { request: expect.objectContaining({ id: `report/${pid}#create` }), id: 55, recovered: true },
    ]);
    expect(events).toContainEqual(expect.objectContaining({ type: 'request-done', id: 55, recovered: true }));
    // Not also "created": the summary would count the same report twice.
    expect(result.counts).toEqual({ created: 0, updated: 0, adopted: 0, published: 0, recovered: 1 });
    expect(result.resources).toEqual([
      expect.objectContaining({ status: 'applied', done: ['create'], recovered: true }),
    ]);
    expect(port.calls.map((c) => c.fn)).toEqual(['createReport', 'findReportsByPublicId']);
  });

  test('a network error after the port gave up is also resolved by reading back', async () => {
    const port = new FakePort((fn) =>
      fn === 'createReport' ? Promise.reject(new NetworkError('POST', '/r', 'socket hang up')) : undefined,
    );
    port.reports.push(report({ id: 56, publicId: pid, name: 'Revenue', jsonQuery: body.jsonQuery, meta: body.meta }));
    const result = await execute(onePlan(), port, { concurrency: 1 });
    expect(result.applied[0]).toMatchObject({ id: 56, recovered: true });

    const empty = new FakePort((fn) =>
      fn === 'createReport' ? Promise.reject(new NetworkError('POST', '/r', 'socket hang up')) : undefined,
    );
    const r2 = await execute(onePlan(), empty, { concurrency: 1 });
    expect(r2.failed[0]?.error).toBeInstanceOf(NetworkError);
  });

  test.each([
    [
      'held in another deployment',
      [{ deploymentId: 2, name: 'Revenue' }],
      /already used by a report in deployment 2\. publicIds are unique across the whole account/,
    ],
    ['not visible at all', [], /already used by another report in the account \(not in deployment 1\)/],
    [
      'held here with other content',
      [{ deploymentId: 1, name: 'Someone else' }],
      /already used by report 57 in deployment 1, whose content differs/,
    ],
  ])(
    '409 for a publicId that is not ours (%s) fails with an explanation naming the file and the fix',
    async (_name, holders, message) => {
      const port = new FakePort((fn) => (fn === 'createReport' ? Promise.reject(conflict()) : undefined));
      for (const h of holders) port.reports.push(report({ id: 57, publicId: pid, ...h }));
      const result = await execute(onePlan(), port, { concurrency: 1 });
      const err = result.failed[0]?.error as ApiError;
      expect(err).toBeInstanceOf(ApiError);
      expect(err.code).toBe('public_id_taken');
      expect(err.message).toMatch(message);
      expect(err.message).toContain('reports/revAAAAAAAA1.yaml');
      expect([err.method, err.path, err.status, err.serverMessage]).toEqual([
        'POST',
        '/api/v1/deployments/1/reports',
        409,
        'publicId already used',
      ]);
      if (holders[0]?.deploymentId !== 1)
        expect(err.hint).toMatch(
          /publicIds: per-deployment.*"staging".*or choose another publicId in reports\/revAAAAAAAA1\.yaml/,
        );
      expect(port.calls.filter((c) => c.fn === 'createReport')).toHaveLength(1);
    },
  );

  test('409 upsert_branch_changed or other statuses are not read back', async () => {
    const port = new FakePort((fn) =>
      fn === 'createReport' ? Promise.reject(apiError(409, 'POST', '/r', 'upsert_branch_changed')) : undefined,
    );
    const result = await execute(onePlan(), port, { concurrency: 1 });
    expect(result.failed[0]?.error.code).toBe('http_409');
    expect(port.calls.map((c) => c.fn)).toEqual(['createReport']);
  });

  test('400 for a placeholder-shaped publicId names the file and the fix', async () => {
    const placeholder = '000000abcdef';
    const port = new FakePort((fn) =>
      fn === 'createReport'
        ? Promise.reject(apiError(400, 'POST', '/api/v1/deployments/1/reports', undefined, 'bad publicId'))
        : undefined,
    );
    const p = plan([
      change(
        `report/${placeholder}`,
        ['create'],
        [req('c', `report/${placeholder}`, 2, { op: 'createReport', body: { publicId: placeholder, name: 'x' } })],
      ),
    ]);
    const result = await execute(p, port, { concurrency: 1 });
    const err = result.failed[0]!.error;
    expect(err.code).toBe('public_id_placeholder');
    expect(err.message).toContain('reports/000000abcdef.yaml');
    expect(err.hint).toMatch(/Choose another publicId in reports\/000000abcdef\.yaml/);
    expect(port.calls).toHaveLength(1);
  });

  test('adopt: PUT with the publicId; a 400 for a report that already has one explains write-once', async () => {
    const ok = new FakePort();
    const p = adoptPlan(pid);
    const r1 = await execute(p, ok, { concurrency: 1 });
    expect(ok.calls).toEqual([{ fn: 'updateReport', args: [9, { publicId: pid }] }]);
    expect(r1.counts.adopted).toBe(1);

    const bad = new FakePort(() =>
      Promise.reject(apiError(400, 'PUT', '/api/v1/deployments/1/reports/9', undefined, 'publicId cannot be changed')),
    );
    const r2 = await execute(p, bad, { concurrency: 1 });
    expect(r2.failed[0]?.error.code).toBe('public_id_write_once');
    expect(r2.failed[0]?.error.message).toMatch(/report 9 already has a publicId/);
    expect(r2.failed[0]?.error.hint).toMatch(/Remove the adopt block from reports\/revAAAAAAAA1\.yaml/);
  });

  test('adopt: a 409 on PUT (publicId taken) gets the account-wide explanation', async () => {
    const bad = new FakePort(() =>
      Promise.reject(apiError(409, 'PUT', '/api/v1/deployments/1/reports/9', undefined, 'publicId already used')),
    );
    const p = adoptPlan(pid);
    const r = await execute(p, bad, { concurrency: 1 });
    expect(r.failed[0]?.error.code).toBe('public_id_taken');
    expect(r.failed[0]?.error.message).toMatch(/unique across the whole account/);
  });
});

describe('execute: adopting into a publicId held in the same deployment', () => {
  test('names the report that holds it', async () => {
    const pid = 'revAAAAAAAA1';
    const port = new FakePort((fn) =>
      fn === 'updateReport'
        ? Promise.reject(apiError(409, 'PUT', '/api/v1/deployments/1/reports/9', undefined, 'publicId already used'))
        : undefined,
    );
    port.reports.push(report({ id: 12, publicId: pid }));
    const p = adoptPlan(pid);
    const r = await execute(p, port, { concurrency: 1 });
    expect(r.failed[0]?.error.message).toBe(
      'publicId revAAAAAAAA1 (report/revAAAAAAAA1, reports/revAAAAAAAA1.yaml) cannot be given to report 9: report 12 in deployment 1 already has it.',
    );
    expect(port.calls.map((c) => c.fn)).toEqual(['updateReport', 'findReportsByPublicId']);
  });
});

describe('execute: interrupted', () => {
  test('no request starts after the abort; those in flight finish and count as applied; the rest are skipped as interrupted', async () => {
    const changes = reportCreates(20);
    const controller = new AbortController();
    let inFlightAtAbort = -1;
    const port = new FakePort(() => {
      // The third call aborts the run while it and the one beside it are in flight.
      if (port.calls.length === 3) {
        controller.abort();
        inFlightAtAbort = port.inFlight;
      }
      return new Promise((r) => setTimeout(r, 5));
    });
    const result = await execute(plan(changes), port, { concurrency: 2, signal: controller.signal });
    expect(inFlightAtAbort).toBe(2);
    expect(port.calls).toHaveLength(3);
    expect(result.applied).toHaveLength(3);
    expect(result.failed).toEqual([]);
    expect(result.skipped).toHaveLength(17);
    expect(new Set(result.skipped.map((s) => s.reason))).toEqual(new Set([INTERRUPTED]));
    expect(result.applied.length + result.skipped.length).toBe(20);
  });

  test('a request in flight at the abort finishes; what depends on it is skipped as interrupted, not as failed', async () => {
    const controller = new AbortController();
    const port = new FakePort((fn) => {
      if (fn === 'upsertWorkbookBySlug' && port.calls.length === 1) controller.abort();
      return undefined;
    });
    const p = dashboardPlan({ declareDeps: true });
    // Only the workbook chain: the user attribute would start beside the first upsert.
    p.changes = p.changes.filter((c) => c.kind !== 'user-attribute');
    const result = await execute(p, port, { concurrency: 8, signal: controller.signal });
    expect(port.calls.map((c) => c.fn)).toEqual(['upsertWorkbookBySlug']);
    expect(result.applied.map((a) => a.request.id)).toEqual(['workbook/sales#upsert']);
    expect(result.skipped.map((s) => [s.request.id, s.reason]).sort()).toEqual(
      [
        ['report/revAAAAAAAA1#create', INTERRUPTED],
        ['workbook/sales#draft', INTERRUPTED],
        ['workbook/sales#publish', INTERRUPTED],
      ].sort(),
    );
    expect(result.resources.find((r) => r.address === 'workbook/sales')?.status).toBe('partial');
  });
});
