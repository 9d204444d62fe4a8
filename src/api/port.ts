// The executor's port over HTTP. Each call states whether repeating it is
// harmless, which the retry loop needs for POSTs (PUTs are by definition).
import { z } from 'zod';
import type { ApiPort } from '../core/model.js';
import type { ApiClient } from './client.js';
import { listFromBothEnds } from './read-both-ends.js';
import { paths, Report, UserAttribute, Workbook } from './wire.js';

export function httpPort(client: ApiClient, deploymentId: number): ApiPort {
  return {
    // PUT by slug: idempotent; 409 upsert_branch_changed is retried by the policy.
    upsertWorkbookBySlug: (slug, body) =>
      client.request({ method: 'PUT', path: paths.workbookBySlug(deploymentId, slug), body, schema: Workbook }),

    // Always carries its publicId, so a repeat cannot create a second report:
    // at worst it meets 409 "already used", which the executor resolves by reading back.
    createReport: (body) =>
      client.request({ method: 'POST', path: paths.reports(deploymentId), body, schema: Report, safeToRetryPost: true }),

    updateReport: (reportId, body) =>
      client.request({ method: 'PUT', path: paths.report(deploymentId, reportId), body, schema: Report }),

    findReportsByPublicId: async (publicId) =>
      (await listFromBothEnds(client, paths.reports(deploymentId), Report, { sortBy: 'createdAt' })).filter((r) => r.publicId === publicId),

    // The body needs workbookId even though the path has it (facts §2.3).
    // Publishing is idempotent per workbook (the guide), so a repeat is harmless.
    publishWorkbook: (workbookId, body) =>
      client.request({
        method: 'POST',
        path: paths.publish(deploymentId, workbookId),
        body: { ...body, workbookId },
        schema: z.unknown(),
        safeToRetryPost: true,
      }),

    // No idempotency key: after an unknown outcome a repeat could create a
    // second attribute or fail on the first, so it is not retried then.
    createUserAttribute: (body) =>
      client.request({ method: 'POST', path: paths.userAttributes(), body, schema: UserAttribute }),

    updateUserAttribute: (id, body) =>
      client.request({ method: 'PUT', path: paths.userAttribute(id), body, schema: UserAttribute }),

    // The list's `name` filter; compared again here, in case a server ignores the filter.
    findUserAttributeByName: async (name) =>
      (await client.listAll(paths.userAttributes(), UserAttribute, { name })).find((a) => a.name === name),
  };
}
