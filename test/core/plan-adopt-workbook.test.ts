// Adopting a UI-made (slugless) workbook, the draft read from wherever the
// server keeps it, and live items wsc cannot read (tolerant reading).
import { describe, expect, it } from 'vitest';
import { plan } from '../../src/core/plan/index.js';
import { liveDraft } from '../../src/core/live-draft.js';
import { ctx, desired, dReport, dWorkbook, errorOf, live, lWorkbook } from './builders.js';

const draft = { title: 'Ops', widgets: [{ id: 'w1', type: 'FIELD', position: { x: 0, y: 0, w: 6, h: 4 } }] };

describe('plan: a workbook with an adopt block', () => {
  it('adopts the slugless workbook of this deployment: the slug by PUT first, then the changed fields by slug', () => {
    const w = {
      ...dWorkbook('ops', { name: 'Ops 2', meta: { dashboardDraft: draft } }),
      adopt: { deploymentId: 1, id: 77 },
    };
    const p = plan(
      desired({ workbooks: [w] }),
      live({ workbooks: [lWorkbook(77, null, { name: 'Ops', dashboardDraft: draft })] }),
      ctx({ deploymentId: 1 }),
    );
    const c = p.changes[0]!;
    expect(c.actions).toEqual(['adopt', 'update']);
    expect(c.liveId).toBe(77);
    expect(c.changes.map((x) => x.path)).toEqual(['slug', 'name']);
    expect(c.requests.map((r) => [r.id, r.operation.op, r.dependsOn])).toEqual([
      ['workbook/ops#adopt', 'adoptWorkbook', []],
      ['workbook/ops#upsert', 'upsertWorkbook', ['workbook/ops#adopt']],
    ]);
    expect(p.summary).toMatchObject({ create: 0, adopt: 1, update: 1 });
  });

  it('is ignored in another deployment, and once the slug is live', () => {
    const w = { ...dWorkbook('ops', { name: 'Ops' }), adopt: { deploymentId: 1, id: 77 } };
    expect(plan(desired({ workbooks: [w] }), live({}), ctx({ deploymentId: 2 })).changes[0]!.actions).toEqual([
      'create',
    ]);
    const done = plan(
      desired({ workbooks: [w] }),
      live({ workbooks: [lWorkbook(77, 'ops', { name: 'Ops' })] }),
      ctx({ deploymentId: 1 }),
    );
    expect(done.changes[0]!.actions).toEqual(['noop']);
  });

  it('refuses a target that does not exist or already has another slug', () => {
    const w = { ...dWorkbook('ops'), adopt: { deploymentId: 1, id: 77 } };
    expect(errorOf(() => plan(desired({ workbooks: [w] }), live({}), ctx({ deploymentId: 1 }))).code).toBe(
      'adopt_target_missing',
    );
    const held = errorOf(() =>
      plan(desired({ workbooks: [w] }), live({ workbooks: [lWorkbook(77, 'finance')] }), ctx({ deploymentId: 1 })),
    );
    expect(held.code).toBe('adopt_target_has_slug');
    expect(held.message).toContain('already has the slug "finance"');
  });

  it('references to the adopted workbook resolve to its id at once (nothing pending)', () => {
    const w = { ...dWorkbook('ops'), adopt: { deploymentId: 1, id: 77 } };
    const r = dReport('opsReport001', { workbookId: { $workbook: 'ops' } });
    const p = plan(
      desired({ workbooks: [w], reports: [r] }),
      live({ workbooks: [lWorkbook(77, null)] }),
      ctx({ deploymentId: 1 }),
    );
    const rc = p.changes.find((c) => c.kind === 'report')!;
    expect(rc.changes).toEqual([{ path: 'workbookId', after: 77, shown: { after: { $workbook: 'ops' } } }]);
  });
});

describe('the live draft: one rule', () => {
  it('meta.dashboardDraft wins; the top level counts when meta holds none', () => {
    const a = { title: 'A' };
    const b = { title: 'B' };
    expect(liveDraft({ meta: { dashboardDraft: a }, dashboardDraft: b })).toBe(a);
    expect(liveDraft({ meta: {}, dashboardDraft: b })).toBe(b);
    expect(liveDraft({ meta: { dashboardDraft: null }, dashboardDraft: b })).toBe(b);
    expect(liveDraft({ meta: {} })).toBeUndefined();
  });

  it('a draft kept at the top level only plans as no change', () => {
    const w = dWorkbook('ops', { meta: { dashboardDraft: draft } });
    const p = plan(
      desired({ workbooks: [w] }),
      live({ workbooks: [lWorkbook(77, 'ops', { meta: {}, dashboardDraft: draft })] }),
      ctx(),
    );
    expect(p.changes[0]!.actions).toEqual(['noop']);
  });
});

describe('live items wsc could not read', () => {
  const unreadable = {
    kind: 'report' as const,
    id: 9,
    identity: 'notebookRep1',
    why: 'source: "NOTEBOOK" (Invalid option)',
  };
  it('a managed one stops the plan, naming the field and the value', () => {
    const e = errorOf(() =>
      plan(desired({ reports: [dReport('notebookRep1', { name: 'x' })] }), live({ unreadable: [unreadable] }), ctx()),
    );
    expect(e.code).toBe('live_value_unknown');
    expect(e.message).toContain('report/notebookRep1 (live id 9): the server sent source: "NOTEBOOK"');
    expect(e.hint).toContain('API version');
  });
  it('one without a readable identity cannot be ruled out when the bundle manages that kind', () => {
    const blind = { kind: 'report' as const, why: 'publicId: 7 (Invalid input)' };
    const e = errorOf(() =>
      plan(desired({ reports: [dReport('otherReport1', { name: 'x' })] }), live({ unreadable: [blind] }), ctx()),
    );
    expect(e.message).toContain('a report wsc cannot identify: the server sent publicId: 7');
    expect(
      plan(desired({ workbooks: [dWorkbook('w')] }), live({ unreadable: [blind] }), ctx()).changes[0]!.actions,
    ).toEqual(['create']);
  });
  it('an unmanaged one does not (the command warns)', () => {
    expect(
      plan(desired({ reports: [dReport('otherReport1', { name: 'x' })] }), live({ unreadable: [unreadable] }), ctx())
        .changes[0]!.actions,
    ).toEqual(['create']);
  });
});
