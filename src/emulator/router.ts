// The route table. An unknown path or method answers 404 (`Cannot PUT /x`),
// as a NestJS server does.
import type { Ctx } from './context.js';
import { KNOWN_API_VERSION } from '../domain/wire.js';
import * as f from './routes-folders.js';
import * as r from './routes-reports.js';
import * as u from './routes-user-attributes.js';
import * as w from './routes-workbooks.js';

type Handler = (ctx: Ctx) => unknown;
// A live tenant serves its API description at /spec; this stub names the API version emulated, for `wsc doctor`.
const getSpec = () => ({
  openapi: '3.1.0',
  info: { title: 'Workspace Content API (wsc emulator)', version: KNOWN_API_VERSION },
  paths: {},
});
const DEP = '/api/v1/deployments/(?<deploymentId>[^/]+)';
const table: [string, RegExp, Handler][] = [
  ['GET', new RegExp(`^${DEP}/workbooks$`), w.listWorkbooks],
  ['POST', new RegExp(`^${DEP}/workbooks$`), w.createWorkbook],
  ['PUT', new RegExp(`^${DEP}/workbooks/by-slug/(?<slug>[^/]+)$`), w.upsertWorkbookBySlug],
  ['GET', new RegExp(`^${DEP}/workbooks/(?<id>[^/]+)$`), w.getWorkbook],
  ['PUT', new RegExp(`^${DEP}/workbooks/(?<id>[^/]+)$`), w.updateWorkbook],
  ['DELETE', new RegExp(`^${DEP}/workbooks/(?<id>[^/]+)$`), w.deleteWorkbook],
  ['POST', new RegExp(`^${DEP}/workbooks/(?<id>[^/]+)/publish$`), w.publishWorkbook],
  ['GET', new RegExp(`^${DEP}/reports$`), r.listReports],
  ['POST', new RegExp(`^${DEP}/reports$`), r.createReport],
  ['PUT', new RegExp(`^${DEP}/reports/by-public-id/(?<publicId>[^/]+)$`), r.upsertReportByPublicId],
  ['GET', new RegExp(`^${DEP}/reports/(?<id>[^/]+)$`), r.getReport],
  ['PUT', new RegExp(`^${DEP}/reports/(?<id>[^/]+)$`), r.updateReport],
  ['DELETE', new RegExp(`^${DEP}/reports/(?<id>[^/]+)$`), r.deleteReport],
  ['GET', new RegExp(`^${DEP}/folders$`), f.listFolders],
  ['POST', new RegExp(`^${DEP}/folders$`), f.createFolder],
  ['GET', new RegExp(`^${DEP}/folders/(?<id>[^/]+)/ancestors$`), f.folderAncestors],
  ['DELETE', new RegExp(`^${DEP}/folders/(?<id>[^/]+)$`), f.deleteFolder],
  ['GET', /^\/api\/v1\/user-attributes$/, u.listUserAttributes],
  ['POST', /^\/api\/v1\/user-attributes$/, u.createUserAttribute],
  ['PUT', /^\/api\/v1\/user-attributes\/(?<id>[^/]+)$/, u.updateUserAttribute],
  ['GET', /^\/api\/v1\/spec$/, getSpec],
];

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
