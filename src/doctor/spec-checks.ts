// Doctor's checks of the tenant's own API description: one line per group of
// routes wsc sends to (is each in the document?) and one per enum wsc checks
// (does the tenant's list match what wsc reads, and what the bundle writes?).
// A mismatch says what wsc will do about it.
import { KNOWN_API_VERSION, DashboardKind, ReportSource, WidgetType } from '../domain/wire.js';
import type { DesiredState } from '../core/model.js';
import { fail, pass, type CheckResult, type DoctorCheck, type DoctorContext } from './types.js';
import { routeKey, tenantEnum, type TenantSpec } from './tenant-spec.js';

const DESCRIPTION = 'API description';

const apiDescription: DoctorCheck = {
  name: DESCRIPTION,
  needs: ['token'],
  async run(ctx) {
    try {
      const spec = await ctx.spec();
      const version = spec.version === undefined ? 'no version' : `version ${spec.version}`;
      return pass(
        `GET /api/v1/spec: OpenAPI ${spec.openapi}, ${version}, ${spec.routes.size} routes ` +
          `(wsc was built for ${KNOWN_API_VERSION})`,
      );
    } catch (e) {
      const w = e as Error & { hint?: string };
      return fail(
        `the tenant's API description cannot be read, so its routes and enums are not checked: ${w.message}`,
        'wsc then sends the routes of the API as it knows them; a tenant without GET /api/v1/spec is older than ' +
          `the API wsc was built for (${KNOWN_API_VERSION}).`,
      );
    }
  },
};

interface Route {
  method: string;
  path: string;
  /** What wsc does, or cannot do, when the tenant lacks it. */
  without: string;
}
const D = '/api/v1/deployments/{deploymentId}';
const read = (what: string) => `plan, apply and export stop at their first read of the ${what}`;

/** The routes wsc sends to, by what they are for. */
const ROUTE_GROUPS: readonly { name: string; routes: readonly Route[] }[] = [
  {
    name: 'workbook upsert',
    routes: [
      { method: 'PUT', path: `${D}/workbooks/by-slug/{slug}`, without: 'apply cannot create or change workbooks' },
    ],
  },
  {
    name: 'workbooks',
    routes: [
      { method: 'GET', path: `${D}/workbooks`, without: read('workbooks') },
      {
        method: 'PUT',
        path: `${D}/workbooks/{workbookId}`,
        without: 'an adopt (a slug given to a UI-made workbook) fails',
      },
    ],
  },
  {
    name: 'reports',
    routes: [
      { method: 'GET', path: `${D}/reports`, without: read('reports') },
      { method: 'POST', path: `${D}/reports`, without: 'apply cannot create reports' },
      { method: 'PUT', path: `${D}/reports/{reportId}`, without: 'apply cannot change reports' },
    ],
  },
  {
    name: 'publish',
    routes: [
      {
        method: 'POST',
        path: `${D}/workbooks/{workbookId}/publish`,
        without: '`publish: true` fails at apply (the draft is still written)',
      },
    ],
  },
  {
    name: 'folders',
    routes: [
      {
        method: 'GET',
        path: `${D}/folders`,
        without: 'a bundle naming a folder cannot be planned, nor a deployment with folders exported',
      },
      { method: 'POST', path: `${D}/folders`, without: 'apply cannot create the folders a bundle names' },
    ],
  },
  {
    name: 'deletes',
    routes: [
      { method: 'DELETE', path: `${D}/reports/{reportId}`, without: '`apply --prune` cannot delete reports' },
      { method: 'DELETE', path: `${D}/workbooks/{workbookId}`, without: '`apply --prune` cannot delete workbooks' },
    ],
  },
  {
    name: 'user attributes',
    routes: [
      {
        method: 'GET',
        path: '/api/v1/user-attributes',
        without: 'a bundle managing user attributes cannot be planned',
      },
      { method: 'POST', path: '/api/v1/user-attributes', without: 'apply cannot create user attributes' },
      { method: 'PUT', path: '/api/v1/user-attributes/{id}', without: 'apply cannot change user attributes' },
    ],
  },
];

const versionHint = (spec: TenantSpec) =>
  `The tenant reports API version ${spec.version ?? '(none)'}; wsc was built for ${KNOWN_API_VERSION}: ` +
  'upgrade the one that is behind, or report the difference with the output of `wsc doctor`.';

/** A route as shown: the deployment's prefix as `…`. */
const short = (path: string) => path.replace(D, '…');

function routeCheck(group: (typeof ROUTE_GROUPS)[number]): DoctorCheck {
  return {
    name: `routes: ${group.name}`,
    needs: [DESCRIPTION],
    async run(ctx) {
      const spec = await ctx.spec();
      const missing = group.routes.filter((r) => !spec.routes.has(routeKey(r.method, r.path)));
      const named = (rs: readonly Route[]) => rs.map((r) => `${r.method} ${short(r.path)}`).join(', ');
      if (missing.length === 0) return pass(`${named(group.routes)}: in the tenant's description`);
      const what = missing.map((r) => `${r.method} ${short(r.path)} (${r.without})`).join('; ');
      return fail(
        `not in the tenant's description: ${what}. wsc still sends them as the API it knows has them.`,
        versionHint(spec),
      );
    },
  };
}

interface EnumSpec {
  name: string;
  /** The tenant's schemas that hold this enum, by name (the description names them per DTO). */
  schemas: RegExp;
  /** The values this wsc reads. */
  known: readonly string[];
  /** The values the bundle writes, each with the first address that writes it. */
  inBundle(desired: DesiredState): Map<string, string>;
  /** What happens to a live item holding a value wsc does not know. */
  unknownMeans: string;
}

const objects = (x: unknown): Record<string, unknown>[] =>
  Array.isArray(x) ? x.filter((y): y is Record<string, unknown> => typeof y === 'object' && y !== null) : [];
const draftOf = (w: DesiredState['workbooks'][number]) => {
  const d = w.fields.meta?.['dashboardDraft'];
  return typeof d === 'object' && d !== null && !Array.isArray(d) ? (d as Record<string, unknown>) : undefined;
};
function firstUse(pairs: Iterable<[unknown, string]>): Map<string, string> {
  const m = new Map<string, string>();
  for (const [v, address] of pairs) if (typeof v === 'string' && !m.has(v)) m.set(v, address);
  return m;
}

const unreadable = (what: string) =>
  `a ${what} holding one cannot be read by this wsc: plan warns and leaves it alone (and stops if the bundle ` +
  'manages it), export leaves it out';

const ENUMS: readonly EnumSpec[] = [
  {
    name: 'widget types',
    schemas: /^DashboardWidget\w*Type$/,
    known: WidgetType.options,
    inBundle: (d) =>
      firstUse(
        d.workbooks.flatMap((w) =>
          objects(draftOf(w)?.['widgets']).map((x): [unknown, string] => [x['type'], w.address]),
        ),
      ),
    unknownMeans: unreadable('workbook whose dashboard'),
  },
  {
    name: 'report source',
    schemas: /^\w*Report\w*Source$/,
    known: ReportSource.options,
    inBundle: (d) => firstUse(d.reports.map((r): [unknown, string] => [r.source, r.address])),
    unknownMeans: unreadable('report'),
  },
  {
    name: 'dashboard kinds',
    schemas: /^Dashboard\w*Kind$/,
    known: DashboardKind.options,
    inBundle: (d) => firstUse(d.workbooks.map((w): [unknown, string] => [draftOf(w)?.['kind'], w.address])),
    unknownMeans: unreadable('workbook whose dashboard'),
  },
];

function enumResult(e: EnumSpec, spec: TenantSpec, ctx: DoctorContext): CheckResult {
  const tenant = tenantEnum(spec, e.schemas);
  if (tenant.schemas.length === 0) {
    return fail(
      `the tenant's description has no such enum (no schema named like ${e.schemas.source}); not compared`,
      `wsc reads ${e.known.join(', ')}; anything else it cannot read. ${versionHint(spec)}`,
    );
  }
  const known = new Set(e.known);
  const newer = [...tenant.values].filter((v) => !known.has(v));
  const used = 'desired' in ctx.bundle ? e.inBundle(ctx.bundle.desired) : new Map<string, string>();
  const refused = [...used].filter(([v]) => !tenant.values.has(v));
  const problems: string[] = [];
  if (newer.length > 0)
    problems.push(`the tenant has ${newer.join(', ')}, which this wsc does not know: ${e.unknownMeans}`);
  for (const [v, address] of refused) {
    problems.push(
      `${address} writes ${v}, which the tenant does not list: apply sends it as written and the tenant will refuse it`,
    );
  }
  const where = `(${tenant.schemas.join(', ')})`;
  if (problems.length > 0) {
    const hint =
      refused.length > 0
        ? `Use one of the tenant's values (${[...tenant.values].join(', ')}) in the bundle. ${versionHint(spec)}`
        : versionHint(spec);
    return fail(`${problems.join('; ')} ${where}`, hint);
  }
  const only = e.known.filter((v) => !tenant.values.has(v));
  const extra = only.length > 0 ? `; wsc also reads ${only.join(', ')}, which no file of the bundle writes` : '';
  return pass(`the tenant's ${[...tenant.values].join(', ')} are all known to wsc${extra} ${where}`);
}

function enumCheck(e: EnumSpec): DoctorCheck {
  return { name: `enum: ${e.name}`, needs: [DESCRIPTION], run: async (ctx) => enumResult(e, await ctx.spec(), ctx) };
}

/** The checks of the tenant's description, in the order they are shown. */
export const SPEC_CHECKS: readonly DoctorCheck[] = [
  apiDescription,
  ...ROUTE_GROUPS.map(routeCheck),
  ...ENUMS.map(enumCheck),
];
