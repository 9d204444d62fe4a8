import { describe, expect, test } from 'vitest';
import { checkMembers, memberTitles, type ResourceMembers } from '../../../src/core/semantic/check.js';
import { plannedAsks, settle } from '../../../src/core/semantic/confirm.js';
import { dashboardMembers, reportMembers } from '../../../src/core/semantic/members.js';
import { indexModel, resolveMember, suggestMember } from '../../../src/core/semantic/model-index.js';
import { semanticError, semanticHeadline } from '../../../src/core/semantic/outcome.js';
import type { PlannerVerdict } from '../../../src/domain/data-model.js';
import type { JsonValue } from '../../../src/core/json.js';
import { CUBE_META } from '../../helpers/cube-model.js';

const model = indexModel(CUBE_META);

const locate: ResourceMembers['locate'] = (path, o) => ({
  file: 'r.yaml',
  line: path.length,
  col: o.text ? o.text.occurrence + 1 : o.atKey ? 99 : 1,
});
const report = (query: { [k: string]: JsonValue }, pivotItems?: JsonValue): ResourceMembers => ({
  address: 'report/abcdefghijkl',
  extracted: reportMembers({ jsonQuery: query, ...(pivotItems !== undefined ? { pivotItems } : {}) }),
  locate,
  query: { format: 'rest', query },
});
const errorsOf = (query: { [k: string]: JsonValue }) =>
  checkMembers([report(query)], model).result.issues.map((i) => i.message.replace('report/abcdefghijkl ', ''));

describe('the model as a lookup', () => {
  test("a view's members are members; a time dimension takes a standard or its own granularity", () => {
    expect(resolveMember(model, 'sales.count')?.kind).toBe('measure');
    expect(resolveMember(model, 'orders.completed')?.kind).toBe('segment');
    expect(resolveMember(model, 'orders.created_at.month')?.name).toBe('orders.created_at');
    expect(resolveMember(model, 'orders.created_at.fiscal_year')?.name).toBe('orders.created_at');
    expect(resolveMember(model, 'orders.created_at.fortnight')).toBeUndefined();
    expect(resolveMember(model, 'orders.status.month')).toBeUndefined();
  });

  test("did you mean: the same cube first, a view's member exposing the cube member, a granularity after its dimension", () => {
    expect(suggestMember(model, 'orders.cont')).toBe('orders.count');
    expect(suggestMember(model, 'sales.status')).toBe('sales.order_status');
    expect(suggestMember(model, 'odrers.status')).toBe('orders.status');
    expect(suggestMember(model, 'orders.created_at.mnth')).toBe('orders.created_at.month');
    expect(suggestMember(model, 'orders.something_else')).toBeUndefined();
  });
});

describe('rules decided from /v1/meta alone (Cube refuses the same)', () => {
  test('a member in the wrong role for its field', () => {
    expect(errorsOf({ measures: ['orders.status'] })).toEqual([
      'jsonQuery.measures[0]: `orders.status` is a string dimension, not a measure: Cube refuses it in `measures`',
    ]);
    expect(errorsOf({ dimensions: ['orders.count'] })[0]).toContain('`orders.count` is a measure, not a dimension');
    // A segment under dimensions is planned as a boolean column: no false alarm.
    expect(errorsOf({ measures: ['orders.count'], dimensions: ['orders.completed'] })).toEqual([]);
    expect(errorsOf({ measures: ['orders.count'], segments: ['orders.status'] })[0]).toContain(
      'is a string dimension, not a segment',
    );
    expect(errorsOf({ measures: ['orders.count'], segments: ['orders.total'] })[0]).toContain(
      'is a measure, not a segment',
    );
  });

  test('a granularity suffix only in dimensions and order keys', () => {
    expect(errorsOf({ dimensions: ['orders.created_at.month'], order: { 'orders.created_at.month': 'asc' } })).toEqual(
      [],
    );
    const suffixed: { [k: string]: JsonValue }[] = [
      { measures: ['orders.created_at.month'] },
      { measures: ['orders.count'], filters: [{ member: 'orders.created_at.month', operator: 'set' }] },
      { measures: ['orders.count'], timeDimensions: [{ dimension: 'orders.created_at.month' }] },
    ];
    for (const q of suffixed)
      expect(errorsOf(q)[0]).toMatch(/a granularity suffix is allowed only in `dimensions` and `order`/);
  });

  test("a granularity among the standard ones and the dimension's own; a time grain only on time dimensions", () => {
    expect(
      errorsOf({
        measures: ['orders.count'],
        timeDimensions: [{ dimension: 'orders.created_at', granularity: 'fiscal_year' }],
      }),
    ).toEqual([]);
    expect(
      errorsOf({
        measures: ['orders.count'],
        timeDimensions: [{ dimension: 'orders.created_at', granularity: 'fiscal_yr' }],
      }),
    ).toEqual([
      'jsonQuery.timeDimensions[0].dimension: Granularity "fiscal_yr" does not exist in dimension orders.created_at ' +
        '(did you mean `orders.created_at.fiscal_year`?)',
    ]);
    expect(
      errorsOf({
        measures: ['orders.count'],
        timeDimensions: [{ dimension: 'orders.status', granularity: 'month' }],
      })[0],
    ).toContain('`orders.status` is a string dimension: a time grain (`month`) applies only to time dimensions');
    expect(errorsOf({ dimensions: ['orders.amount.month'] })[0]).toContain('a time grain (`month`)');
    // The granularity is placed at its own value when the query is a mapping.
    const r = checkMembers(
      [report({ timeDimensions: [{ dimension: 'orders.created_at', granularity: 'fiscal_yr' }] })],
      model,
    );
    expect(r.result.issues[0]!.pos.line).toBe(4);
  });

  test('a TIME_GRAIN widget takes a time dimension; a pivot suffix only on one', () => {
    const meta = {
      dashboardDraft: {
        widgets: [
          { id: 'g', type: 'TIME_GRAIN', config: { member: 'orders.status' } },
          { id: 'h', type: 'TIME_GRAIN', config: { member: 'orders.created_at' } },
        ],
      },
    };
    const w = { address: 'workbook/w', extracted: dashboardMembers(meta), locate };
    expect(checkMembers([w], model).result.issues.map((i) => i.message)).toEqual([
      'workbook/w widget g config.member: `orders.status` is a string dimension: a TIME_GRAIN widget takes a time dimension ' +
        '(Cube plans it, the query fails in the warehouse)',
    ]);
    const pivot = report({ measures: ['orders.count'] }, { rows: ['orders.status.month'], columns: [], measures: [] });
    expect(checkMembers([pivot], model).result.issues[0]!.message).toContain('a time grain (`month`)');
  });

  test("two cubes with different join components (a view's member counts as its cube's); one component is fine", () => {
    expect(errorsOf({ measures: ['orders.count', 'products.count'] })).toEqual([
      'jsonQuery.measures[1]: `products.count`: the model has no join path between `orders` and `products` ' +
        "(Cube: Can't find join path to join 'orders', 'products')",
    ]);
    expect(errorsOf({ measures: ['orders.count'], dimensions: ['users.city'] })).toEqual([]);
    expect(errorsOf({ measures: ['sales.count'], dimensions: ['users.city'] })).toEqual([]);
    expect(errorsOf({ measures: ['sales.count'], dimensions: ['products.name'] })[0]).toContain(
      'no join path between `orders` and `products`',
    );
  });
});

describe('names /v1/meta does not list: Cube decides', () => {
  test('worded as what the meta says: not public, never "no such member"; a hidden cube is not public', () => {
    const { result, pending } = checkMembers(
      [report({ measures: ['orders.count', 'audit_log.count'], dimensions: ['orders.id'] })],
      model,
    );
    expect(result.issues).toEqual([]);
    expect(pending[0]!.uses.map((p) => p.issue.message)).toEqual([
      'report/abcdefghijkl jsonQuery.measures[1]: `audit_log` is not a public cube or view of the data model',
      'report/abcdefghijkl jsonQuery.dimensions[0]: `orders.id` is not public in the data model ' +
        '(primary keys are private unless `public: true`)',
    ]);
  });

  test("Cube's acceptance clears them; its refusal is an error at the member it names, in its words", () => {
    const r = report({ measures: ['orders.count', 'orders.cont'], dimensions: ['orders.id'] });
    const { result, pending } = checkMembers([r], model);
    const { asks, notAsked } = plannedAsks(pending, () => true);
    expect(asks.map((a) => [a.format, a.queries])).toEqual([['rest', [r.query!.query]]]);
    const refused = new Map<string, PlannerVerdict>([
      [asks[0]!.key, { kind: 'refused', error: "'cont' not found for path 'orders.cont'" }],
    ]);
    const out = settle(structuredClone(result), asks, refused, notAsked);
    expect(out.issues.map((i) => [i.by, i.member, i.pos.line, i.message])).toEqual([
      [
        'cube',
        'orders.cont',
        3,
        "report/abcdefghijkl jsonQuery.measures[1]: Cube refuses the query: 'cont' not found for path " +
          "'orders.cont' (did you mean `orders.count`?)",
      ],
    ]);
    const accepted = new Map<string, PlannerVerdict>([[asks[0]!.key, { kind: 'accepted' }]]);
    const ok = settle(structuredClone(result), asks, accepted, notAsked);
    expect([ok.issues, ok.warnings, ok.confirmations]).toEqual([[], [], { asked: 1, accepted: 2 }]);
  });

  test("the member Cube refuses, written again in the pivot: the same refusal there, not 'another reason'", () => {
    const r = report(
      { measures: ['orders.count', 'orders.cont'], dimensions: ['orders.id'] },
      {
        rows: ['orders.id'],
        measures: ['orders.cont'],
      },
    );
    const { result, pending } = checkMembers([r], model);
    const { asks, notAsked } = plannedAsks(pending, () => true);
    const refused = new Map<string, PlannerVerdict>([
      [asks[0]!.key, { kind: 'refused', error: "'cont' not found for path 'orders.cont'" }],
    ]);
    const out = settle(structuredClone(result), asks, refused, notAsked);
    const MEAN = ' (did you mean `orders.count`?)';
    expect(out.issues.map((i) => [i.by, i.where, i.message.split(': Cube ')[1]])).toEqual([
      ['cube', 'jsonQuery.measures[1]', "refuses the query: 'cont' not found for path 'orders.cont'" + MEAN],
      ['cube', 'pivotItems.measures[0]', "refuses the query: 'cont' not found for path 'orders.cont'" + MEAN],
    ]);
    // orders.id (a primary key, unlisted) was not what Cube stopped at: it stays a warning, said so.
    expect(out.warnings.map((w) => [w.where, w.message.split('; ')[1]])).toEqual([
      ['jsonQuery.dimensions[0]', 'Cube refused the query for another reason first'],
      ['pivotItems.rows[0]', 'Cube refused the query for another reason first'],
    ]);
  });

  test("Cube's refusal of a use the model refused already: said once, by the model; the pending uses warned", () => {
    const r = report({ measures: ['orders.count'], dimensions: ['orders.count', 'orders.id'] });
    const { result, pending } = checkMembers([r], model);
    expect(result.issues.map((i) => [i.by, i.where])).toEqual([['meta', 'jsonQuery.dimensions[0]']]);
    const { asks, notAsked } = plannedAsks(pending, () => true);
    const error = "'orders.count' is a measure and can't be used as a dimension";
    const out = settle(structuredClone(result), asks, new Map([[asks[0]!.key, { kind: 'refused', error }]]), notAsked);
    expect(out.issues.map((i) => [i.by, i.where])).toEqual([['meta', 'jsonQuery.dimensions[0]']]);
    expect(out.warnings.map((w) => [w.where, w.message.split('; ')[1]])).toEqual([
      ['jsonQuery.dimensions[1]', 'Cube refused the query for another reason first'],
    ]);
  });

  test("a query-format refusal: at the key Cube names; said once when the model refused that key's value", () => {
    const refuse = (query: { [k: string]: JsonValue }, error: string) => {
      const { result, pending } = checkMembers([report(query)], model);
      const { asks, notAsked } = plannedAsks(pending, () => true);
      return settle(structuredClone(result), asks, new Map([[asks[0]!.key, { kind: 'refused', error }]]), notAsked);
    };
    // A limit wsc takes, Cube does not: the error at `limit`, not at the unlisted member that made wsc ask.
    const limit = refuse(
      { measures: ['orders.count'], dimensions: ['orders.id'], limit: -5 },
      'Invalid query format: "limit" must be greater than or equal to 0',
    );
    // (This file's locator gives the path's length as the line: 2 for jsonQuery.limit.)
    expect(limit.issues.map((i) => [i.by, i.where, i.pos.line])).toEqual([['cube', 'jsonQuery.limit', 2]]);
    expect(limit.warnings.map((w) => w.where)).toEqual(['jsonQuery.dimensions[0]']);
    // A filter the model refused (an operator Cube does not have): Cube's "filters[0]" is that one.
    const filter = refuse(
      {
        measures: ['orders.count'],
        dimensions: ['orders.id'],
        filters: [{ member: 'orders.count', operator: 'near', values: ['1'] }],
      },
      'Invalid query format: "filters[0]" does not match any of the allowed types',
    );
    expect(filter.issues.map((i) => [i.by, i.where])).toEqual([['meta', 'jsonQuery.filters[0].operator']]);
    // A key holding a member's name (an order's direction): the key, not the measure of that name.
    const order = refuse(
      { measures: ['orders.count'], dimensions: ['orders.id'], order: { 'orders.count': 'up' } },
      'Invalid query format: "order.orders.count" must be one of [asc, desc]',
    );
    expect(order.issues.map((i) => [i.by, i.where])).toEqual([['meta', 'jsonQuery.order.orders.count']]);
    expect(order.warnings.map((w) => w.where)).toEqual(['jsonQuery.dimensions[0]']);
    expect(filter.warnings.map((w) => [w.where, w.message.split('; ')[1]])).toEqual([
      ['jsonQuery.dimensions[0]', 'Cube refused the query for another reason first'],
    ]);
  });

  test('unanswered, or a resource the plan does not change: warnings, never errors', () => {
    const r = report({ dimensions: ['orders.id'] });
    const { result, pending } = checkMembers([r], model);
    const none = plannedAsks(pending, () => false);
    expect(none.asks).toEqual([]);
    const quiet = settle(structuredClone(result), none.asks, new Map(), none.notAsked);
    expect(quiet.issues).toEqual([]);
    expect(quiet.warnings[0]!.message).toMatch(/not public .*; the plan does not change report\/abcdefghijkl/);
    const { asks, notAsked } = plannedAsks(pending, () => true);
    const down = new Map<string, PlannerVerdict>([[asks[0]!.key, { kind: 'unavailable', why: 'GET /v1/sql -> 502' }]]);
    const w = settle(structuredClone(result), asks, down, notAsked);
    expect(w.issues).toEqual([]);
    expect(w.warnings[0]!.message).toContain("Cube's planner could not be asked (GET /v1/sql -> 502)");
  });

  test("a key or a time zone wsc does not know: Cube's planner decides, its refusal located at the key", () => {
    const known = report({ measures: ['orders.count'], timezone: 'Europe/Paris', renewQuery: true, limit: 5 });
    expect(checkMembers([known], model).pending).toEqual([]);
    const r = report({ measures: ['orders.count'], foo: 1, timezone: 'Mars/Olympus' });
    const { result, pending } = checkMembers([r], model);
    expect(result.issues).toEqual([]);
    expect(pending[0]!.uses.map((p) => p.issue.message)).toEqual([
      'report/abcdefghijkl jsonQuery.foo: "foo" is not a key of the query format wsc knows',
      'report/abcdefghijkl jsonQuery.timezone: "timezone" "Mars/Olympus" is not a time zone wsc knows',
    ]);
    const { asks, notAsked } = plannedAsks(pending, () => true);
    expect(asks.map((a) => a.queries)).toEqual([[r.query!.query]]);
    const error = 'Invalid query format: "timezone" must be a valid IANA time zone, got "Mars/Olympus"';
    const refused = new Map<string, PlannerVerdict>([[asks[0]!.key, { kind: 'refused', error }]]);
    const out = settle(structuredClone(result), asks, refused, notAsked);
    expect(out.issues.map((i) => [i.by, i.role, i.where, i.message])).toEqual([
      [
        'cube',
        'query',
        'jsonQuery.timezone',
        `report/abcdefghijkl jsonQuery.timezone: Cube refuses the query: ${error}`,
      ],
    ]);
    const ok = settle(structuredClone(result), asks, new Map([[asks[0]!.key, { kind: 'accepted' }]]), notAsked);
    expect([ok.issues, ok.warnings, ok.confirmations]).toEqual([[], [], { asked: 1, accepted: 0 }]);
    const down = new Map<string, PlannerVerdict>([[asks[0]!.key, { kind: 'unavailable', why: 'GET /v1/sql -> 502' }]]);
    const w = settle(structuredClone(result), asks, down, notAsked);
    expect(w.issues).toEqual([]);
    expect(w.warnings[0]!.message).toMatch(
      /jsonQuery.foo: .*could not be asked \(GET \/v1\/sql -> 502\), so wsc cannot tell whether Cube takes the query$/,
    );
  });

  test("a widget's member is asked alone (as a dimension, then a measure); the same query once; a bound on asks", () => {
    const meta: JsonValue = {
      dashboardDraft: {
        widgets: [
          { id: 'a', type: 'FILTER', config: { member: 'orders.id' } },
          { id: 'b', type: 'FILTER', config: { member: 'orders.id' } },
          { id: 'c', type: 'FIELD', config: { measure: 'orders.secret_margin' } },
        ],
      },
    };
    const w = { address: 'workbook/w', extracted: dashboardMembers(meta), locate };
    const { pending } = checkMembers([w], model);
    const { asks, notAsked } = plannedAsks(pending, () => true);
    expect(asks.map((a) => a.queries)).toEqual([
      [{ dimensions: ['orders.id'] }, { measures: ['orders.id'] }],
      [{ dimensions: ['orders.id'] }, { measures: ['orders.id'] }],
      [{ measures: ['orders.secret_margin'] }],
    ]);
    // Two widgets, one question: the runner asks each key once.
    expect(new Set(asks.map((a) => a.key)).size).toBe(2);
    expect(notAsked).toEqual([]);
    const bounded = plannedAsks(pending, () => true, 1);
    expect(bounded.asks).toHaveLength(2);
    expect(bounded.notAsked[0]!.why).toBe("Cube's planner is asked about 1 queries at most in one run");
  });
});

describe('the outcome', () => {
  test('the refusal lists every issue with its place (apply) or points above (plan); none without issues', () => {
    const { result } = checkMembers([report({ measures: ['orders.status'] })], model);
    const outcome = { status: 'checked' as const, cubes: 4, result };
    const e = semanticError(outcome, true)!;
    expect([e.code, e.exitCode]).toEqual(['semantic_check_failed', 3]);
    expect(e.details).toEqual([
      'r.yaml:3:1: report/abcdefghijkl jsonQuery.measures[0]: `orders.status` is a string dimension, not a measure: ' +
        'Cube refuses it in `measures`',
    ]);
    expect(semanticError(outcome, false)!.details).toEqual([]);
    expect(semanticError({ status: 'unavailable', members: 1, tried: 'x', why: 'y' }, true)).toBeUndefined();
    expect(semanticHeadline(outcome, 7)).toBe(
      'Semantic check: 1 member use(s) checked against the data model of deployment 7 (4 cubes and views): 1 refused.',
    );
  });

  test("member titles for the preview, a granularity's named after the title", () => {
    expect(memberTitles(['orders.count', 'orders.created_at.month', 'nope.x'], model)).toEqual({
      'orders.count': 'Orders Count',
      'orders.created_at.month': 'Orders Created at (month)',
    });
  });
});
