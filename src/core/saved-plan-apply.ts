// What `wsc apply PLANFILE` decides from the file and this run's flags before
// it derives the plan again: the flags a saved plan refuses, the bundle
// directory and the deployment the file may name, and the ownership the plan
// is derived with. The file may name the environment of wsc.yaml and the
// bundle directory (inside the working directory); the connection itself
// (host, deployment, token) comes from wsc.yaml, flags and the process
// environment only, and must be the one the plan was made for. Messages hold
// the file's text as it is: render/error.ts shows its control characters escaped.
import { CONTROL_CHAR } from '../domain/unsafe-chars.js';
import { UsageError } from '../errors.js';
import type { OwnershipContext, UiEditsPolicy } from './model.js';
import { overridesOf, type OwnershipFlags } from './plan/ownership-flags.js';
import type { SavedPlanEnvironment } from './saved-plan.js';

/** `--target` with a saved plan (checked before the file is read): the plan already says what to change. */
export function refuseTargetWithPlan(targets: readonly string[]): void {
  if (targets.length === 0) return;
  throw new UsageError('--target cannot be used with a saved plan: the plan already says what to change.', {
    code: 'target_with_plan',
    hint: 'Make a new saved plan with `wsc plan --target ADDR --out FILE`.',
  });
}

/** `--ui-edits` other than the policy the plan was made with (`saved`, keep when it names none). */
export function refuseOtherUiEdits(saved: UiEditsPolicy | undefined, flag: UiEditsPolicy | undefined): void {
  if (flag === undefined || flag === (saved ?? 'keep')) return;
  throw new UsageError(`--ui-edits ${flag} cannot change a saved plan made with uiEdits ${saved ?? 'keep'}.`, {
    code: 'ui_edits_with_plan',
    hint: `Make a new saved plan with \`wsc plan --ui-edits ${flag} --out FILE\`.`,
  });
}

/** The bundle directory the plan names (`rel`), or `real`, what it resolves to, outside the working directory. */
export function planDirOutside(rel: string, real?: string): UsageError {
  const named = `The saved plan names the bundle directory ${JSON.stringify(rel)}`;
  const message =
    real === undefined
      ? `${named}, outside the directory wsc runs in.`
      : `${named}, which resolves to ${real}, outside the directory wsc runs in (a symbolic link on the way).`;
  return new UsageError(message, { code: 'plan_dir_outside', hint: 'Give the bundle directory with --dir.' });
}

/**
 * The bundle directory's name leads out of the working directory (absolute by the system's rule, `isAbsolute`
 * of node:path, or through `..`) or holds a control character.
 */
export function refusePlanDirName(rel: string, isAbsolute: (path: string) => boolean): void {
  if (isAbsolute(rel) || rel.split(/[\\/]/).includes('..') || CONTROL_CHAR.test(rel)) throw planDirOutside(rel);
}

function where(e: SavedPlanEnvironment): string {
  return `deployment ${e.deploymentId} ${e.embedded ? 'of the embedded emulator' : `at ${e.baseUrl ?? '(no host)'}`}`;
}

/** This run must target the plan's host, deployment and publicId mode (exit 3 before anything is sent). */
export function refuseOtherDeployment(saved: SavedPlanEnvironment, env: SavedPlanEnvironment): void {
  const same =
    env.deploymentId === saved.deploymentId &&
    env.embedded === saved.embedded &&
    env.baseUrl === saved.baseUrl &&
    env.publicIds === saved.publicIds;
  if (same) return;
  const mode =
    env.publicIds === saved.publicIds ? '' : ` with publicIds ${saved.publicIds} (this run: ${env.publicIds})`;
  throw new UsageError(
    `The saved plan was made for ${where(saved)} (environment ${saved.name})${mode}, ` +
      `but this run targets ${where(env)} (environment ${env.name}).`,
    {
      code: 'plan_target_mismatch',
      hint:
        'Apply the plan to the deployment it was made for (drop the --env, ' +
        '--base-url or --deployment that differ), or make a new plan for this one.',
    },
  );
}

/**
 * The ownership a saved plan is derived again with: the same as when it was saved. Its deletes were reviewed
 * then, so no cap applies again (a delete the file holds that the bundle does not give is refused like any
 * other request), and the policy it was made with holds, whatever wsc.yaml says now.
 */
export function savedPlanOwnership(
  bundle: string,
  prune: boolean,
  opts: OwnershipFlags,
  uiEdits: UiEditsPolicy | undefined,
): OwnershipContext {
  return {
    bundle,
    prune,
    maxDeletes: Number.MAX_SAFE_INTEGER,
    ...overridesOf(opts),
    ...(uiEdits !== undefined ? { uiEdits } : {}),
  };
}
