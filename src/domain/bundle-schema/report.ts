import * as z from 'zod';
import { PIVOT_DISPLAY, ReportSource } from '../wire.js';
import { FolderPathSchema, FreeForm, PublicIdSchema, WorkbookRefSchema } from './common.js';

/** The API's PivotItems; members this wsc does not know are sent as written (validate names them). */
export const PivotItemsSchema = z.looseObject({
  columns: z.array(z.string()),
  filters: z.array(z.string()),
  measures: z.array(z.string()),
  rows: z.array(z.string()),
  ...PIVOT_DISPLAY,
});

export const AdoptSchema = z
  .strictObject({
    deploymentId: z.int().positive(),
    id: z.int().positive(),
    publicId: PublicIdSchema.optional().describe(
      'The publicId the report has (or gets) in that deployment instead of ' +
        'the one derived from the file: for a report that already has a ' +
        'publicId of its own.',
    ),
  })
  .describe(
    'Give the existing report `id` of deployment `deploymentId` this publicId instead of creating a report there.',
  );

export const ReportSchema = z
  .strictObject({
    kind: z.literal('Report'),
    publicId: PublicIdSchema,
    name: z.string().max(255).nullish(),
    title: z.string().max(255).nullish(),
    source: ReportSource.optional().describe('Create-only.'),
    workbookId: z
      .union([z.int(), WorkbookRefSchema], { error: 'expected a workbook id (integer) or `{ $workbook: <slug> }`' })
      .nullish(),
    folderId: z.int().nullish(),
    folder: FolderPathSchema.optional(),
    sqlQuery: z.string().nullish(),
    jsonQuery: z
      .union([z.string(), FreeForm], { error: 'expected a JSON string or a mapping' })
      .nullish()
      .describe(
        'A JSON string, or a mapping that wsc serialises to JSON. A string that is not JSON is sent as ' +
          'written (validate warns).',
      ),
    pivotItems: PivotItemsSchema.nullish(),
    meta: FreeForm.optional(),
    endResultCell: z.string().nullish(),
    resultLocation: z.string().nullish(),
    externalWorkbookId: z.string().nullish(),
    adopt: AdoptSchema.optional(),
  })
  .describe('A report (wsc bundle document).');
