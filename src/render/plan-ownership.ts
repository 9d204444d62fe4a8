// What plans say about ownership, in words shared by the human and markdown
// plans: the UI-edit mark of a resource, and the prune lines under the summary.
import type { Plan, ResourceChange } from '../core/model.js';

export const UI_EDIT_MARK = '! edited outside wsc since the last apply';

/** The command that takes a resource's UI edit into its file. */
export function exportOnlyCommand(address: string, dir = '.'): string {
  return `wsc export --only ${address} --out ${dir}`;
}

/** `! edited outside wsc since the last apply: title, meta.chart` and what to do about it. */
export function uiEditLines(rc: ResourceChange, dir?: string): string[] {
  if (rc.uiEdits === undefined) return [];
  const verb = rc.actions.includes('delete') ? 'delete' : 'overwrite';
  return [
    `${UI_EDIT_MARK}: ${rc.uiEdits.join(', ')}`,
    `apply will not ${verb} it; take the edit into the file with \`${exportOnlyCommand(rc.address, dir)}\`, ` +
      `or ${verb} it with \`wsc apply --overwrite-ui-edits ${rc.address}\``,
  ];
}

/** Lines about prune, the held-back deletes and the UI edits, for below the summary. */
export function ownershipLines(plan: Plan): string[] {
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
  const edited = plan.changes.filter((c) => c.uiEdits !== undefined).length;
  if (edited > 0) {
    const one = edited === 1;
    out.push(
      `${edited} resource${one ? ' was' : 's were'} edited outside wsc since the last apply (marked !): ` +
        `apply leaves ${one ? 'it' : 'them'} alone unless --overwrite-ui-edits.`,
    );
  }
  return out;
}
