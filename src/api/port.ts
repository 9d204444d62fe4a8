// The executor's port over HTTP. Each call states whether repeating it is
// harmless, which the retry loop needs for POSTs (PUTs are by definition).
// `labelled` gives the same port with every request named by the resource
// address it is for, in --verbose lines and wait notices.
import * as z from 'zod';
import type { ApiPort } from '../core/api-port.js';
import { ApiError } from '../errors.js';
import type { ApiClient } from './client.js';
import type { HttpMethod } from './request.js';
import { listFolders } from './folders.js';
import { REPORT_ORDER } from './live.js';
import { Folder, paths, Report, UserAttribute, Workbook } from '../domain/wire.js';

export function httpPort(client: ApiClient, deploymentId: number, address?: string): ApiPort {
  const label = address === undefined ? {} : { label: address };
  const send = <T>(method: HttpMethod, path: string, schema: z.ZodType<T>, body?: unknown, safeToRetryPost = false) =>
    client.request({ method, path, schema, body, safeToRetryPost, ...label });
  const nothing = async (request: Promise<unknown>) => void (await request);
  return {
    labelled: (to) => httpPort(client, deploymentId, to),

    // PUT by slug: idempotent; 409 upsert_branch_changed is retried by the policy.
    upsertWorkbookBySlug: (slug, body) => send('PUT', paths.workbookBySlug(deploymentId, slug), Workbook, body),

    // A PUT: repeating it is harmless. Only the slug is sent (here `meta` would replace, not merge).
    adoptWorkbook: (workbookId, slug) =>
      nothing(send('PUT', paths.workbook(deploymentId, workbookId), z.unknown(), { slug })),

    // Always carries its publicId, so a repeat cannot create a second report:
    // at worst it meets 409 "already used", which the executor resolves by reading back.
    createReport: (body) => send('POST', paths.reports(deploymentId), Report, body, true),

    updateReport: (reportId, body) => send('PUT', paths.report(deploymentId, reportId), Report, body),

    readReport: (reportId) => send('GET', paths.report(deploymentId, reportId), Report),
    readWorkbook: (workbookId) => send('GET', paths.workbook(deploymentId, workbookId), Workbook),

    findReportsByPublicId: async (publicId) => {
      const all = await client.listAll(paths.reports(deploymentId), Report, REPORT_ORDER, label);
      return all.filter((r) => r.publicId === publicId);
    },

    // The body needs workbookId even though the path has it (the API requires both).
    // Publishing is idempotent per workbook (the guide), so a repeat is harmless.
    publishWorkbook: (workbookId, body) =>
      send('POST', paths.publish(deploymentId, workbookId), z.unknown(), { ...body, workbookId }, true),

    // No idempotency key: after an unknown outcome a repeat could create a
    // second attribute or fail on the first, so it is not retried then.
    createUserAttribute: (body) => send('POST', paths.userAttributes(), UserAttribute, body),

    updateUserAttribute: (id, body) => send('PUT', paths.userAttribute(id), UserAttribute, body),

    // 200 `{}`. Not repeated after an unknown outcome (a DELETE is retried
    // like any request the policy deems safe): a repeat meets 404, handled by
    // the executor, which reads a 404 of a delete as done.
    deleteReport: (reportId) => nothing(send('DELETE', paths.report(deploymentId, reportId), z.unknown())),
    deleteWorkbook: (workbookId) => nothing(send('DELETE', paths.workbook(deploymentId, workbookId), z.unknown())),
    // Not idempotent, so never repeated after an unknown outcome: the executor
    // re-lists the parent instead (core/execute/folder-create.ts).
    createFolder: (body) =>
      send('POST', paths.folders(deploymentId), Folder, body.parentId === null ? { name: body.name } : body),

    listFolders: (parentId) => listFolders(client, deploymentId, parentId, address),

    // Repeating it after an unknown outcome meets 404: the folder is gone either way.
    deleteFolder: async (id) => {
      try {
        await send('DELETE', paths.folder(deploymentId, id), z.unknown());
      } catch (e) {
        if (!(e instanceof ApiError && e.status === 404)) throw e;
      }
    },
    // The list's `name` filter; compared again here, in case a server ignores the filter.
    findUserAttributeByName: async (name) =>
      (await client.listAll(paths.userAttributes(), UserAttribute, { name }, label)).find((a) => a.name === name),
  };
}
