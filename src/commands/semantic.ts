// The semantic check of plan and apply (and `validate --semantic-check`):
// whether it runs (--skip-semantic-check, the environment's
// `semanticCheck: false`, a bundle naming no member), then the run itself
// (api/semantic-run.ts), and what is said of it on stderr. Never throws for
// an unreadable model: that is a warning on stderr.
import type { Connection, ConnectOptions } from '../api/connect.js';
import { runSemanticCheck, type SemanticRun } from '../api/semantic-run.js';
import type { ResolvedEnvironment } from '../config/types.js';
import type { DesiredState } from '../core/model.js';
import { bundleMembers } from '../core/semantic/check.js';
import type { SemanticOutcome } from '../core/semantic/outcome.js';
import { semanticHuman, semanticInPlan } from '../render/plan-semantic.js';
import type { CommandContext } from './context.js';
import { visible } from '../visible.js';

export interface SemanticRequest {
  skip?: boolean | undefined;
  /** `--target` addresses: only their members are checked. */
  targets?: readonly string[];
}

const settled = (o: SemanticOutcome): SemanticRun => ({ finish: () => Promise.resolve(o), abort: () => undefined });

/**
 * Starts the check: the model's requests leave before this returns (so that they run beside the live
 * read, in an order that does not depend on timing).
 */
export function startSemanticCheck(
  desired: DesiredState,
  env: ResolvedEnvironment,
  req: SemanticRequest,
  conn: Connection,
  connOpts: ConnectOptions,
): SemanticRun {
  if (req.skip === true) return settled({ status: 'off', reason: '--skip-semantic-check' });
  if (env.semanticCheck === false)
    return settled({ status: 'off', reason: `semanticCheck: false in wsc.yaml for ${env.name}` });
  const only = req.targets !== undefined && req.targets.length > 0 ? new Set(req.targets) : undefined;
  const resources = bundleMembers(desired, { only });
  if (resources.length === 0) return settled({ status: 'none' });
  return runSemanticCheck(resources, conn, connOpts);
}

/**
 * On stderr: the warning of a model that could not be read (what was tried and why it failed), or,
 * when the plan does not show the check (every member known), what was checked and what could not be.
 */
export function reportSemantic(o: SemanticOutcome, deploymentId: number, ctx: CommandContext): void {
  if (!semanticInPlan(o)) ctx.err(semanticHuman(o, deploymentId, ctx.style, true));
  if (o.status !== 'unavailable') return;
  ctx.err(
    `${ctx.style.c.yellow('warning')} the semantic check did not run: the data model could not be read ` +
      `(${visible(o.why)}). Tried: ${visible(o.tried)}. The ${o.members} member use(s) the bundle names are ` +
      `not checked.\n`,
  );
}
