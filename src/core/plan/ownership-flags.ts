// What the run's ownership flags ask of the planner, and the checks of the
// addresses they name: `--overwrite-ui-edits`, `--take-over`, `--ui-edits`,
// `--prune` and `--max-deletes` beside the environment's `prune:` and
// `uiEdits:` (plan, apply and apply PLANFILE). Pure: the flags and the
// environment in, the planner's OwnershipContext or a UsageError (exit 3) out.
import { deletesResource } from '../deletes.js';
import type { DesiredState, OwnershipContext } from '../model.js';
import type { Plan } from '../plan-model.js';
import { UsageError } from '../../errors.js';
import { checkTargets, targetableAddresses } from './targets.js';

/** The ownership flags of plan and apply (the two last of apply alone). */
export interface OwnershipFlags {
  prune?: boolean;
  maxDeletes?: number;
  uiEdits?: 'keep' | 'revert' | 'block';
  overwriteUiEdits?: boolean | string[];
  takeOver?: string[];
}

/** What of the environment the flags are read beside. */
export interface OwnershipEnv {
  bundle?: string;
  prune?: boolean;
  uiEdits?: 'keep' | 'revert' | 'block';
}

/** `--overwrite-ui-edits` and `--take-over` (apply only) as the planner takes them. */
export function overridesOf(opts: OwnershipFlags): Pick<OwnershipContext, 'overwrite' | 'takeOver'> {
  const out: Pick<OwnershipContext, 'overwrite' | 'takeOver'> = {};
  const { overwriteUiEdits: o, takeOver } = opts;
  if (o === true) out.overwrite = true;
  else if (Array.isArray(o) && o.length > 0) out.overwrite = [...o];
  if (takeOver !== undefined && takeOver.length > 0) out.takeOver = [...takeOver];
  return out;
}

/**
 * `--overwrite-ui-edits` and `--take-over` addresses must name a resource of the bundle (exit 3, did you mean);
 * an overwrite may also name a delete of `plan`. Before the plan (none given), the overwrite addresses are
 * left for later when `deferOverwrite` (prune is on).
 */
export function checkOwnershipAddresses(
  desired: DesiredState,
  opts: OwnershipFlags,
  deferOverwrite: boolean,
  plan?: Plan,
): void {
  const { overwriteUiEdits, takeOver } = opts;
  if (overwriteUiEdits === undefined && takeOver === undefined) return;
  const known = targetableAddresses(desired);
  if (plan === undefined && takeOver !== undefined) checkTargets(takeOver, known, '--take-over');
  if (!Array.isArray(overwriteUiEdits) || overwriteUiEdits.length === 0 || (plan === undefined && deferOverwrite)) {
    return;
  }
  const deletes = (plan?.changes ?? []).filter(deletesResource).map((c) => c.address);
  checkTargets(overwriteUiEdits, [...known, ...deletes], '--overwrite-ui-edits');
}

export function requireBundleName(opts: OwnershipFlags, env: OwnershipEnv): void {
  if (env.bundle !== undefined) return;
  if (opts.uiEdits !== undefined) {
    throw new UsageError("--ui-edits needs the bundle's name: wsc tells an edit made outside wsc by its record.", {
      code: 'bundle_name_required',
      hint:
        'Add `bundle: <name>` at the top of wsc.yaml and apply once. Without it there is no record, and apply ' +
        "writes the bundle's value over every field that differs (as --ui-edits revert).",
    });
  }
  if (opts.prune !== true) return;
  throw new UsageError("--prune needs the bundle's name: wsc deletes only what carries it in its ownership record.", {
    code: 'bundle_name_required',
    hint:
      "Add `bundle: <name>` at the top of wsc.yaml (for example the repository's name) and apply once, " +
      "so that what wsc writes is recorded as this bundle's.",
  });
}

export function ownershipOf(bundle: string, opts: OwnershipFlags, env: OwnershipEnv): OwnershipContext {
  const own: OwnershipContext = { bundle, prune: opts.prune === true || env.prune === true, ...overridesOf(opts) };
  const uiEdits = opts.uiEdits ?? env.uiEdits;
  if (uiEdits !== undefined) own.uiEdits = uiEdits;
  if (opts.maxDeletes !== undefined) own.maxDeletes = opts.maxDeletes;
  return own;
}
