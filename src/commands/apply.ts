// `wsc apply [PLANFILE]`: plan (or load a saved plan), confirm, execute.
// Thin: the work is in core/execute (orchestration), render/apply (output),
// the shared plan preparation of `wsc plan` and, for a saved plan, the same
// steps plus the comparison with the file (apply-saved.ts).
import type { ApplyOptions } from '../command-options.js';
import { execute, type ApplyResult } from '../core/execute/index.js';
import { hasRequests, type Plan } from '../core/plan-model.js';
import type { Connection } from '../api/connect.js';
import { createOnlyError } from '../core/plan/create-only.js';
import { semanticError } from '../core/semantic/outcome.js';
import { EXIT, UsageError } from '../errors.js';
import { applyStatus, renderApplyNothing, renderApplyOutcome, renderInterrupted } from '../render/apply.js';
import { renderPlanHuman } from '../render/plan-human.js';
import { refusedBlocked } from '../render/plan-ownership.js';
import { confirmWaysForward, type PlanFlags } from '../render/run-commands.js';
import { createProgress } from './progress.js';
import { applySavedPlan } from './apply-saved.js';
import type { CommandContext } from './context.js';
import { preparePlan } from './prepare.js';
import { endPhase } from '../timings.js';

type Options = ApplyOptions & { args?: string[] };

export async function run(opts: Options, ctx: CommandContext): Promise<number> {
  const planFile = opts.args?.[0];
  if (planFile !== undefined) {
    const saved = await applySavedPlan(planFile, opts, ctx);
    try {
      if (!hasRequests(saved.plan)) return noChanges(saved.plan, saved.run, opts, ctx);
      return await executeAndReport(saved.plan, saved.conn, opts, ctx, { run: saved.run });
    } finally {
      await saved.conn.close();
    }
  }

  // Checked before anything is read: without a terminal nobody can answer.
  if (!ctx.interactive && !opts.autoApprove) {
    throw new UsageError('apply needs confirmation: pass --auto-approve when not on a terminal', {
      code: 'confirmation_required',
      hint: confirmWaysForward(opts),
    });
  }
  const prepared = await preparePlan(opts, ctx);
  try {
    const { plan } = prepared;
    // Members the data model lacks: refused before anything is shown or asked, with each one located.
    const refused = createOnlyError(plan) ?? semanticError(prepared.semantic, true);
    if (refused) throw refused;
    if (!hasRequests(plan)) return noChanges(plan, opts, opts, ctx);
    // The plan and the result on stdout, as `wsc plan` does (`wsc apply | tee apply.log` keeps both); progress
    // on stderr. With --output json, stdout holds the result's JSON alone, so the plan goes to stderr.
    const show = (text: string) => (opts.output === 'json' ? ctx.err(text) : ctx.out(text));
    show(renderPlanHuman(plan, ctx.style, opts, { compact: opts.compact, semantic: prepared.semantic }));
    if (!opts.autoApprove) {
      const yes = await ctx.confirm('Apply these changes? (yes/no)');
      if (!yes) {
        show('Apply cancelled. Nothing was changed.\n');
        return EXIT.failure;
      }
    }
    return await executeAndReport(plan, prepared.conn, opts, ctx, { run: opts, shownPlan: true });
  } finally {
    await prepared.conn.close();
  }
}

function noChanges(plan: Plan, run: PlanFlags, opts: Options, ctx: CommandContext): number {
  ctx.out(renderApplyNothing(plan, run, opts.output === 'json'));
  return EXIT.ok;
}

async function executeAndReport(
  plan: Plan,
  conn: Connection,
  opts: Options,
  ctx: CommandContext,
  o: { run: PlanFlags; shownPlan?: boolean },
): Promise<number> {
  const shownPlan = o.shownPlan === true;
  const json = opts.output === 'json';
  const progress = createProgress({
    style: ctx.style,
    write: (text) => ctx.err(text),
    ...(ctx.style.spinner ? { stream: process.stderr } : {}),
  });
  // Ctrl-C (or the CI runner's SIGTERM) while writing: start nothing new,
  // let the requests in flight end, and report what was applied; a second
  // signal ends the process at once.
  const interrupt = new AbortController();
  const stopListening = ctx.onInterrupt((signal) => {
    interrupt.abort();
    ctx.err(renderInterrupted(signal, ctx.style));
  });
  let result: ApplyResult;
  try {
    result = await execute(plan, conn.port, {
      concurrency: opts.concurrency,
      onEvent: progress.onEvent,
      // The server gone (the client's breaker open) stops new requests like an interrupt.
      signal: AbortSignal.any([interrupt.signal, conn.client.breaker.signal]),
      refuse: refusedBlocked(plan, o.run, !shownPlan && json),
    });
  } finally {
    stopListening();
    progress.stop();
  }
  endPhase('apply');
  ctx.out(renderApplyOutcome(plan, result, ctx.style, { run: o.run, json, shownPlan }));
  const status = applyStatus(result);
  if (status === 'applied') return EXIT.ok;
  return status === 'blocked' ? EXIT.blocked : status === 'partial' ? EXIT.partial : EXIT.failure;
}
