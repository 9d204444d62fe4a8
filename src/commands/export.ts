// `wsc export --out DIR [--workbook SLUG ...]`: read a deployment, write a
// bundle. Thin: the transform and streaming are core/export, the files
// bundle/write-files, the words render/export.
import { resolve } from 'node:path';
import type { ExportOptions } from './options.js';
import type { UnreadableItem } from '../core/model.js';
import { EXIT, UsageError, WscError } from '../errors.js';
import { connect } from '../api/connect.js';
import { LIST_TOO_LONG } from '../api/list-bound.js';
import { DirSink, GITIGNORE } from '../bundle/write-files.js';
import { generatedConfig } from '../bundle/write.js';
import { exportDeployment } from '../core/export/index.js';
import { renderExportHuman, renderExportJson, renderExportWarnings } from '../render/export.js';
import { configure } from './configure.js';
import type { CommandContext } from './context.js';
import { exportSourceOf } from './export-source.js';
import { runExportInto } from './export-into.js';
import { runExportOnly } from './export-only.js';
import { connectOptions } from './connection.js';
import { sayReading } from './steps.js';
import { endPhase } from '../timings.js';

/** Failures after which an export keeps none of the files it made. */
const DISCARDS = new Set<string>([LIST_TOO_LONG, 'lists_too_large', 'export_file_too_large']);

export async function run(opts: ExportOptions, ctx: CommandContext): Promise<number> {
  endPhase('start-up');
  const out = checkExportFlags(opts);
  // Into the existing files of a bundle, not a snapshot: their own adapters.
  if (opts.only !== undefined && opts.only.length > 0) return runExportOnly(opts, ctx);
  if (opts.into !== undefined) return runExportInto(opts, ctx);

  const { environment: env, client } = await configure(opts, ctx, { dir: opts.dir });
  // Unsafe output directories are refused before anything is read (exit 3).
  const sink = await DirSink.open(resolve(ctx.cwd, out));

  const conn = await connect(env, connectOptions(opts, client, ctx));
  try {
    sayReading(env, ctx, 'Exporting');
    const unreadable: UnreadableItem[] = [];
    const summary = await exportDeployment(exportSourceOf(conn.client, conn.deploymentId, unreadable), sink, {
      deploymentId: conn.deploymentId,
      workbooks: opts.workbook,
      publicIds: env.publicIds,
    }).catch((e: unknown) => {
      // A list that would not end, lists over their bytes, a file that could not be read back: no snapshot
      // of the deployment, so none of its files stays.
      if (e instanceof WscError && DISCARDS.has(e.code)) sink.discardNew();
      throw e;
    });
    for (const o of unreadable) {
      const id = o.id !== undefined ? ` ${o.id}` : '';
      const name = `${o.kind}${id}${o.identity !== undefined ? ` (${o.identity})` : ''}`;
      summary.warnings.push({ code: 'resource-skipped', message: `${name} not exported: the server sent ${o.why}.` });
    }
    await sink.writeSchemas();
    await sink.writeIfAbsent('.gitignore', GITIGNORE);
    const configWritten = await sink.writeIfAbsent(
      'wsc.yaml',
      generatedConfig({
        environment: env.name,
        deploymentId: env.deploymentId,
        ...(env.baseUrl !== undefined ? { baseUrl: env.baseUrl } : {}),
        embedded: env.embedded,
        sourcePerDeployment: env.publicIds === 'per-deployment',
      }),
    );
    const facts = {
      outDir: out,
      environment: env.name,
      configWritten,
      embedded: env.embedded,
      stale: await sink.staleFiles(new Set(summary.written)),
      changed: sink.changedDocs,
    };
    endPhase('export');
    ctx.err(renderExportWarnings(summary.warnings, ctx.style));
    ctx.out(opts.output === 'json' ? renderExportJson(summary, facts) : renderExportHuman(summary, facts, ctx.style));
    return EXIT.ok;
  } finally {
    await conn.close();
  }
}

/** Exactly one of --out (a new snapshot) and --into (an existing bundle); returns the directory. */
function checkExportFlags(opts: ExportOptions): string {
  if (opts.out !== undefined && opts.into !== undefined) {
    const why = 'give one of --out and --into: --out writes a new snapshot, --into updates an existing bundle.';
    throw new UsageError(why);
  }
  const dir = opts.out ?? opts.into;
  if (dir === undefined) {
    throw new UsageError('export needs --out DIR (a new snapshot) or --into DIR (an existing bundle).', {
      hint: 'e.g. `wsc export --out dashboards`, or `wsc export --into dashboards` to update a bundle in place.',
    });
  }
  if (opts.into !== undefined && opts.workbook.length > 0) {
    throw new UsageError('--workbook cannot be used with --into: a bundle is updated as a whole (or give --only).');
  }
  return dir;
}
