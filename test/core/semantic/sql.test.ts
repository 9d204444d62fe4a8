import { describe, expect, test } from 'vitest';
import { sqlMembers } from '../../../src/core/semantic/sql.js';

const uses = (sql: string) =>
  sqlMembers(sql)
    .uses.filter((u) => u.role !== 'sql-table')
    .map((u) => `${u.role} ${u.member}@${u.offset}`);
const tables = (sql: string) =>
  sqlMembers(sql)
    .uses.filter((u) => u.role === 'sql-table')
    .map((u) => `${u.member}@${u.offset} (${u.where})`);
const unchecked = (sql: string) => sqlMembers(sql).unchecked.map((u) => `${u.text}: ${u.why}`);

describe('members of a sqlQuery', () => {
  test('MEASURE() and columns of tables read by their own name, at their offsets', () => {
    const sql = 'SELECT accounts.region, MEASURE(subscriptions.mrr) FROM subscriptions CROSS JOIN accounts';
    expect(uses(sql)).toEqual(['sql-column accounts.region@7', 'sql-measure subscriptions.mrr@32']);
  });

  test('strings, quoted identifiers and comments are skipped', () => {
    const sql =
      'SELECT \'orders.fake\' AS s, "orders.quoted", orders.status -- orders.comment\n' +
      "/* orders.block */ FROM orders WHERE orders.note = 'it''s orders.x'";
    expect(uses(sql)).toEqual(['sql-column orders.status@44', 'sql-column orders.note@113']);
  });

  test('aliases, CTEs and subqueries are listed as not checked, never resolved by guess', () => {
    const sql =
      'WITH recent AS (SELECT 1) SELECT s.mrr, recent.x, q.y, other.z, a.b.c, MEASURE(s.arr) ' +
      'FROM subscriptions AS s, recent JOIN (SELECT 1) q ON true';
    expect(uses(sql)).toEqual([]);
    expect(unchecked(sql)).toEqual([
      's.mrr: `s` is an alias, a CTE or a subquery, not a cube',
      'recent.x: `recent` is an alias, a CTE or a subquery, not a cube',
      'q.y: `q` is an alias, a CTE or a subquery, not a cube',
      'other.z: `other` is not a table the query reads by its own name',
      'a.b.c: `a` is not a table the query reads by its own name',
      's.arr: MEASURE() through `s`, an alias, a CTE or a subquery',
    ]);
  });

  test('MEASURE() of a quoted or longer name is not checked; a schema function is no column', () => {
    const sql = 'SELECT MEASURE("orders.count"), MEASURE(a.b.c), pg.now() FROM orders';
    expect(uses(sql)).toEqual([]);
    expect(unchecked(sql)).toEqual([
      '"orders.count": a quoted name in MEASURE()',
      'a.b.c: MEASURE() of a name that is not cube.member',
    ]);
  });

  test('the tables it reads, aliased or not, each where it is written; a CTE, a subquery, a schema-qualified name, a table function are not', () => {
    const sql =
      'WITH recent AS (SELECT 1) SELECT 1 FROM subscriptions AS s, accounts, recent ' +
      'JOIN (SELECT 1 FROM orders) q ON true LEFT JOIN public.users u ON true CROSS JOIN subscriptionz ' +
      'CROSS JOIN generate_series(1, 3) g';
    expect(tables(sql)).toEqual([
      'subscriptions@40 (sqlQuery table subscriptions)',
      'accounts@60 (sqlQuery table accounts)',
      'orders@97 (sqlQuery table orders)',
      'subscriptionz@159 (sqlQuery table subscriptionz)',
    ]);
  });
});
