// Create-only fields in the planner: compared on existing resources, shown
// marked, never sent; the refusal names each difference.
import { describe, expect, it } from 'vitest';
import { plan } from '../../src/core/plan/index.js';
import { createOnlyError, isShown } from '../../src/core/plan/create-only.js';
import { ctx, dAttr, desired, dReport, lAttr, live, lReport } from './builders.js';

describe('plan: create-only fields', () => {
  it('a report whose source differs: marked, no request, the plan is refused', () => {
    const d = desired({ reports: [dReport('revqZ1x8Kp0a', { name: 'r' }, { source: 'D3' })] });
    const p = plan(d, live({ reports: [lReport(5, 'revqZ1x8Kp0a', { name: 'r', source: 'PLAYGROUND' })] }), ctx());
    const r = p.changes[0]!;
    expect(r.actions).toEqual(['noop']);
    expect(r.requests).toEqual([]);
    expect(r.changes).toEqual([{ path: 'source', before: 'PLAYGROUND', after: 'D3', createOnly: true }]);
    expect(isShown(r)).toBe(true);
    const e = createOnlyError(p)!;
    expect(e.code).toBe('create_only_change');
    expect(e.exitCode).toBe(3);
    expect(e.details).toEqual([
      'report/revqZ1x8Kp0a (reports/revqZ1x8Kp0a.yaml:1:1): source: PLAYGROUND → D3 cannot be changed by update',
    ]);
  });

  it('a user attribute whose type differs beside a field that updates: the update is planned without the type', () => {
    const d = desired({ userAttributes: [dAttr('region', { displayName: 'Region' }, { type: 'number' })] });
    const p = plan(d, live({ userAttributes: [lAttr(3, 'region', { displayName: 'old' })] }), ctx());
    const a = p.changes[0]!;
    expect(a.actions).toEqual(['update']);
    expect(a.changes).toEqual([
      { path: 'type', before: 'string', after: 'number', createOnly: true },
      { path: 'displayName', before: 'old', after: 'Region' },
    ]);
    expect(a.requests[0]!.operation).toEqual({ op: 'updateUserAttribute', id: 3, body: { displayName: 'Region' } });
    expect(createOnlyError(p)?.details).toHaveLength(1);
  });

  it('equal values, a field the file leaves out, a live object without the field, a create: no difference', () => {
    const d = desired({
      reports: [
        dReport('revqZ1x8Kp0a', {}, { source: 'D3' }),
        dReport('revqZ1x8Kp0b', {}),
        dReport('revqZ1x8Kp0c', {}, { source: 'D3' }),
        dReport('newRep000001', {}, { source: 'EXCEL' }),
      ],
      userAttributes: [dAttr('a', {}, { type: 'string' }), dAttr('b', {})],
    });
    const l = live({
      reports: [
        lReport(1, 'revqZ1x8Kp0a', { source: 'D3' }),
        lReport(2, 'revqZ1x8Kp0b', { source: 'EXCEL' }),
        lReport(3, 'revqZ1x8Kp0c'),
      ],
      userAttributes: [lAttr(1, 'a'), lAttr(2, 'b', { type: 'number' })],
    });
    const p = plan(d, l, ctx());
    expect(createOnlyError(p)).toBeUndefined();
    expect(p.changes.filter(isShown).map((c) => c.address)).toEqual(['report/newRep000001']);
  });
});
