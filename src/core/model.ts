// The data that flows through wsc: what the bundle wants (DesiredState), what
// the deployment has (LiveState), and the plan between them. Plain data only:
// a plan can be printed, saved to a file, and applied later.
import type { SourcePos } from '../errors.js';
import type {
  CreateReportInput,
  PublishDashboardInput,
  Report,
  ReportInputField,
  ReportSource,
  UserAttribute,
  UserAttributeUpdateInput,
  Workbook,
  WorkbookInput,
} from '../api/wire.js';
import type { DashboardDiff } from './plan/dashboard-diff.js';

export type JsonValue = null | boolean | number | string | JsonValue[] | { [k: string]: JsonValue };

// ---------------------------------------------------------------------------
// References: `{ $report: <bundle publicId> }`, `{ $workbook: <slug> }` stand
// wherever a numeric id goes. In a plan, a reference that could not be
// resolved yet (its target is created by the same apply) stays in this form
// and renders as `(known after apply)`.

export type ReportRef = { $report: string };
export type WorkbookRef = { $workbook: string };
export type Ref = ReportRef | WorkbookRef;

export function isRef(v: unknown): v is Ref {
  if (v === null || typeof v !== 'object' || Array.isArray(v)) return false;
  // Asked of every object the planner walks: stop at the second own member, make no key array.
  let key: string | undefined;
  for (const k in v) {
    if (!Object.hasOwn(v, k)) continue;
    if (key !== undefined) return false;
    key = k;
  }
  return (key === '$report' || key === '$workbook') && typeof (v as Record<string, unknown>)[key] === 'string';
}

// ---------------------------------------------------------------------------
// Desired state: the bundle after loading, variable interpolation and
// validation. Identities are normalised (slug trimmed + lowercased). Values
// may hold references. Only the fields present in a file appear in `fields`
// (partial ownership: an absent field is never compared nor sent).

export type PublicIdMode = 'as-is' | 'per-deployment';

export interface DesiredWorkbook {
  address: string; // `workbook/<slug>`
  slug: string;
  fields: {
    name?: string;
    folderId?: number | null;
    /** Free-form; `meta.dashboardDraft` holds the dashboard (validated). Compared per top-level key. */
    meta?: { [k: string]: JsonValue };
  };
  /** Publish the draft after apply. */
  publish: boolean;
  pos: SourcePos;
}

export interface DesiredReport {
  address: string; // `report/<publicId as written in the bundle>`
  /** The publicId as written in the bundle; the live one may be derived (PublicIdMode). */
  publicId: string;
  /** Report input fields present in the file. `jsonQuery` is already a JSON string; `workbookId` may be a WorkbookRef. */
  fields: Partial<Record<ReportInputField, JsonValue>>;
  /** Create-only. */
  source?: ReportSource;
  /** Give an existing (UI-made) report this publicId in that deployment instead of creating one. */
  adopt?: { deploymentId: number; id: number };
  pos: SourcePos;
}

export interface DesiredUserAttribute {
  address: string; // `user-attribute/<name>`
  name: string;
  /** When given, the attribute is addressed by id rather than found by name. */
  id?: number;
  /** Create-only (POST needs it); defaults to `string`. */
  type?: 'string' | 'number' | 'boolean' | 'string_array' | 'number_array';
  fields: Partial<Record<'displayName' | 'description' | 'defaultValue', string>>;
  pos: SourcePos;
}

export interface DesiredState {
  workbooks: DesiredWorkbook[];
  reports: DesiredReport[];
  userAttributes: DesiredUserAttribute[];
}

// ---------------------------------------------------------------------------
// Live state: what the list endpoints returned, unchanged.

export interface LiveState {
  reports: Report[];
  workbooks: Workbook[];
  userAttributes: UserAttribute[];
}

// ---------------------------------------------------------------------------
// The plan.

export interface PlanContext {
  environment: string;
  deploymentId: number;
  publicIds: PublicIdMode;
  /** `--target` addresses; empty = everything. */
  targets: string[];
  /**
   * false: `fingerprints` is left empty. Only a saved plan uses them (apply
   * checks them for drift), and hashing every live object read is about a
   * third of planning a large deployment. Default true.
   */
  fingerprints?: boolean;
}

export type ActionKind = 'create' | 'update' | 'adopt' | 'publish' | 'noop';
export type ResourceKind = 'workbook' | 'report' | 'user-attribute';

/**
 * One field-level change. `path` is dotted from the resource root
 * (`name`, `meta.dashboardDraft`, `jsonQuery`). `before` is omitted when the
 * live object has no such field (or the resource does not exist yet);
 * `after` may contain unresolved references (known after apply).
 */
export interface FieldChange {
  path: string;
  before?: JsonValue;
  after?: JsonValue;
  /** A dashboard draft's change by widget and member (absent when its widgets cannot be matched by id). */
  dashboard?: DashboardDiff;
}

/**
 * What one request does, independent of ids not known yet. The executor turns
 * it into method + path + body once the references it holds are resolved.
 */
export type Operation =
  | { op: 'upsertWorkbook'; slug: string; body: WorkbookInput | { [k: string]: JsonValue } }
  | { op: 'createReport'; body: CreateReportInput | { [k: string]: JsonValue } }
  | { op: 'updateReport'; reportId: number; body: { [k: string]: JsonValue } }
  | { op: 'publishWorkbook'; workbook: number | WorkbookRef; body: Omit<PublishDashboardInput, 'workbookId'> }
  | { op: 'createUserAttribute'; body: { name: string; type: string } & UserAttributeUpdateInput }
  | { op: 'updateUserAttribute'; id: number; body: UserAttributeUpdateInput };

export interface PlannedRequest {
  /** Unique within the plan, e.g. `report/revqZ1x8Kp0a#create`. */
  id: string;
  address: string;
  /**
   * DESIGN §5: 1 workbooks that reports need, 2 reports, 3 workbooks with
   * their dashboard draft, 4 publish; 0 = independent (user attributes).
   */
  phase: 0 | 1 | 2 | 3 | 4;
  operation: Operation;
  /** Request ids that must succeed first (they produce ids this one needs). */
  dependsOn: string[];
}

export interface ResourceChange {
  address: string;
  kind: ResourceKind;
  /** Actions in order; `['noop']` for an unchanged resource. */
  actions: ActionKind[];
  /** The live numeric id, when the resource exists. */
  liveId?: number;
  /** The live publicId used (may be derived per deployment). Reports only. */
  livePublicId?: string;
  changes: FieldChange[];
  requests: PlannedRequest[];
  /** Where the resource is defined (bundle file), for messages. */
  pos?: SourcePos;
}

/** Identity of a live object as read by plan, checked again by `apply PLANFILE`. */
export interface Fingerprint {
  address: string;
  absent?: true;
  id?: number;
  updatedAt?: string;
  /** sha256 of the canonical JSON of the live object. */
  hash?: string;
  /**
   * How the object is found again: by the address's identity (default), or
   * by `id` (an adopt target, a user attribute named by id in its file).
   */
  by?: 'identity' | 'id';
}

export interface PlanSummary {
  create: number;
  update: number;
  adopt: number;
  publish: number;
  noop: number;
  unmanaged: { workbooks: number; reports: number; userAttributes: number };
}

export interface Plan {
  formatVersion: 1;
  environment: string;
  deploymentId: number;
  publicIds: PublicIdMode;
  changes: ResourceChange[];
  summary: PlanSummary;
  fingerprints: Fingerprint[];
}

export function hasChanges(plan: Plan): boolean {
  return plan.changes.some((c) => c.requests.length > 0);
}

// ---------------------------------------------------------------------------
// The executor's port: the few API calls apply needs. src/api implements it
// over HTTP (with the retry policy); tests may implement it over the emulator.

export interface ApiPort {
  upsertWorkbookBySlug(slug: string, body: WorkbookInput): Promise<Workbook>;
  createReport(body: CreateReportInput): Promise<Report>;
  updateReport(reportId: number, body: Record<string, unknown>): Promise<Report>;
  /** Reads every report and returns those carrying this publicId (for create-outcome checks). */
  findReportsByPublicId(publicId: string): Promise<Report[]>;
  publishWorkbook(workbookId: number, body: PublishDashboardInput): Promise<unknown>;
  createUserAttribute(body: { name: string; type: string } & UserAttributeUpdateInput): Promise<UserAttribute>;
  updateUserAttribute(id: number, body: UserAttributeUpdateInput): Promise<UserAttribute>;
}
