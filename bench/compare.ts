// Builds compared interleaved, as docs/performance.md asks: each build's
// `wsc plan` (no changes), the same-work script and the fetch-only script run
// in turn against one emulator, so the machine's hour weighs on all of them
// alike. Prints the medians of wall time, reads (first request to last
// answer) and CPU.
//
//   node --import tsx bench/compare.ts SIZE RUNS BUILD_DIR [BUILD_DIR...]
//
// A BUILD_DIR is a checkout with `npm run build` done (e.g. a `git worktree`
// of an earlier commit, its node_modules linked to this one's).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createEmulator } from '../src/emulator/index.js';
import { generateSeed } from '../src/emulator/seed.js';
import { writeBundleFromSeed } from './bundle.js';
import { buildSameWork } from './build-scripts.js';
import { runNode, root, type CliRun } from './measure.js';

const [sizeArg, runsArg, ...builds] = process.argv.slice(2);
const size = Number(sizeArg);
const runs = Number(runsArg);
if (!(size > 0) || !(runs > 0) || builds.length === 0) {
  console.error('usage: node --import tsx bench/compare.ts SIZE RUNS BUILD_DIR [BUILD_DIR...]');
  process.exit(2);
}
const latencyMs = 20;
const maxPageSize = 500;
const seed = generateSeed({
  reports: size,
  workbooks: Math.max(1, size / 10),
  withDashboards: true,
  randomSeed: 20261122,
});
const emu = await createEmulator({ port: 0, seed, latencyMs, maxPageSize, logResponses: false, randomSeed: 1 });
const dir = mkdtempSync(join(tmpdir(), 'wsc-compare-'));
writeBundleFromSeed(seed, dir);
const env = { WSC_TOKEN: emu.adminToken };
const lists = [emu.url, '1', String(maxPageSize)];
const scripts: Record<string, string[]> = {
  'same-work script (bench/same-work.ts)': [await buildSameWork(), dir, ...lists],
  'fetch-only script (bench/honest.mjs)': [join(root, 'bench/honest.mjs'), ...lists],
};
const results = new Map<string, CliRun[]>();
try {
  for (let i = 0; i < runs; i++) {
    for (const b of [...builds, ...Object.keys(scripts)]) {
      const script = scripts[b];
      const r =
        script !== undefined
          ? await runNode(emu, script[0]!, script.slice(1), env)
          : await runNode(
              emu,
              join(b, 'bin/wsc.js'),
              ['plan', '--dir', dir, '--base-url', emu.url, '--deployment', '1'],
              env,
            );
      if (r.code !== 0) throw new Error(`${b} exited ${r.code}:\n${r.stderr.slice(0, 2000)}`);
      results.set(b, [...(results.get(b) ?? []), r]);
    }
  }
} finally {
  await emu.close();
  rmSync(dir, { recursive: true, force: true });
}
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
console.log(`${size} reports, ${latencyMs} ms latency, medians of ${runs} interleaved runs:`);
for (const [b, rs] of results) {
  const m = (f: (r: CliRun) => number) => `${median(rs.map(f)).toFixed(0)} ms`.padStart(8);
  console.log(`  ${b.padEnd(40)} wall ${m((r) => r.wallMs)}  reads ${m((r) => r.readMs)}  CPU ${m((r) => r.cpuMs)}`);
}
