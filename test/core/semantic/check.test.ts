import { describe, expect, test } from 'vitest';
import { checkMembers, memberTitles, type ResourceMembers } from '../../../src/core/semantic/check.js';
import { reportMembers } from '../../../src/core/semantic/members.js';
import { indexModel, resolveMember, suggestMember } from '../../../src/core/semantic/model-index.js';
import { semanticError, semanticHeadline } from '../../../src/core/semantic/outcome.js';

const model = indexModel({
  cubes: [
    {
      name: 'subscriptions',
      type: 'cube',
      measures: [{ name: 'subscriptions.arr', title: 'ARR', type: 'sum' }],
      dimensions: [
        {
          name: 'subscriptions.billing_date',
          title: 'Billing date',
          type: 'time',
          granularities: [{ name: 'fiscal_q' }],
        },
        { name: 'subscriptions.ar_region', title: 'AR region', type: 'string' },
      ],
      segments: [{ name: 'subscriptions.active' }],
    },
    { name: 'accounts', type: 'cube', dimensions: [{ name: 'accounts.region', title: 'Region', type: 'string' }] },
    { name: 'revenue', type: 'view', measures: [{ name: 'revenue.total', title: 'Revenue', type: 'sum' }] },
    { name: 'sub', type: 'cube', measures: [{ name: 'sub.ar', type: 'sum' }] },
  ],
});

describe('the model as a lookup', () => {
  test("a view's members are members; a time dimension takes a standard or its own granularity", () => {
    expect(resolveMember(model, 'revenue.total')?.kind).toBe('measure');
    expect(resolveMember(model, 'subscriptions.active')?.kind).toBe('segment');
    expect(resolveMember(model, 'subscriptions.billing_date.month')?.name).toBe('subscriptions.billing_date');
    expect(resolveMember(model, 'subscriptions.billing_date.fiscal_q')?.name).toBe('subscriptions.billing_date');
    expect(resolveMember(model, 'subscriptions.billing_date.fortnight')).toBeUndefined();
    // A granularity after a dimension that is not a time dimension is no member.
    expect(resolveMember(model, 'accounts.region.month')).toBeUndefined();
  });

  test('did you mean: the same cube first, then any; a granularity is suggested after its dimension', () => {
    // `sub.ar` is nearer in text to `subscriptions.ar` than nothing, but the same cube's `arr` comes first.
    expect(suggestMember(model, 'subscriptions.ar')).toBe('subscriptions.arr');
    expect(suggestMember(model, 'accounts.regoin')).toBe('accounts.region');
    expect(suggestMember(model, 'acounts.region')).toBe('accounts.region');
    expect(suggestMember(model, 'subscriptions.billing_date.mnth')).toBe('subscriptions.billing_date.month');
    expect(suggestMember(model, 'orders.something_else')).toBeUndefined();
  });
});

describe('checking members', () => {
  const resource = (extracted: ResourceMembers['extracted']): ResourceMembers => ({
    address: 'report/abcdefghijkl',
    extracted,
    locate: (path, o) => ({
      file: 'r.yaml',
      line: path.length,
      col: o.text ? o.text.occurrence + 1 : o.atKey ? 99 : 1,
    }),
  });

  test('unknown members become issues at their place with a suggestion; known ones only count', () => {
    const extracted = reportMembers({
      jsonQuery: { measures: ['subscriptions.ar', 'revenue.total'], order: { 'acounts.region': 'asc' } },
    });
    const r = checkMembers([resource(extracted)], model);
    expect(r.checked).toBe(3);
    expect(r.issues.map((i) => [i.member, i.pos.line, i.pos.col, i.suggestion])).toEqual([
      ['subscriptions.ar', 3, 1, 'subscriptions.arr'],
      ['acounts.region', 3, 99, 'accounts.region'],
    ]);
    expect(r.issues[1]!.message).toBe(
      'report/abcdefghijkl jsonQuery.order.acounts.region: `acounts.region` is not a member of the data model ' +
        '(the model has no cube or view `acounts`) (did you mean `accounts.region`?)',
    );
  });

  test('the refusal lists every issue with its place (apply) or points above (plan); none without issues', () => {
    const r = checkMembers([resource(reportMembers({ jsonQuery: { measures: ['subscriptions.ar'] } }))], model);
    const outcome = { status: 'checked' as const, cubes: 4, result: r };
    const e = semanticError(outcome, true)!;
    expect([e.code, e.exitCode]).toEqual(['semantic_check_failed', 3]);
    expect(e.details).toEqual([
      'r.yaml:3:1: report/abcdefghijkl jsonQuery.measures[0]: `subscriptions.ar` is not a member of the data model ' +
        '(did you mean `subscriptions.arr`?)',
    ]);
    expect(semanticError(outcome, false)!.details).toEqual([]);
    expect(semanticError({ status: 'unavailable', members: 1, tried: 'x', why: 'y' }, true)).toBeUndefined();
    expect(semanticHeadline(outcome, 7)).toBe(
      'Semantic check: 1 member use(s) checked against the data model of deployment 7 (4 cubes and views): 1 unknown.',
    );
    expect(semanticHeadline({ status: 'off', reason: '--skip-semantic-check' }, 7)).toBe(
      'Semantic check: off (--skip-semantic-check).',
    );
  });

  test("member titles for the preview, a granularity's named after the title", () => {
    expect(memberTitles(['subscriptions.arr', 'subscriptions.billing_date.month', 'nope.x', 'sub.ar'], model)).toEqual({
      'subscriptions.arr': 'ARR',
      'subscriptions.billing_date.month': 'Billing date (month)',
    });
  });
});
