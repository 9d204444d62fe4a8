// `wsc preview`: the bundle's dashboards as pictures, offline. With --out,
// one SVG per dashboard and breakpoint with a layout; without, a page on
// loopback that reloads when a bundle file changes. With --against, the
// change against a baseline is marked on both (git:<ref>: the bundle as
// committed; env:<name>: the live deployment, read once and only read).
// Nothing else is read from the API and nothing is ever written to it:
// --env only picks the variables for interpolation.
import { join, resolve } from 'node:path';
import { requireBundleDir } from '../bundle-dir.js';
import type { DesiredState } from '../core/model.js';
import { BundleError, EXIT, UsageError, type Diagnostic } from '../errors.js';
import { renderDiagnostics } from '../render/diagnostics.js';
import { markChanges, previewModel, type PreviewModel } from '../preview/model.js';
import { startPreviewServer } from '../preview/server.js';
import { readModelFile } from '../preview/model-file.js';
import { pictureFiles, writePictures } from '../preview/picture-files.js';
import { loadBundle } from '../bundle/load.js';
import { dataPlan } from './preview-data.js';
import { markChartChanges } from '../preview/report-changes.js';
import { configure } from './configure.js';
import type { PreviewOptions } from './options.js';
import { interrupted, type CommandContext } from './context.js';
import { bundleAtRef, removeBundleCopy } from '../bundle/at-ref.js';
import { gitBaselines, type Against } from '../preview/baselines.js';
import { envBaselines, parseAgainst } from './preview-against.js';

const EMPTY: DesiredState = { workbooks: [], reports: [], userAttributes: [] };

async function loadDesired(
  dir: string,
  envName: string | undefined,
  ctx: CommandContext,
): Promise<{ desired: DesiredState; diagnostics: Diagnostic[] }> {
  try {
    const { environment: env } = await configure({ env: envName }, ctx, { dir, connects: false });
    const { vars, mayHoldUnknownRefs, folderLookAlikes } = env;
    const alike = folderLookAlikes !== undefined ? { folderLookAlikes } : {};
    return await loadBundle(dir, { vars, env: ctx.settings.variables, mayHoldUnknownRefs, ...alike });
  } catch (e) {
    // wsc.yaml itself is invalid: nothing to draw, its diagnostics to show.
    if (!(e instanceof BundleError)) throw e;
    return { desired: EMPTY, diagnostics: e.diagnostics };
  }
}

/** The baseline of `--against`, made once: the bundle at a commit, or the live deployment read once. */
async function baselinesOf(
  against: string,
  dir: string,
  envName: string | undefined,
  ctx: CommandContext,
): Promise<Against> {
  const ref = parseAgainst(against);
  if (ref.kind === 'env') return envBaselines(ref.name, dir, (await loadDesired(dir, envName, ctx)).desired, ctx);
  const { copy, skipped } = await bundleAtRef(dir, ref.ref);
  for (const s of skipped)
    ctx.err(`${ctx.style.c.yellow('warning')} ${against}: ${s.path}: ${s.why}; not read, the baseline is without it\n`);
  try {
    // The committed bundle as it loads: its problems are not this run's (only its dashboards are drawn from).
    return gitBaselines((await loadDesired(copy, envName, ctx)).desired);
  } finally {
    await removeBundleCopy(copy);
  }
}

/** The bundle's model as drawn now, marked against the baseline when there is one, its charts with or without data. */
type Loader = () => Promise<{ model: PreviewModel; diagnostics: Diagnostic[] }>;

/** The drawing of a preview: a loader of the model (called on each reload), and the data's connection to close. */
async function previewLoader(
  opts: PreviewOptions,
  ctx: CommandContext,
): Promise<{ load: Loader; close: () => Promise<void> }> {
  const dir = resolve(ctx.cwd, opts.dir);
  await requireBundleDir(dir, opts.dir);
  // Against an environment, its variables are the ones the bundle is drawn with, unless --env says otherwise.
  const envName = opts.env ?? (opts.against?.startsWith('env:') ? opts.against.slice(4) : undefined);
  const index = opts.model !== undefined ? await readModelFile(resolve(ctx.cwd, opts.model), opts.model) : undefined;
  const against = opts.against === undefined ? undefined : await baselinesOf(opts.against, dir, envName, ctx);
  const data =
    opts.out !== undefined
      ? await dataPlan(opts.withData === true, 'files carry data only with --with-data', envName, dir, ctx)
      : await dataPlan(opts.data !== false, '--no-data: the charts are drawn as boxes', envName, dir, ctx);
  const load: Loader = async () => {
    const { desired, diagnostics } = await loadDesired(dir, envName, ctx);
    let model = previewModel(desired, diagnostics, index);
    if (against !== undefined) {
      const base = against.baselines(desired);
      model = markChanges(model, desired, base, opts.against!);
      model = markChartChanges(model, (slug) => base.get(slug)?.before, against.reports);
    }
    return { model: await data.draw(model), diagnostics };
  };
  return { load, close: () => data.close() };
}

export async function run(opts: PreviewOptions, ctx: CommandContext): Promise<number> {
  if (opts.out !== undefined) {
    const { written, diagnostics } = await writePreviewPictures({ ...opts, out: opts.out }, ctx);
    const none =
      opts.against !== undefined ? `No dashboard changed against ${opts.against}.\n` : 'No dashboard to draw.\n';
    ctx.out(written.length > 0 ? `${written.map((f) => `wrote ${join(opts.out!, f.name)}`).join('\n')}\n` : none);
    return diagnostics.some((d) => d.severity === 'error') ? EXIT.invalid : EXIT.ok;
  }
  const { load, close } = await previewLoader(opts, ctx);
  try {
    return await serve(resolve(ctx.cwd, opts.dir), load, opts, ctx);
  } finally {
    await close();
  }
}

async function serve(dir: string, load: Loader, opts: PreviewOptions, ctx: CommandContext): Promise<number> {
  let server;
  try {
    server = await startPreviewServer({
      dir,
      port: opts.port,
      load: async () => (await load()).model,
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
  const what = opts.against !== undefined ? `${opts.dir} against ${opts.against}` : opts.dir;
  ctx.out(`Preview of ${what} at ${server.url} (loopback only; reloads when a file changes). Ctrl-C to stop.\n`);
  await interrupted(ctx);
  await server.close();
  return EXIT.ok;
}

/** A picture written: its file name (in the directory given), and the workbook it draws. */
export interface WrittenPicture {
  name: string;
  slug: string;
}

/**
 * `preview --out DIR`: each dashboard (against a baseline, each changed one) as SVG and PNG, per breakpoint,
 * written into DIR through the one link-safe writer. Also the step of `plan --pictures DIR` (the same
 * pictures as `preview --out DIR --against env:<the plan's environment>`).
 */
export async function writePreviewPictures(
  opts: PreviewOptions & { out: string },
  ctx: CommandContext,
): Promise<{ written: WrittenPicture[]; diagnostics: Diagnostic[] }> {
  const { load, close } = await previewLoader(opts, ctx);
  let drawn;
  try {
    drawn = await load();
  } finally {
    await close();
  }
  const { model, diagnostics } = drawn;
  if (diagnostics.length > 0) ctx.err(renderDiagnostics(diagnostics, ctx.style));
  if (opts.withData === true && model.data !== undefined && 'off' in model.data)
    ctx.err(`wsc: the pictures are drawn without data: ${model.data.off}.\n`);
  const files = await pictureFiles(model.workbooks, opts.against);
  await writePictures(resolve(ctx.cwd, opts.out), opts.out, files);
  return { written: files.map(({ name, slug }) => ({ name, slug })), diagnostics };
}
