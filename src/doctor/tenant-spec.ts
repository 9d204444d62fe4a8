// The tenant's own API description (`GET /api/v1/spec`, an OpenAPI document):
// read once, reduced to what doctor compares: the routes it declares (method
// and path, parameter names aside) and its named schemas (for the enums).
import * as z from 'zod';
import type { ApiClient } from '../api/client.js';
import { paths } from '../domain/wire.js';

export interface TenantSpec {
  openapi: string;
  version: string | undefined;
  /** `METHOD /v1/...` with every `{param}` as `{}` (see routeKey). */
  routes: ReadonlySet<string>;
  schemas: Readonly<Record<string, unknown>>;
}

const Document = z.looseObject({
  openapi: z.string(),
  info: z.looseObject({ version: z.unknown().optional() }).optional(),
  paths: z.record(z.string(), z.unknown()),
  components: z.looseObject({ schemas: z.record(z.string(), z.unknown()).optional() }).optional(),
});

const METHODS = ['get', 'put', 'post', 'delete', 'patch'] as const;

/**
 * A route as doctor compares it: the method, and the path from `/v1/` on
 * (a document may declare its server as `…/api` and its paths as `/v1/…`,
 * or the server as the host and the paths as `/api/v1/…`), with parameter
 * names dropped (`{reportId}` and `{id}` are the same route) and no trailing slash.
 */
export function routeKey(method: string, path: string): string {
  const from = path.indexOf('/v1/');
  const p = (from >= 0 ? path.slice(from) : path).replace(/\{[^}]*\}/g, '{}').replace(/\/+$/, '');
  return `${method.toUpperCase()} ${p}`;
}

export async function readTenantSpec(client: ApiClient): Promise<TenantSpec> {
  const doc = await client.get(paths.spec(), Document);
  const routes = new Set<string>();
  for (const [path, item] of Object.entries(doc.paths)) {
    if (typeof item !== 'object' || item === null) continue;
    for (const m of METHODS) if (m in item) routes.add(routeKey(m, path));
  }
  const version = doc.info?.version;
  return {
    openapi: doc.openapi,
    version: typeof version === 'string' ? version : undefined,
    routes,
    schemas: doc.components?.schemas ?? {},
  };
}

const isObject = (x: unknown): x is Record<string, unknown> => typeof x === 'object' && x !== null && !Array.isArray(x);

/** The string values of an enum schema, through `oneOf`/`anyOf` (a nullable enum) and local `$ref`s. */
function enumValues(schema: unknown, schemas: Readonly<Record<string, unknown>>, depth = 0): string[] {
  if (!isObject(schema) || depth > 8) return [];
  if (Array.isArray(schema['enum'])) return schema['enum'].filter((v): v is string => typeof v === 'string');
  const ref = schema['$ref'];
  if (typeof ref === 'string' && ref.startsWith('#/components/schemas/')) {
    return enumValues(schemas[ref.slice('#/components/schemas/'.length)], schemas, depth + 1);
  }
  const out: string[] = [];
  for (const k of ['oneOf', 'anyOf', 'allOf']) {
    const list = schema[k];
    if (Array.isArray(list)) for (const s of list) out.push(...enumValues(s, schemas, depth + 1));
  }
  return out;
}

/** The values of every schema whose name matches `name`, and the names that matched. */
export function tenantEnum(spec: TenantSpec, name: RegExp): { values: Set<string>; schemas: string[] } {
  const values = new Set<string>();
  const matched: string[] = [];
  for (const [n, schema] of Object.entries(spec.schemas)) {
    if (!name.test(n)) continue;
    const v = enumValues(schema, spec.schemas);
    if (v.length === 0) continue;
    matched.push(n);
    for (const x of v) values.add(x);
  }
  return { values, schemas: matched.sort() };
}
