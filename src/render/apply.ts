// What apply prints: one plain line per notable event on stderr (progress),
// and the result on stdout (a summary, or JSON). Pure: (data, style) -> string.
import { INTERRUPTED, type ApplyEvent, type ApplyResult } from '../core/execute/index.js';
import type { Plan, PlannedRequest } from '../core/plan-model.js';
import { ApiError, NetworkError } from '../errors.js';
import { convergenceNote, renderFailureGroups, renderSkipGroups } from './apply-failures.js';
import { plural } from './diagnostics.js';
import { driftLines } from './plan-drift.js';
import { blockedLines } from './plan-ownership.js';
import { summaryLine } from './plan-wording.js';
import type { Style } from './style.js';
import { visible } from '../visible.js';
import type { PlanFlags } from './run-commands.js';

/**
 * The title of each kind of request. The executor starts each request once those it depends
 * on have succeeded, so kinds overlap in time: a title names a group, not a step in a sequence.
 */
export const PHASE_TITLES: Record<PlannedRequest['phase'], string> = {
  0: 'User attributes',
  1: 'Workbooks needed by reports',
  2: 'Reports',
  3: 'Dashboards',
  4: 'Publish',
  5: 'Deletes',
};

/** What a request does, in words: `create report`, `update report 12`, ... */
function describeRequest(r: PlannedRequest): string {
  const op = r.operation;
  switch (op.op) {
    case 'upsertWorkbook':
      if (r.id.endsWith('#record')) return 'record ownership of workbook';
      return r.phase === 3 ? 'upsert workbook with its dashboard draft' : 'upsert workbook';
    case 'adoptWorkbook':
      return `adopt workbook ${op.workbookId} (give it its slug)`;
    case 'createReport':
      return 'create report';
    case 'updateReport':
      if (r.id.endsWith('#record')) return `record ownership of report ${op.reportId}`;
      return 'publicId' in op.body ? `adopt report ${op.reportId}` : `update report ${op.reportId}`;
    case 'deleteReport':
      return `delete report ${op.reportId}`;
    case 'deleteWorkbook':
      return `delete workbook ${op.workbookId}`;
    case 'publishWorkbook':
      return 'publish dashboard';
    case 'createUserAttribute':
      return 'create user attribute';
    case 'updateUserAttribute':
      return `update user attribute ${op.id}`;
    case 'createFolder':
      return 'create folder';
  }
}

/** The plain progress line for an event, or undefined when the event prints nothing. */
export function renderApplyEvent(e: ApplyEvent, style: Style): string | undefined {
  const { c } = style;
  switch (e.type) {
    case 'phase-end': {
      // Printed when the last request of the kind has ended, which is when it is true.
      const rest = `${e.failed ? `, ${e.failed} failed` : ''}${e.skipped ? `, ${e.skipped} skipped` : ''}`;
      return (
        `${c.bold(`${PHASE_TITLES[e.phase]}:`)} ${e.applied} of ` +
        `${e.applied + e.failed + e.skipped} applied${rest}\n`
      );
    }
    case 'request-done': {
      const op = e.request.operation.op;
      const showId =
        e.id !== undefined &&
        (op === 'upsertWorkbook' || op === 'createReport' || op === 'createUserAttribute' || op === 'createFolder');
      const id = showId ? `, id ${e.id}` : '';
      const recovered = !e.recovered
        ? ''
        : op === 'createUserAttribute'
          ? "; already made by another run: read back and brought to the bundle's content"
          : '; already there with the same content: an earlier attempt whose answer was lost, or another run';
      return `  ${c.green('done')}    ${visible(e.request.address)} (${describeRequest(e.request)}${id}${recovered})\n`;
    }
    case 'request-fail':
      return (
        `  ${c.red('failed')}  ${visible(e.request.address)} ` +
        `(${describeRequest(e.request)}): ${visible(e.error.message)}\n`
      );
    case 'request-skip':
      return (
        `  ${c.yellow('skipped')} ${visible(e.request.address)} ` +
        `(${describeRequest(e.request)}): ${visible(e.reason)}\n`
      );
    default:
      return undefined;
  }
}

function countsLine(result: ApplyResult): string {
  const k = result.counts;
  const more =
    (k.deleted !== undefined ? `, ${k.deleted} deleted` : '') +
    (k.recorded !== undefined ? `, ${k.recorded} recorded` : '') +
    (k.recovered !== undefined ? `, ${k.recovered} found already there` : '');
  return `${k.created} created, ${k.updated} updated, ${k.adopted} adopted, ${k.published} published${more}`;
}

/** On stderr at the first interrupt of an apply. */
export function renderInterrupted(signal: string, style: Style): string {
  return (
    `\n${style.c.yellow(`Interrupted (${signal}):`)} no new request will ` +
    `start; waiting for those in flight to end, to report what was applied. ` +
    `Interrupt again to stop at once (the outcome of the requests in flight ` +
    `is then unknown; re-running apply converges).\n`
  );
}

/** What "found already there" in the counts stands for: each such create, said once. */
function recoveredNote(result: ApplyResult): string {
  const recovered = result.resources.filter((r) => r.recovered);
  const attrs = recovered.filter((r) => r.kind === 'user-attribute').length;
  const others = recovered.length - attrs;
  const was = (n: number) => (n === 1 ? 'was' : 'were');
  const kinds = new Set(recovered.filter((r) => r.kind !== 'user-attribute').map((r) => r.kind));
  const noun = kinds.size === 1 && kinds.has('report') ? 'report' : 'resource';
  return (
    (others
      ? ` ${plural(others, noun)} ${was(others)} found already there with the same content (an earlier attempt ` +
        'whose answer was lost, or another run): read back, not duplicated.'
      : '') +
    (attrs
      ? ` ${plural(attrs, 'user attribute')} ${was(attrs)} already made by another run: read back and ` +
        "brought to the bundle's content, not duplicated."
      : '')
  );
}

/**
 * The heading of an apply that did not complete: interrupted (nothing failed),
 * partly failed (something was applied), or failed (nothing was).
 */
function incompleteHead(result: ApplyResult, style: Style): string {
  const { c } = style;
  if (applyStatus(result) === 'blocked') return c.yellow('Apply complete but for what is blocked:');
  const interrupted = result.skipped.some((s) => s.reason === INTERRUPTED);
  if (interrupted && result.failed.length === 0) return c.yellow('Apply interrupted:');
  return result.applied.length > 0 ? c.red('Apply partly failed:') : c.red('Apply failed:');
}

/** The result on stdout. */
export function renderApplySummary(result: ApplyResult, style: Style): string {
  const { c } = style;
  const note = recoveredNote(result);
  if (result.failed.length === 0 && result.skipped.length === 0) {
    return `${c.green('Apply complete:')} ${countsLine(result)}.${note}\n`;
  }
  const counts = `${result.failed.length} failed, ${result.skipped.length} skipped (${countsLine(result)})`;
  let out = `${incompleteHead(result, style)} ${plural(result.applied.length, 'request')} applied, ${counts}.${note}\n`;
  const done = result.resources.filter((r) => r.status === 'applied' || r.status === 'partial');
  if (done.length) {
    out += `\nApplied:\n`;
    for (const r of done) {
      // Only what was carried out: a publish that was skipped is not named here.
      const what = [...r.done, ...(r.id !== undefined ? [`id ${r.id}`] : [])].join(', ');
      out += `  ${r.address}${what ? ` (${what})` : ''}${r.status === 'partial' ? ' — partly, see below' : ''}\n`;
    }
  }
  if (result.failed.length) {
    out += `\nFailed:\n`;
    out += renderFailureGroups(result.failed, style);
  }
  if (result.skipped.length) {
    out += `\nSkipped:\n`;
    out += renderSkipGroups(result.skipped.map((s) => ({ ...s, what: describeRequest(s.request) })));
  }
  for (const f of result.emptyFolders ?? []) {
    out += `\n${c.yellow('warning')} ${visible(f)} was created by this apply and is left empty (what was to go in it `;
    out += 'did not apply). wsc never deletes folders: the next apply uses it, or remove it in the UI.\n';
  }
  out += `\n${convergenceNote(result, style)}\n`;
  return out;
}

/** `blocked`: nothing failed, but something was left alone (exit 5); `partial`: some applied, some failed (exit 4). */
export function applyStatus(result: ApplyResult): 'applied' | 'blocked' | 'partial' | 'failed' {
  if (result.failed.length === 0 && result.skipped.length === 0) return 'applied';
  if (result.failed.length === 0 && result.skipped.every((s) => s.blocked)) return 'blocked';
  return result.applied.length > 0 ? 'partial' : 'failed';
}

/** `--output json`: stable, additive-only. */
export function applyResultJson(plan: Plan, result: ApplyResult) {
  return {
    formatVersion: 1 as const,
    environment: plan.environment,
    deploymentId: plan.deploymentId,
    status: applyStatus(result),
    counts: result.counts,
    ...(result.emptyFolders ? { emptyFolders: [...result.emptyFolders] } : {}),
    // The plan's drift (docs/plan-json.md): fields edited outside wsc that differ from the bundle.
    ...(plan.bundle !== undefined ? { drift: (plan.drift ?? []).map((d) => ({ ...d })) } : {}),
    resources: result.resources.map((r) => ({
      address: r.address,
      kind: r.kind,
      actions: r.actions,
      status: r.status,
      done: r.done,
      ...(r.recovered ? { recovered: true } : {}),
      ...(r.id !== undefined ? { id: r.id } : {}),
      ...(r.pos ? { file: r.pos.file, line: r.pos.line, col: r.pos.col } : {}),
    })),
    applied: result.applied.map((a) => ({
      request: a.request.id,
      address: a.request.address,
      ...(a.id !== undefined ? { id: a.id } : {}),
      ...(a.recovered ? { recovered: true } : {}),
    })),
    failed: result.failed.map((f) => {
      const e = f.error;
      return {
        request: f.request.id,
        address: f.request.address,
        ...(f.pos ? { file: f.pos.file, line: f.pos.line, col: f.pos.col } : {}),
        code: e.code,
        message: e.message,
        ...(e instanceof ApiError
          ? {
              method: e.method,
              path: e.path,
              status: e.status,
              ...(e.serverMessage ? { serverMessage: e.serverMessage } : {}),
            }
          : {}),
        ...(e instanceof NetworkError ? { method: e.method, path: e.path } : {}),
        ...(e.hint ? { hint: e.hint } : {}),
      };
    }),
    skipped: result.skipped.map((s) => ({
      request: s.request.id,
      address: s.request.address,
      reason: s.reason,
      ...(s.blocked ? { blocked: true } : {}),
    })),
  };
}

export function renderApplyJson(plan: Plan, result: ApplyResult): string {
  return `${JSON.stringify(applyResultJson(plan, result), null, 2)}\n`;
}

/**
 * Apply with no request to send: "No changes", or, with fields kept as edited outside wsc, which ones (never
 * "matches" when they differ); with `json`, the result of an apply that sent nothing.
 */
export function renderApplyNothing(plan: Plan, run: PlanFlags, json: boolean): string {
  if (!json) return `${[summaryLine(plan), ...driftLines(plan, run)].join('\n')}\n`;
  const counts = { created: 0, updated: 0, adopted: 0, published: 0 };
  return renderApplyJson(plan, { applied: [], failed: [], skipped: [], resources: [], counts });
}

/**
 * The result on stdout: `--output json`'s alone; else after the plan shown above (`shownPlan`), a blank line
 * to set it apart, and without one, what the blocked resources need first (render/plan-ownership.ts).
 */
export function renderApplyOutcome(
  plan: Plan,
  result: ApplyResult,
  style: Style,
  o: { run: PlanFlags; json: boolean; shownPlan: boolean },
): string {
  if (o.json) return renderApplyJson(plan, result);
  return `${o.shownPlan ? '\n' : blockedLines(plan, o.run)}${renderApplySummary(result, style)}`;
}
