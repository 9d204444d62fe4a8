// Bundles the same-work script (bench/same-work.ts) into one ES module with
// esbuild, with the options wsc's own build uses (scripts/build.mjs): the
// comparison runs code loaded the way wsc's is, not module by module.
import { build, type Plugin } from 'esbuild';
import { join } from 'node:path';
import { root } from './measure.js';

/**
 * The lists read with undici's request instead of fetch (bench/lists-undici.mjs): the floor's row of what
 * the HTTP client wsc is built on costs a process by itself.
 */
const withUndici: Plugin = {
  name: 'lists-with-undici',
  setup(b) {
    b.onResolve({ filter: /^\.\/lists\.mjs$/ }, (args) =>
      args.importer.endsWith('same-work.ts') ? { path: join(root, 'bench/lists-undici.mjs') } : undefined,
    );
  },
};

/** Builds the script, its lists read with fetch or with undici; its path (under bench-results/, git-ignored). */
export async function buildSameWork(client: 'fetch' | 'undici' = 'fetch'): Promise<string> {
  const outfile = join(root, `bench-results/scripts/${client === 'fetch' ? 'same-work' : 'same-work-undici'}.mjs`);
  await build({
    absWorkingDir: root,
    entryPoints: ['bench/same-work.ts'],
    outfile,
    bundle: true,
    format: 'esm',
    platform: 'node',
    target: 'node20.19',
    logLevel: 'warning',
    // undici is CommonJS: its require() of Node's built-ins needs one in an ES module (wsc's build does the same).
    ...(client === 'undici'
      ? {
          plugins: [withUndici],
          banner: { js: "import { createRequire as __cr } from 'node:module'; const require = __cr(import.meta.url);" },
        }
      : {}),
  });
  return outfile;
}
