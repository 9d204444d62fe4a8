import { describe, expect, it } from 'vitest';
import { errorOf } from '../helpers/error-of.js';
import { collectRefs, resolveRefs, type RefTargets } from '../../src/core/refs.js';
import { isRef } from '../../src/core/model.js';

const targets: RefTargets = {
  report: (id) => ({ known0000001: 101, newReport001: 'pending' as const })[id],
  workbook: (slug) => ({ sales: 7, fresh: 'pending' as const })[slug],
};
const where = {
  address: 'workbook/sales',
  path: 'meta.dashboardDraft',
  pos: { file: 'workbooks/sales.yaml', line: 4, col: 9 },
};

describe('references', () => {
  it('collects refs in document order, not lookalikes', () => {
    const v = { a: { $report: 'x' }, b: [{ $workbook: 'y' }, { $report: 'z', other: 1 }], c: { $report: 3 } };
    expect(collectRefs(v)).toEqual([{ $report: 'x' }, { $workbook: 'y' }]);
  });

  it('a reference is an object whose one own member is $report or $workbook, naming a string', () => {
    expect(isRef({ $report: 'x' })).toBe(true);
    expect(isRef({ $workbook: 'y' })).toBe(true);
    expect(isRef(JSON.parse('{"$report":"x","$report2":"y"}'))).toBe(false);
    expect(isRef({ a: 1, $report: 'x' })).toBe(false);
    expect(isRef({ $report: 'x', a: 1 })).toBe(false);
    expect(isRef({ $report: 3 })).toBe(false);
    expect(isRef({})).toBe(false);
    expect(isRef([{ $report: 'x' }])).toBe(false);
    expect(isRef(Object.create({ $report: 'x' }))).toBe(false); // inherited: not its own
    expect(isRef(Object.defineProperty({}, '$report', { value: 'x', enumerable: false }))).toBe(false);
  });

  it('resolves known targets to ids, keeps pending ones, normalises slugs', () => {
    const r = resolveRefs(
      {
        widgets: [
          { config: { reportId: { $report: 'known0000001' } } },
          { config: { reportId: { $report: 'newReport001' } } },
        ],
        wb: { $workbook: ' Sales ' },
        nw: { $workbook: ' Fresh' },
      },
      targets,
      where,
    );
    expect(r.value).toEqual({
      widgets: [{ config: { reportId: 101 } }, { config: { reportId: { $report: 'newReport001' } } }],
      wb: 7,
      nw: { $workbook: 'fresh' },
    });
    expect(r.pending).toEqual([{ $report: 'newReport001' }, { $workbook: 'fresh' }]);
  });

  it('an unknown reference is an error naming file:line:col', () => {
    const err = errorOf(() => resolveRefs({ reportId: { $report: 'nowhere00001' } }, targets, where));
    expect(err.code).toBe('unknown_reference');
    expect(err.exitCode).toBe(3);
    expect(err.message).toBe(
      'workbooks/sales.yaml:4:9: workbook/sales meta.dashboardDraft refers to report "nowhere00001", which is neither in the bundle nor in the deployment.',
    );
  });
});
