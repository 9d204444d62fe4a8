// `wsc export --into DIR`: update the existing bundle at DIR from the
// deployment, in place. The deployment is read once; the plan of the bundle
// against it says which resources the bundle already manages (matched by the
// bundle's own publicIds and slugs) and which of their fields differ; those
// fields are set in the existing documents (as `--only` does), and resources
// the bundle does not hold yet get new files. wsc.yaml, the other keys of a
// document and its comments stay as they are. Never writes to the API.
import { resolve } from 'node:path';
import type { ExportOptions } from './options.js';
import { EXIT, UsageError } from '../errors.js';
import { readFolderTree } from '../api/folders.js';
import { isDirectory } from '../bundle-dir.js';
import { discoverFiles } from '../bundle/files.js';
import { DirSink } from '../bundle/write-files.js';
import { exportDeployment } from '../core/export/index.js';
import { bundleMatches, intoDecisions, liveIndexOf, MemorySink, placeExport } from '../core/export/into.js';
import { renderExportWarnings } from '../render/export.js';
import type { CommandContext } from './context.js';
import { environmentAndBundle, liveAndPlan } from './export-bundle.js';
import { bundleDocuments } from '../bundle/documents.js';
import { liveSides } from '../core/export/only.js';
import { mergeJson, mergeLines } from '../render/export-merge.js';
import { renderIntoHuman, renderIntoJson, type IntoResult } from '../render/export-into.js';
import { exportSourceOf } from './export-source.js';
import { sayReading } from './steps.js';
import { endPhase } from '../timings.js';

export async function runExportInto(opts: ExportOptions, ctx: CommandContext): Promise<number> {
  const root = resolve(ctx.cwd, opts.into!);
  if (!(await isDirectory(root))) {
    throw new UsageError(`--into ${opts.into}: no such directory. --into updates an existing bundle.`, {
      code: 'export_out_dir',
      hint: 'Give the directory of the bundle to update, or write a new one with --out.',
    });
  }
  const path = await environmentAndBundle(opts, ctx, root);
  const { env, desired, conn } = path;
  try {
    sayReading(env, ctx, 'Exporting', ` into ${opts.into}`);
    const { hints, live, changes } = await liveAndPlan(path, []);
    // The same export as `--out`, from what was just read (user attributes read here when the plan did not).
    const once = <T>(items: T[]) =>
      async function* () {
        yield items;
      };
    const sink = new MemorySink();
    const summary = await exportDeployment(
      {
        workbooks: once(live.workbooks),
        reports: once(live.reports),
        userAttributes:
          hints.userAttributes === false
            ? () => exportSourceOf(conn.client, conn.deploymentId).userAttributes()
            : once(live.userAttributes),
        folders: () => (live.folders ? Promise.resolve(live.folders) : readFolderTree(conn.client, conn.deploymentId)),
      },
      sink,
      { deploymentId: conn.deploymentId, workbooks: [], publicIds: env.publicIds },
    );

    const matches = bundleMatches(desired, changes);
    const liveIndex = liveIndexOf(live, env.publicIds === 'per-deployment' ? conn.deploymentId : undefined);
    const taken = new Set((await discoverFiles(root)).files.map((f) => f.rel.toLowerCase()));
    const placed = placeExport(sink.docs, matches, liveIndex, taken);

    const docs = bundleDocuments(root, desired);
    const sides = { ...liveSides(live, changes, env.bundle), raw: docs.raw };
    const decided = intoDecisions(desired, changes, placed.managed, sides);
    const result: IntoResult = { updated: [], created: [], unchanged: decided.unchanged, notLive: decided.notLive };
    const lines: string[] = [];
    for (const e of decided.edits) {
      docs.edit(e);
      result.updated.push(mergeJson(e.address, e.file, e.merge));
      lines.push(...mergeLines(e.address, e.file, e.merge, opts.into));
    }
    if (placed.created.length > 0) {
      const files = await DirSink.open(root, { createDirs: false });
      for (const c of placed.created) {
        await files.writeDoc(c.kind, c.rel, c.doc);
        result.created.push({ address: c.address, file: c.rel });
      }
    }
    endPhase('export');
    const newFiles = new Set(result.created.map((c) => c.file));
    // Warnings of the files written; the per-deployment one does not apply (new reports carry an aliasing adopt).
    const warnings = summary.warnings.filter((w) =>
      w.file === undefined ? w.code !== 'per-deployment-ids' : newFiles.has(w.file),
    );
    ctx.err(renderExportWarnings(warnings, ctx.style));
    ctx.out(opts.output === 'json' ? renderIntoJson(opts.into!, result) : renderIntoHuman(opts.into!, result, lines));
    return EXIT.ok;
  } finally {
    await conn.close();
  }
}
