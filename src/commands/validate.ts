// `wsc validate`: load the bundle offline and print every diagnostic. The
// diagnostics are the command's result, so they go to stdout.
import { resolve } from 'node:path';
import { countResources } from '../bundle/load.js';
import { requireBundleDir } from '../bundle-dir.js';
import type { ResolvedConfig } from '../config/resolve.js';
import type { DesiredState } from '../core/model.js';
import { BundleError, EXIT, UsageError, type Diagnostic } from '../errors.js';
import { renderDiagnostics, renderValidateSummary, sortDiagnostics } from '../render/diagnostics.js';
import type { ValidateOptions } from '../command-options.js';
import type { CommandContext } from './context.js';
import { configure } from './configure.js';
import { endPhase } from '../timings.js';
import { bundleOf, bundleWithoutEnvironment } from './steps.js';

/**
 * `--semantic-check`, the one networked part of validate: its module (and the HTTP client with it) is loaded
 * only then, so that a plain validate never loads the HTTP client (test/cli/loaded-modules.test.ts).
 */
async function semanticCheck(
  desired: DesiredState,
  target: ResolvedConfig,
  ctx: CommandContext,
): Promise<Diagnostic[]> {
  const { semanticCheckDiagnostics } = await import('./semantic.js');
  return semanticCheckDiagnostics(desired, target.environment, target.client, ctx);
}

/** The diagnostics and the resources of the bundle: validate's result, the steps of plan up to connecting. */
async function checkBundle(dir: string, opts: ValidateOptions, ctx: CommandContext) {
  const strict = opts.strict === true;
  try {
    const { environment: env } = await configure(opts, ctx, { dir, connects: false });
    const { desired, diagnostics } = await bundleOf(dir, env, ctx, strict);
    // Only a valid bundle is checked against a model: nothing is sent for one that is not.
    if (opts.semanticCheck !== true || diagnostics.some((d) => d.severity === 'error')) return { desired, diagnostics };
    // Resolved again with its token required: the check connects.
    const target = await configure(opts, ctx, { dir });
    return { desired, diagnostics: [...diagnostics, ...(await semanticCheck(desired, target, ctx))] };
  } catch (e) {
    // wsc.yaml itself is invalid: its diagnostics are part of this command's result, and so are the bundle files'.
    if (!(e instanceof BundleError)) throw e;
    const { desired, diagnostics } = await bundleWithoutEnvironment(dir, ctx, strict);
    return { desired, diagnostics: [...e.diagnostics, ...diagnostics] };
  }
}

export async function run(opts: ValidateOptions, ctx: CommandContext): Promise<number> {
  if (opts.output === 'markdown') throw new UsageError('`wsc validate` prints --output human or json.');
  endPhase('start-up');
  const dir = resolve(ctx.cwd, opts.dir);
  await requireBundleDir(dir, opts.dir);
  const { desired, diagnostics } = await checkBundle(dir, opts, ctx);
  const resources = countResources(desired);
  endPhase('bundle');
  const valid = !diagnostics.some((d) => d.severity === 'error');
  if (opts.output === 'json') {
    ctx.out(`${JSON.stringify({ valid, diagnostics: sortDiagnostics(diagnostics), resources }, null, 2)}\n`);
  } else {
    ctx.out(renderDiagnostics(diagnostics, ctx.style));
    ctx.out(renderValidateSummary(valid, resources, ctx.style, opts.semanticCheck === true));
  }
  return valid ? EXIT.ok : EXIT.invalid;
}
