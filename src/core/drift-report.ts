// `wsc drift`: everything that differs between the live deployment and the
// bundle, whoever changed it, from a plan (which compared both): the fields
// edited outside wsc (the plan's `drift`, with what apply does under the
// policy), the fields only the bundle changed (its updates), resources the
// deployment lacks (creates) and resources recorded for the bundle that it
// no longer holds (deletes). Read and compared only: nothing here writes.
import type { DriftEntry, Plan, ResourceChange } from './plan-model.js';
import { deletesResource } from './deletes.js';
import { partsDiffering } from './plan/drift.js';

/** The field a whole resource differs by: it is in the bundle and not live, or live and no longer in the bundle. */
export const WHOLE_RESOURCE = '(resource)';

/** Who changed a field the plan updates that no edit outside wsc explains. */
function changer(plan: Plan, rc: ResourceChange): DriftEntry['changed'] {
  const unrecorded = rc.blocked?.reason === 'record-missing' || rc.blocked?.reason === 'record-malformed';
  return plan.bundle !== undefined && !unrecorded ? 'bundle' : 'unknown';
}

function resourceEntries(plan: Plan, rc: ResourceChange, prune: boolean): DriftEntry[] {
  const where = rc.pos ? { file: rc.pos.file, line: rc.pos.line } : {};
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
    for (const p of partsDiffering(change.path, change.after, change.before)) {
      if (seen.has(p.field)) continue;
      seen.add(p.field);
      const line = change.line !== undefined ? { line: change.line } : {};
      // A field only a create can set: no apply changes it.
      const does = change.createOnly === true ? 'blocked' : apply;
      out.push({ address: rc.address, ...p, changed: changer(plan, rc), apply: does, ...where, ...line });
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
