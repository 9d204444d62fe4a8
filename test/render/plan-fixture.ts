// One plan with every kind of change, made by the planner from small inputs.
import { plan } from '../../src/core/plan/index.js';
import type { DriftEntry, Plan } from '../../src/core/plan-model.js';
import { ctx, dAttr, desired, dReport, dSalesCharting, dWorkbook, live, lReport, lWorkbook } from '../core/builders.js';

export function samplePlan(): Plan {
  return plan(
    desired({
      workbooks: [dSalesCharting('newRep000001', { title: 'Sales', id: 'w1', position: { x: 0, y: 0, w: 6, h: 4 } })],
      reports: [
        dReport(
          'newRep000001',
          { name: 'New `tick` | pipe', workbookId: { $workbook: 'sales' } },
          { source: 'PLAYGROUND' },
        ),
        dReport('revqZ1x8Kp0a', {
          name: 'Revenue (net)',
          sqlQuery: 'select\n  sum(amount)\nfrom orders\nwhere paid\n```\n',
          jsonQuery: '{"measures":["a","b"]}',
        }),
        dReport('uiMade000001', { name: 'UI report' }, { adopt: { deploymentId: 1, id: 90 } }),
      ],
      userAttributes: [dAttr('region', { displayName: '<b>Region</b>' })],
    }),
    live({
      workbooks: [lWorkbook(3, 'other')],
      reports: [
        lReport(41, 'revqZ1x8Kp0a', {
          name: 'Revenue',
          sqlQuery: 'select\n  sum(amount)\nfrom orders\n```\n',
          jsonQuery: '{"measures":["a"]}',
        }),
        lReport(90, '000000abcdef', { name: 'UI report' }),
      ],
    }),
    ctx({ environment: 'staging' }),
  );
}

export function emptyPlan(): Plan {
  return plan(
    desired({ workbooks: [dWorkbook('sales', { name: 'Sales' })] }),
    live({ workbooks: [lWorkbook(3, 'sales', { name: 'Sales' }), lWorkbook(4, 'other')] }),
    ctx({ environment: 'staging' }),
  );
}

/** n reports edited in the UI (a long title each), kept by apply: drift long enough to crowd out a comment. */
export const driftEntries = (n: number): DriftEntry[] =>
  Array.from({ length: n }, (_, i) => ({
    address: `report/drift${String(i).padStart(7, '0')}`,
    field: 'title',
    live: `Edited in the UI ${'x'.repeat(40)}`,
    bundle: 'Monthly recurring revenue',
    changed: 'outside' as const,
    apply: 'keep' as const,
    file: `reports/drift-${i}.yaml`,
    line: 4,
  }));
