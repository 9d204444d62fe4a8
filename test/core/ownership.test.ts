// Ownership records, UI-edit marks and prune in the planner, and the
// executor's part (the record on the wire, deletes last, refusals).
import { describe, expect, test } from 'vitest';
import type { Report } from '../../src/domain/wire.js';
import { ApiError } from '../../src/errors.js';
import { execute } from '../../src/core/execute/index.js';
import type { ApiPort } from '../../src/core/api-port.js';
import type { OwnershipContext } from '../../src/core/model.js';
import { hasChanges, hasRequests, type Plan, type PlannedRequest } from '../../src/core/plan-model.js';
import { fieldHash, recordFor, withRecord } from '../../src/core/ownership.js';
import { plan } from '../../src/core/plan/index.js';
import { defaultMaxDeletes } from '../../src/defaults.js';
import { ctx, dReport, desired, dWorkbook, executablePlan, live, lReport, lWorkbook } from './builders.js';

const own = (extra: Partial<OwnershipContext> = {}): OwnershipContext => ({ bundle: 'team', prune: true, ...extra });
const rec = (bundle: string, fields: Record<string, unknown>) =>
  recordFor({ bundle, fields: Object.fromEntries(Object.entries(fields).map(([k, v]) => [k, fieldHash(k, v)])) }, {});

describe('field hashes', () => {
  test('equal where the planner sees no difference, different where it sees one', () => {
    expect(fieldHash('jsonQuery', '{"a":1,"b":[1,2]}')).toBe(fieldHash('jsonQuery', '{ "b": [1, 2], "a": 1 }'));
    expect(fieldHash('jsonQuery', '{"a":1}')).not.toBe(fieldHash('jsonQuery', '{"a":2}'));
    expect(fieldHash('meta.chart', { a: 1, b: null })).toBe(fieldHash('meta.chart', { a: 1 }));
    expect(fieldHash('title', null)).toBe(fieldHash('title', undefined));
    const draft = { title: 'T', widgets: [{ type: 'TEXT', position: { x: 0, y: 0, w: 1, h: 1 } }] };
    expect(fieldHash('meta.dashboardDraft', draft)).toBe(
      fieldHash('meta.dashboardDraft', { ...draft, widgets: [{ ...draft.widgets[0], id: 'srv-1' }] }),
    );
    expect(fieldHash('meta.dashboardDraft', draft)).not.toBe(
      fieldHash('meta.dashboardDraft', { ...draft, title: 'U' }),
    );
  });

  test('a record hashes the values a request sends once resolved, and sits on top of the meta it sends', () => {
    const spec = { bundle: 'team', fields: { name: fieldHash('name', 'N'), workbookId: null } };
    const body = withRecord({ name: 'N', workbookId: 42, meta: { chart: 'line' } }, spec);
    expect(body['meta']).toMatchObject({
      chart: 'line',
      wsc: { bundle: 'team', fields: { name: fieldHash('name', 'N'), workbookId: fieldHash('workbookId', 42) } },
    });
  });
});

describe('the planner with a bundle name', () => {
  test('a create carries its record; a reference known only after apply is hashed by the executor', () => {
    const p = plan(
      desired({
        workbooks: [dWorkbook('sales', { name: 'Sales' })],
        reports: [dReport('rep000000001', { name: 'R', workbookId: { $workbook: 'sales' } })],
      }),
      live({}),
      ctx({ ownership: own() }),
    );
    const create = p.changes.find((c) => c.address === 'report/rep000000001')!.requests[0]!;
    expect(create.operation).toMatchObject({
      op: 'createReport',
      record: {
        bundle: 'team',
        fields: { name: fieldHash('name', 'R') },
        values: { workbookId: { $workbook: 'sales' } },
      },
    });
    expect(p.bundle).toBe('team');
    expect(p.summary).toMatchObject({ record: 0, delete: 0 });
  });

  test('a managed resource without a record gets its own small request, which apply sends (a change for --detailed-exitcode); a current record gets none', () => {
    const d = desired({ reports: [dReport('rep000000001', { name: 'R', meta: { chart: 'line' } })] });
    const bare = lReport(7, 'rep000000001', { name: 'R', meta: { chart: 'line', other: 1 } });
    const p1 = plan(d, live({ reports: [bare] }), ctx({ ownership: own() }));
    const rc = p1.changes[0]!;
    expect(rc.actions).toEqual(['record']);
    // A report's PUT replaces meta: the live members go with it.
    expect(rc.requests[0]!.operation).toMatchObject({
      op: 'updateReport',
      reportId: 7,
      body: { meta: { chart: 'line', other: 1 } },
    });
    expect(hasChanges(p1)).toBe(true);
    expect(hasRequests(p1)).toBe(true);

    const recorded = lReport(7, 'rep000000001', {
      name: 'R',
      meta: { chart: 'line', wsc: rec('team', { 'meta.chart': 'line', name: 'R' }) },
    });
    const p2 = plan(d, live({ reports: [recorded] }), ctx({ ownership: own() }));
    expect(p2.changes[0]!.actions).toEqual(['noop']);
    expect(hasRequests(p2)).toBe(false);
  });

  test('per field, three ways: a UI edit alone is kept, a bundle change alone is made, both are a conflict', () => {
    const d = desired({ reports: [dReport('rep000000001', { name: 'R', title: 'T2' })] });
    const wsc = rec('team', { name: 'R', title: 'T' });
    // name changed in the UI only: kept; title changed in the bundle only: updated
    const uiEdited = lReport(7, 'rep000000001', { name: 'R (UI)', title: 'T', meta: { wsc } });
    const p1 = plan(d, live({ reports: [uiEdited] }), ctx({ ownership: own() })).changes[0]!;
    expect(p1.uiEdits).toBeUndefined();
    expect(p1.kept).toEqual(['name']);
    expect(p1.actions).toEqual(['update']);
    expect(p1.requests[0]!.operation).toMatchObject({ body: { title: 'T2' } });
    expect(Object.keys((p1.requests[0]!.operation as { body: object }).body)).not.toContain('name');
    // title changed on both sides, differently: blocked, the requests kept for --overwrite-ui-edits
    const both = lReport(7, 'rep000000001', { name: 'R', title: 'T (UI)', meta: { wsc } });
    const p2 = plan(d, live({ reports: [both] }), ctx({ ownership: own() })).changes[0]!;
    expect(p2.uiEdits).toEqual(['title']);
    expect(p2.actions).toEqual(['blocked']);
    expect(p2.blocked).toMatchObject({ reason: 'ui-edit', flag: '--overwrite-ui-edits report/rep000000001' });
    expect(p2.requests).toHaveLength(1);
    const forced = plan(d, live({ reports: [both] }), ctx({ ownership: own({ overwrite: ['report/rep000000001'] }) }));
    expect(forced.changes[0]!.actions).toEqual(['update']);
    // both changed to the same value: nothing to do but the record
    const agrees = lReport(7, 'rep000000001', { name: 'R', title: 'T2', meta: { wsc } });
    const p3 = plan(d, live({ reports: [agrees] }), ctx({ ownership: own() }));
    expect(p3.changes[0]!.uiEdits).toBeUndefined();
    expect(p3.changes[0]!.actions).toEqual(['record']);
  });

  test("another bundle's record blocks the resource, even unchanged, until --take-over names it", () => {
    const d = desired({ reports: [dReport('rep000000001', { name: 'R', title: 'T' })] });
    const theirs = lReport(7, 'rep000000001', { name: 'R', title: 'T', meta: { wsc: rec('other', { name: 'R' }) } });
    const whole = plan(d, live({ reports: [theirs] }), ctx({ ownership: own() }));
    const p = whole.changes[0]!;
    expect(p.actions).toEqual(['blocked']);
    // Apply sends nothing for it (the flag is missing): no change, the exit code is 5 for the block alone.
    expect(hasChanges(whole)).toBe(false);
    expect(hasRequests(whole)).toBe(true);
    expect(p.blocked).toEqual({
      reason: 'other-bundle',
      message: 'owned by bundle "other"',
      flag: '--take-over report/rep000000001',
    });
    // --overwrite-ui-edits is not enough
    expect(
      plan(d, live({ reports: [theirs] }), ctx({ ownership: own({ overwrite: true }) })).changes[0]!.actions,
    ).toEqual(['blocked']);
    const taken = plan(d, live({ reports: [theirs] }), ctx({ ownership: own({ takeOver: ['report/rep000000001'] }) }));
    expect(taken.changes[0]!.actions).toEqual(['record']);
    expect(hasChanges(taken)).toBe(true);
    expect(taken.changes[0]!.note).toContain('taken over by "team"');
  });

  test.each([
    ['missing', {}, 'record-missing', 'record missing — edited outside wsc?'],
    ['a string', { wsc: 'x' }, 'record-malformed', 'record malformed (it is not an object) — edited outside wsc?'],
    ['{bundle: 5}', { wsc: { bundle: 5 } }, 'record-malformed', 'record malformed (it names no bundle)'],
    ['[1,2]', { wsc: [1, 2] }, 'record-malformed', 'record malformed (it is not an object)'],
    ['forged', { wsc: { bundle: 'team', hash: '0', fields: {} } }, 'record-malformed', 'its hash does not match'],
  ])('a record %s: a content change is blocked; no change only records', (_, meta, reason, message) => {
    const d = desired({ reports: [dReport('rep000000001', { name: 'R', title: 'T' })] });
    const changed = lReport(7, 'rep000000001', { name: 'R', title: 'T (UI)', meta });
    const p = plan(d, live({ reports: [changed] }), ctx({ ownership: own() })).changes[0]!;
    expect(p.actions).toEqual(['blocked']);
    expect(p.blocked?.reason).toBe(reason);
    expect(p.blocked?.message).toContain(message);
    const same = lReport(7, 'rep000000001', { name: 'R', title: 'T', meta });
    expect(plan(d, live({ reports: [same] }), ctx({ ownership: own() })).changes[0]!.actions).toEqual(['record']);
    const forced = plan(d, live({ reports: [changed] }), ctx({ ownership: own({ overwrite: true }) }));
    expect(forced.changes[0]!.actions).toEqual(['update']);
  });
});

describe('prune', () => {
  const mine = (id: number, pid: string, extra: Partial<Report> = {}) =>
    lReport(id, pid, { meta: { wsc: rec('team', { name: `report ${id}` }) }, ...extra });

  test('only resources recorded for this bundle are candidates; deletes only with prune on', () => {
    const l = live({
      reports: [
        mine(1, 'rep000000001'),
        lReport(2, 'rep000000002'),
        lReport(3, 'rep000000003', { meta: { wsc: rec('other', {}) } }),
      ],
    });
    const off = plan(desired({}), l, ctx({ ownership: own({ prune: false }) }));
    expect(off.changes).toEqual([]);
    expect(off.prune).toEqual({ candidates: 1, enabled: false });
    const on = plan(desired({}), l, ctx({ ownership: own() }));
    expect(on.changes.map((c) => [c.address, c.actions, c.requests.map((r) => [r.phase, r.operation])])).toEqual([
      ['report/rep000000001', ['delete'], [[5, { op: 'deleteReport', reportId: 1 }]]],
    ]);
    expect(on.summary.delete).toBe(1);
    expect(hasChanges(on)).toBe(true);
  });

  test('a list read short of its count plans no delete', () => {
    const l = { ...live({ reports: [mine(1, 'rep000000001')] }), shortReads: ['reports: 1 of 2'] };
    const p = plan(desired({}), l, ctx({ ownership: own() }));
    expect(p.changes).toEqual([]);
    expect(p.prune?.withheld).toContain('reports: 1 of 2');
  });

  test('--max-deletes refuses more, naming the count; the default is the larger of 25 and a fifth of the recorded', () => {
    expect(defaultMaxDeletes(10)).toBe(25);
    expect(defaultMaxDeletes(300)).toBe(60);
    const l = live({ reports: [mine(1, 'rep000000001'), mine(2, 'rep000000002')] });
    expect(() => plan(desired({}), l, ctx({ ownership: own({ maxDeletes: 1 }) }))).toThrow(
      /would delete 2 resources .* more than --max-deletes 1/,
    );
  });

  test('a workbook goes after the reports deleted from it; one still holding a report that stays is kept', () => {
    // two records of an earlier format (no `of`): distinct, or they would be taken for a copy and its original
    const wsc = (name: string) => ({ wsc: rec('team', { name }) });
    const l = live({
      workbooks: [lWorkbook(10, 'gone', { meta: wsc('gone') }), lWorkbook(11, 'busy', { meta: wsc('busy') })],
      reports: [mine(1, 'rep000000001', { workbookId: 10 }), lReport(2, 'rep000000002', { workbookId: 11 })],
    });
    const p = plan(desired({}), l, ctx({ ownership: own() }));
    const gone = p.changes.find((c) => c.address === 'workbook/gone')!;
    expect(gone.requests[0]).toMatchObject({
      phase: 5,
      operation: { op: 'deleteWorkbook', workbookId: 10 },
      dependsOn: ['report/rep000000001#delete'],
    });
    expect(p.changes.find((c) => c.address === 'workbook/busy')).toBeUndefined();
    expect(p.prune?.held?.[0]).toMatchObject({ address: 'workbook/busy' });
    expect(p.prune?.held?.[0]?.reason).toContain('ids 2');
  });
});

describe('the executor', () => {
  function planOf(requests: PlannedRequest[]): Plan {
    return executablePlan(
      requests.map((r) => ({
        address: r.address,
        kind: 'report',
        actions: [r.phase === 5 ? 'delete' : 'update'],
        changes: [],
        requests: [r],
        liveId: 1,
      })),
    );
  }
  function port(overrides: Partial<ApiPort>, calls: string[]): ApiPort {
    const no = () => Promise.reject(new Error('unexpected'));
    return {
      upsertWorkbookBySlug: no,
      adoptWorkbook: no,
      createFolder: no,
      listFolders: no,
      deleteFolder: no,
      findUserAttributeByName: no,
      createReport: no,
      updateReport: async (id, body) => {
        calls.push(`PUT ${id} ${JSON.stringify(body)}`);
        return lReport(id, 'rep000000001');
      },
      findReportsByPublicId: no,
      readReport: async (id) => lReport(id, 'rep000000001'),
      readWorkbook: no,
      publishWorkbook: no,
      createUserAttribute: no,
      updateUserAttribute: no,
      deleteReport: async (id) => void calls.push(`DELETE ${id}`),
      deleteWorkbook: async (id) => void calls.push(`DELETE wb ${id}`),
      ...overrides,
    };
  }
  const update = (n: number, record = false): PlannedRequest => ({
    id: `report/r${n}#update`,
    address: `report/r${n}`,
    phase: 2,
    operation: {
      op: 'updateReport',
      reportId: n,
      body: { name: `n${n}` },
      ...(record ? { record: { bundle: 'team', fields: { name: null } } } : {}),
    },
    dependsOn: [],
  });
  const del = (n: number): PlannedRequest => ({
    id: `report/d${n}#delete`,
    address: `report/d${n}`,
    phase: 5,
    operation: { op: 'deleteReport', reportId: n },
    dependsOn: [],
  });

  test('the record goes on the wire; deletes run after the rest; a 404 on a delete is done', async () => {
    const calls: string[] = [];
    const p = port(
      {
        deleteReport: async (id) => {
          calls.push(`DELETE ${id}`);
          throw new ApiError({ method: 'DELETE', path: `/r/${id}`, status: 404 }, 'gone');
        },
      },
      calls,
    );
    const r = await execute(planOf([del(9), update(1, true)]), p, { concurrency: 4 });
    expect(calls[0]).toContain('"wsc":{"bundle":"team"');
    expect(calls[1]).toBe('DELETE 9');
    expect(r.failed).toEqual([]);
    expect(r.counts.deleted).toBe(1);
  });

  test('a failed change holds every delete back; a refused resource is skipped with its reason and holds nothing back', async () => {
    const calls: string[] = [];
    const failing = port(
      { updateReport: () => Promise.reject(new ApiError({ method: 'PUT', path: '/r/1', status: 400 }, 'bad')) },
      calls,
    );
    const r = await execute(planOf([update(1), del(9)]), failing, { concurrency: 4 });
    expect(calls).toEqual([]);
    expect(r.skipped.map((s) => [s.request.id, s.reason])).toEqual([
      ['report/d9#delete', expect.stringContaining('deletes come last')],
    ]);

    const calls2: string[] = [];
    const refused = await execute(planOf([update(1), update(2), del(9)]), port({}, calls2), {
      concurrency: 4,
      refuse: new Map([['report/r1', 'edited outside wsc']]),
    });
    expect(calls2.sort()).toEqual(['DELETE 9', 'PUT 2 {"name":"n2"}']);
    expect(refused.skipped.map((s) => [s.request.id, s.reason])).toEqual([['report/r1#update', 'edited outside wsc']]);
  });
});
