// Two live workbooks holding one slug: the plan names both and refuses to
// pick one (before, the one with the lower id was silently managed).
import { describe, expect, test } from 'vitest';
import { plan } from '../../src/core/plan/index.js';
import { ctx, dWorkbook, live, lWorkbook } from './builders.js';

describe('a slug held by two live workbooks', () => {
  test('is refused naming both ids', () => {
    const desired = { workbooks: [dWorkbook('sales', { name: 'Sales' })], reports: [], userAttributes: [] };
    const l = live({ workbooks: [lWorkbook(9, 'Sales'), lWorkbook(4, 'sales ')] });
    expect(() => plan(desired, l, ctx())).toThrow(
      /workbooks\/sales\.yaml:1:1: workbook\/sales: 2 workbooks in deployment 1 hold the slug "sales" \(ids 4, 9\)/,
    );
  });

  test('a slug held once is matched as before', () => {
    const desired = { workbooks: [dWorkbook('sales', { name: 'Sales' })], reports: [], userAttributes: [] };
    const p = plan(desired, live({ workbooks: [lWorkbook(9, 'Sales'), lWorkbook(4, 'other')] }), ctx());
    expect(p.changes[0]!.liveId).toBe(9);
  });
});
