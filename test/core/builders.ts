// Small builders of desired and live objects for planner tests.
import { wireReport } from '../helpers/wire.js';
import type { Report, UserAttribute, Workbook } from '../../src/domain/wire.js';
import type { Plan, ResourceChange } from '../../src/core/plan-model.js';
import type {
  DesiredReport,
  DesiredState,
  DesiredUserAttribute,
  DesiredWorkbook,
  LiveState,
  PlanContext,
} from '../../src/core/model.js';

export function pos(file: string, line = 1) {
  return { file, line, col: 1 };
}

export function dWorkbook(slug: string, fields: DesiredWorkbook['fields'] = {}, publish = false): DesiredWorkbook {
  return { address: `workbook/${slug}`, slug, fields, publish, pos: pos(`workbooks/${slug}.yaml`) };
}

/**
 * The published workbook `sales` whose dashboard draft charts report `publicId` in one widget (a draft `title`,
 * a widget `id` and its `position` as given: 1 by 1 at the origin by default).
 */
export function dSalesCharting(
  publicId: string,
  opts: { title?: string; id?: string; position?: { x: number; y: number; w: number; h: number } } = {},
): DesiredWorkbook {
  const widget = {
    ...(opts.id === undefined ? {} : { id: opts.id }),
    type: 'CHART',
    position: opts.position ?? { x: 0, y: 0, w: 1, h: 1 },
    config: { reportId: { $report: publicId } },
  };
  const dashboardDraft = { ...(opts.title === undefined ? {} : { title: opts.title }), widgets: [widget] };
  return dWorkbook('sales', { name: 'Sales', meta: { dashboardDraft } }, true);
}

export function dReport(
  publicId: string,
  fields: DesiredReport['fields'] = {},
  extra: Partial<DesiredReport> = {},
): DesiredReport {
  return { address: `report/${publicId}`, publicId, fields, pos: pos(`reports/${publicId}.yaml`), ...extra };
}

export function dAttr(
  name: string,
  fields: DesiredUserAttribute['fields'] = {},
  extra: Partial<DesiredUserAttribute> = {},
): DesiredUserAttribute {
  return { address: `user-attribute/${name}`, name, fields, pos: pos(`user-attributes/${name}.yaml`), ...extra };
}

export function lWorkbook(id: number, slug: string | null, extra: Partial<Workbook> = {}): Workbook {
  return {
    id,
    deploymentId: 1,
    name: `wb ${id}`,
    meta: {},
    calculatedFields: {},
    createdAt: '2026-01-01T00:00:00.000Z',
    updatedAt: '2026-01-01T00:00:00.000Z',
    type: 'WORKBOOK',
    slug,
    ...extra,
  };
}

export function lReport(id: number, publicId: string, extra: Partial<Report> = {}): Report {
  return wireReport(id, { publicId, name: `report ${id}`, ...extra }) as unknown as Report;
}

export function lAttr(id: number, name: string, extra: Partial<UserAttribute> = {}): UserAttribute {
  return { id, name, type: 'string', ...extra };
}

export function desired(d: Partial<DesiredState>): DesiredState {
  return { workbooks: [], reports: [], userAttributes: [], ...d };
}

export function live(l: Partial<LiveState>): LiveState {
  return { workbooks: [], reports: [], userAttributes: [], ...l };
}

export function ctx(extra: Partial<PlanContext> = {}): PlanContext {
  return { environment: 'test', deploymentId: 1, publicIds: 'as-is', targets: [], ...extra };
}

export { errorOf } from '../helpers/error-of.js';

/** A plan of these changes as the executor takes it: no counts in its summary, no fingerprints. */
export function executablePlan(changes: ResourceChange[], over: Partial<Plan> = {}): Plan {
  return {
    formatVersion: 1,
    environment: 't',
    deploymentId: 1,
    publicIds: 'as-is',
    changes,
    summary: {
      create: 0,
      update: 0,
      adopt: 0,
      publish: 0,
      noop: 0,
      unmanaged: { workbooks: 0, reports: 0, userAttributes: 0 },
    },
    fingerprints: [],
    ...over,
  };
}
