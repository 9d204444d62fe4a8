// The semantic check of plan and apply (and `validate --semantic-check`):
// whether it runs (--skip-semantic-check, the environment's
// `semanticCheck: false`), the model read beside the live state, and the
// bundle's members checked against it. Never throws for an unreadable model:
// that is a warning on stderr and the plan goes on.
import type { Connection, ConnectOptions } from '../api/connect.js';
import { readDataModel } from '../api/data-model.js';
import { locatorOf } from '../bundle/locate.js';
import type { ResolvedEnvironment } from '../config/types.js';
import type { DesiredState } from '../core/model.js';
import { bundleMembers, checkMembers, countUses } from '../core/semantic/check.js';
import { indexModel } from '../core/semantic/model-index.js';
import type { SemanticOutcome } from '../core/semantic/outcome.js';
import { semanticHuman, semanticInPlan } from '../render/plan-semantic.js';
import type { CommandContext } from './context.js';
import { visible } from '../visible.js';

export interface SemanticRequest {
  skip?: boolean | undefined;
  /** `--target` addresses: only their members are checked. */
  targets?: readonly string[];
}

/**
 * Starts the check: the model's requests leave before this returns (so that
 * they run beside the live read, in an order that does not depend on timing);
 * the promise resolves once the model is read and the members checked.
 */
export function startSemanticCheck(
  desired: DesiredState,
  env: ResolvedEnvironment,
  req: SemanticRequest,
  conn: Connection,
  connOpts: ConnectOptions,
): Promise<SemanticOutcome> {
  if (req.skip === true) return Promise.resolve({ status: 'off', reason: '--skip-semantic-check' });
  if (env.semanticCheck === false)
    return Promise.resolve({ status: 'off', reason: `semanticCheck: false in wsc.yaml for ${env.name}` });
  const only = req.targets !== undefined && req.targets.length > 0 ? new Set(req.targets) : undefined;
  const resources = bundleMembers(desired, { only, locatorOf });
  if (resources.length === 0) return Promise.resolve({ status: 'none' });
  const members = countUses(resources);
  const read = readDataModel(conn.client, conn.deploymentId, {
    maxRetries: connOpts.maxRetries,
    ...(connOpts.requestTimeoutMs !== undefined ? { requestTimeoutMs: connOpts.requestTimeoutMs } : {}),
    ...(connOpts.trace ? { trace: connOpts.trace } : {}),
    ...(connOpts.notice ? { notice: connOpts.notice } : {}),
  });
  return read.then((r): SemanticOutcome => {
    if (!r.ok) return { status: 'unavailable', members, tried: r.tried, why: r.why };
    const index = indexModel(r.meta);
    return { status: 'checked', cubes: index.cubes.size, result: checkMembers(resources, index) };
  });
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
