import { describe, expect, it } from 'vitest';
import { derivePublicId } from '../../src/core/publicid.js';
import { plan } from '../../src/core/plan/index.js';
import type { JsonValue } from '../../src/core/json.js';
import { ctx, dAttr, desired, dReport, dWorkbook, errorOf, lAttr, live, lReport, lWorkbook } from './builders.js';

const draftWith = (reportRef: JsonValue): { [k: string]: JsonValue; widgets: { [k: string]: JsonValue }[] } => ({
  title: 'Sales',
  widgets: [{ id: 'w1', type: 'CHART', position: { x: 0, y: 0, w: 6, h: 4 }, config: { reportId: reportRef } }],
});

describe('plan: an empty deployment', () => {
  const d = desired({
    workbooks: [
      dWorkbook('sales', { name: 'Sales', meta: { dashboardDraft: draftWith({ $report: 'revqZ1x8Kp0a' }) } }, true),
    ],
    reports: [
      dReport(
        'revqZ1x8Kp0a',
        { name: 'Revenue', workbookId: { $workbook: 'sales' }, sqlQuery: 'select 1' },
        { source: 'PLAYGROUND' },
      ),
    ],
    userAttributes: [dAttr('region', { displayName: 'Region' })],
  });
  const p = plan(d, live({}), ctx());

  it('creates everything, in dependency phases', () => {
    expect(p.changes.map((c) => [c.address, c.actions])).toEqual([
      ['workbook/sales', ['create', 'publish']],
      ['report/revqZ1x8Kp0a', ['create']],
      ['user-attribute/region', ['create']],
    ]);
    expect(p.changes.flatMap((c) => c.requests.map((r) => [r.id, r.phase, r.dependsOn]))).toEqual([
      ['workbook/sales#upsert', 1, []],
      ['workbook/sales#draft', 3, ['workbook/sales#upsert', 'report/revqZ1x8Kp0a#create']],
      ['workbook/sales#publish', 4, ['workbook/sales#upsert', 'workbook/sales#draft']],
      ['report/revqZ1x8Kp0a#create', 2, ['workbook/sales#upsert']],
      ['user-attribute/region#create', 0, []],
    ]);
  });

  it('sends the workbook without its draft first, then the draft with the pending reference', () => {
    const [upsert, draft, publish] = p.changes[0]!.requests;
    expect(upsert!.operation).toEqual({ op: 'upsertWorkbook', slug: 'sales', body: { name: 'Sales' } });
    expect(draft!.operation).toEqual({
      op: 'upsertWorkbook',
      slug: 'sales',
      body: { meta: { dashboardDraft: draftWith({ $report: 'revqZ1x8Kp0a' }) } },
    });
    expect(publish!.operation).toEqual({ op: 'publishWorkbook', workbook: { $workbook: 'sales' }, body: {} });
  });

  it('creates the report with its publicId, source and every field', () => {
    expect(p.changes[1]!.requests[0]!.operation).toEqual({
      op: 'createReport',
      body: {
        publicId: 'revqZ1x8Kp0a',
        source: 'PLAYGROUND',
        name: 'Revenue',
        workbookId: { $workbook: 'sales' },
        sqlQuery: 'select 1',
      },
    });
    expect(p.changes[1]!.changes).toEqual([
      { path: 'source', after: 'PLAYGROUND' },
      { path: 'name', after: 'Revenue' },
      { path: 'workbookId', after: { $workbook: 'sales' } },
      { path: 'sqlQuery', after: 'select 1' },
    ]);
  });

  it('creates user attributes with a default type', () => {
    expect(p.changes[2]!.requests[0]!.operation).toEqual({
      op: 'createUserAttribute',
      body: { name: 'region', type: 'string', displayName: 'Region' },
    });
  });

  it('counts and fingerprints "absent" for every create', () => {
    expect(p.summary).toEqual({
      create: 3,
      update: 0,
      adopt: 0,
      publish: 1,
      noop: 0,
      unmanaged: { workbooks: 0, reports: 0, userAttributes: 0 },
    });
    expect(p.fingerprints).toEqual([
      { address: 'workbook/sales', absent: true },
      { address: 'report/revqZ1x8Kp0a', absent: true },
      { address: 'user-attribute/region', absent: true },
    ]);
  });
});

describe('plan: an existing deployment', () => {
  const draftLive = draftWith(41);
  const liveState = live({
    workbooks: [
      lWorkbook(7, 'Sales', {
        name: 'Sales',
        meta: { dashboardDraft: draftLive, owner: 'ops' },
        dashboardPublished: draftLive,
      }),
      lWorkbook(8, 'other'),
    ],
    reports: [
      lReport(41, 'revqZ1x8Kp0a', {
        name: 'Revenue',
        workbookId: 7,
        jsonQuery: '{"measures":["a"],"limit":10}',
        meta: { color: 'red', extra: 1 },
      }),
      lReport(42, 'unmanaged001'),
    ],
    userAttributes: [lAttr(5, 'region', { displayName: 'Region' }), lAttr(6, 'team')],
  });
  const base = () =>
    desired({
      workbooks: [
        dWorkbook('sales', { name: 'Sales', meta: { dashboardDraft: draftWith({ $report: 'revqZ1x8Kp0a' }) } }, true),
      ],
      reports: [
        dReport('revqZ1x8Kp0a', {
          name: 'Revenue',
          workbookId: { $workbook: 'sales' },
          jsonQuery: '{ "limit": 10, "measures": [ "a" ] }',
          meta: { color: 'red' },
        }),
      ],
      userAttributes: [dAttr('region', { displayName: 'Region' })],
    });

  it('equal content (other key order, jsonQuery formatting, extra live meta keys) → no changes', () => {
    const p = plan(base(), liveState, ctx());
    expect(p.changes.map((c) => c.actions)).toEqual([['noop'], ['noop'], ['noop']]);
    expect(p.changes.flatMap((c) => c.requests)).toEqual([]);
    expect(p.summary).toEqual({
      create: 0,
      update: 0,
      adopt: 0,
      publish: 0,
      noop: 3,
      unmanaged: { workbooks: 1, reports: 1, userAttributes: 1 },
    });
  });

  it('one changed field → exactly that field, and only it is sent', () => {
    const d = base();
    d.reports[0]!.fields['name'] = 'Revenue (net)';
    const p = plan(d, liveState, ctx());
    const r = p.changes[1]!;
    expect(r.actions).toEqual(['update']);
    expect(r.changes).toEqual([{ path: 'name', before: 'Revenue', after: 'Revenue (net)' }]);
    expect(r.requests).toEqual([
      {
        id: 'report/revqZ1x8Kp0a#update',
        address: 'report/revqZ1x8Kp0a',
        phase: 2,
        operation: { op: 'updateReport', reportId: 41, body: { name: 'Revenue (net)' } },
        dependsOn: [],
      },
    ]);
    expect(p.changes.filter((c) => c.requests.length > 0)).toHaveLength(1);
  });

  it('meta is compared per key the file names; a workbook upsert sends only the changed keys', () => {
    const d = base();
    d.workbooks[0]!.fields.meta = { ...d.workbooks[0]!.fields.meta, owner: 'finance', added: true };
    const p = plan(d, liveState, ctx());
    const w = p.changes[0]!;
    expect(w.actions).toEqual(['update']);
    expect(w.changes).toEqual([
      { path: 'meta.added', after: true },
      { path: 'meta.owner', before: 'ops', after: 'finance' },
    ]);
    expect(w.requests.map((r) => [r.id, r.phase, r.operation])).toEqual([
      [
        'workbook/sales#upsert',
        1,
        { op: 'upsertWorkbook', slug: 'sales', body: { meta: { added: true, owner: 'finance' } } },
      ],
    ]);
  });

  it('a report meta change lists the changed key and sends the live meta with the file’s members applied', () => {
    const d = base();
    d.reports[0]!.fields['meta'] = { color: 'blue', size: 2 };
    const r = plan(d, liveState, ctx()).changes[1]!;
    expect(r.changes).toEqual([
      { path: 'meta.color', before: 'red', after: 'blue' },
      { path: 'meta.size', after: 2 },
    ]);
    // `extra`, which the file does not name, is sent as it is live: a PUT that replaces meta keeps it
    // (the executor takes it again from a read just before the write: only `metaKeys` are the file's)
    expect(r.requests[0]!.operation).toEqual({
      op: 'updateReport',
      reportId: 41,
      body: { meta: { color: 'blue', extra: 1, size: 2 } },
      metaKeys: ['color', 'size'],
    });
  });

  it('a changed draft is upserted and published; an unchanged draft that was never published is published', () => {
    const d = base();
    d.workbooks[0]!.fields.meta = { dashboardDraft: { ...draftWith({ $report: 'revqZ1x8Kp0a' }), title: 'Sales 2' } };
    const p1 = plan(d, liveState, ctx());
    expect(p1.changes[0]!.actions).toEqual(['update', 'publish']);
    expect(p1.changes[0]!.requests.map((r) => [r.id, r.phase, r.dependsOn])).toEqual([
      ['workbook/sales#upsert', 1, []],
      ['workbook/sales#publish', 4, ['workbook/sales#upsert']],
    ]);
    expect(p1.changes[0]!.requests[1]!.operation).toEqual({ op: 'publishWorkbook', workbook: 7, body: {} });

    const unpublished = live({
      ...liveState,
      workbooks: [lWorkbook(7, 'sales', { name: 'Sales', meta: { dashboardDraft: draftLive } })],
    });
    const p2 = plan(base(), unpublished, ctx());
    expect(p2.changes[0]!.actions).toEqual(['publish']);
    expect(p2.changes[0]!.changes.map(({ dashboard: _, ...c }) => c)).toEqual([
      { path: 'dashboardPublished', before: null, after: draftLive },
    ]);
    // Never published: every widget of the draft is new to the published dashboard.
    expect(p2.changes[0]!.changes[0]!.dashboard?.widgets.map((w) => [w.widget, w.change])).toEqual([['w1', 'added']]);
    expect(p2.changes[0]!.requests.map((r) => [r.id, r.dependsOn])).toEqual([['workbook/sales#publish', []]]);
  });

  it('publish: false never publishes', () => {
    const d = base();
    d.workbooks[0]!.publish = false;
    const unpublished = live({
      ...liveState,
      workbooks: [lWorkbook(7, 'sales', { name: 'Sales', meta: { dashboardDraft: draftLive } })],
    });
    expect(plan(d, unpublished, ctx()).changes[0]!.actions).toEqual(['noop']);
  });

  it('widget ids the server assigned do not differ from a file that leaves them out', () => {
    const d = base();
    const draft = draftWith({ $report: 'revqZ1x8Kp0a' });
    delete (draft.widgets[0] as { id?: string }).id;
    d.workbooks[0]!.fields.meta = { dashboardDraft: draft };
    expect(plan(d, liveState, ctx()).changes[0]!.actions).toEqual(['noop']);
  });

  it('an existing workbook whose draft points at a new report: only a phase-3 draft upsert', () => {
    const d = base();
    d.reports.push(dReport('newRep000001', { name: 'New' }));
    d.workbooks[0]!.fields.meta = {
      dashboardDraft: {
        ...draftWith({ $report: 'revqZ1x8Kp0a' }),
        widgets: [
          ...draftWith({ $report: 'revqZ1x8Kp0a' }).widgets,
          {
            id: 'w2',
            type: 'CHART',
            position: { x: 6, y: 0, w: 6, h: 4 },
            config: { reportId: { $report: 'newRep000001' } },
          },
        ],
      },
    };
    const w = plan(d, liveState, ctx()).changes[0]!;
    expect(w.requests.map((r) => [r.id, r.phase, r.dependsOn])).toEqual([
      ['workbook/sales#draft', 3, ['report/newRep000001#create']],
      ['workbook/sales#publish', 4, ['workbook/sales#draft']],
    ]);
    const after = w.changes[0]!.after as { widgets: { config: { reportId: unknown } }[] };
    expect(after.widgets.map((x) => x.config.reportId)).toEqual([41, { $report: 'newRep000001' }]);
  });

  it('user attributes: update only the changed field; by id when the file gives one', () => {
    const d = base();
    d.userAttributes = [
      dAttr('region', { displayName: 'Sales region' }),
      dAttr('squad', { description: 'x' }, { id: 6 }),
    ];
    const p = plan(d, liveState, ctx());
    expect(p.changes.slice(2).map((c) => [c.address, c.actions, c.requests.map((r) => r.operation)])).toEqual([
      [
        'user-attribute/region',
        ['update'],
        [{ op: 'updateUserAttribute', id: 5, body: { displayName: 'Sales region' } }],
      ],
      ['user-attribute/squad', ['update'], [{ op: 'updateUserAttribute', id: 6, body: { description: 'x' } }]],
    ]);
    expect(p.summary.unmanaged.userAttributes).toBe(0);
    expect(p.fingerprints.find((f) => f.address === 'user-attribute/squad')).toMatchObject({ by: 'id', id: 6 });
  });

  it('fingerprints the live objects read', () => {
    const p = plan(base(), liveState, ctx());
    expect(p.fingerprints.map((f) => [f.address, f.id, f.updatedAt, f.hash?.length])).toEqual([
      ['workbook/sales', 7, '2026-01-01T00:00:00.000Z', 64],
      ['report/revqZ1x8Kp0a', 41, '2026-01-01T00:00:00.000Z', 64],
      ['user-attribute/region', 5, undefined, 64],
    ]);
  });

  it('leaves fingerprints out of a plan that will not be saved, and nothing else', () => {
    const full = plan(base(), liveState, ctx());
    const bare = plan(base(), liveState, { ...ctx(), fingerprints: false });
    expect(bare.fingerprints).toEqual([]);
    expect({ ...bare, fingerprints: full.fingerprints }).toEqual(full);
  });
});

describe('plan: adoption and publicIds', () => {
  const ui = lReport(90, '000000abcdef', { name: 'Made in the UI' });
  const twin = lReport(91, '000000abcdef', { name: 'Twin' });

  it('adopt in this deployment: one PUT giving the publicId and the changed fields', () => {
    const d = desired({
      reports: [dReport('revqZ1x8Kp0a', { name: 'Revenue' }, { adopt: { deploymentId: 1, id: 90 } })],
    });
    const p = plan(d, live({ reports: [ui, twin] }), ctx());
    const r = p.changes[0]!;
    expect(r.actions).toEqual(['adopt', 'update']);
    expect(r.liveId).toBe(90);
    expect(r.changes).toEqual([
      { path: 'publicId', before: '000000abcdef', after: 'revqZ1x8Kp0a' },
      { path: 'name', before: 'Made in the UI', after: 'Revenue' },
    ]);
    expect(r.requests.map((q) => [q.id, q.operation])).toEqual([
      [
        'report/revqZ1x8Kp0a#adopt',
        { op: 'updateReport', reportId: 90, body: { publicId: 'revqZ1x8Kp0a', name: 'Revenue' } },
      ],
    ]);
    expect(p.summary).toMatchObject({ adopt: 1, update: 1, unmanaged: { reports: 1 } });
    expect(p.fingerprints).toEqual([
      { address: 'report/revqZ1x8Kp0a', absent: true },
      expect.objectContaining({ address: 'report/revqZ1x8Kp0a', by: 'id', id: 90 }),
    ]);
  });

  it('adopt with nothing else to change is adopt only; adopt for another deployment creates', () => {
    const d = desired({
      reports: [dReport('revqZ1x8Kp0a', { name: 'Made in the UI' }, { adopt: { deploymentId: 1, id: 90 } })],
    });
    expect(plan(d, live({ reports: [ui] }), ctx()).changes[0]!.actions).toEqual(['adopt']);
    expect(plan(d, live({ reports: [ui] }), ctx({ deploymentId: 2 })).changes[0]!.actions).toEqual(['create']);
  });

  it('a report already carrying the publicId ignores adopt', () => {
    const d = desired({
      reports: [dReport('revqZ1x8Kp0a', { name: 'Revenue' }, { adopt: { deploymentId: 1, id: 90 } })],
    });
    expect(
      plan(d, live({ reports: [ui, lReport(3, 'revqZ1x8Kp0a', { name: 'Revenue' })] }), ctx()).changes[0]!.actions,
    ).toEqual(['noop']);
  });

  it.each([
    [
      'adopt target missing',
      desired({ reports: [dReport('revqZ1x8Kp0a', {}, { adopt: { deploymentId: 1, id: 404 } })] }),
      'adopt_target_missing',
      /reports\/revqZ1x8Kp0a\.yaml:1:1: .*report id 404/,
    ],
    [
      'placeholder shared by several reports',
      desired({ reports: [dReport('000000abcdef', {})] }),
      'ambiguous_public_id',
      /2 reports .* share the publicId "000000abcdef" \(ids 90, 91\)/,
    ],
    [
      'user attribute id missing',
      desired({ userAttributes: [dAttr('x', {}, { id: 77 })] }),
      'user_attribute_missing',
      /user attribute id 77/,
    ],
    [
      'unknown reference',
      desired({ reports: [dReport('revqZ1x8Kp0a', { workbookId: { $workbook: 'nope' } })] }),
      'unknown_reference',
      /workbook "nope"/,
      3,
    ],
  ])('%s → an error naming the file (exit 1; 3 for an invalid bundle)', (_n, d, code, msg, exit = 1) => {
    const e = errorOf(() => plan(d, live({ reports: [ui, twin] }), ctx()));
    expect(e.code).toBe(code);
    expect(e.exitCode).toBe(exit);
    expect(e.message).toMatch(msg);
    expect(e.hint).toBeTruthy();
  });

  it('per-deployment publicIds: matched and created by the derived id; refs resolve through it', () => {
    const derived = derivePublicId('revqZ1x8Kp0a', 2);
    const d = desired({
      reports: [dReport('revqZ1x8Kp0a', { name: 'Revenue' }), dReport('newRep000001', { name: 'B' })],
      workbooks: [dWorkbook('sales', { meta: { dashboardDraft: draftWith({ $report: 'revqZ1x8Kp0a' }) } })],
    });
    const p = plan(
      d,
      live({ reports: [lReport(5, derived, { name: 'Revenue', deploymentId: 2 })] }),
      ctx({ deploymentId: 2, publicIds: 'per-deployment' }),
    );
    expect(p.changes.map((c) => [c.address, c.actions, c.livePublicId])).toEqual([
      ['workbook/sales', ['create'], undefined],
      ['report/newRep000001', ['create'], derivePublicId('newRep000001', 2)],
      ['report/revqZ1x8Kp0a', ['noop'], derived],
    ]);
    expect(p.changes[1]!.requests[0]!.operation).toMatchObject({
      body: { publicId: derivePublicId('newRep000001', 2) },
    });
    expect(
      (p.changes[0]!.requests[0]!.operation as unknown as { body: { meta: { dashboardDraft: unknown } } }).body.meta
        .dashboardDraft,
    ).toEqual(draftWith(5));
  });

  it('references to live resources outside the bundle resolve to their ids', () => {
    const d = desired({ reports: [dReport('newRep000001', { workbookId: { $workbook: 'Other' } })] });
    const p = plan(d, live({ workbooks: [lWorkbook(8, 'other')] }), ctx());
    expect(p.changes[0]!.requests[0]!.operation).toEqual({
      op: 'createReport',
      body: { publicId: 'newRep000001', workbookId: 8 },
    });
    expect(p.changes[0]!.requests[0]!.dependsOn).toEqual([]);
  });
});

describe('plan: --target', () => {
  const d = desired({
    workbooks: [dWorkbook('sales', { name: 'Sales' }), dWorkbook('hr', { name: 'HR' })],
    reports: [dReport('revqZ1x8Kp0a', { workbookId: { $workbook: 'sales' } }), dReport('other0000001', { name: 'o' })],
  });

  it('keeps the targets and what they depend on', () => {
    const p = plan(d, live({}), ctx({ targets: ['report/revqZ1x8Kp0a'] }));
    expect(p.changes.map((c) => c.address)).toEqual(['workbook/sales', 'report/revqZ1x8Kp0a']);
    expect(p.summary.create).toBe(2);
    expect(p.fingerprints.map((f) => f.address)).toEqual(['workbook/sales', 'report/revqZ1x8Kp0a']);
  });

  it('an unknown address is a usage error (exit 3) with a suggestion', () => {
    const e = errorOf(() => plan(d, live({}), ctx({ targets: ['workbook/sale'] })));
    expect([e.code, e.exitCode, e.message, e.hint]).toEqual([
      'unknown_target',
      3,
      '--target workbook/sale: no such resource in the bundle.',
      'Did you mean `workbook/sales`?',
    ]);
  });
});
