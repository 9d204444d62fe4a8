import { describe, expect, it } from 'vitest';
import { checkFingerprints } from '../../src/core/fingerprint.js';
import { plan } from '../../src/core/plan/index.js';
import { derivePublicId } from '../../src/core/publicid.js';
import { ctx, dAttr, desired, dReport, dWorkbook, lAttr, live, lReport, lWorkbook } from './builders.js';

const d = desired({
  workbooks: [dWorkbook('sales', { name: 'Sales' })],
  reports: [dReport('revqZ1x8Kp0a', { name: 'Revenue' }), dReport('newRep000001', { name: 'New' })],
  userAttributes: [dAttr('region', { displayName: 'R' })],
});
const base = live({
  workbooks: [lWorkbook(7, 'sales', { name: 'Old' })],
  reports: [lReport(41, 'revqZ1x8Kp0a', { name: 'Revenue' })],
  userAttributes: [lAttr(5, 'region')],
});
const saved = plan(d, base, ctx()).fingerprints;
const fctx = { deploymentId: 1, publicIds: 'as-is' as const };

describe('checkFingerprints', () => {
  it('nothing changed → no drift (key order of the live objects does not matter)', () => {
    const reordered = live({
      ...base,
      workbooks: [Object.fromEntries(Object.entries(base.workbooks[0]!).reverse()) as (typeof base.workbooks)[0]],
    });
    expect(checkFingerprints(saved, reordered, fctx)).toEqual([]);
  });

  it.each([
    [
      'changed content',
      live({ ...base, workbooks: [lWorkbook(7, 'sales', { name: 'Changed', updatedAt: '2026-02-02T00:00:00.000Z' })] }),
      [{ address: 'workbook/sales', message: 'changed since it was planned (updated at 2026-02-02T00:00:00.000Z)' }],
    ],
    [
      'appeared',
      live({ ...base, reports: [...base.reports, lReport(50, 'newRep000001')] }),
      [{ address: 'report/newRep000001', message: 'was absent when planned and now exists (id 50)' }],
    ],
    [
      'deleted',
      live({ ...base, userAttributes: [] }),
      [{ address: 'user-attribute/region', message: 'was deleted since it was planned (id 5)' }],
    ],
    [
      'replaced',
      live({ ...base, workbooks: [lWorkbook(9, 'SALES', { name: 'Old' })] }),
      [{ address: 'workbook/sales', message: 'was replaced: id 7 is now id 9' }],
    ],
  ])('%s → drift', (_n, now, drift) => {
    expect(checkFingerprints(saved, now, fctx)).toEqual(drift);
  });

  it('adopt targets are found again by id', () => {
    const dd = desired({ reports: [dReport('revqZ1x8Kp0a', { name: 'X' }, { adopt: { deploymentId: 1, id: 90 } })] });
    const l = live({ reports: [lReport(90, '000000abcdef')] });
    const fps = plan(dd, l, ctx()).fingerprints;
    expect(checkFingerprints(fps, l, fctx)).toEqual([]);
    expect(checkFingerprints(fps, live({ reports: [lReport(90, '000000abcdef', { name: 'edited' })] }), fctx)).toEqual([
      { address: 'report/revqZ1x8Kp0a', message: 'changed since it was planned' },
    ]);
  });

  it('per-deployment publicIds are looked up by the derived id', () => {
    const dd = desired({ reports: [dReport('revqZ1x8Kp0a', {})] });
    const c = { deploymentId: 3, publicIds: 'per-deployment' as const };
    const fps = plan(dd, live({}), ctx(c)).fingerprints;
    expect(checkFingerprints(fps, live({ reports: [lReport(1, 'revqZ1x8Kp0a')] }), c)).toEqual([]);
    expect(checkFingerprints(fps, live({ reports: [lReport(1, derivePublicId('revqZ1x8Kp0a', 3))] }), c)).toHaveLength(
      1,
    );
  });
});
