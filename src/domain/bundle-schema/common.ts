// Pieces shared by the bundle's file schemas: references and free-form data.
import * as z from 'zod';
import { isPlaceholderPublicId, PublicId } from '../wire.js';
import { FolderPathError, parseFolderPath } from '../folder-path.js';

export const PublicIdSchema = PublicId.refine((id) => !isPlaceholderPublicId(id), {
  message: 'has the reserved placeholder shape (six leading zeros) that the API refuses; choose another publicId',
  abort: true,
}).describe('Stable identity of the report: exactly 12 characters of [0-9A-Za-z].');

/** `{ $report: <publicId> }`: the numeric id of a report of the bundle, resolved per deployment. */
export const ReportRefSchema = z
  .strictObject({ $report: PublicIdSchema })
  .describe('Reference to a report of the bundle by publicId; resolved to its numeric id at apply time.');

/** `{ $workbook: <slug> }`: the numeric id of a workbook of the bundle. */
export const WorkbookRefSchema = z
  .strictObject({ $workbook: z.string().regex(/\S/, 'must not be empty') })
  .describe('Reference to a workbook of the bundle by slug; resolved to its numeric id at apply time.');

/** `folder: A/B`: a folder by its path of names from the root (`/` is the root). */
export const FolderPathSchema = z
  .string()
  .superRefine((text, ctx) => {
    try {
      parseFolderPath(text);
    } catch (e) {
      if (!(e instanceof FolderPathError)) throw e;
      ctx.addIssue({ code: 'custom', message: `folder path ${e.message}` });
    }
  })
  .describe(
    'The folder by its path of names from the root, `/`-separated (`\\/` ' +
      'is a slash inside a name, `\\\\` a backslash); `/` is the root. ' +
      'Missing folders are created. Not with `folderId`.',
  );

/** Free-form object (meta, widget config, ...). May hold references anywhere. */
export const FreeForm = z.record(z.string(), z.unknown());

/** The keys of the kinds of bundle documents. */
export const KINDS = ['Workbook', 'Report', 'UserAttribute'] as const;
export type Kind = (typeof KINDS)[number];
