// `--output json`: the plan for programs. formatVersion 1, additive-only
// (README "Plan JSON format"). Never compact: a program wants the values. Only resources that change are listed; the
// summary counts the rest. References not resolved yet stay as
// `{ "$report": ... }` / `{ "$workbook": ... }` objects (known after apply).
import {
  hasChanges,
  type FieldChange,
  type Plan,
  type PlanSummary,
  type PlanWarning,
  type UnmanagedResource,
} from '../core/model.js';
import { isShown } from '../core/plan/create-only.js';

/** One line of the address list: every resource that changes, its first action and its file. */
export interface PlanJsonAddress {
  address: string;
  action: string;
  file?: string;
}

export interface PlanJsonChange {
  address: string;
  kind: 'workbook' | 'report' | 'user-attribute' | 'folder';
  actions: string[];
  liveId?: number;
  livePublicId?: string;
  file?: string;
  line?: number;
  fields: FieldChange[];
  requests: { id: string; op: string; phase: number; dependsOn: string[] }[];
  /** Managed fields edited outside wsc since the last apply: apply leaves the resource alone unless told. */
  uiEdits?: string[];
  note?: string;
}

export interface PlanJson {
  formatVersion: 1;
  environment: string;
  deploymentId: number;
  publicIds: string;
  hasChanges: boolean;
  /** Every address that changes, in the order of `changes`. */
  addresses: PlanJsonAddress[];
  changes: PlanJsonChange[];
  summary: PlanSummary;
  bundle?: string;
  prune?: Plan['prune'];
  /** Present only when there is one (duplicate folder names, a folder left empty). */
  warnings?: PlanWarning[];
  /** With `--show-unmanaged`: the live resources the bundle does not manage. */
  unmanaged?: UnmanagedResource[];
}

export function planJson(plan: Plan): PlanJson {
  const shown = plan.changes.filter(isShown);
  return {
    formatVersion: 1,
    environment: plan.environment,
    deploymentId: plan.deploymentId,
    publicIds: plan.publicIds,
    hasChanges: hasChanges(plan),
    addresses: shown.map((c) => ({
      address: c.address,
      action: c.actions[0]!,
      ...(c.pos ? { file: c.pos.file } : {}),
    })),
    changes: shown.map((c): PlanJsonChange => ({
      address: c.address,
      kind: c.kind,
      actions: [...c.actions],
      ...(c.liveId !== undefined ? { liveId: c.liveId } : {}),
      ...(c.livePublicId !== undefined ? { livePublicId: c.livePublicId } : {}),
      ...(c.pos ? { file: c.pos.file, line: c.pos.line } : {}),
      fields: c.changes.map((f) => ({
        path: f.path,
        ...('before' in f ? { before: f.before } : {}),
        ...('after' in f ? { after: f.after } : {}),
        ...(f.createOnly ? { createOnly: true as const } : {}),
        ...(f.dashboard ? { dashboard: f.dashboard } : {}),
        ...(f.shown ? { shown: { ...f.shown } } : {}),
      })),
      requests: c.requests.map((r) => ({ id: r.id, op: r.operation.op, phase: r.phase, dependsOn: [...r.dependsOn] })),
      ...(c.uiEdits !== undefined ? { uiEdits: [...c.uiEdits] } : {}),
      ...(c.note !== undefined ? { note: c.note } : {}),
    })),
    summary: plan.summary,
    ...(plan.bundle !== undefined ? { bundle: plan.bundle } : {}),
    ...(plan.prune !== undefined ? { prune: plan.prune } : {}),
    ...(plan.warnings ? { warnings: plan.warnings.map((w) => ({ ...w })) } : {}),
    ...(plan.unmanaged ? { unmanaged: plan.unmanaged.map((u) => ({ ...u })) } : {}),
  };
}

export function renderPlanJson(plan: Plan): string {
  return `${JSON.stringify(planJson(plan), null, 2)}\n`;
}
