// `wsc drift`: everything that differs between the live deployment and the
// bundle, whoever changed it, from a plan (which compared both): the fields
// edited outside wsc (the plan's `drift`, with what apply does under the
// policy), the fields only the bundle changed (its updates), resources the
// deployment lacks (creates) and resources recorded for the bundle that it
// no longer holds (deletes). Read and compared only: nothing here writes.
import type { DriftEntry, FieldChange, Plan, ResourceChange } from './plan-model.js';
import { canonicalJson } from './canonical.js';
import { deletesResource } from './deletes.js';
import { DRAFT_PATH } from './ownership.js';
import { partsDiffering, PUBLISHED } from './plan/drift.js';

/** The field a whole resource differs by: it is in the bundle and not live, or live and no longer in the bundle. */
export const WHOLE_RESOURCE = '(resource)';

/**
 * Who changed a field the plan updates that no edit outside wsc explains: the bundle only when this bundle's
 * record covers the field (it holds what the last apply wrote, and live still equals it). A field newly managed,
 * a resource with no record of this bundle, a user attribute (no record) or a publish (the published version is
 * recorded nowhere): nothing says.
 */
function changer(plan: Plan, rc: ResourceChange, path: string): DriftEntry['changed'] {
  const recorded = rc.kind === 'report' || rc.kind === 'workbook';
  if (plan.bundle === undefined || !recorded || path === PUBLISHED) return 'unknown';
  const unrecorded = rc.blocked?.reason === 'record-missing' || rc.blocked?.reason === 'record-malformed';
  return unrecorded || (rc.unrecorded ?? []).includes(path) ? 'unknown' : 'bundle';
}

type Part = ReturnType<typeof partsDiffering>[number];

/**
 * Where the file writes a part of a field change, as the plan points at it: a dashboard's widget at its line
 * (at its changed member's, for a member change), a dashboard member part at its first changed member's; the
 * field's own line otherwise (a whole field, a part the plan did not place: the widgets' order).
 */
function partAt(change: FieldChange, field: string): { line?: number; col?: number } {
  const label = field.slice(change.path.length + 1);
  const d = change.dashboard;
  const placed =
    d === undefined || label === ''
      ? undefined
      : label.startsWith('widget ')
        ? d.widgets.find((w) => w.widget === label.slice('widget '.length) && w.line !== undefined)
        : d.members.find((m) => (m.path === label || m.path.startsWith(`${label}.`)) && m.line !== undefined);
  const at = placed ?? change;
  return at.line !== undefined ? { line: at.line, ...(at.col !== undefined ? { col: at.col } : {}) } : {};
}

/**
 * A part of the published dashboard against the bundle's draft: apply publishes the draft it leaves, whose
 * parts kept as edited outside wsc are the live ones, so where a kept part is the bundle's value that differs
 * (the published part may equal the bundle's: no difference at all, undefined).
 */
function againstBundle(p: Part, outside: readonly DriftEntry[]): Part | undefined {
  const label = p.field.slice(PUBLISHED.length + 1);
  const kept = outside.find((d) => d.apply === 'keep' && d.field === `${DRAFT_PATH} ${label}`);
  if (kept === undefined) return p;
  if (canonicalJson(p.live ?? null) === canonicalJson(kept.bundle ?? null)) return undefined;
  const { bundle: _planned, ...rest } = p;
  return { ...rest, ...(kept.bundle !== undefined ? { bundle: kept.bundle } : {}) };
}

function resourceEntries(plan: Plan, rc: ResourceChange, prune: boolean): DriftEntry[] {
  const where = rc.pos ? { file: rc.pos.file, line: rc.pos.line, col: rc.pos.col } : {};
  const apply = rc.actions.includes('blocked') ? 'blocked' : 'revert';
  if (rc.actions.includes('create')) {
    return [{ address: rc.address, field: WHOLE_RESOURCE, changed: 'unknown', apply, ...where }];
  }
  if (deletesResource(rc)) {
    const name = rc.was?.name;
    return [
      {
        address: rc.address,
        field: WHOLE_RESOURCE,
        ...(name !== undefined ? { live: name } : {}),
        changed: 'bundle',
        apply: prune ? apply : 'keep',
        ...(rc.was?.file !== undefined ? { file: rc.was.file } : {}),
      },
    ];
  }
  const outside = rc.drift ?? [];
  const out: DriftEntry[] = [...outside];
  const seen = new Set(outside.map((d) => d.field));
  for (const change of rc.changes) {
    // A field edited outside wsc as a whole: its entry says all.
    if (seen.has(change.path)) continue;
    for (const part of partsDiffering(change.path, change.after, change.before)) {
      const p = change.path === PUBLISHED ? againstBundle(part, outside) : part;
      if (p === undefined || seen.has(p.field)) continue;
      seen.add(p.field);
      const line = partAt(change, p.field);
      // A field only a create can set: no apply changes it; a publish of a draft part kept as edited outside wsc
      // publishes the kept part, not the bundle's.
      const does = change.createOnly === true ? 'blocked' : p === part ? apply : 'keep';
      out.push({ address: rc.address, ...p, changed: changer(plan, rc, change.path), apply: does, ...where, ...line });
    }
  }
  return out;
}

/**
 * Every difference between the deployment and the bundle, in the plan's order. `prune`: whether apply
 * deletes what the bundle no longer holds (the plan may list the deletes whether or not).
 */
export function driftReport(plan: Plan, prune: boolean): DriftEntry[] {
  return plan.changes.flatMap((rc) => resourceEntries(plan, rc, prune));
}
