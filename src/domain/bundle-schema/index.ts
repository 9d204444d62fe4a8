import type { z } from 'zod';
import type { Kind } from './common.js';
import { ReportSchema } from './report.js';
import { UserAttributeSchema } from './user-attribute.js';
import { WorkbookSchema } from './workbook.js';

export { KINDS, type Kind } from './common.js';
export { ReportSchema, UserAttributeSchema, WorkbookSchema };

export const SCHEMA_OF_KIND: Record<Kind, z.ZodType> = {
  Workbook: WorkbookSchema,
  Report: ReportSchema,
  UserAttribute: UserAttributeSchema,
};

/**
 * Keys users copy from API responses or expect from the spec, with why they
 * are not bundle keys; the unknown-key diagnostic says so.
 */
export const KEY_NOTES: Record<Kind, Record<string, string>> = {
  Report: {
    description: "a report's description is read-only in the API (the Report input has no `description`)",
    id:
      'the numeric id differs per deployment; wsc finds reports by ' +
      '`publicId` (use `adopt` to take over an existing report)',
    deploymentId: 'choose the deployment with the environment (wsc.yaml, --deployment)',
  },
  Workbook: {
    id: 'the numeric id differs per deployment; wsc finds workbooks by `slug`',
    deploymentId: 'choose the deployment with the environment (wsc.yaml, --deployment)',
    dashboardDraft: 'the draft dashboard goes under `meta.dashboardDraft`',
  },
  UserAttribute: {},
};

/** Fields the server sets; named in the unknown-key diagnostic. */
export const SERVER_OWNED = new Set([
  'createdAt',
  'updatedAt',
  'createdBy',
  'user',
  'userId',
  'canEdit',
  'canManage',
  'folderPath',
  'version',
  'type',
  'refreshedBy',
  'refreshedByUser',
  'rolesWithAccess',
  'calculatedFields',
  'isFavorite',
  'dashboardPublished',
  'publishedDashboard',
  'externalWorkbookPlacements',
]);
