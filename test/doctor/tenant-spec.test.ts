// Reading a tenant's API description: routes compared with parameter names
// and prefixes aside, enums found by schema name through nullable unions and $refs.
import { describe, expect, test } from 'vitest';
import { routeKey, tenantEnum, type TenantSpec } from '../../src/doctor/tenant-spec.js';

const spec = (schemas: Record<string, unknown>): TenantSpec => ({
  openapi: '3.1.0',
  version: '1',
  routes: new Set(),
  schemas,
});

describe('routeKey', () => {
  test('parameter names, the /api prefix of the server and a trailing slash do not matter', () => {
    const ours = routeKey('put', '/api/v1/deployments/{deploymentId}/reports/{reportId}');
    expect(routeKey('PUT', '/v1/deployments/{dep}/reports/{id}/')).toBe(ours);
    expect(routeKey('PUT', '/api/v1/deployments/{deploymentId}/reports/{id}')).toBe(ours);
    expect(routeKey('GET', '/api/v1/deployments/{deploymentId}/reports/{id}')).not.toBe(ours);
    expect(routeKey('PUT', '/api/v1/deployments/{d}/reports/by-public-id/{p}')).not.toBe(ours);
  });
});

describe('tenantEnum', () => {
  test('every matching schema, through oneOf with null and a $ref, values together', () => {
    const s = spec({
      Inner: { type: 'string', enum: ['A', 'B'] },
      WidgetDtoType: { oneOf: [{ $ref: '#/components/schemas/Inner' }, { type: 'null' }] },
      WidgetInputType: { type: 'string', enum: ['B', 'C'] },
      WidgetSomethingElse: { type: 'string', enum: ['Z'] },
    });
    const e = tenantEnum(s, /^Widget\w*Type$/);
    expect([...e.values].sort()).toEqual(['A', 'B', 'C']);
    expect(e.schemas).toEqual(['WidgetDtoType', 'WidgetInputType']);
  });

  test('no schema of that name, or one without an enum: nothing found', () => {
    expect(tenantEnum(spec({ WidgetType: { type: 'string' } }), /^WidgetType$/).schemas).toEqual([]);
    expect(tenantEnum(spec({}), /^WidgetType$/).values.size).toBe(0);
  });

  test('a $ref cycle ends', () => {
    const s = spec({ LoopType: { $ref: '#/components/schemas/LoopType' } });
    expect(tenantEnum(s, /^LoopType$/).schemas).toEqual([]);
  });
});
