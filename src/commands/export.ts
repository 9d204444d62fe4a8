// `wsc export`: read a deployment into bundle files, in one of three ways
// (core/export/decide.ts tells which). `--out DIR [--workbook SLUG ...]`: a
// new snapshot, streamed (the transform is core/export, the files
// bundle/write-files, the words render/export). `--into DIR`: the existing
// bundle at DIR updated in place from the deployment, read once; the plan of
// the bundle against it says which resources the bundle already manages
// (matched by its own publicIds and slugs) and which of their fields differ;
// those are set in the existing documents, and resources the bundle does not
// hold yet get new files. `--only ADDR ...`: the named resources' values
// taken into their existing files (a UI edit into Git). In place, comments,
// key order, wsc.yaml and every other file stay as they are (decided by
// core/export/into.ts and only.ts, written by bundle/update.ts). Never writes
// to the API.
import { resolve } from 'node:path';
import type { ExportOptions } from '../command-options.js';
import { EXIT, WscError } from '../errors.js';
import { connect } from '../api/connect.js';
import { exportSourceFrom, exportSourceOf } from '../api/export-source.js';
import { LIST_TOO_LONG } from '../api/list-bound.js';
import { hintsFor } from '../api/live.js';
import { pathKind } from '../bundle-dir.js';
import { updateInto, updateOnly } from '../bundle/update.js';
import { DirSink, GITIGNORE } from '../bundle/write-files.js';
import { generatedConfig } from '../bundle/write.js';
import { exportWay, intoWarnings, noBundleAt, unreadableWarnings } from '../core/export/decide.js';
import { exportDeployment } from '../core/export/index.js';
import { MemorySink } from '../core/export/into.js';
import { onlyAddresses } from '../core/export/only.js';
import type { UnreadableItem } from '../core/model.js';
import { checkTargetsIn } from '../core/plan/targets.js';
import { renderExportHuman, renderExportJson, renderExportWarnings } from '../render/export.js';
import { renderInto, renderOnly } from '../render/export-into.js';
import { configure } from './configure.js';
import type { CommandContext } from './context.js';
import { connectOptions } from './connection.js';
import { planOf, readLive, sayReading, validBundle } from './steps.js';
import { endPhase } from '../timings.js';

/** Failures after which an export keeps none of the files it made. */
const DISCARDS = new Set<string>([LIST_TOO_LONG, 'lists_too_large', 'export_file_too_large']);

export async function run(opts: ExportOptions, ctx: CommandContext): Promise<number> {
  endPhase('start-up');
  const { way, dir: out } = exportWay(opts);
  if (way === 'only') return runOnly(opts, ctx, out);
  if (way === 'into') return runInto(opts, ctx);

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
    summary.warnings.push(...unreadableWarnings(unreadable));
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

/**
 * The environment, the bundle an export updates in place (`shown`: its directory as given; `root`: resolved),
 * and a connection: a bundle that is not there or does not load is not updated (exit 3, nothing read).
 * `only`: the addresses of --only, checked before any request.
 */
async function environmentAndBundle(opts: ExportOptions, ctx: CommandContext, shown: string, only?: string[]) {
  const root = resolve(ctx.cwd, shown);
  const found = await pathKind(root);
  if (found !== 'directory') throw noBundleAt(opts, shown, found);
  // Whose wsc.yaml names the environment: --dir when given; else the bundle's own (as plan would read it).
  const config = opts.dirGiven === true ? opts.dir : shown;
  const { environment: env, client } = await configure(opts, ctx, { dir: config });
  const { desired } = await validBundle(root, env, ctx, { shown: { dir: shown, env: opts.env }, anyRefs: true });
  // In the words of the flag given (plan would say `--target`).
  if (only !== undefined) checkTargetsIn(desired, only, '--only');
  const conn = await connect(env, connectOptions(opts, client, ctx));
  return { env, desired, conn, root };
}

async function runInto(opts: ExportOptions, ctx: CommandContext): Promise<number> {
  const { env, desired, conn, root } = await environmentAndBundle(opts, ctx, opts.into!);
  try {
    sayReading(env, ctx, 'Exporting', ` into ${opts.into}`);
    const hints = hintsFor(desired);
    const live = await readLive(conn, desired);
    const { changes } = planOf(desired, live, env);
    // The same export as `--out`, from what was just read.
    const sink = new MemorySink();
    const summary = await exportDeployment(exportSourceFrom(live, hints, conn.client, conn.deploymentId), sink, {
      deploymentId: conn.deploymentId,
      workbooks: [],
      publicIds: env.publicIds,
    });
    const perDeployment = env.publicIds === 'per-deployment' ? conn.deploymentId : undefined;
    const input = { desired, live, changes, bundle: env.bundle };
    const outcome = await updateInto(root, sink.docs, input, perDeployment);
    endPhase('export');
    ctx.err(
      renderExportWarnings(intoWarnings(summary.warnings, new Set(outcome.created.map((c) => c.rel))), ctx.style),
    );
    ctx.out(renderInto(opts.output, opts.into!, outcome, opts));
    return EXIT.ok;
  } finally {
    await conn.close();
  }
}

async function runOnly(opts: ExportOptions, ctx: CommandContext, dir: string): Promise<number> {
  const only = onlyAddresses(opts.only ?? []);
  const { env, desired, conn, root } = await environmentAndBundle(opts, ctx, dir, only);
  try {
    const live = await readLive(conn, desired);
    const { changes } = planOf(desired, live, env, { targets: only });
    ctx.out(renderOnly(updateOnly(root, only, { desired, live, changes, bundle: env.bundle }, env), dir, opts));
    return EXIT.ok;
  } finally {
    await conn.close();
  }
}
