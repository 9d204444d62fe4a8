import * as z from 'zod';
import { FolderPathSchema } from './common.js';
import { DashboardDraftSchema } from './dashboard.js';
import { AdoptSchema } from './report.js';

/** A workbook is adopted by its id alone: its identity, the slug, is the file's. */
const WorkbookAdoptSchema = AdoptSchema.omit({ publicId: true });

/** Workbook `meta`: free-form, but `dashboardDraft` is validated as a dashboard. */
const WorkbookMetaSchema = z
  .looseObject({ dashboardDraft: DashboardDraftSchema.nullish() })
  .describe('Free-form metadata, merged by the server per top-level key; `dashboardDraft` holds the dashboard.');

export const WorkbookSchema = z
  .strictObject({
    kind: z.literal('Workbook'),
    slug: z
      .string()
      .regex(/\S/, 'must not be empty')
      .describe('Identity of the workbook in every deployment; trimmed and lowercased as the server does.'),
    name: z.string().nullish(),
    folderId: z.int().nullish(),
    folder: FolderPathSchema.optional(),
    meta: WorkbookMetaSchema.optional(),
    publish: z.boolean().default(false).describe('Publish the draft dashboard after apply.'),
    adopt: WorkbookAdoptSchema.optional().describe(
      'Give the existing workbook `id` of deployment `deploymentId` (one made in the UI, without a slug) ' +
        'this slug instead of creating a workbook there.',
    ),
  })
  .describe('A workbook (wsc bundle document).');
