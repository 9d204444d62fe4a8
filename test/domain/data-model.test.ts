import { describe, expect, it } from 'vitest';
import { CoreErrorBody, MetaAnswer, SqlPlanAnswer, corePath } from '../../src/domain/data-model.js';

// A production `/v1/meta` answer as the open-source Cube 1.7 gives it (shape from
// the facts file): measures `type: number` + `aggType`, a time dimension with a
// custom granularity, a view whose members carry `aliasMember`, extra fields.
const cubeMeta = {
  cubes: [
    {
      name: 'orders',
      title: 'Orders',
      type: 'cube',
      connectedComponent: 1,
      public: true,
      isVisible: true,
      hierarchies: [],
      folders: [],
      nestedFolders: [],
      measures: [
        {
          name: 'orders.count',
          title: 'Orders Count',
          shortTitle: 'Count',
          type: 'number',
          aggType: 'count',
          cumulative: false,
          drillMembers: [],
        },
      ],
      dimensions: [
        { name: 'orders.status', title: 'Orders Status', type: 'string', suggestFilterValues: true },
        {
          name: 'orders.created_at',
          type: 'time',
          granularities: [{ name: 'fiscal_year', title: 'Fiscal Year', interval: '1 year', offset: '1 month' }],
        },
      ],
      segments: [{ name: 'orders.completed', title: 'Orders Completed', shortTitle: 'Completed' }],
    },
    {
      name: 'sales',
      type: 'view',
      measures: [],
      dimensions: [{ name: 'sales.order_status', type: 'string', aliasMember: 'orders.status' }],
      segments: [],
    },
  ],
};

describe('the /v1/meta wire schema is Cube’s shape', () => {
  it('reads a real Cube answer, keeping aggType, granularities, aliasMember and connectedComponent', () => {
    const meta = MetaAnswer.parse(cubeMeta);
    const orders = meta.cubes[0]!;
    expect(orders.connectedComponent).toBe(1);
    expect(orders.measures![0]!.aggType).toBe('count');
    expect(orders.measures![0]!.type).toBe('number');
    expect(orders.dimensions![1]!.granularities![0]).toMatchObject({ name: 'fiscal_year', offset: '1 month' });
    expect(meta.cubes[1]!.dimensions![0]!.aliasMember).toBe('orders.status');
    expect(meta.cubes[1]!.type).toBe('view');
  });

  it('refuses an answer without cubes, and a member without a name', () => {
    expect(MetaAnswer.safeParse({}).success).toBe(false);
    expect(MetaAnswer.safeParse({ cubes: [{ name: 'x', measures: [{ type: 'number' }] }] }).success).toBe(false);
  });

  it('reads /v1/sql verdicts and Cube error bodies', () => {
    expect(SqlPlanAnswer.parse({ sql: { sql: ['SELECT 1', []], aliasNameToMember: {} } }).sql?.sql).toEqual([
      'SELECT 1',
      [],
    ]);
    expect(SqlPlanAnswer.parse({ sql: { status: 'error', error: 'bad', query_type: 'regular' } }).sql?.status).toBe(
      'error',
    );
    expect(CoreErrorBody.parse({ type: 'UserError', error: "Cube 'x' not found for path 'x.count'" }).error).toMatch(
      /not found/,
    );
  });

  it('puts the endpoint under the rest url, once /v1', () => {
    expect(corePath('https://h.example/cubejs-api/v1', 'sql')).toBe('/sql');
    expect(corePath('https://h.example/cubejs-api', 'meta')).toBe('/v1/meta');
  });
});
