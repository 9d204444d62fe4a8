import { describe, expect, test } from 'vitest';
import type { JsonValue } from '../../../src/core/json.js';
import { dashboardMembers, rawOccurrences, reportMembers, whereOf } from '../../../src/core/semantic/members.js';

const brief = (x: ReturnType<typeof reportMembers>) =>
  x.uses.map((u) => [u.member, u.role, u.path.join('/'), u.inText]);

describe('members of a report', () => {
  test('every jsonQuery shape: lists, time dimensions, nested filters, order as object and as array', () => {
    const jsonQuery: JsonValue = {
      measures: ['orders.count'],
      dimensions: ['orders.status'],
      segments: ['orders.open'],
      timeDimensions: [{ dimension: 'orders.created_at', granularity: 'month' }],
      filters: [
        { member: 'orders.region', operator: 'equals', values: ['EU'] },
        { or: [{ dimension: 'orders.city', operator: 'set' }, { and: [{ member: 'orders.total', operator: 'gt' }] }] },
      ],
      order: { 'orders.count': 'desc' },
    };
    expect(brief(reportMembers({ jsonQuery }))).toEqual([
      ['orders.count', 'measure', 'jsonQuery/measures/0', undefined],
      ['orders.status', 'dimension', 'jsonQuery/dimensions/0', undefined],
      ['orders.open', 'segment', 'jsonQuery/segments/0', undefined],
      ['orders.created_at', 'timeDimension', 'jsonQuery/timeDimensions/0/dimension', undefined],
      ['orders.region', 'filter', 'jsonQuery/filters/0/member', undefined],
      ['orders.city', 'filter', 'jsonQuery/filters/1/or/0/dimension', undefined],
      ['orders.total', 'filter', 'jsonQuery/filters/1/or/1/and/0/member', undefined],
      ['orders.count', 'order', 'jsonQuery/order/orders.count', undefined],
    ]);
    expect(reportMembers({ jsonQuery }).uses.at(-1)!.atKey).toBe(true);
    const arrayOrder = reportMembers({
      jsonQuery: { order: [['orders.count', 'asc'], { id: 'orders.total', desc: true }] },
    });
    expect(brief(arrayOrder)).toEqual([
      ['orders.count', 'order', 'jsonQuery/order/0/0', undefined],
      ['orders.total', 'order', 'jsonQuery/order/1/id', undefined],
    ]);
  });

  test('a jsonQuery written as text: each use is the n-th appearance of its name in the text', () => {
    const text = '{"measures":["orders.count"],"order":{"orders.count":"desc"},"dimensions":["orders.count_x"]}';
    const got = reportMembers({ jsonQuery: text });
    expect(brief(got)).toEqual([
      ['orders.count', 'measure', 'jsonQuery', 0],
      ['orders.count_x', 'dimension', 'jsonQuery', 0],
      ['orders.count', 'order', 'jsonQuery', 1],
    ]);
    expect(rawOccurrences(text, 'orders.count')).toHaveLength(2);
  });

  test('a value that is not a name is listed as not checked, never guessed', () => {
    const got = reportMembers({ jsonQuery: { measures: [5, 'orders.count'], filters: [{ member: { x: 1 } }] } });
    expect(got.uses.map((u) => u.member)).toEqual(['orders.count']);
    expect(got.unchecked.map((u) => [u.text, whereOf(u)])).toEqual([
      ['5', 'jsonQuery.measures[0]'],
      ['{"x":1}', 'jsonQuery.filters[0].member'],
    ]);
  });

  test('an unparseable jsonQuery text names nothing (the bundle check reports it)', () => {
    expect(reportMembers({ jsonQuery: '{"measures": [' })).toEqual({ uses: [], unchecked: [] });
  });

  test('pivot lists: granularity kept, the `measures` stand-in skipped', () => {
    const got = reportMembers({
      jsonQuery: { measures: ['orders.count'] },
      pivotItems: { columns: ['orders.created_at.month'], rows: ['measures'], measures: ['orders.count'], filters: [] },
    });
    expect(brief(got).slice(1)).toEqual([
      ['orders.created_at.month', 'pivot', 'pivotItems/columns/0', undefined],
      ['orders.count', 'pivot', 'pivotItems/measures/0', undefined],
    ]);
  });

  test("a SQL report's undotted pivot names are columns of the result, listed as not checked", () => {
    const got = reportMembers({
      sqlQuery: 'SELECT MEASURE(orders.count) AS n, orders.status FROM orders',
      pivotItems: { columns: [], rows: ['orders.status', 'n'], measures: [], filters: [] },
    });
    expect(got.uses.map((u) => [u.member, u.role])).toEqual([
      ['orders', 'sql-table'],
      ['orders.count', 'sql-measure'],
      ['orders.status', 'sql-column'],
      ['orders.status', 'pivot'],
    ]);
    expect(got.unchecked.map((u) => [u.text, u.why])).toEqual([['n', 'a column of the SQL result, not a member']]);
  });
});

describe('members of a dashboard', () => {
  test('FILTER, TIME_GRAIN and FIELD widgets: a name or a list under their member keys; charts name none', () => {
    const meta: JsonValue = {
      dashboardDraft: {
        widgets: [
          { id: 'f', type: 'FILTER', position: {}, config: { member: 'accounts.region', label: 'Region' } },
          { id: 'g', type: 'TIME_GRAIN', position: {}, config: { members: ['orders.created_at'], default: 'month' } },
          { id: 'x', type: 'FIELD', position: {}, config: { measure: 'orders.count' } },
          { id: 'c', type: 'CHART', position: {}, config: { member: 'not.looked_at', reportId: 9 } },
          { id: 'bad', type: 'FILTER', position: {}, config: { dimension: 7 } },
        ],
      },
    };
    const got = dashboardMembers(meta);
    expect(got.uses.map((u) => [u.member, u.where, u.path.join('/')])).toEqual([
      ['accounts.region', 'widget f config.member', 'meta/dashboardDraft/widgets/0/config/member'],
      ['orders.created_at', 'widget g config.members[0]', 'meta/dashboardDraft/widgets/1/config/members/0'],
      ['orders.count', 'widget x config.measure', 'meta/dashboardDraft/widgets/2/config/measure'],
    ]);
    expect(got.unchecked.map((u) => [u.text, u.where])).toEqual([['7', 'widget bad config.dimension']]);
  });

  test('no draft, no widgets, odd widgets: nothing', () => {
    expect(dashboardMembers(undefined)).toEqual({ uses: [], unchecked: [] });
    expect(dashboardMembers({ dashboardDraft: { widgets: [null, { type: 'FILTER' }] } })).toEqual({
      uses: [],
      unchecked: [],
    });
  });
});
