// `wsc preview`: the bundle's dashboards as pictures, offline. With --out,
// one SVG per dashboard and breakpoint with a layout; without, a page on
// loopback that reloads when a bundle file changes. With --against, the
// change against a baseline is marked on both (git:<ref>: the bundle as
// committed; env:<name>: the live deployment, read once and only read).
// Nothing else is read from the API and nothing is ever written to it:
// --env only picks the variables for interpolation. The drawing itself is
// preview-drawing.ts's (plan --pictures draws the same way).
import { join, resolve } from 'node:path';
import { EXIT, UsageError } from '../errors.js';
import { causeOf } from '../domain/fs-cause.js';
import { startPreviewServer } from '../preview/server.js';
import type { PreviewOptions } from '../command-options.js';
import { interrupted, type CommandContext } from './context.js';
import { previewLoader, writePreviewPictures, type Loader } from './preview-drawing.js';

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
    throw new UsageError(`cannot listen on 127.0.0.1:${opts.port}: ${causeOf(e)}.`, {
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
