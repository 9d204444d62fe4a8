// The shapes export works with: its source and sink (ports: core/export does
// no I/O), its options, and the summary it returns.
import type { Folder, Report, UserAttribute, Workbook } from '../../domain/wire.js';
import type { PublicIdMode } from '../model.js';
import type { Doc } from './docs.js';

export type DocKind = 'workbook' | 'report' | 'user-attribute';

export interface ExportSource {
  /** Asked for twice: each call reads the workbooks anew. */
  workbooks(): AsyncIterable<Workbook[]>;
  reports(): AsyncIterable<Report[]>;
  userAttributes(): AsyncIterable<UserAttribute[]>;
  /** The folder tree, read when an item's own `folderPath` does not name its folder. */
  folders?(): Promise<Folder[]>;
}

/** Where documents go. Paths are relative to the bundle root, `/`-separated, made of safe names only. */
export interface ExportSink {
  writeDoc(kind: DocKind, rel: string, doc: Doc): Promise<void>;
  readDoc(rel: string): Promise<Doc>;
  rename(fromRel: string, toRel: string): Promise<void>;
}

export interface ExportOptions {
  deploymentId: number;
  /** `--workbook` slugs; empty = everything. */
  workbooks: readonly string[];
  /** How the environment read maps publicIds (per-deployment ids cannot be inverted). */
  publicIds: PublicIdMode;
}

export interface ExportWarning {
  code:
    | 'dangling-workbook'
    | 'dangling-report'
    | 'dangling-folder'
    | 'field-dropped'
    | 'per-deployment-ids'
    | 'user-attributes-unreadable'
    | 'report-id-kept'
    | 'resource-skipped'
    | 'publish-differs'
    | 'widget-named';
  /** The file concerned, relative to the bundle root. */
  file?: string;
  message: string;
}

export interface Adoption {
  file: string;
  publicId: string;
  reportId: number;
  /** Why the live publicId was not kept: none at all, the placeholder shape, or one several reports share. */
  reason: 'none' | 'placeholder' | 'shared';
  /** Absent for a report that has no publicId. */
  livePublicId?: string;
}

export interface DerivedSlug {
  file: string;
  slug: string;
  workbookId: number;
  name: string;
  /** Exported reports that reference this workbook (and would move to the new one on apply). */
  reports: number;
  /** The live slug this one replaces (a bundle cannot hold it); absent for a workbook that had none. */
  unsafeSlug?: string;
}

export interface ExportSummary {
  deploymentId: number;
  files: { workbooks: number; reports: number; userAttributes: number };
  adoptions: Adoption[];
  derivedSlugs: DerivedSlug[];
  /** Files of workbooks written with `publish: true` (published, and the published dashboard is the draft). */
  published: string[];
  warnings: ExportWarning[];
  /** Every file written (relative paths, sorted). */
  written: string[];
}

export const DIRS: Record<DocKind, string> = {
  workbook: 'workbooks',
  report: 'reports',
  'user-attribute': 'user-attributes',
};
