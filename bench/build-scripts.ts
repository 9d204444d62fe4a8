// Bundles the same-work script (bench/same-work.ts) into one ES module with
// esbuild, with the options wsc's own build uses (scripts/build.mjs): the
// comparison runs code loaded the way wsc's is, not module by module.
import { build } from 'esbuild';
import { join } from 'node:path';
import { root } from './measure.js';

/** Builds the script and returns its path (under bench-results/, which git ignores). */
export async function buildSameWork(): Promise<string> {
  const outfile = join(root, 'bench-results/scripts/same-work.mjs');
  await build({
    absWorkingDir: root,
    entryPoints: ['bench/same-work.ts'],
    outfile,
    bundle: true,
    format: 'esm',
    platform: 'node',
    target: 'node20.19',
    logLevel: 'warning',
  });
  return outfile;
}
