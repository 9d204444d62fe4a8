// What plans, apply and `wsc drift` say about drift: the managed fields whose
// live value differs from the bundle's, one line each (address, field,
// live → bundle, file:line, and what apply does with it), so that a kept UI
// edit is never summarised as "matches".
import { WHOLE_RESOURCE } from '../core/drift-report.js';
import type { DriftEntry, Plan, ResourceChange } from '../core/plan-model.js';
import { canonicalJson } from '../core/canonical.js';
import { isObj, type JsonValue } from '../core/json.js';
import { plural } from './diagnostics.js';
import { inlineValue } from './value.js';
import { whereText } from './dashboard-diff.js';
import { visible } from '../visible.js';
import { applyWith, exportOnly, type PlanFlags } from './run-commands.js';

/** The mark a field or draft part edited outside wsc carries where the plan changes it back. */
export const EDITED_OUTSIDE = '(edited outside wsc)';

/** `1 field differs from the bundle, kept as edited outside wsc`; undefined when nothing is kept. */
export function keptPhrase(plan: Plan): string | undefined {
  const n = (plan.drift ?? []).filter((d) => d.apply === 'keep').length;
  if (n === 0) return undefined;
  return `${plural(n, 'field')} ${n === 1 ? 'differs' : 'differ'} from the bundle, kept as edited outside wsc`;
}

/** What apply does with one entry, or who changed it (`wsc drift`). */
function what(d: DriftEntry): string {
  if (d.changed === 'bundle') return 'changed in the bundle, not applied yet';
  if (d.changed === 'unknown') return 'not applied yet (no ownership record says who changed it)';
  const who = d.changed === 'both' ? 'edited outside wsc and changed in the bundle' : 'edited outside wsc';
  if (d.apply === 'keep') return `kept, ${who}`;
  if (d.apply === 'revert') return `${who}; apply writes the bundle's value`;
  return `${who}; blocked`;
}

/** Of a widget both sides hold, the members that differ (a moved widget reads as its position); else undefined. */
function differingMembers(d: DriftEntry): string[] | undefined {
  const { live, bundle } = d;
  if (!d.field.includes(' widget ') || !isObj(live) || !isObj(bundle)) return undefined;
  const keys = [...new Set([...Object.keys(bundle), ...Object.keys(live)])];
  const differ = keys.filter((k) => canonicalJson(live[k] ?? null) !== canonicalJson(bundle[k] ?? null));
  return differ.length > 0 && differ.length < keys.length ? differ : undefined;
}

/** `report/x title: "Edited" → "MRR"  (reports/mrr.yaml:4): kept, edited outside wsc` */
export function driftLine(d: DriftEntry): string {
  const where = d.file === undefined ? '' : `  (${whereText(d.file, d) ?? d.file})`;
  const members = differingMembers(d);
  if (members !== undefined) {
    const at = (v: JsonValue | undefined, k: string) => (isObj(v) ? v[k] : undefined);
    const each = members.map((k) => `${k}: ${inlineValue(at(d.live, k))} → ${inlineValue(at(d.bundle, k))}`);
    return visible(`${d.address} ${d.field} ${each.join('; ')}${where}: ${what(d)}`);
  }
  if (d.field === WHOLE_RESOURCE) {
    if (d.live === undefined)
      return visible(`${d.address}: in the bundle, not in the deployment${where}: apply creates it`);
    const does = d.apply === 'keep' ? 'kept (apply deletes it only with --prune)' : 'apply deletes it';
    return visible(`${d.address} ${inlineValue(d.live)}: in the deployment, no longer in the bundle${where}: ${does}`);
  }
  return visible(`${d.address} ${d.field}: ${inlineValue(d.live)} → ${inlineValue(d.bundle)}${where}: ${what(d)}`);
}

/** The drift section of a plan: a heading, one line per entry, and per address kept how to end it. */
interface DriftSection {
  heading: string;
  entries: string[];
  ways: string[];
}

export function driftSection(plan: Plan, run?: PlanFlags): DriftSection | undefined {
  const drift = plan.drift ?? [];
  if (drift.length === 0) return undefined;
  const n = drift.length;
  const heading = `${plural(n, 'field')} ${n === 1 ? 'differs' : 'differ'} from the bundle (live → bundle):`;
  const kept = [...new Set(drift.filter((d) => d.apply === 'keep').map((d) => d.address))];
  const ways = kept.map(
    (a) =>
      `${a}: \`${exportOnly(a, run)}\` takes the live values into the file; ` +
      `\`${applyWith(`--overwrite-ui-edits ${a}`, run)}\` writes the bundle's over them.`,
  );
  return { heading, entries: drift.map(driftLine), ways };
}

/** The drift section as lines (entries indented under the heading). */
export function driftLines(plan: Plan, run?: PlanFlags): string[] {
  const s = driftSection(plan, run);
  return s === undefined ? [] : [s.heading, ...s.entries.map((e) => `  ${e}`), ...s.ways];
}

/** The parts of a field (a draft's `widget w1`, `title`) the plan writes back over an edit made outside wsc. */
export function revertedParts(rc: ResourceChange, path: string): string[] {
  const prefix = `${path} `;
  return (rc.drift ?? []).flatMap((d) =>
    d.apply === 'revert' && d.field.startsWith(prefix) ? [d.field.slice(prefix.length)] : [],
  );
}

/** Whether the plan writes a field (or a part of it) back over an edit made outside wsc. */
export function revertsEdit(rc: ResourceChange, path: string): boolean {
  return (rc.drift ?? []).some((d) => d.apply === 'revert' && (d.field === path || d.field.startsWith(`${path} `)));
}
