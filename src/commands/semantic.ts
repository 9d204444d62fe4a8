// The semantic check of plan and apply (and `validate --semantic-check`):
// whether it runs (--skip-semantic-check, the environment's
// `semanticCheck: false`, a bundle naming no member), then the run itself
// (api/semantic-run.ts), and what is said of it on stderr. Never throws for
// an unreadable model: that is a warning on stderr (a diagnostic of
// validate). validate loads this module only when asked, so a plain validate
// never loads the HTTP client.
import { connect, type Connection, type ConnectOptions } from '../api/connect.js';
import { runSemanticCheck, type ModelRead, type SemanticRun } from '../api/semantic-run.js';
import type { ClientLimits } from '../config/resolve.js';
import type { ResolvedEnvironment } from '../config/types.js';
import type { DesiredState } from '../core/model.js';
import { bundleMembers } from '../core/semantic/check.js';
import { semanticDiagnostics, type SemanticOutcome } from '../core/semantic/outcome.js';
import type { Diagnostic } from '../errors.js';
import { semanticHuman, semanticInPlan, semanticNotRun } from '../render/plan-semantic.js';
import { connectOptions } from './connection.js';
import type { CommandContext } from './context.js';

export interface SemanticRequest {
  skip?: boolean | undefined;
  /** `--target` addresses: only their members are checked. */
  targets?: readonly string[];
}

const settled = (o: SemanticOutcome): SemanticRun => ({ finish: () => Promise.resolve(o), abort: () => undefined });

/** Whether the check may run at all (neither --skip-semantic-check nor `semanticCheck: false`). */
export const semanticWanted = (env: ResolvedEnvironment, req: SemanticRequest): boolean =>
  req.skip !== true && env.semanticCheck !== false;

/**
 * Starts the check: the model's requests leave before this returns (so that they run beside the live
 * read, in an order that does not depend on timing), unless `model` was started with an early read
 * (api/deployment-read.ts), and is dropped when there is nothing to check.
 */
export function startSemanticCheck(
  desired: DesiredState,
  env: ResolvedEnvironment,
  req: SemanticRequest,
  conn: Connection,
  connOpts: ConnectOptions,
  model?: ModelRead,
): SemanticRun {
  const only = req.targets !== undefined && req.targets.length > 0 ? new Set(req.targets) : undefined;
  const resources = semanticWanted(env, req) ? bundleMembers(desired, { only }) : [];
  if (resources.length === 0) model?.drop();
  if (req.skip === true) return settled({ status: 'off', reason: '--skip-semantic-check' });
  if (env.semanticCheck === false)
    return settled({ status: 'off', reason: `semanticCheck: false in wsc.yaml for ${env.name}` });
  if (resources.length === 0) return settled({ status: 'none' });
  return runSemanticCheck(resources, conn, connOpts, model);
}

/**
 * On stderr: the warning of a model that could not be read (what was tried and why it failed), or,
 * when the plan does not show the check (every member known), what was checked and what could not be.
 */
export function reportSemantic(o: SemanticOutcome, deploymentId: number, ctx: CommandContext): void {
  if (!semanticInPlan(o)) ctx.err(semanticHuman(o, deploymentId, ctx.style, true));
  if (o.status === 'unavailable') ctx.err(semanticNotRun(o, ctx.style));
}

/**
 * `validate --semantic-check`, the one networked part of validate, asked for explicitly: the environment's
 * data model read as plan reads it, every resource asked about (bounded as plan's are), the outcome as
 * diagnostics.
 */
export async function semanticCheckDiagnostics(
  desired: DesiredState,
  env: ResolvedEnvironment,
  client: ClientLimits,
  ctx: CommandContext,
): Promise<Diagnostic[]> {
  const connOpts = connectOptions({ verbose: false, concurrency: 2, maxRetries: 2 }, client, ctx);
  const conn = await connect(env, connOpts);
  try {
    // Asked for by name: also where wsc.yaml turns it off for plan.
    const { semanticCheck: _off, ...asked } = env;
    return semanticDiagnostics(await startSemanticCheck(desired, asked, {}, conn, connOpts).finish(() => true));
  } finally {
    await conn.close();
  }
}
