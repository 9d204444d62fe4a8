// Which records of this bundle are its own where they stand (issue 43,
// item 1): a record names the resource it was written for; one on another
// resource is a copy's; records of earlier formats (no `of`) are decided by
// address, by twins and by the file they name.
import { describe, expect, test } from 'vitest';
import { fieldHash, makeRecord, readRecord } from '../../src/core/ownership.js';
import { recordClaims, type Claims } from '../../src/core/plan/record-claims.js';
import { desired, dReport, live, lReport, lWorkbook } from './builders.js';

const fields = (title: string) => ({ title: fieldHash('title', title) });
const bound = (publicId: string, deployment = 1, bundle = 'team') =>
  makeRecord({ bundle, fields: fields(publicId), of: { deployment, publicId } });
const unbound = (title: string, file?: string) =>
  makeRecord({ bundle: 'team', fields: fields(title), ...(file ? { file } : {}) });
/** Each resource's claim in one line, `state` or `state: why` (a claim holds nothing else). */
const said = (c: Claims, of: Parameters<Claims['of']>[0][]) =>
  of.map((o) => {
    const claim = c.of(o);
    return 'why' in claim ? `${claim.state}: ${claim.why}` : claim.state;
  });
const none = { reports: new Set<number>(), workbooks: new Set<number>() };

describe('the record format that names its resource', () => {
  test('v 3 with `of`; a record whose `of` was edited no longer matches its hash; a malformed `of` is malformed', () => {
    const r = bound('rep000000001');
    expect(r).toMatchObject({ v: 3, of: { deployment: 1, publicId: 'rep000000001' } });
    expect(readRecord({ meta: { wsc: r } })).toMatchObject({ state: 'record', record: { of: r.of } });
    const moved = { ...r, of: { deployment: 1, publicId: 'rep000000009' } };
    expect(readRecord({ meta: { wsc: moved } })).toMatchObject({ state: 'malformed', why: /hash does not match/ });
    for (const of of [
      undefined,
      { deployment: 1 },
      { deployment: '1', slug: 's' },
      { deployment: 1, slug: 's', x: 1 },
    ]) {
      expect(readRecord({ meta: { wsc: { ...r, of } } }), JSON.stringify(of)).toMatchObject({
        state: 'malformed',
        why: 'the resource it names is malformed',
      });
    }
    // the format before (v 2) with an `of` is not one wsc wrote
    expect(readRecord({ meta: { wsc: { ...unbound('t'), of: r.of } } })).toMatchObject({ state: 'malformed' });
  });
});

describe('recordClaims', () => {
  test('bound: here is ours; another publicId, slug or deployment is a copy, named', () => {
    const reports = [
      lReport(1, 'rep000000001', { meta: { wsc: bound('rep000000001') } }),
      lReport(2, 'copyOf000001', { meta: { wsc: bound('rep000000001') } }),
      lReport(3, 'rep000000003', { meta: { wsc: bound('rep000000003', 2) } }),
    ];
    const workbooks = [
      lWorkbook(10, 'Sales', {
        meta: { wsc: makeRecord({ bundle: 'team', fields: {}, of: { deployment: 1, slug: 'sales' } }) },
      }),
      lWorkbook(11, null, {
        meta: { wsc: makeRecord({ bundle: 'team', fields: {}, of: { deployment: 1, slug: 'sales' } }) },
      }),
    ];
    const c = recordClaims(desired({}), live({ reports, workbooks }), none, 'team', 1);
    expect(said(c, reports)).toEqual([
      'ours',
      'copy: its record was written for report/rep000000001 (a copy?)',
      'copy: its record was written for report/rep000000003 in deployment 2 (a copy?)',
    ]);
    expect(c.of(workbooks[0]!)).toEqual({ state: 'ours' }); // slugs compare as the API matches them
    expect(c.of(workbooks[1]!)).toMatchObject({ state: 'copy' });
  });

  test('unbound (an earlier format): ours at its address; twins elsewhere are copies; a file held for another address is doubtful', () => {
    const twin = unbound('A', 'reports/a.yaml');
    const reports = [
      lReport(1, 'rep000000001', { meta: { wsc: twin } }), // at its address in the bundle
      lReport(2, 'copyOf000001', { meta: { wsc: twin } }), // the same record elsewhere
      lReport(3, 'rep000000003', { meta: { wsc: unbound('C', 'reports/rep000000004.yaml') } }),
      lReport(5, 'rep000000005', { meta: { wsc: unbound('E', 'reports/gone.yaml') } }),
      lReport(6, 'rep000000006', { meta: { wsc: unbound('F') } }), // the first format names no file
    ];
    const d = desired({ reports: [dReport('rep000000001'), dReport('rep000000004')] });
    const matched = { reports: new Set([1]), workbooks: new Set<number>() };
    const c = recordClaims(d, live({ reports }), matched, 'team', 1);
    expect(said(c, reports)).toEqual([
      'ours',
      'copy: it carries the same record as report/rep000000001 (a copy?), written by an earlier wsc',
      'doubtful: its record, written by an earlier wsc, names reports/rep000000004.yaml, which holds report/rep000000004 (a copy?)',
      'ours',
      'ours',
    ]);
    expect(c.heldIn('reports/rep000000004.yaml')).toBe('report/rep000000004');
    expect(c.heldIn('reports/gone.yaml')).toBeUndefined();
    // twins neither of which the bundle holds: both copies (pruned on neither side)
    const c2 = recordClaims(desired({}), live({ reports: reports.slice(0, 2) }), none, 'team', 1);
    expect([c2.of(reports[0]!).state, c2.of(reports[1]!).state]).toEqual(['copy', 'copy']);
  });
});
