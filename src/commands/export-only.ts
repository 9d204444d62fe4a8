// `wsc export --only ADDR ... --into DIR` (or `--out DIR`): take the deployment's values of the
// named resources into their existing files of the bundle at DIR (a UI edit
// into Git). Only the managed fields that differ are rewritten, in place in
// the YAML document, so comments, key order and every other file stay as
// they are (decided by core/export/only.ts, written by bundle/documents.ts).
// Never writes to the API.
import { resolve } from 'node:path';
import { bundleDocuments } from '../bundle/documents.js';
import { liveSides, onlyAddresses, onlyMerges } from '../core/export/only.js';
import { EXIT } from '../errors.js';
import { mergeLines } from '../render/export-merge.js';
import { visible } from '../visible.js';
import type { CommandContext } from './context.js';
import { environmentAndBundle, liveAndPlan } from './export-bundle.js';
import type { ExportOptions } from './options.js';

export async function runExportOnly(opts: ExportOptions, ctx: CommandContext): Promise<number> {
  const only = onlyAddresses(opts.only ?? []);
  const root = resolve(ctx.cwd, (opts.into ?? opts.out)!);
  const path = await environmentAndBundle(opts, ctx, root, only);
  const { env, desired, conn } = path;
  try {
    const { live, changes } = await liveAndPlan(path, only);
    const docs = bundleDocuments(root, desired);
    const sides = { ...liveSides(live, changes, env.bundle), raw: docs.raw };
    const lines: string[] = [];
    for (const { address, file, edit } of onlyMerges(only, desired, live, changes, sides, env)) {
      if (edit === undefined) {
        lines.push(`= ${visible(address)}: ${visible(file)} already matches the deployment`);
        continue;
      }
      docs.edit(edit);
      lines.push(...mergeLines(address, file, edit.merge, opts.into ?? opts.out));
    }
    ctx.out(`${lines.join('\n')}\n`);
    return EXIT.ok;
  } finally {
    await conn.close();
  }
}
