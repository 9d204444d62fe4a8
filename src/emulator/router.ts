// The route table. An unknown path or method answers 404 (`Cannot PUT /x`),
// as a NestJS server does.
import type { Ctx } from './context.js';
import * as f from './routes-folders.js';
import * as r from './routes-reports.js';
import * as u from './routes-user-attributes.js';
import * as w from './routes-workbooks.js';
import * as dm from './routes-data-model.js';

type Handler = (ctx: Ctx) => unknown;
// A live tenant serves its API description at /spec; the emulator serves its
// own (api-document.ts: these routes and the enums it checks), which index.ts
// puts on the context.
const getSpec = (ctx: Ctx) => ctx.apiDocument();
const DEP = '/api/v1/deployments/{deploymentId}';
/** Every route as its method, its path template (OpenAPI style) and its handler. */
const ROUTES: [string, string, Handler][] = [
  ['GET', `${DEP}/workbooks`, w.listWorkbooks],
  ['POST', `${DEP}/workbooks`, w.createWorkbook],
  ['PUT', `${DEP}/workbooks/by-slug/{slug}`, w.upsertWorkbookBySlug],
  ['GET', `${DEP}/workbooks/{id}`, w.getWorkbook],
  ['PUT', `${DEP}/workbooks/{id}`, w.updateWorkbook],
  ['DELETE', `${DEP}/workbooks/{id}`, w.deleteWorkbook],
  ['POST', `${DEP}/workbooks/{id}/publish`, w.publishWorkbook],
  ['GET', `${DEP}/reports`, r.listReports],
  ['POST', `${DEP}/reports`, r.createReport],
  ['PUT', `${DEP}/reports/by-public-id/{publicId}`, r.upsertReportByPublicId],
  ['GET', `${DEP}/reports/{id}`, r.getReport],
  ['PUT', `${DEP}/reports/{id}`, r.updateReport],
  ['DELETE', `${DEP}/reports/{id}`, r.deleteReport],
  ['GET', `${DEP}/folders`, f.listFolders],
  ['POST', `${DEP}/folders`, f.createFolder],
  ['GET', `${DEP}/folders/{id}/ancestors`, f.folderAncestors],
  ['DELETE', `${DEP}/folders/{id}`, f.deleteFolder],
  ['GET', '/api/v1/user-attributes', u.listUserAttributes],
  ['POST', '/api/v1/user-attributes', u.createUserAttribute],
  ['PUT', '/api/v1/user-attributes/{id}', u.updateUserAttribute],
  ['GET', '/api/v1/spec', getSpec],
  ['GET', `${DEP}/environments`, dm.listEnvironments],
  ['POST', `${DEP}/token`, dm.mintToken],
  ['GET', `/build${DEP}/data-model/validate`, dm.validateModel],
];

/** `{name}` of a template as a named group matching one path segment. */
const compile = (template: string) =>
  new RegExp(`^${template.replace(/\{(\w+)\}/g, (_, name: string) => `(?<${name}>[^/]+)`)}$`);
const table: [string, RegExp, Handler][] = ROUTES.map(([m, t, h]) => [m, compile(t), h]);

/** The routes the emulator serves, as method and path template (for its API description). */
export const ROUTE_TEMPLATES: readonly { method: string; path: string }[] = ROUTES.map(([method, path]) => ({
  method,
  path,
}));

export function route(method: string, path: string): { handler: Handler; params: Record<string, string> } | undefined {
  for (const [m, re, handler] of table) {
    if (m !== method) continue;
    const match = re.exec(path);
    if (!match) continue;
    const params: Record<string, string> = {};
    for (const [k, v] of Object.entries(match.groups ?? {})) {
      try {
        params[k] = decodeURIComponent(v);
      } catch {
        params[k] = v;
      }
    }
    return { handler, params };
  }
  return undefined;
}
