// An adopt block, checked at plan time. A publicId is write-once: the API
// lets a report receive one only while it has none of its own (none at all,
// or the reserved placeholder a UI-made report shows). Adopting a report that
// already has a different real publicId would fail at apply, after other
// writes; the plan refuses it instead, with the way out.
import { isPlaceholderPublicId, type Report } from '../../domain/wire.js';
import { EXIT, WscError } from '../../errors.js';
import type { DesiredReport, PlanContext } from '../model.js';
import { at } from '../where.js';

/**
 * Whether the API lets this report be given a publicId: it has none, or one
 * the API made up for it: the placeholder shape, or an id several reports
 * share (real publicIds are unique, so a shared one is synthesized).
 */
export function canTakePublicId(r: Report, reportsByPid: ReadonlyMap<string, readonly Report[]>): boolean {
  const pid = r.publicId;
  if (pid === null || pid === undefined || pid === '' || isPlaceholderPublicId(pid)) return true;
  return (reportsByPid.get(pid)?.length ?? 0) > 1;
}

/** The adopt target already has a real publicId other than the one the plan would give it. */
export function adoptPublicIdSet(d: DesiredReport, target: Report, livePid: string, ctx: PlanContext): WscError {
  const own = String(target.publicId);
  const file = d.pos.file;
  const alias = d.adopt?.publicId !== undefined;
  const wayOut = alias
    ? `Set the adopt block's \`publicId\` to ${own} (the report's own), or ` +
      `remove the adopt block to create a new report.`
    : ctx.publicIds === 'per-deployment'
      ? `Add \`publicId: ${own}\` to the adopt block in ${file}: in deployment ` +
        `${ctx.deploymentId} the report then keeps its own ` +
        `publicId, and the file's publicId still names it in references. Or ` +
        `remove the adopt block to create a new report.`
      : `Use the report's publicId in the file (\`publicId: ${own}\` in ${file}, without the adopt block), or add ` +
        `\`publicId: ${own}\` to the adopt block to keep the file's publicId ` +
        `for references. Or remove the adopt block to ` +
        'create a new report.';
  return new WscError(
    'adopt_public_id_set',
    `${at(d.pos)}${d.address}: adopt names report ${target.id} in ` +
      `deployment ${ctx.deploymentId}, which already has the ` +
      `publicId ${own}; a publicId cannot be changed once set, so the report cannot be given ${livePid}.`,
    EXIT.invalid,
    { hint: wayOut },
  );
}

/** The adopt block's publicId is held by another report than the one it names. */
export function adoptAliasElsewhere(d: DesiredReport, holder: Report, ctx: PlanContext): WscError {
  return new WscError(
    'adopt_public_id_elsewhere',
    `${at(d.pos)}${d.address}: the adopt block gives report ${d.adopt!.id} ` +
      `the publicId ${d.adopt!.publicId}, but report ` +
      `${holder.id} in deployment ${ctx.deploymentId} has it.`,
    EXIT.invalid,
    { hint: `Name report ${holder.id} in the adopt block, or give the block another publicId (or none).` },
  );
}
