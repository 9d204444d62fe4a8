// `--output json`: the plan for programs, in the format docs/plan-json.md describes
// (formatVersion 1, additive-only). Never compact: a program wants the values. Only resources that
// change are listed; the summary counts the rest. References not resolved yet stay as
// `{ "$report": ... }` / `{ "$workbook": ... }` objects (known after apply).
import { hasChanges, type Plan } from '../core/plan-model.js';
import { isShown } from '../core/plan/create-only.js';
import type { SemanticOutcome } from '../core/semantic/outcome.js';
import { semanticJson } from './plan-semantic.js';

export function planJson(plan: Plan, semantic?: SemanticOutcome) {
  const shown = plan.changes.filter(isShown);
  return {
    formatVersion: 1 as const,
    environment: plan.environment,
    deploymentId: plan.deploymentId,
    publicIds: plan.publicIds,
    hasChanges: hasChanges(plan),
    addresses: shown.map((c) => ({
      address: c.address,
      action: c.actions[0]!,
      ...(c.pos ? { file: c.pos.file } : {}),
    })),
    changes: shown.map((c) => ({
      address: c.address,
      kind: c.kind,
      actions: [...c.actions],
      ...(c.liveId !== undefined ? { liveId: c.liveId } : {}),
      ...(c.livePublicId !== undefined ? { livePublicId: c.livePublicId } : {}),
      ...(c.pos ? { file: c.pos.file, line: c.pos.line, col: c.pos.col } : {}),
      fields: c.changes.map((f) => ({
        path: f.path,
        ...('before' in f ? { before: f.before } : {}),
        ...('after' in f ? { after: f.after } : {}),
        ...(f.createOnly ? { createOnly: true as const } : {}),
        ...(f.line !== undefined ? { line: f.line } : {}),
        ...(f.col !== undefined ? { col: f.col } : {}),
        ...(f.dashboard ? { dashboard: f.dashboard } : {}),
        ...(f.shown ? { shown: { ...f.shown } } : {}),
      })),
      requests: c.requests.map((r) => ({ id: r.id, op: r.operation.op, phase: r.phase, dependsOn: [...r.dependsOn] })),
      ...(c.uiEdits !== undefined ? { uiEdits: [...c.uiEdits] } : {}),
      ...(c.blocked !== undefined ? { blocked: { ...c.blocked } } : {}),
      ...(c.kept !== undefined ? { kept: [...c.kept] } : {}),
      ...(c.was !== undefined ? { was: { ...c.was } } : {}),
      ...(c.note !== undefined ? { note: c.note } : {}),
    })),
    summary: plan.summary,
    ...(plan.bundle !== undefined ? { bundle: plan.bundle } : {}),
    ...(plan.prune !== undefined ? { prune: plan.prune } : {}),
    ...(plan.warnings ? { warnings: plan.warnings.map((w) => ({ ...w })) } : {}),
    ...(plan.unmanaged ? { unmanaged: plan.unmanaged.map((u) => ({ ...u })) } : {}),
    ...(plan.uiEdits !== undefined ? { uiEdits: plan.uiEdits } : {}),
    // Every managed field edited outside wsc that differs from the bundle: present (maybe empty) with a bundle name.
    ...(plan.bundle !== undefined ? { drift: (plan.drift ?? []).map((d) => ({ ...d })) } : {}),
    ...semanticJson(semantic),
  };
}

export function renderPlanJson(plan: Plan, semantic?: SemanticOutcome): string {
  return `${JSON.stringify(planJson(plan, semantic), null, 2)}\n`;
}
