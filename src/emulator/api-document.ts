// The emulator's own API description, served at GET /api/v1/spec as a live
// tenant serves its own: an OpenAPI 3.1 document of the routes it serves and
// of the enums it validates (named as the API's description names them), so
// that `wsc doctor` checks the emulator as it checks a tenant. Tests reshape
// it (EmulatorOptions.apiDocument) to play a tenant that differs.
import { DashboardKind, KNOWN_API_VERSION, ReportSource, WidgetType } from '../domain/wire.js';

export interface ApiDocument {
  openapi: string;
  info: { title: string; version: string };
  paths: Record<string, Record<string, { responses: Record<string, { description: string }> }>>;
  components: { schemas: Record<string, unknown> };
}

const stringEnum = (values: readonly string[]) => ({ type: 'string', enum: [...values] });

export function apiDocument(routes: readonly { method: string; path: string }[]): ApiDocument {
  const paths: ApiDocument['paths'] = {};
  for (const r of routes) {
    (paths[r.path] ??= {})[r.method.toLowerCase()] = { responses: { '200': { description: '' } } };
  }
  return {
    openapi: '3.1.0',
    info: { title: 'Workspace Content API (wsc emulator)', version: KNOWN_API_VERSION },
    paths,
    components: {
      schemas: {
        DashboardWidgetDtoType: stringEnum(WidgetType.options),
        DashboardWidgetDraftInputType: stringEnum(WidgetType.options),
        DashboardConfigKind: stringEnum(DashboardKind.options),
        CreateReportInputSource: stringEnum(ReportSource.options),
        // What it answers: the seed made in the UI holds the older name too.
        ReportDtoSource: stringEnum(ReportSource.options),
      },
    },
  };
}
