// The executor's port over HTTP. Each call states whether repeating it is
// harmless, which the retry loop needs for POSTs (PUTs are by definition).
// `labelled` gives the same port with every request named by the resource
// address it is for, in --verbose lines and wait notices.
import * as z from 'zod';
import type { ApiPort } from '../core/model.js';
import { ApiError } from '../errors.js';
import type { ApiClient } from './client.js';
import { listFolders } from './folders.js';
import { REPORT_ORDER } from './live.js';
import { Folder, paths, Report, UserAttribute, Workbook } from '../domain/wire.js';

export function httpPort(client: ApiClient, deploymentId: number, address?: string): ApiPort {
  const label = address === undefined ? {} : { label: address };
  return {
    labelled: (to) => httpPort(client, deploymentId, to),

    // PUT by slug: idempotent; 409 upsert_branch_changed is retried by the policy.
    upsertWorkbookBySlug: (slug, body) => {
      const path = paths.workbookBySlug(deploymentId, slug);
      return client.request({ method: 'PUT', path, body, schema: Workbook, ...label });
    },

    // A PUT: repeating it is harmless. Only the slug is sent (here `meta` would replace, not merge).
    adoptWorkbook: async (workbookId, slug) => {
      const path = paths.workbook(deploymentId, workbookId);
      await client.request({ method: 'PUT', path, body: { slug }, schema: z.unknown(), ...label });
    },

    // Always carries its publicId, so a repeat cannot create a second report:
    // at worst it meets 409 "already used", which the executor resolves by reading back.
    createReport: (body) =>
      client.request({
        method: 'POST',
        path: paths.reports(deploymentId),
        body,
        schema: Report,
        safeToRetryPost: true,
        ...label,
      }),

    updateReport: (reportId, body) =>
      client.request({ method: 'PUT', path: paths.report(deploymentId, reportId), body, schema: Report, ...label }),

    findReportsByPublicId: async (publicId) => {
      const all = await client.listAll(paths.reports(deploymentId), Report, REPORT_ORDER, label);
      return all.filter((r) => r.publicId === publicId);
    },

    // The body needs workbookId even though the path has it (the API requires both).
    // Publishing is idempotent per workbook (the guide), so a repeat is harmless.
    publishWorkbook: (workbookId, body) =>
      client.request({
        method: 'POST',
        path: paths.publish(deploymentId, workbookId),
        body: { ...body, workbookId },
        schema: z.unknown(),
        safeToRetryPost: true,
        ...label,
      }),

    // No idempotency key: after an unknown outcome a repeat could create a
    // second attribute or fail on the first, so it is not retried then.
    createUserAttribute: (body) =>
      client.request({ method: 'POST', path: paths.userAttributes(), body, schema: UserAttribute, ...label }),

    updateUserAttribute: (id, body) =>
      client.request({ method: 'PUT', path: paths.userAttribute(id), body, schema: UserAttribute, ...label }),

    // 200 `{}`. Not repeated after an unknown outcome (a DELETE is retried
    // like any request the policy deems safe): a repeat meets 404, handled by
    // the executor, which reads a 404 of a delete as done.
    deleteReport: async (reportId) => {
      const path = paths.report(deploymentId, reportId);
      await client.request({ method: 'DELETE', path, schema: z.unknown(), ...label });
    },
    deleteWorkbook: async (workbookId) => {
      const path = paths.workbook(deploymentId, workbookId);
      await client.request({ method: 'DELETE', path, schema: z.unknown(), ...label });
    },
    // Not idempotent, so never repeated after an unknown outcome: the executor
    // re-lists the parent instead (core/execute/folder-create.ts).
    createFolder: (body) =>
      client.request({
        method: 'POST',
        path: paths.folders(deploymentId),
        body: body.parentId === null ? { name: body.name } : body,
        schema: Folder,
        ...label,
      }),

    listFolders: (parentId) => listFolders(client, deploymentId, parentId, address),

    // Repeating it after an unknown outcome meets 404: the folder is gone either way.
    deleteFolder: async (id) => {
      try {
        const path = paths.folder(deploymentId, id);
        await client.request({ method: 'DELETE', path, schema: z.unknown(), ...label });
      } catch (e) {
        if (!(e instanceof ApiError && e.status === 404)) throw e;
      }
    },
    // The list's `name` filter; compared again here, in case a server ignores the filter.
    findUserAttributeByName: async (name) =>
      (await client.listAll(paths.userAttributes(), UserAttribute, { name }, label)).find((a) => a.name === name),
  };
}
