// `wsc preview`: the bundle's dashboards as pictures, offline. With --out,
// one SVG per dashboard and breakpoint with a layout; without, a page on
// loopback that reloads when a bundle file changes. Nothing is read from or
// written to the API: --env only picks the variables for interpolation.
import { writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { isDirectory } from '../bundle/files.js';
import { loadBundle } from '../bundle/load.js';
import { resolveEnvironment } from '../config/environment.js';
import { BundleError, ConfigError, EXIT, UsageError, type Diagnostic } from '../errors.js';
import { makeDirectory } from '../make-dir.js';
import { renderDiagnostics } from '../render/diagnostics.js';
import { previewModel, type PreviewModel } from '../preview/model.js';
import { dashboardSvgs } from '../preview/svg.js';
import type { PreviewOptions } from './options.js';
import { interrupted, type CommandContext } from './context.js';

async function load(
  dir: string,
  opts: PreviewOptions,
  ctx: CommandContext,
): Promise<{ model: PreviewModel; diagnostics: Diagnostic[] }> {
  try {
    const env = await resolveEnvironment({ dir, flags: { env: opts.env }, env: ctx.env, requireToken: false });
    const loaded = await loadBundle(dir, {
      vars: env.vars,
      env: ctx.env,
      mayHoldUnknownRefs: env.mayHoldUnknownRefs,
    });
    return { model: previewModel(loaded.desired, loaded.diagnostics), diagnostics: loaded.diagnostics };
  } catch (e) {
    // wsc.yaml itself is invalid: nothing to draw, its diagnostics to show.
    if (!(e instanceof BundleError)) throw e;
    return {
      model: previewModel({ workbooks: [], reports: [], userAttributes: [] }, e.diagnostics),
      diagnostics: e.diagnostics,
    };
  }
}

export async function run(opts: PreviewOptions, ctx: CommandContext): Promise<number> {
  const dir = resolve(ctx.cwd, opts.dir);
  if (!(await isDirectory(dir))) {
    throw new ConfigError('bundle_dir_missing', `bundle directory not found: ${opts.dir}`, {
      hint: 'Pass the directory that holds wsc.yaml and the bundle files with --dir.',
    });
  }
  if (opts.out !== undefined) return writeSvgs(dir, opts.out, opts, ctx);

  const { startPreviewServer } = await import('../preview/server.js');
  let server;
  try {
    server = await startPreviewServer({
      dir,
      port: opts.port,
      load: async () => (await load(dir, opts, ctx)).model,
      onError: (e) => ctx.err(`reload failed: ${e instanceof Error ? e.message : String(e)}\n`),
    });
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    if (code !== 'EADDRINUSE' && code !== 'EACCES') throw e;
    throw new UsageError(`cannot listen on 127.0.0.1:${opts.port}: ${code}.`, {
      code: 'preview_port',
      hint: 'Pick another --port (0 = any free port).',
    });
  }
  ctx.out(`Preview of ${opts.dir} at ${server.url} (loopback only; reloads when a file changes). Ctrl-C to stop.\n`);
  await interrupted(ctx);
  await server.close();
  return EXIT.ok;
}

async function writeSvgs(dir: string, out: string, opts: PreviewOptions, ctx: CommandContext): Promise<number> {
  const { model, diagnostics } = await load(dir, opts, ctx);
  if (diagnostics.length > 0) ctx.err(renderDiagnostics(diagnostics, ctx.style));
  const files = dashboardSvgs(model.workbooks);
  const target = resolve(ctx.cwd, out);
  try {
    await makeDirectory(target);
    for (const f of files) await writeFile(join(target, f.name), f.text);
  } catch (e) {
    throw new UsageError(`cannot write the pictures into ${out}: ${(e as NodeJS.ErrnoException).code ?? String(e)}.`, {
      code: 'preview_out_dir',
      hint: 'Give --out a directory you can write to (it is created when missing).',
    });
  }
  ctx.out(
    files.length > 0 ? `${files.map((f) => `wrote ${join(out, f.name)}`).join('\n')}\n` : 'No dashboard to draw.\n',
  );
  return diagnostics.some((d) => d.severity === 'error') ? EXIT.invalid : EXIT.ok;
}
