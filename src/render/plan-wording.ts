// The plan's wording shared by every format that speaks to people (the
// human plan, its address list, the markdown plan): a resource's symbol and
// action phrase, the summary line, the create-only note.
import { hasChanges, type ActionKind, type Plan, type ResourceChange } from '../core/plan-model.js';
import { createOnlyChanges } from '../core/plan/create-only.js';
import { plural } from './diagnostics.js';
import { blockedPhrase } from './plan-ownership.js';
import { keptPhrase } from './plan-drift.js';

const SYMBOL: Record<Exclude<ActionKind, 'noop'>, string> = {
  create: '+',
  update: '~',
  adopt: '→',
  publish: '↑',
  record: '=',
  delete: '-',
  blocked: '!',
};

/** The symbol of a resource's first action. */
export function actionSymbol(c: ResourceChange): string {
  const first = c.actions[0];
  return first === undefined || first === 'noop' ? ' ' : SYMBOL[first];
}

const PAST: Record<ActionKind, string> = {
  create: 'created',
  update: 'updated',
  adopt: 'adopted',
  publish: 'published',
  noop: 'left as it is',
  record: "recorded as this bundle's (ownership record only)",
  delete: 'deleted',
  blocked: 'left alone',
};

/** `will be created and published`, `will be adopted (report 90) and updated`. */
export function actionPhrase(c: ResourceChange): string {
  const words = c.actions.map((a) =>
    a === 'adopt' && c.liveId !== undefined ? `adopted (${c.kind} id ${c.liveId})` : PAST[a],
  );
  const list = words.length <= 1 ? words.join('') : `${words.slice(0, -1).join(', ')} and ${words[words.length - 1]}`;
  return `will be ${list}`;
}

/** After a create-only difference, in every output: what it means. */
export const CREATE_ONLY_NOTE = 'cannot be changed by update';

export function summaryLine(plan: Plan): string {
  const s = plan.summary;
  const records = s.record ? ` ${plural(s.record, 'ownership record')} to write.` : '';
  const blocked = createOnlyChanges(plan).length;
  const left = blockedPhrase(plan);
  const kept = keptPhrase(plan);
  if (!hasChanges(plan) && blocked === 0 && left === undefined) {
    // A kept edit outside wsc is no change to make, but the deployment does not match the bundle.
    if (kept !== undefined) return `No changes to make. ${kept}.${records}`;
    return `No changes. The deployment matches the bundle.${records}`;
  }
  const deletes = s.delete !== undefined ? `, ${s.delete} to delete` : '';
  const line =
    `Plan: ${s.create} to create, ${s.update} to update, ${s.adopt} to ` +
    `adopt, ${s.publish} to publish${deletes}${left !== undefined ? `, ${left}` : ''}.${records}` +
    (kept !== undefined ? ` ${kept}.` : '');
  if (blocked === 0) return line;
  const n = blocked === 1 ? '1 difference' : `${blocked} differences`;
  return `${line} ${n} only a create can make: this plan cannot be applied.`;
}

export function leftAloneLine(plan: Plan): string {
  const u = plan.summary.unmanaged;
  const unmanaged = u.workbooks + u.reports + u.userAttributes;
  return `${plan.summary.noop} unchanged, ${plural(unmanaged, 'unmanaged resource')} left alone.`;
}
