// `--target`: the named resources and what they need to exist, never their siblings.
import { describe, expect, it } from 'vitest';
import { plan } from '../../src/core/plan/index.js';
import type { JsonValue } from '../../src/core/json.js';
import { checkTargets, targetableAddresses } from '../../src/core/plan/targets.js';
import { ctx, dAttr, desired, dReport, dWorkbook, errorOf, lAttr, live, lReport, lWorkbook } from './builders.js';

const draft = (...reports: string[]): { [k: string]: JsonValue } => ({
  title: 'Sales',
  widgets: reports.map((r, i) => ({
    id: `w${i}`,
    type: 'CHART',
    position: { x: 0, y: i * 4, w: 6, h: 4 },
    config: { reportId: { $report: r } },
  })),
});

// A workbook whose dashboard charts two reports of its own, and a user attribute.
const bundle = desired({
  workbooks: [
    dWorkbook('sales', { name: 'Sales', meta: { dashboardDraft: draft('repAAAAAAAA1', 'repBBBBBBBB1') } }, true),
  ],
  reports: [
    dReport('repAAAAAAAA1', { name: 'A', workbookId: { $workbook: 'sales' } }),
    dReport('repBBBBBBBB1', { name: 'B', workbookId: { $workbook: 'sales' } }),
  ],
  userAttributes: [dAttr('region', { displayName: 'Region' })],
});
const requestIds = (p: ReturnType<typeof plan>) => p.changes.flatMap((c) => c.requests.map((r) => r.id));

describe('--target', () => {
  it("a report whose workbook does not exist yet: the workbook's create only, not its dashboard, publish or other reports", () => {
    const p = plan(bundle, live({}), ctx({ targets: ['report/repAAAAAAAA1'] }));
    expect(p.changes.map((c) => [c.address, c.actions])).toEqual([
      ['workbook/sales', ['create']],
      ['report/repAAAAAAAA1', ['create']],
    ]);
    expect(requestIds(p)).toEqual(['workbook/sales#upsert', 'report/repAAAAAAAA1#create']);
    expect(p.changes[0]!.changes.map((c) => c.path)).toEqual(['name']);
    expect(p.summary).toMatchObject({ create: 2, publish: 0, update: 0 });
  });

  it('a report whose workbook exists: the report alone', () => {
    const l = live({ workbooks: [lWorkbook(7, 'sales', { name: 'Old' })] });
    const p = plan(bundle, l, ctx({ targets: ['report/repAAAAAAAA1'] }));
    expect(p.changes.map((c) => c.address)).toEqual(['report/repAAAAAAAA1']);
    expect(p.changes[0]!.requests[0]!.operation).toEqual({
      op: 'createReport',
      body: { publicId: 'repAAAAAAAA1', name: 'A', workbookId: 7 },
    });
  });

  it('a workbook whose reports exist: the workbook alone, though its reports change too', () => {
    const l = live({
      workbooks: [lWorkbook(7, 'sales', { name: 'Old' })],
      reports: [
        lReport(20, 'repAAAAAAAA1', { name: 'old A', workbookId: 7 }),
        lReport(21, 'repBBBBBBBB1', { name: 'old B', workbookId: 7 }),
      ],
    });
    const p = plan(bundle, l, ctx({ targets: ['workbook/sales'] }));
    expect(p.changes.map((c) => [c.address, c.actions])).toEqual([['workbook/sales', ['update', 'publish']]]);
    expect(requestIds(p)).toEqual(['workbook/sales#upsert', 'workbook/sales#publish']);
  });

  it('a workbook whose dashboard charts reports that do not exist yet: their creates, which it needs', () => {
    const p = plan(bundle, live({}), ctx({ targets: ['workbook/sales'] }));
    expect(p.changes.map((c) => c.address)).toEqual(['workbook/sales', 'report/repAAAAAAAA1', 'report/repBBBBBBBB1']);
  });

  it('a workbook and one of its reports named: both whole, not the other report', () => {
    const l = live({ reports: [lReport(21, 'repBBBBBBBB1', { name: 'old B' })] });
    const p = plan(bundle, l, ctx({ targets: ['workbook/sales', 'report/repAAAAAAAA1'] }));
    expect(p.changes.map((c) => [c.address, c.actions])).toEqual([
      ['workbook/sales', ['create', 'publish']],
      ['report/repAAAAAAAA1', ['create']],
    ]);
  });

  it('a user attribute: itself only', () => {
    const l = live({ userAttributes: [lAttr(3, 'region')] });
    const p = plan(bundle, l, ctx({ targets: ['user-attribute/region'] }));
    expect(p.changes.map((c) => [c.address, c.actions])).toEqual([['user-attribute/region', ['update']]]);
  });

  it('folders a target is created in are created, not the folders of its siblings', () => {
    const d = desired({
      reports: [
        { ...dReport('repAAAAAAAA1', { name: 'A' }), folder: ['Finance', 'Q1'] },
        { ...dReport('repBBBBBBBB1', { name: 'B' }), folder: ['Ops'] },
      ],
    });
    const p = plan(d, live({ folders: [] }), ctx({ targets: ['report/repAAAAAAAA1'] }));
    expect(p.changes.map((c) => c.address)).toEqual(['folder/Finance', 'folder/Finance/Q1', 'report/repAAAAAAAA1']);
  });

  it('an address not in the bundle is refused (exit 3) with the nearest one', () => {
    const e = errorOf(() => plan(bundle, live({}), ctx({ targets: ['report/repAAAAAAAA2'] })));
    expect([e.code, e.exitCode, e.message, e.hint]).toEqual([
      'unknown_target',
      3,
      '--target report/repAAAAAAAA2: no such resource in the bundle.',
      'Did you mean `report/repAAAAAAAA1`?',
    ]);
    const far = errorOf(() => checkTargets(['dashboard/x'], targetableAddresses(bundle)));
    expect(far.hint).toBe(
      'Addresses look like `workbook/<slug>`, `report/<publicId>`, `user-attribute/<name>`, `folder/<path>`.',
    );
  });

  it('the addresses a target may name come from the bundle alone, folders with their parents', () => {
    const d = desired({ workbooks: [{ ...dWorkbook('a'), folder: ['X', 'Y'] }], userAttributes: [dAttr('region')] });
    expect(targetableAddresses(d).sort()).toEqual(['folder/X', 'folder/X/Y', 'user-attribute/region', 'workbook/a']);
  });
});
