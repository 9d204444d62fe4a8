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
import { bundleMatches, intoDecisions, MemorySink, placeExport } from '../core/export/into.js';
import { normalizeSlug } from '../domain/wire.js';
import { renderExportWarnings } from '../render/export.js';
import type { CommandContext } from './context.js';
import { environmentAndBundle, liveAndPlan } from './export-bundle.js';
import { bundleDocuments } from '../bundle/documents.js';
import { liveSides } from '../core/export/only.js';
import { mergeJson, mergeLines } from '../render/export-merge.js';
import { exportSourceOf } from './export-source.js';
import { visible } from '../visible.js';
import { sayReading } from './steps.js';
import { endPhase } from '../timings.js';

interface IntoResult {
  /** Resources whose files took something from the deployment, or kept or left something (see mergeJson). */
  updated: ReturnType<typeof mergeJson>[];
  /** Resources the bundle did not hold: a new file each. */
  created: { address: string; file: string }[];
  /** Managed resources that already match. */
  unchanged: number;
  /** Resources of the bundle that the deployment does not hold (their files are left as they are). */
  notLive: string[];
}

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
    const liveIndex = {
      ...(env.publicIds === 'per-deployment' ? { perDeployment: conn.deploymentId } : {}),
      reportIdOfPublicId: new Map(
        live.reports.flatMap((r) => (typeof r.publicId === 'string' ? [[r.publicId, r.id]] : [])),
      ),
      workbookIdOfSlug: new Map(
        live.workbooks.filter((w) => typeof w.slug === 'string').map((w) => [normalizeSlug(w.slug as string), w.id]),
      ),
    };
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
    const json = () => `${JSON.stringify({ formatVersion: 1, into: opts.into, ...result }, null, 2)}\n`;
    ctx.out(opts.output === 'json' ? json() : intoHuman(opts.into!, result, lines));
    return EXIT.ok;
  } finally {
    await conn.close();
  }
}

function intoHuman(into: string, r: IntoResult, merged: string[]): string {
  const lines = [...merged];
  for (const c of r.created) lines.push(`+ ${visible(c.address)}: new file ${visible(c.file)}`);
  for (const a of r.notLive) lines.push(`! ${visible(a)}: not in the deployment; its file is left as it is`);
  const took = r.updated.filter((u) => u.fields.length > 0).length;
  // Resources whose file took nothing but keeps a change of its own or is left for a hand edit.
  const left = r.updated.length - took;
  lines.push(
    `Updated ${visible(into)}: ${took} updated, ${r.created.length} new, ${r.unchanged} unchanged` +
      `${left > 0 ? `, ${left} left as they are` : ''}` +
      `${r.notLive.length > 0 ? `, ${r.notLive.length} not in the deployment` : ''}. wsc.yaml is left as it is.`,
  );
  if (r.updated.some((u) => u.byHand.length + u.conflicts.length > 0)) {
    lines.push('Lines marked ! are left for you to merge: `wsc plan` shows what still differs.');
  }
  return `${lines.join('\n')}\n`;
}
