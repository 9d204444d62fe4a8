// The executor's port: the few API calls apply needs. src/api implements it
// over HTTP (with the retry policy); tests may implement it over the emulator.
import type {
  CreateReportInput,
  Folder,
  PublishDashboardInput,
  Report,
  UserAttribute,
  UserAttributeUpdateInput,
  Workbook,
  WorkbookInput,
} from '../domain/wire.js';

export interface ApiPort {
  upsertWorkbookBySlug(slug: string, body: WorkbookInput): Promise<Workbook>;
  /** Gives an existing workbook its slug (PUT /workbooks/{id} with the slug alone). */
  adoptWorkbook(workbookId: number, slug: string): Promise<void>;
  createReport(body: CreateReportInput): Promise<Report>;
  updateReport(reportId: number, body: Record<string, unknown>): Promise<Report>;
  /** GET /reports/{id}: read again just before a write that replaces its `meta`. */
  readReport(reportId: number): Promise<Report>;
  /** GET /workbooks/{id}: read again just before a write of a draft merged with the live one. */
  readWorkbook(workbookId: number): Promise<Workbook>;
  /** Reads every report and returns those carrying this publicId (for create-outcome checks). */
  findReportsByPublicId(publicId: string): Promise<Report[]>;
  publishWorkbook(workbookId: number, body: PublishDashboardInput): Promise<unknown>;
  createUserAttribute(body: { name: string; type: string } & UserAttributeUpdateInput): Promise<UserAttribute>;
  updateUserAttribute(id: number, body: UserAttributeUpdateInput): Promise<UserAttribute>;
  deleteReport(reportId: number): Promise<void>;
  deleteWorkbook(workbookId: number): Promise<void>;
  /** POST /folders: not idempotent; the executor re-lists the parent after it (the race rule). */
  createFolder(body: { name: string; parentId: number | null }): Promise<Folder>;
  /** Every folder directly under `parentId` (null: the root), all pages. */
  listFolders(parentId: number | null): Promise<Folder[]>;
  /** Only ever a folder this apply created and lost a race with (empty). */
  deleteFolder(id: number): Promise<void>;
  /** The user attribute of that name, if any (a create that met 409 reads it back). */
  findUserAttributeByName(name: string): Promise<UserAttribute | undefined>;
  /** The same port, its requests named by this resource address (`workbook/sales`) in --verbose and notices. */
  labelled?(address: string): ApiPort;
}
