// Fields that only a create can set: a report's `source`, a user attribute's
// `type` (the update inputs have no such field). A file that names one with a
// value other than the live one describes a change that apply cannot make, so
// the plan shows it, marked, and plan and apply refuse to go on: a plan that
// said "no changes" (or applied the rest) would hide it.
import { EXIT, WscError } from '../../errors.js';
import type { FieldChange, Plan, ResourceChange } from '../plan-model.js';
import type { JsonValue } from '../json.js';

/** The difference of a create-only field of an existing resource; undefined when there is none to show. */
export function createOnlyDifference(
  path: string,
  live: JsonValue | undefined,
  wanted: JsonValue | undefined,
): FieldChange | undefined {
  // A live object that does not carry the field says nothing about it.
  if (wanted === undefined || live === undefined || live === wanted) return undefined;
  return { path, before: live, after: wanted, createOnly: true };
}

export function hasCreateOnly(rc: ResourceChange): boolean {
  return rc.changes.some((c) => c.createOnly === true);
}

/** Whether a renderer shows the resource: it changes, or it differs where update cannot change it. */
export function isShown(rc: ResourceChange): boolean {
  return rc.actions[0] !== 'noop' || hasCreateOnly(rc);
}

export function createOnlyChanges(plan: Plan): { resource: ResourceChange; field: FieldChange }[] {
  const out: { resource: ResourceChange; field: FieldChange }[] = [];
  for (const resource of plan.changes)
    for (const field of resource.changes) if (field.createOnly === true) out.push({ resource, field });
  return out;
}

const show = (v: JsonValue | undefined) => (typeof v === 'string' ? v : JSON.stringify(v));

/** The refusal (exit 3, nothing sent) for a plan holding create-only differences; undefined for any other plan. */
export function createOnlyError(plan: Plan): WscError | undefined {
  const found = createOnlyChanges(plan);
  if (found.length === 0) return undefined;
  const details = found.map(({ resource: r, field: f }) => {
    const where = r.pos ? ` (${r.pos.file}:${r.pos.line}:${r.pos.col})` : '';
    return `${r.address}${where}: ${f.path}: ${show(f.before)} → ${show(f.after)} cannot be changed by update`;
  });
  const n = found.length;
  return new WscError(
    'create_only_change',
    `The bundle differs from the deployment in ${n === 1 ? 'a field' : `${n} fields`} that only a create can set ` +
      `(a report's \`source\`, a user attribute's \`type\`). Nothing was applied.`,
    EXIT.invalid,
    {
      details,
      hint:
        'Change the file back to the live value; or give the resource a new identity (another publicId for a report, ' +
        'another name for a user attribute) so that apply creates a new one with the new value. The old one is then ' +
        'unmanaged: delete it when it is no longer used.',
    },
  );
}
