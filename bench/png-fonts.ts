// The time of a picture's PNG with the fonts wsc ships (src/preview/png-fonts.ts)
// against the machine's fonts, as every PNG was drawn before: the pictures of
// fixtures/example with data (`wsc preview --out DIR --with-data` of the
// built CLI, its embedded environment), each rasterised PASSES times with
// each set of fonts in turn. Prints per picture the median CPU time of a PNG
// (user and system: resvg's reads of the font files are system time) and
// whether the two PNGs are the same bytes. Not a test: timings depend on the
// machine.
//
//   npm run build && node --import tsx bench/png-fonts.ts [PASSES=10]
import { execFileSync } from 'node:child_process';
import { cpSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Resvg, type ResvgRenderOptions } from '@resvg/resvg-js';
import { fontsFor } from '../src/preview/png.js';
import { root } from './measure.js';

const passes = Math.max(1, Number(process.argv[2] ?? 10));
const work = mkdtempSync(join(tmpdir(), 'wsc-png-fonts-'));
try {
  const bundle = join(work, 'bundle');
  cpSync(join(root, 'fixtures/example'), bundle, { recursive: true });
  const out = join(work, 'pictures');
  execFileSync(process.execPath, [join(root, 'bin/wsc.js'), 'preview', '--dir', bundle, '--out', out, '--with-data'], {
    stdio: 'ignore',
  });
  const machine: ResvgRenderOptions['font'] = {
    loadSystemFonts: true,
    defaultFontFamily: 'DejaVu Sans',
    sansSerifFamily: 'DejaVu Sans',
  };
  const cpuMs = (svg: string, font: ResvgRenderOptions['font']): [number, Buffer] => {
    const c0 = process.cpuUsage();
    const png = Buffer.from(new Resvg(svg, { font, background: 'white' }).render().asPng());
    const c = process.cpuUsage(c0);
    return [(c.user + c.system) / 1000, png];
  };
  const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
  console.log(`PNG CPU time, median of ${passes} (ms): shipped fonts | machine fonts | same bytes`);
  for (const name of readdirSync(out)
    .filter((f) => f.endsWith('.svg'))
    .sort()) {
    const svg = readFileSync(join(out, name), 'utf8');
    const shipped = fontsFor(svg);
    const times: { shipped: number[]; machine: number[] } = { shipped: [], machine: [] };
    let same = true;
    for (let i = 0; i < passes; i++) {
      const [a, pa] = cpuMs(svg, shipped);
      const [b, pb] = cpuMs(svg, machine);
      times.shipped.push(a);
      times.machine.push(b);
      same &&= pa.equals(pb);
    }
    const s = median(times.shipped).toFixed(1);
    const m = median(times.machine).toFixed(1);
    console.log(`${name.padEnd(28)} ${s.padStart(6)} | ${m.padStart(6)} | ${same ? 'yes' : 'NO'}`);
  }
} finally {
  rmSync(work, { recursive: true, force: true });
}
