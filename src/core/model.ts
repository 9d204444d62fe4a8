// The data that flows into the planner: what the bundle wants (DesiredState),
// what the deployment has (LiveState), and what the plan is asked for
// (PlanContext). Plain data only. The plan itself is in plan-model.ts.
import type { SourcePos } from '../errors.js';
import type { Folder, Report, ReportInputField, ReportSource, UserAttribute, Workbook } from '../domain/wire.js';
import type { JsonValue } from './json.js';

// ---------------------------------------------------------------------------
// References: `{ $report: <bundle publicId> }`, `{ $workbook: <slug> }` stand
// wherever a numeric id goes. In a plan, a reference that could not be
// resolved yet (its target is created by the same apply) stays in this form
// and renders as written (`{ $workbook: sales }`).

type ReportRef = { $report: string };
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
  /** Where a value is in the file, by path (absent in plans made from data that has no file). */
  locate?: Locate;
}

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
  /** Where a value is in the file, by path (absent in plans made from data that has no file). */
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

/** How a problem is reported by `Locate`: at the key or the value; at a name inside a string value. */
export interface ReportAt {
  atKey?: boolean;
  /** A name's n-th appearance in the file from the value's start (a query written as text). */
  text?: { name: string; occurrence: number };
}

/**
 * The one locator of a value of a bundle document by its path, as
 * file:line:col, made by bundle/locate.ts (positions are read only when
 * asked) and kept on the resource as a property no walk or copy sees, so
 * that the state stays plain data. The plan asks where a changed value is
 * written; the semantic check where to report a member.
 */
export interface Locate {
  /** Where the file writes the value at `path` (its key; an item its own place), or undefined when it does not. */
  (path: readonly (string | number)[]): SourcePos | undefined;
  /** Where to report `path`: written, else its nearest written ancestor's key, else the document's start. */
  (path: readonly (string | number)[], report: ReportAt): SourcePos;
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
// What a plan is asked for.

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
  /** wsc.yaml `folderLookAlikes`: `allow` makes a folder alike a live one a warning (else an error, exit 3). */
  folderLookAlikes?: 'allow' | 'error';
}

/**
 * What apply does with a UI edit: `keep` (the three-way merge: an edit the
 * bundle did not change is kept, one it changed too blocks its resource),
 * `revert` (the bundle's value is written), `block` (the resource is left alone).
 */
export type UiEditsPolicy = 'keep' | 'revert' | 'block';

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
  /** wsc.yaml `uiEdits` or `--ui-edits` (default keep); `overwrite` is `revert` for the addresses it names. */
  uiEdits?: UiEditsPolicy;
}
