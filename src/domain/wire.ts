// Wire types of the Workspace Content API (its published description, of which
// contract/ holds an excerpt, with the gaps filled from the API's observed
// behaviour). These are the only types
// the emulator shares with the client: responses are parsed with them by the
// client, produced (and checked in tests) by the emulator.
//
// Response schemas are loose objects: a real server may add fields and wsc
// must not break on them (nor drop them, they feed content hashes). Input
// schemas are what a server validates; the emulator uses them as its
// validation rules, so they are ordinary (non-strict) objects as a lenient
// server would be, except where the specification states a constraint.
import * as z from 'zod';

// ---------------------------------------------------------------------------
// Shared pieces

export const PUBLIC_ID_RE = /^[0-9A-Za-z]{12}$/;
export const PublicId = z.string().regex(PUBLIC_ID_RE, 'must be exactly 12 characters of [0-9A-Za-z]');
/**
 * The reserved, non-unique placeholder shape the API shows for reports with
 * no stable publicId. The real shape is not documented anywhere; the
 * emulator synthesises placeholders in this shape (six leading zeros), wsc
 * never derives or mints an id of this shape, and export also treats any
 * publicId shared by several reports as unstable, whatever its shape.
 */
export const PLACEHOLDER_PUBLIC_ID_RE = /^000000[0-9A-Za-z]{6}$/;
export function isPlaceholderPublicId(id: string): boolean {
  return PLACEHOLDER_PUBLIC_ID_RE.test(id);
}

const ResourceType = z.enum(['FOLDER', 'WORKBOOK', 'REPORT']);
/**
 * A report's `source`: the specification's values plus GOOGLE_SHEETS, the
 * vendor's own name of the sheets source (its published description has
 * no HOSTED_SHEETS). Both are accepted in a bundle and sent as written; an
 * answer may carry either.
 */
export const ReportSource = z.enum(['HOSTED_SHEETS', 'GOOGLE_SHEETS', 'EXCEL', 'PLAYGROUND', 'D3']);
export type ReportSource = z.infer<typeof ReportSource>;

/** A `source` under one name per source, for comparing (GOOGLE_SHEETS and HOSTED_SHEETS are the same source). */
export function sameSourceName<T>(source: T): T | 'HOSTED_SHEETS' {
  return source === 'GOOGLE_SHEETS' ? 'HOSTED_SHEETS' : source;
}

const ResourceOwner = z.looseObject({
  id: z.int(),
  email: z.string(),
  firstName: z.string().nullish(),
  picture: z.string().nullish(),
});

const FolderPathEntry = z.looseObject({ id: z.int(), name: z.string() });

export const PageInfo = z.looseObject({
  hasNextPage: z.boolean(),
  hasPreviousPage: z.boolean(),
  startCursor: z.string().nullish(),
  endCursor: z.string().nullish(),
});
export type PageInfo = z.infer<typeof PageInfo>;

/** The display members of the description's PivotItems, beside the four arrays. */
export const PIVOT_DISPLAY = {
  displayScale: z.enum(['model', 'absolute', 'thousands', 'millions', 'billions']).nullish(),
  measuresAxis: z.enum(['columns', 'rows']).nullish(),
  measuresPosition: z.enum(['before', 'after']).nullish(),
  showAppliedFilters: z.boolean().nullish(),
  showColumnTotals: z.boolean().nullish(),
  showRowTotals: z.boolean().nullish(),
};

const PivotItems = z.looseObject({
  columns: z.array(z.string()),
  filters: z.array(z.string()),
  measures: z.array(z.string()),
  rows: z.array(z.string()),
  ...PIVOT_DISPLAY,
});

/** Error bodies: NestJS-style `{ statusCode, message, error?, code? }`. */
export const ErrorBody = z.looseObject({
  statusCode: z.int().optional(),
  message: z.union([z.string(), z.array(z.unknown()), z.record(z.string(), z.unknown())]).optional(),
  error: z.string().optional(),
  code: z.string().optional(),
});
export type ErrorBody = z.infer<typeof ErrorBody>;

/** `code` values of 409 answers. */
export const API_CODES = {
  upsertBranchChanged: 'upsert_branch_changed',
  ambiguousLegacyId: 'ambiguous_legacy_id',
} as const;

// How answers classify, for the retry policy (api/retry.ts) and for saying
// whether re-running an apply that failed can converge (render/).
/** Statuses that mean "not now": the same request may succeed later. */
export const THROTTLE_STATUSES: readonly number[] = Object.freeze([429, 502, 503, 504]);
/** Statuses whose outcome is unknown: the server may have acted. */
export const UNKNOWN_OUTCOME_STATUSES: readonly number[] = Object.freeze([500]);
/** 409 `code`s that clear by themselves. */
export const TRANSIENT_CONFLICT_CODES: readonly string[] = Object.freeze([API_CODES.upsertBranchChanged]);

// ---------------------------------------------------------------------------
// Dashboards

export const WidgetType = z.enum([
  'CHART',
  'TEXT',
  'FILTER',
  'AI',
  'TIME_GRAIN',
  'FIELD',
  'PARENT',
  'SPACER',
  'DIVIDER',
  'CONTAINER',
]);
export const Position = z.object({ x: z.int(), y: z.int(), w: z.int(), h: z.int() });
export const Breakpoints = z.object({
  lg: z.int().nullish(),
  md: z.int().nullish(),
  sm: z.int().nullish(),
  xs: z.int().nullish(),
  xxs: z.int().nullish(),
});
export const ResponsiveLayouts = z.object({
  lg: Position.nullish(),
  md: Position.nullish(),
  sm: Position.nullish(),
  xs: Position.nullish(),
  xxs: Position.nullish(),
});
export const DashboardLayout = z.object({
  breakpoints: Breakpoints.nullish(),
  cols: Breakpoints.nullish(),
  containerPadding: z.array(z.int()).nullish(),
  margin: z.array(z.int()).nullish(),
  rowHeight: z.int().nullish(),
});
export const DashboardAppSource = z.object({
  entry: z.string().max(255).nullish(),
  files: z.record(z.string(), z.string()).nullish(),
  html: z.string().nullish(),
  manifest: z
    .object({
      dependencies: z.record(z.string(), z.string()).nullish(),
      version: z.int().nullish(),
    })
    .nullish(),
});
const FreeForm = z.record(z.string(), z.unknown());

/** A widget as the draft input accepts it: `id` optional (the server assigns one). */
const DashboardWidgetDraftInput = z.object({
  id: z.string().max(128).nullish(),
  type: WidgetType,
  position: Position,
  responsiveLayouts: ResponsiveLayouts.nullish(),
  config: FreeForm.nullish(),
  style: FreeForm.nullish(),
});
const DashboardWidget = DashboardWidgetDraftInput.extend({ id: z.string() });

export const DashboardKind = z.enum(['CLASSIC', 'APP']);

/** `meta.dashboardDraft` as the server validates it on every workbook write. */
export const DashboardConfigDraftInput = z.object({
  kind: DashboardKind.nullish(),
  title: z.string().nullish(),
  description: z.string().nullish(),
  app: DashboardAppSource.nullish(),
  layout: DashboardLayout.nullish(),
  settings: FreeForm.nullish(),
  theme: FreeForm.nullish(),
  widgets: z.array(DashboardWidgetDraftInput).nullish(),
});
export const DashboardConfig = DashboardConfigDraftInput.extend({ widgets: z.array(DashboardWidget).nullish() });
export type DashboardConfig = z.infer<typeof DashboardConfig>;

const ReportSnapshot = z.looseObject({
  id: z.int(),
  reportId: z.int(),
  versionNumber: z.int(),
});

export const Dashboard = z.looseObject({
  id: z.int(),
  publicId: z.string(),
  deploymentId: z.int(),
  workbookId: z.int(),
  status: z.enum(['draft', 'published', 'archived']),
  allowEmbed: z.boolean(),
  config: FreeForm,
  versionNumber: z.int(),
  versionId: z.int(),
  reportSnapshots: z.array(ReportSnapshot),
  title: z.string().nullish(),
  description: z.string().nullish(),
});
export type Dashboard = z.infer<typeof Dashboard>;

export const PublishDashboardInput = z.object({
  workbookId: z.int(),
  config: DashboardConfig.nullish(),
  dashboardId: z.int().nullish(),
  title: z.string().nullish(),
  description: z.string().nullish(),
  allowEmbed: z.boolean().nullish(),
});
export type PublishDashboardInput = z.infer<typeof PublishDashboardInput>;

// ---------------------------------------------------------------------------
// Workbooks

export const Workbook = z.looseObject({
  id: z.int(),
  deploymentId: z.int(),
  name: z.string(),
  meta: FreeForm,
  calculatedFields: FreeForm,
  createdAt: z.string(),
  updatedAt: z.string(),
  type: ResourceType,
  slug: z.string().nullish(),
  folderId: z.number().nullish(),
  folderPath: z.array(FolderPathEntry).optional(),
  createdBy: z.int().optional(),
  userId: z.number().nullish(),
  user: ResourceOwner.nullish(),
  isFavorite: z.boolean().nullish(),
  // As sent, like meta: a member or widget type this version of wsc does not know must not be lost on reading.
  dashboardDraft: FreeForm.nullish(),
  dashboardPublished: FreeForm.nullish(),
  publishedDashboard: Dashboard.nullish(),
});
export type Workbook = z.infer<typeof Workbook>;

/** Body of POST /workbooks and PUT /workbooks/by-slug/{slug}. */
export const WorkbookInput = z.object({
  name: z.string().nullish(),
  folderId: z.number().nullish(),
  meta: FreeForm.nullish(),
});
export type WorkbookInput = z.infer<typeof WorkbookInput>;

// ---------------------------------------------------------------------------
// Reports

/** A report as the description gives it, every member: the emulator's answers are held to it (its tests). */
export const ReportDescribed = z.looseObject({
  id: z.int(),
  deploymentId: z.int(),
  // Optional in the description: a report made before stable ids, or in the UI, may have none yet.
  publicId: PublicId.nullish(),
  name: z.string(),
  title: z.string().nullish(),
  description: z.string().nullish(),
  type: ResourceType,
  source: ReportSource.nullish(),
  createdAt: z.string(),
  updatedAt: z.string(),
  createdBy: z.int().optional(),
  userId: z.int(),
  user: ResourceOwner,
  refreshedBy: z.int().nullish(),
  refreshedByUser: ResourceOwner,
  canEdit: z.boolean().nullish(),
  canManage: z.boolean().nullish(),
  folderId: z.int().nullish(),
  folderPath: z.array(FolderPathEntry).optional(),
  workbookId: z.int().nullish(),
  version: z.int().nullish(),
  sqlQuery: z.string().nullish(),
  jsonQuery: z.string().nullish(),
  meta: FreeForm.nullish(),
  pivotItems: PivotItems.nullish(),
  endResultCell: z.string().nullish(),
  resultLocation: z.string().nullish(),
  externalWorkbookId: z.string().nullish(),
  externalWorkbookPlacements: z.array(z.record(z.string(), z.unknown())).nullish(),
  rolesWithAccess: z.array(z.record(z.string(), z.unknown())).nullish(),
});

/**
 * A report as wsc reads it: every member plan, apply and export use, checked; the owners, the permissions and
 * the access lists (which none of them reads) passed through unchecked. A list of 10,000 reports is checked on
 * the main thread while the deployment is read: those nested members were some two thirds of that check's time
 * (docs/performance.md), and an item wrong only in them is no reason to call it unreadable.
 */
export const Report = ReportDescribed.omit({
  user: true,
  refreshedByUser: true,
  userId: true,
  createdBy: true,
  refreshedBy: true,
  canEdit: true,
  canManage: true,
  rolesWithAccess: true,
  externalWorkbookPlacements: true,
});
export type Report = z.infer<typeof Report>;

/** Report input shared by create and update (specification table). */
export const ReportInput = z.object({
  name: z.string().max(255).nullish(),
  title: z.string().max(255).nullish(),
  folderId: z.int().nullish(),
  workbookId: z.int().nullish(),
  sqlQuery: z.string().nullish(),
  jsonQuery: z.string().nullish(),
  meta: FreeForm.nullish(),
  pivotItems: PivotItems.nullish(),
  publicId: PublicId.nullish(),
  endResultCell: z.string().nullish(),
  resultLocation: z.string().nullish(),
  externalWorkbookId: z.string().nullish(),
});
export type ReportInput = z.infer<typeof ReportInput>;
/** The create body adds `source` (create-only; ignored on update). */
export const CreateReportInput = ReportInput.extend({ source: ReportSource.nullish() });
export type CreateReportInput = z.infer<typeof CreateReportInput>;

/** Fields of the report input, in a stable order (planner, renderers, export). */
export const REPORT_INPUT_FIELDS = [
  'name',
  'title',
  'workbookId',
  'folderId',
  'sqlQuery',
  'jsonQuery',
  'pivotItems',
  'meta',
  'endResultCell',
  'resultLocation',
  'externalWorkbookId',
] as const;
export type ReportInputField = (typeof REPORT_INPUT_FIELDS)[number];

/** Body of PUT /workbooks/{workbookId}: `meta` here replaces, and `slug` gives a workbook its slug. */
export const UpdateWorkbookInput = WorkbookInput.extend({
  slug: z.string().nullish(),
  slugTakeover: z.boolean().nullish(),
});

// ---------------------------------------------------------------------------
// Folders: one level per list call; create needs edit on the parent.

export const Folder = z.looseObject({
  id: z.int(),
  name: z.string(),
  position: z.int().nullish(),
  deploymentId: z.int(),
  createdAt: z.string(),
  updatedAt: z.string(),
  type: ResourceType,
  parentId: z.int().nullish(),
  folderPath: z.array(FolderPathEntry).optional(),
  createdBy: z.int().nullish(),
  updatedBy: z.int().nullish(),
  user: ResourceOwner.nullish(),
});
export type Folder = z.infer<typeof Folder>;

export const CreateFolderInput = z.object({
  name: z.string().min(1).max(255),
  parentId: z.int().nullish(),
  position: z.int().nullish(),
});

// ---------------------------------------------------------------------------
// User attributes (account-level, no deploymentId)

export const UserAttributeType = z.enum(['string', 'number', 'boolean', 'string_array', 'number_array']);
export const UserAttributeUpdateInput = z.object({
  displayName: z.string().nullish(),
  description: z.string().nullish(),
  defaultValue: z.string().nullish(),
});
export type UserAttributeUpdateInput = z.infer<typeof UserAttributeUpdateInput>;
export const UserAttribute = z.looseObject({
  id: z.int(),
  name: z.string(),
  type: z.string(),
  ...UserAttributeUpdateInput.shape,
});
export type UserAttribute = z.infer<typeof UserAttribute>;
export const UserAttributeCreateInput = z.object({
  name: z.string().min(1),
  type: UserAttributeType,
  ...UserAttributeUpdateInput.shape,
});
export const USER_ATTRIBUTE_INPUT_FIELDS = ['displayName', 'description', 'defaultValue'] as const;

// ---------------------------------------------------------------------------
// Lists

function listOf<T extends z.ZodType>(item: T) {
  return z.looseObject({
    items: z.array(item),
    data: z.array(item).optional(),
    count: z.int().min(0).nullish(),
    pageInfo: PageInfo.nullish(),
  });
}
export const ReportsList = listOf(ReportDescribed);
export const WorkbooksList = listOf(Workbook);
export const UserAttributesList = listOf(UserAttribute);
export const FoldersList = listOf(Folder);

/** Sort parameters of GET /reports. */
export const ReportsSortBy = z.enum(['name', 'createdAt', 'updatedAt', 'lastViewedAt']);
export const SortDirection = z.enum(['ASC', 'DESC']);

// ---------------------------------------------------------------------------
// Paths, relative to the host. The client prefixes nothing else.

export const API_PREFIX = '/api/v1';
/** The API version this wsc and its emulator were built for (the API's last changelog entry they know). */
export const KNOWN_API_VERSION = '0.19.1';
export const paths = {
  reports: (dep: number) => `${API_PREFIX}/deployments/${dep}/reports`,
  report: (dep: number, id: number) => `${API_PREFIX}/deployments/${dep}/reports/${id}`,
  reportByPublicId: (dep: number, publicId: string) =>
    `${API_PREFIX}/deployments/${dep}/reports/by-public-id/${encodeURIComponent(publicId)}`,
  workbooks: (dep: number) => `${API_PREFIX}/deployments/${dep}/workbooks`,
  workbook: (dep: number, id: number) => `${API_PREFIX}/deployments/${dep}/workbooks/${id}`,
  spec: () => `${API_PREFIX}/spec`,
  workbookBySlug: (dep: number, slug: string) =>
    `${API_PREFIX}/deployments/${dep}/workbooks/by-slug/${encodeURIComponent(slug)}`,
  publish: (dep: number, id: number) => `${API_PREFIX}/deployments/${dep}/workbooks/${id}/publish`,
  folders: (dep: number) => `${API_PREFIX}/deployments/${dep}/folders`,
  folder: (dep: number, id: number) => `${API_PREFIX}/deployments/${dep}/folders/${id}`,
  folderAncestors: (dep: number, id: number) => `${API_PREFIX}/deployments/${dep}/folders/${id}/ancestors`,
  userAttributes: () => `${API_PREFIX}/user-attributes`,
  userAttribute: (id: number) => `${API_PREFIX}/user-attributes/${id}`,
} as const;

/** The server normalises slugs this way before matching (spec, endpoint 2). */
export function normalizeSlug(slug: string): string {
  return slug.trim().toLowerCase();
}
