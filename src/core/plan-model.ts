// The plan: resource changes with their field-level changes and the requests
// that make them. Plain data only: a plan can be printed, saved to a file, and
// applied later.
import type {
  CreateReportInput,
  PublishDashboardInput,
  UserAttributeUpdateInput,
  WorkbookInput,
} from '../domain/wire.js';
import type { SourcePos } from '../errors.js';
import type { DashboardDiff } from './diff-model.js';
import { isObj, type JsonValue } from './json.js';
import type { PublicIdMode, UiEditsPolicy, WorkbookRef } from './model.js';
import type { DraftParts } from './ownership-draft.js';

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
  /** The line and column of the field in the resource's file (`ResourceChange.pos.file`). */
  line?: number;
  col?: number;
  /** A dashboard draft's change by widget and member (absent when its widgets cannot be matched by id). */
  dashboard?: DashboardDiff;
  /**
   * The values as the bundle writes them where `before`/`after` hold ids (a workbook id as
   * `{ $workbook: <slug> }`).
   */
  shown?: { before?: JsonValue; after?: JsonValue };
}

/** The resource an ownership record is written for: a report by its live publicId, a workbook by its slug. */
export type RecordOf = { deployment: number; publicId: string } | { deployment: number; slug: string };

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
  /** The resource the record is written for (its deployment and live publicId or slug). */
  of?: RecordOf;
}

/**
 * What one request does, independent of ids not known yet. The executor turns
 * it into method + path + body once the references it holds are resolved.
 */
export type Operation =
  | {
      op: 'upsertWorkbook';
      slug: string;
      body: WorkbookInput | { [k: string]: JsonValue };
      record?: RecordSpec;
      /**
       * The draft this write sends was merged with the live one as the plan read it (these parts): the
       * executor reads the workbook again just before the write and merges an edit made since.
       */
      reread?: { workbookId: number; draft: DraftParts };
    }
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
  /** Managed fields (and draft parts) edited outside wsc whose live value differs from the bundle's. */
  drift?: DriftEntry[];
  /**
   * Fields this change sets that this bundle's ownership record does not cover (newly managed, or no record of
   * this bundle): nothing says who changed the live value (`wsc drift` says `unknown`, not `bundle`).
   */
  unrecorded?: string[];
}

/** One managed field (or dashboard draft part) whose live value differs from the bundle's. */
export interface DriftEntry {
  address: string;
  /** `title`, `meta.chart`, or a draft part: `meta.dashboardDraft widget w1`, `… layout.cols`, `… title`, `… order`. */
  field: string;
  /** Absent when the live resource (or draft) has no such field (or part). */
  live?: JsonValue;
  /** Absent when the bundle has no such part; references resolved (or as written when they are not yet). */
  bundle?: JsonValue;
  /**
   * Who changed it since the last apply: `outside` (only outside wsc), `both` (outside wsc and in the
   * bundle), `bundle` (only the bundle: not applied yet; `wsc drift` only), `unknown` (no ownership record
   * says; `wsc drift` only).
   */
  changed: 'outside' | 'both' | 'bundle' | 'unknown';
  /** What this apply does with it: `keep` the live value, `revert` it to the bundle's, or leave it `blocked`. */
  apply: 'keep' | 'revert' | 'blocked';
  /** The resource's file and the line and column of the field (or part) in it. */
  file?: string;
  line?: number;
  col?: number;
}

export interface Blocked {
  reason: 'ui-edit' | 'record-missing' | 'record-malformed' | 'other-bundle' | 'other-resource';
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
  /** What apply does with UI edits (with a bundle name only): wsc.yaml `uiEdits`, or `--ui-edits`. */
  uiEdits?: UiEditsPolicy;
  /** Every managed field edited outside wsc that differs from the bundle (present only when there is one). */
  drift?: DriftEntry[];
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

/**
 * Whether apply would send anything: a change of content or an ownership record alone (apply writes it,
 * so `plan --detailed-exitcode` exits 2). A blocked resource's requests are sent only when a flag names it.
 */
export function hasChanges(plan: Plan): boolean {
  return plan.changes.some((c) => c.requests.length > 0 && !(c.actions.length === 1 && c.actions[0] === 'blocked'));
}

/** Whether apply has any request to make (ownership records included). */
export function hasRequests(plan: Plan): boolean {
  return plan.changes.some((c) => c.requests.length > 0);
}
