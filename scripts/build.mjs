// `npm run build`: src/ -> dist/, as one ES module bundle per entry point
// (esbuild), with the runtime dependencies inside. Why a bundle and not tsc's
// file-per-module output: a `wsc plan` loads some 250 modules otherwise
// (undici's and zod's files, then ours), and resolving, reading and linking
// them one by one costs a run more than the bundle does (docs/performance.md). Code
// splitting keeps each command's modules lazy (`wsc validate` still never
// loads the HTTP client). Type checking is `npm run typecheck` (tsc).
// `--if-stale`: nothing to do when dist/ is newer than every input
// (build-inputs.mjs), as `npm test` runs it.
import { build } from 'esbuild';
import { existsSync, readdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { distIsFresh, recordBuild } from './build-inputs.mjs';

const root = fileURLToPath(new URL('..', import.meta.url));
const outdir = join(root, 'dist');

async function buildDist() {
  // Files of an earlier build (other chunk names, the old per-file layout) must
  // not linger. Dot entries stay: the end-to-end tests' build lock lives there.
  if (existsSync(outdir)) {
    for (const name of readdirSync(outdir))
      if (!name.startsWith('.')) rmSync(join(outdir, name), { recursive: true, force: true });
  }
  await build({
    absWorkingDir: root,
    // The bundle loader's worker thread is an entry of its own (src/bundle/load-off-thread.ts starts it).
    entryPoints: { main: 'src/main.ts', 'bundle-worker': 'src/bundle/load-worker.ts' },
    outdir,
    bundle: true,
    splitting: true,
    format: 'esm',
    platform: 'node',
    target: 'node20.19',
    sourcemap: true,
    // `yaml` is loaded on demand by require (yaml/parse.ts) for documents the
    // fast path (js-yaml) leaves to it, and by export: kept as a package so
    // both reach the same copy. resvg is a native binary esbuild cannot bundle.
    // Vega and Vega-Lite are bundled: their dynamic import (preview/chart-render.ts)
    // makes them a chunk of their own, loaded only when a chart is drawn, in some
    // 60 ms instead of the 210 ms their seventy packages take to resolve and load.
    external: ['yaml', '@resvg/resvg-js'],
    // CommonJS dependencies (undici) call require() for Node's built-ins.
    banner: {
      js:
        "import { createRequire as __wscCreateRequire } from 'node:module'; " +
        'const require = __wscCreateRequire(import.meta.url);',
    },
    // Chunks stay beside main.js: src/version.ts finds ../package.json from either.
    logLevel: 'warning',
  });
}

if (!(process.argv.includes('--if-stale') && distIsFresh())) await recordBuild(buildDist);
