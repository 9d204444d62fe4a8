// Time to read the bench bundle's YAML: every file of the bundle `npm run
// bench` plans against (SIZE reports, a tenth as many workbooks, the same seed),
// read into memory first, then parsed by src/yaml/parse.ts as `wsc validate`
// and `wsc plan` parse them (variables interpolated). Prints the first pass
// (a fresh process: module loading and a cold JIT included, what a CLI run
// pays) and the median of the passes after it, each as wall and CPU time
// (CPU is steadier on a loaded machine). Not a test: timings depend on the
// machine; compare builds by running them in turn.
//
//   node --import tsx bench/yaml-parse.ts [SIZE=10000] [PASSES=5]
import { mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { generateSeed } from '../src/emulator/seed.js';
import { writeBundleFromSeed } from './bundle.js';

const size = Number(process.argv[2] ?? 10_000);
const passes = Math.max(1, Number(process.argv[3] ?? 5));
const seed = generateSeed({
  reports: size,
  workbooks: Math.max(1, Math.round(size / 10)),
  withDashboards: true,
  randomSeed: 20261122,
});
const dir = mkdtempSync(join(tmpdir(), 'wsc-yaml-parse-'));
try {
  writeBundleFromSeed(seed, dir);
  const texts: [string, string][] = [];
  for (const sub of ['workbooks', 'reports'])
    for (const name of readdirSync(join(dir, sub)).sort())
      texts.push([`${sub}/${name}`, readFileSync(join(dir, sub, name), 'utf8')]);
  const bytes = texts.reduce((n, [, t]) => n + Buffer.byteLength(t), 0);
  const lookup = () => ({ found: false as const });
  const t0 = performance.now();
  const c0 = process.cpuUsage();
  // Imported here so that the first pass includes loading the reader, as a CLI run does.
  const { parseYaml } = await import('../src/yaml/parse.js');
  const cpuSince = (c: NodeJS.CpuUsage) => {
    const d = process.cpuUsage(c);
    return (d.user + d.system) / 1000;
  };
  const pass = (): { wall: number; cpu: number } => {
    const start = performance.now();
    const cpu = process.cpuUsage();
    let errors = 0;
    for (const [file, text] of texts) errors += parseYaml(file, text, { lookup }).diagnostics.length;
    if (errors > 0) throw new Error(`${errors} diagnostics on the bench bundle`);
    return { wall: performance.now() - start, cpu: cpuSince(cpu) };
  };
  pass();
  const first = { wall: performance.now() - t0, cpu: cpuSince(c0) };
  const later = Array.from({ length: passes }, pass);
  const median = (xs: number[]) => xs.sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
  const mib = (bytes / 1024 / 1024).toFixed(1);
  console.log(`${texts.length} files, ${mib} MiB`);
  console.log(`first pass (load + cold): ${first.wall.toFixed(0)} ms wall, ${first.cpu.toFixed(0)} ms CPU`);
  console.log(
    `median of ${passes} later passes: ${median(later.map((p) => p.wall)).toFixed(0)} ms wall, ` +
      `${median(later.map((p) => p.cpu)).toFixed(0)} ms CPU`,
  );
} finally {
  rmSync(dir, { recursive: true, force: true });
}
