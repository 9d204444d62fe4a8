// What plans and apply say about ownership, in words shared by the human and
// markdown plans and the apply summary: why a resource is blocked and the two
// ways forward for its address, the UI edits kept, what a delete was, and the
// prune lines under the summary.
import type { Plan, ResourceChange } from '../core/plan-model.js';
import { deletesResource } from '../core/deletes.js';
import { visible } from '../visible.js';
import { driftLines } from './plan-drift.js';
import { applyWith, exportOnly, type PlanFlags } from './run-commands.js';

/** What proceeds for a blocked resource, for its address: a sentence ending without a full stop. */
function waysForward(rc: ResourceChange, run?: PlanFlags): string {
  const b = rc.blocked;
  const deleting = deletesResource(rc);
  if (b?.reason === 'other-bundle' || (b?.reason === 'other-resource' && !deleting)) {
    return `take it over with \`${applyWith(b.flag, run)}\`, or remove it from this bundle`;
  }
  if (b?.reason === 'other-resource') return `if it is no copy, delete it with \`${applyWith(b.flag, run)}\``;
  const verb = deleting ? 'delete' : 'overwrite';
  const flag = b?.flag ?? `--overwrite-ui-edits ${rc.address}`;
  const keep = deleting
    ? 'keep it by adding its file back'
    : `take the live values into the file with \`${exportOnly(rc.address, run)}\``;
  return `${keep}, or ${verb} it with \`${applyWith(flag, run)}\``;
}

/** The mark of a blocked resource and what to do, or nothing. */
export function uiEditLines(rc: ResourceChange): string[] {
  const b = rc.blocked;
  if (b === undefined) return [];
  const mark = `! ${b.message}`;
  if (!rc.actions.includes('blocked') && !deletesResource(rc)) {
    return [mark, `the bundle's values win (${b.flag.split(' ')[0]})`];
  }
  // Its ways forward are said once, below the summary (ownershipLines), where a compact plan has them too.
  return [mark, 'apply leaves it alone (the ways forward are below the summary)'];
}

/** `was "NRR KPI", reports/nrr-kpi.yaml`: what a delete removes, when known. */
export function wasLine(rc: ResourceChange): string | undefined {
  const w = rc.was;
  if (w === undefined || (w.name === undefined && w.file === undefined)) return undefined;
  const parts = [...(w.name !== undefined ? [JSON.stringify(w.name)] : []), ...(w.file !== undefined ? [w.file] : [])];
  return visible(`was ${parts.join(', ')}`);
}

/** `1 blocked by a UI edit`, `2 blocked (1 by a UI edit, 1 owned by another bundle)`. */
export function blockedPhrase(plan: Plan): string | undefined {
  const reasons = plan.changes.flatMap((c) => (c.actions[0] === 'blocked' && c.blocked ? [c.blocked.reason] : []));
  if (reasons.length === 0) return undefined;
  const words: Record<string, string> = {
    'ui-edit': 'by a UI edit',
    'record-missing': 'by a missing ownership record',
    'record-malformed': 'by a malformed ownership record',
    'other-bundle': 'owned by another bundle',
    'other-resource': 'by a record written for another resource',
  };
  const kinds = [...new Set(reasons)];
  if (kinds.length === 1) return `${reasons.length} blocked ${words[kinds[0]!]}`;
  const each = kinds.map((k) => `${reasons.filter((r) => r === k).length} ${words[k]}`);
  return `${reasons.length} blocked (${each.join(', ')})`;
}

/** Lines about prune, the held-back deletes, blocked resources and kept UI edits, for below the summary. */
export function ownershipLines(plan: Plan, run?: PlanFlags): string[] {
  // Every field edited outside wsc that differs from the bundle, kept or not: never summarised as "matches".
  return [...ownershipNotes(plan, run), ...driftLines(plan, run)];
}

/** The lines of `ownershipLines` before the drift section (the markdown plan budgets that one). */
export function ownershipNotes(plan: Plan, run?: PlanFlags): string[] {
  const out: string[] = [];
  const p = plan.prune;
  if (p !== undefined && p.candidates > 0) {
    const one = p.candidates === 1;
    const what =
      `${p.candidates} resource${one ? '' : 's'} recorded for bundle ` +
      `"${plan.bundle ?? ''}" ${one ? 'is' : 'are'} no longer in it`;
    if (!p.enabled)
      out.push(`${what}; nothing is deleted without --prune (or \`prune: true\` on the environment in wsc.yaml).`);
    else if (p.withheld !== undefined)
      out.push(`${what}, but no delete is planned: ${p.withheld}. Run the plan again.`);
    for (const h of p.held ?? []) out.push(`${h.address} is not deleted: ${h.reason}.`);
  }
  const blocked = plan.changes.filter((c) => c.actions.includes('blocked'));
  for (const c of blocked) {
    out.push(`${c.address} is left alone (${c.blocked?.message ?? 'edited outside wsc'}): ${waysForward(c, run)}.`);
  }
  return out;
}

const isBlocked = (c: Plan['changes'][number]) => c.actions[0] === 'blocked' && c.blocked !== undefined;

/**
 * The resources the plan blocks (the flags that proceed were not given), with the reason. Its ways
 * forward are printed once: by the plan shown, else (`apply PLANFILE`) above the summary (blockedLines),
 * else (the JSON result alone on stdout) here.
 */
export function refusedBlocked(plan: Plan, run: PlanFlags, ways: boolean): Map<string, string> {
  const refuse = new Map<string, string>();
  for (const c of plan.changes.filter(isBlocked)) {
    refuse.set(c.address, `${c.blocked!.message}; left alone${ways ? `: ${waysForward(c, run)}` : ''}`);
  }
  return refuse;
}

/** A saved plan's blocked resources and their ways forward, above its summary (no plan was shown). */
export function blockedLines(plan: Plan, run: PlanFlags): string {
  const lines = plan.changes.filter(isBlocked).map((c) => `${c.address} is left alone: ${waysForward(c, run)}.\n`);
  return lines.length === 0 ? '' : `\n${lines.join('')}`;
}
