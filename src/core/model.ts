// The data that flows through wsc: what the bundle wants (DesiredState), what
// the deployment has (LiveState), and the plan between them. Plain data only:
// a plan can be printed, saved to a file, and applied later.
import type { SourcePos } from '../errors.js';
import type {
  CreateReportInput,
  Folder,
  PublishDashboardInput,
  Report,
  ReportInputField,
  ReportSource,
  UserAttribute,
  UserAttributeUpdateInput,
  Workbook,
  WorkbookInput,
} from '../domain/wire.js';
import { isObj } from './plan/compare.js';
import type { DashboardDiff } from './plan/dashboard-diff.js';
import type { DraftParts } from './ownership-draft.js';

export type JsonValue = null | boolean | number | string | JsonValue[] | { [k: string]: JsonValue };

// ---------------------------------------------------------------------------
// References: `{ $report: <bundle publicId> }`, `{ $workbook: <slug> }` stand
// wherever a numeric id goes. In a plan, a reference that could not be
// resolved yet (its target is created by the same apply) stays in this form
// and renders as written (`{ $workbook: sales }`).

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
  /** Give an existing (UI-made, slugless) workbook this slug in that deployment instead of creating one. */
  adopt?: { deploymentId: number; id: number };
  /** `folder:` as names from the root ([] = the root); resolved to `folderId` by the planner. */
  folder?: string[];
  pos: SourcePos;
  /** Where the file refers to something not in the bundle, by reference key: the place an error points at. */
  refPos?: ReadonlyMap<string, SourcePos>;
  /** The line of a value in the file, by path (absent in plans made from data that has no file). */
  locate?: Locate;
}

/**
 * Finds a value of a bundle document by its path, lazily (positions are
 * read only when asked); `text` finds a name's n-th appearance inside a
 * string value (a query written as text). Kept beside the desired state,
 * not in it (bundle/locate.ts), so that the state stays plain data.
 */
export type Locator = (
  path: readonly (string | number)[],
  opts: { atKey?: boolean; text?: { name: string; occurrence: number } },
) => SourcePos;

export interface DesiredReport {
  address: string; // `report/<publicId as written in the bundle>`
  /** The publicId as written in the bundle; the live one may be derived (PublicIdMode). */
  publicId: string;
  /**
   * Report input fields present in the file. `jsonQuery` is already a JSON
   * string; `workbookId` may be a WorkbookRef.
   */
  fields: Partial<Record<ReportInputField, JsonValue>>;
  /** Create-only. */
  source?: ReportSource;
  /**
   * Give an existing (UI-made) report this publicId in that deployment instead of creating one. With
   * `publicId`, the report's live publicId in that deployment is this one (its own, kept or given).
   */
  adopt?: { deploymentId: number; id: number; publicId?: string };
  /** `folder:` as names from the root ([] = the root); resolved to `folderId` by the planner. */
  folder?: string[];
  pos: SourcePos;
  /** Where the file refers to something not in the bundle, by reference key: the place an error points at. */
  refPos?: ReadonlyMap<string, SourcePos>;
  /** The line of a value in the file, by path (absent in plans made from data that has no file). */
  locate?: Locate;
  /** `jsonQuery` as the file writes it when that is a mapping (`fields.jsonQuery` holds its JSON text). */
  jsonQueryMapping?: { [k: string]: JsonValue };
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
  locate?: Locate;
}

/** The line of the value at `path` in a bundle file (its key's line), or undefined when it is not written there. */
export type Locate = (path: readonly (string | number)[]) => number | undefined;

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
  /** Items the server sent that this version of wsc cannot read (left out of the lists above). */
  unreadable?: UnreadableItem[];
  /**
   * Lists that gave fewer items than the `count` they stated (e.g.
   * `reports: 998 of 1000`): something may be missing, so nothing is pruned.
   */
  shortReads?: string[];
  /** The folders read (the branches the bundle names, or the whole tree); absent when none were needed. */
  folders?: Folder[];
}

/** A live item that failed its wire schema: an unknown enum value, a member of an unexpected type... */
export interface UnreadableItem {
  kind: 'workbook' | 'report' | 'user-attribute';
  id?: number;
  /** Its identity as sent, if readable: slug (normalised), publicId or name. */
  identity?: string;
  /** What is wrong, naming the field and the value. */
  why: string;
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
  /** The bundle's name (wsc.yaml `bundle:`): ownership records, UI-edit marks and prune need it. */
  ownership?: OwnershipContext;
  /** List the live resources the bundle does not manage in `Plan.unmanaged` (`--show-unmanaged`). */
  listUnmanaged?: boolean;
}

export interface OwnershipContext {
  bundle: string;
  /** `--prune` or the environment's `prune: true`: plan the deletes. */
  prune: boolean;
  /** `--max-deletes`; default: the larger of 25 and a fifth of the resources recorded for the bundle. */
  maxDeletes?: number;
  /** `--overwrite-ui-edits`: every address (true) or these; a blocked resource so named is planned as a change. */
  overwrite?: true | string[];
  /** `--take-over ADDR`: resources recorded for another bundle that this one takes. */
  takeOver?: string[];
}

export type ActionKind = 'create' | 'update' | 'adopt' | 'publish' | 'noop' | 'record' | 'delete' | 'blocked';
export type ResourceKind = 'workbook' | 'report' | 'user-attribute' | 'folder';

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
  /**
   * A field only a create can set (a report's `source`, a user attribute's
   * `type`) that differs from the live one: no request makes it, and plan and
   * apply refuse a plan holding one.
   */
  createOnly?: true;
  /** The line of the field in the resource's file (`ResourceChange.pos.file`). */
  line?: number;
  /** A dashboard draft's change by widget and member (absent when its widgets cannot be matched by id). */
  dashboard?: DashboardDiff;
  /**
   * The values as the bundle writes them where `before`/`after` hold ids (a workbook id as
   * `{ $workbook: <slug> }`).
   */
  shown?: { before?: JsonValue; after?: JsonValue };
}

/**
 * The ownership record a write carries in `meta.wsc`: per managed field, the
 * hash of its value after this request, or null where the value is the one
 * this request sends and holds references resolved only at apply time.
 */
export interface RecordSpec {
  bundle: string;
  fields: { [path: string]: string | null };
  /**
   * Values the record hashes once their references are resolved (the bundle's
   * value where it holds references, or where the request sends a merged value).
   * A path here wins over `fields`.
   */
  values?: { [path: string]: JsonValue };
  /** The bundle's dashboard draft in parts, when known at plan time (else from `values`). */
  draft?: DraftParts;
  /** The resource's name and bundle file, for the deletes of a later prune. */
  name?: string;
  file?: string;
}

/**
 * What one request does, independent of ids not known yet. The executor turns
 * it into method + path + body once the references it holds are resolved.
 */
export type Operation =
  | { op: 'upsertWorkbook'; slug: string; body: WorkbookInput | { [k: string]: JsonValue }; record?: RecordSpec }
  | { op: 'adoptWorkbook'; workbookId: number; slug: string }
  | { op: 'createReport'; body: CreateReportInput | { [k: string]: JsonValue }; record?: RecordSpec }
  | {
      op: 'updateReport';
      reportId: number;
      body: { [k: string]: JsonValue };
      record?: RecordSpec;
      /**
       * The `meta` members this request sets. A report's PUT replaces `meta`
       * whole, so the executor reads the report again just before the write
       * and sends its current members with these (and the record) on top.
       */
      metaKeys?: string[];
    }
  | { op: 'deleteReport'; reportId: number }
  | { op: 'deleteWorkbook'; workbookId: number }
  | { op: 'publishWorkbook'; workbook: number | WorkbookRef; body: Omit<PublishDashboardInput, 'workbookId'> }
  | { op: 'createUserAttribute'; body: { name: string; type: string } & UserAttributeUpdateInput }
  | { op: 'updateUserAttribute'; id: number; body: UserAttributeUpdateInput }
  /** `nth`: the twin of that name under the parent it is to be (1, the default: the lowest id). */
  | { op: 'createFolder'; name: string; parentId: number | null | FolderRef; nth?: number };

/** `{ $folder: <path> }`: the id of a folder this apply creates, in a body's `folderId` or a create's `parentId`. */
export type FolderRef = { $folder: string };
export function isFolderRef(v: unknown): v is FolderRef {
  return isObj(v) && Object.keys(v).length === 1 && typeof v['$folder'] === 'string';
}

export interface PlannedRequest {
  /** Unique within the plan, e.g. `report/revqZ1x8Kp0a#create`. */
  id: string;
  address: string;
  /**
   * The apply phase: 1 workbooks that reports need, 2 reports, 3 workbooks with
   * their dashboard draft, 4 publish; 0 = independent (user attributes);
   * 5 deletes, after every other request has ended.
   */
  phase: 0 | 1 | 2 | 3 | 4 | 5;
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
  /**
   * Managed fields changed outside wsc since its last apply (their live value
   * differs from the ownership record and from the file): apply leaves the
   * resource alone unless told to overwrite.
   */
  uiEdits?: string[];
  /**
   * Parts changed outside wsc that the bundle did not change since its last
   * apply: kept as they are live (`name`, `meta.dashboardDraft widget a`).
   */
  kept?: string[];
  /**
   * Why apply leaves the resource alone, and the flag that proceeds. Its
   * requests stay in the plan: apply sends them only when that flag names it.
   */
  blocked?: Blocked;
  /** What a deleted resource was: its name and the bundle file it came from (from its ownership record). */
  was?: { name?: string; file?: string };
  /** A note for people (why a delete is held back, a slug rename). */
  note?: string;
}

export interface Blocked {
  reason: 'ui-edit' | 'record-missing' | 'record-malformed' | 'other-bundle';
  /** One line, e.g. `edited outside wsc since the last apply: name`, `owned by bundle "team-b"`. */
  message: string;
  /** The flag that proceeds, with the address (`--overwrite-ui-edits report/x`, `--take-over report/x`). */
  flag: string;
  /** Only a flag naming the address proceeds, not the flag alone (a delete of a resource whose record is not wsc's). */
  explicit?: true;
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
  record?: number;
  delete?: number;
  /** Resources apply leaves alone (a UI edit the bundle also changed, a record missing or another bundle's). */
  blocked?: number;
  unmanaged: { workbooks: number; reports: number; userAttributes: number };
}

/** Resources recorded for this bundle that it no longer holds. */
export interface PlanPrune {
  /** How many there are (planned as deletes only when enabled). */
  candidates: number;
  enabled: boolean;
  /** Why none is planned although prune is on (a list read short of its count). */
  withheld?: string;
  /** Candidates kept, each with the reason (a workbook that still holds reports). */
  held?: { address: string; reason: string }[];
}

/** Something the plan wants a person to know that is no change (duplicate folder names, a folder left empty). */
export interface PlanWarning {
  code: 'duplicate-folder' | 'folder-left-empty' | 'report-still-charted' | 'similar-folder';
  address: string;
  message: string;
}

export interface Plan {
  formatVersion: 1;
  environment: string;
  deploymentId: number;
  publicIds: PublicIdMode;
  changes: ResourceChange[];
  summary: PlanSummary;
  fingerprints: Fingerprint[];
  /** The bundle's name, when it has one (ownership records are written). */
  bundle?: string;
  prune?: PlanPrune;
  /** Present only when there is one. */
  warnings?: PlanWarning[];
  /** The live resources the bundle does not manage, when asked for (`--show-unmanaged`). */
  unmanaged?: UnmanagedResource[];
}

/** A live resource no bundle file matches: left alone. */
export interface UnmanagedResource {
  kind: 'workbook' | 'report' | 'user-attribute';
  id: number;
  /** Its name (a workbook's or report's `name`, a user attribute's `name`). */
  name: string;
  /** A workbook's slug or a report's publicId, when it has one. */
  identity?: string;
}

/** Whether apply would change anything; an ownership record alone is not a change, nor a blocked resource. */
export function hasChanges(plan: Plan): boolean {
  return plan.changes.some(
    (c) =>
      c.requests.length > 0 && !(c.actions.length === 1 && (c.actions[0] === 'record' || c.actions[0] === 'blocked')),
  );
}

/** Whether apply has any request to make (ownership records included). */
export function hasRequests(plan: Plan): boolean {
  return plan.changes.some((c) => c.requests.length > 0);
}

// ---------------------------------------------------------------------------
// The executor's port: the few API calls apply needs. src/api implements it
// over HTTP (with the retry policy); tests may implement it over the emulator.

export interface ApiPort {
  upsertWorkbookBySlug(slug: string, body: WorkbookInput): Promise<Workbook>;
  /** Gives an existing workbook its slug (PUT /workbooks/{id} with the slug alone). */
  adoptWorkbook(workbookId: number, slug: string): Promise<void>;
  createReport(body: CreateReportInput): Promise<Report>;
  updateReport(reportId: number, body: Record<string, unknown>): Promise<Report>;
  /** GET /reports/{id}: read again just before a write that replaces its `meta`. */
  readReport(reportId: number): Promise<Report>;
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
