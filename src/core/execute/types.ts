// The executor's data: what a run reports (per request, per resource, in
// counts) and the events progress is drawn from.
import type { SourcePos, WscError } from '../../errors.js';
import type { ActionKind, PlannedRequest, ResourceKind } from '../plan-model.js';

export type Phase = PlannedRequest['phase'];

interface AppliedRequest {
  request: PlannedRequest;
  /** The id of the object written (workbook, report, user attribute). */
  id?: number;
  /** A report create whose answer was lost and which was found, ours, on reading back. */
  recovered?: boolean;
  /** A folder create that lost the race to another writer's copy (ours deleted unless said otherwise). */
  lostFolder?: { ours: number; deleted: boolean };
}
export interface FailedRequest {
  request: PlannedRequest;
  error: WscError;
  pos?: SourcePos;
}
interface SkippedRequest {
  request: PlannedRequest;
  /** e.g. `depends on workbook/sales#upsert which failed` */
  reason: string;
  /** Left alone because its resource (or one it depends on) is blocked (ExecuteOptions.refuse): no failure. */
  blocked?: true;
}

export type ResourceStatus = 'applied' | 'partial' | 'failed' | 'skipped';
interface ResourceOutcome {
  address: string;
  kind: ResourceKind;
  actions: ActionKind[];
  status: ResourceStatus;
  /** The actions carried out (of `actions`): what the summary lists as applied. */
  done: ActionKind[];
  /** Its create found it already there, with the same content: read back, not made again. */
  recovered?: true;
  id?: number;
  pos?: SourcePos;
}

export interface ApplyCounts {
  created: number;
  updated: number;
  adopted: number;
  published: number;
  /** Present when the plan deletes or records ownership. */
  deleted?: number;
  recorded?: number;
  /**
   * Present when a create found its resource already there (an earlier attempt whose answer was lost, or
   * another run): counted here, not in `created`.
   */
  recovered?: number;
}

export interface ApplyResult {
  applied: AppliedRequest[];
  failed: FailedRequest[];
  skipped: SkippedRequest[];
  /** One entry per resource that had requests to make, in plan order. */
  resources: ResourceOutcome[];
  /** Actions completed, each resource once per action (a resource created then published counts in both). */
  counts: ApplyCounts;
  /** Folders this apply created and left empty: what was to go in them failed or was skipped. */
  emptyFolders?: string[];
}

export type ApplyEvent =
  | { type: 'phase-start'; phase: Phase; total: number }
  | { type: 'phase-end'; phase: Phase; applied: number; failed: number; skipped: number }
  | { type: 'request-start'; request: PlannedRequest }
  | { type: 'request-done'; request: PlannedRequest; id?: number; recovered: boolean }
  | { type: 'request-fail'; request: PlannedRequest; error: WscError; pos?: SourcePos }
  | { type: 'request-skip'; request: PlannedRequest; reason: string };

export interface ExecuteOptions {
  concurrency: number;
  onEvent?: (e: ApplyEvent) => void;
  /** Source positions by address, for plans whose changes carry none. */
  desiredFiles?: Map<string, SourcePos>;
  /**
   * Aborted (an interrupt): no request starts any more; those in flight run
   * to their end, so that what was applied is known, and the rest are
   * skipped with the abort reason when it is a sentence, else INTERRUPTED.
   */
  signal?: AbortSignal;
  /**
   * Resources not to write, by address, with the reason (blocked: a UI edit
   * the bundle also changed, a record missing or another bundle's); their
   * requests, and those depending on them, are skipped as blocked.
   */
  refuse?: Map<string, string>;
}

/** Why a request was skipped when the run was interrupted before it started. */
export const INTERRUPTED = 'not started: apply was interrupted';

/** How one request ended. */
export type Outcome =
  | { status: 'applied'; id?: number; recovered: boolean }
  | { status: 'failed'; error: WscError }
  | { status: 'skipped'; reason: string; blocked?: true };
