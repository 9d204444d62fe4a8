// `wsc validate`: load the bundle offline and print every diagnostic. The
// diagnostics are the command's result, so they go to stdout.
import { resolve } from 'node:path';
import { countResources, loadBundle } from '../bundle/load.js';
import { isDirectory } from '../bundle/files.js';
import { resolveEnvironment } from '../config/environment.js';
import { BundleError, ConfigError, EXIT, UsageError, type Diagnostic } from '../errors.js';
import { renderDiagnostics, renderValidateSummary, sortDiagnostics } from '../render/diagnostics.js';
import type { ValidateOptions } from './options.js';
import type { CommandContext } from './context.js';
import { endPhase } from '../timings.js';

export async function run(opts: ValidateOptions, ctx: CommandContext): Promise<number> {
  if (opts.output === 'markdown') throw new UsageError('`wsc validate` prints --output human or json.');
  endPhase('start-up');
  const dir = resolve(ctx.cwd, opts.dir);
  if (!(await isDirectory(dir))) {
    throw new ConfigError('bundle_dir_missing', `bundle directory not found: ${opts.dir}`, {
      hint: 'Pass the directory that holds wsc.yaml and the bundle files with --dir.',
    });
  }
  let diagnostics: Diagnostic[];
  let resources: ReturnType<typeof countResources>;
  try {
    const env = await resolveEnvironment({
      dir,
      flags: { env: opts.env, baseUrl: opts.baseUrl, deployment: opts.deployment },
      env: ctx.env,
      requireToken: false,
    });
    const loaded = await loadBundle(dir, {
      vars: env.vars,
      env: ctx.env,
      mayHoldUnknownRefs: env.mayHoldUnknownRefs,
      strict: opts.strict === true,
      tokenVariables: env.tokenVariables,
    });
    diagnostics = loaded.diagnostics;
    resources = countResources(loaded.desired);
    // Only a valid bundle is checked against a model: nothing is sent for one that is not.
    if (opts.semanticCheck === true && !diagnostics.some((d) => d.severity === 'error')) {
      const flags = { env: opts.env, baseUrl: opts.baseUrl, deployment: opts.deployment };
      // Resolved again with its token required: the check connects.
      const target = await resolveEnvironment({ dir, flags, env: ctx.env });
      const { semanticDiagnostics } = await import('./validate-semantic.js');
      diagnostics = [...diagnostics, ...(await semanticDiagnostics(loaded.desired, target, opts, ctx))];
    }
  } catch (e) {
    // wsc.yaml itself is invalid: its diagnostics are part of this command's result, and so are the bundle
    // files', read without the environment (its `vars` unknown; a reference outside the bundle only warned of, unless
    // --strict).
    if (!(e instanceof BundleError)) throw e;
    const loaded = await loadBundle(dir, {
      vars: {},
      varsUnknown: true,
      env: ctx.env,
      mayHoldUnknownRefs: true,
      strict: opts.strict === true,
    });
    diagnostics = [...e.diagnostics, ...loaded.diagnostics];
    resources = countResources(loaded.desired);
  }
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
