// A picture's PNG beside its SVG, for where an SVG is not shown (a pull
// request comment shows images, not an SVG's text): rasterised by resvg
// (Rust, through its npm binary; no browser), loaded on first use. Its text
// is drawn with the DejaVu Sans that wsc ships where that draws it as the
// system's would, else with the machine's fonts (png-fonts.ts says which);
// the SVG is the picture of record (docs/commands.md measures the cost).
import type { ResvgRenderOptions } from '@resvg/resvg-js';
import { bundledFontFiles, bundledFontsSuffice } from './png-fonts.js';

type Resvg = typeof import('@resvg/resvg-js');

let lib: Promise<Resvg> | undefined;
/** The shipped fonts' files, looked for once (none: an installation without them). */
let shipped: { files: string[] | undefined } | undefined;

const FAMILY = { defaultFontFamily: 'DejaVu Sans', sansSerifFamily: 'DejaVu Sans' };

/** The fonts for `svg`: the shipped ones alone where they suffice, else the system's. */
export function fontsFor(svg: string): ResvgRenderOptions['font'] {
  shipped ??= { files: bundledFontFiles() };
  const { files } = shipped;
  if (files !== undefined && bundledFontsSuffice(svg)) return { loadSystemFonts: false, fontFiles: files, ...FAMILY };
  return { loadSystemFonts: true, ...FAMILY };
}

export async function pngOf(svg: string): Promise<Buffer> {
  lib ??= import('@resvg/resvg-js');
  const { Resvg } = await lib;
  const r = new Resvg(svg, { font: fontsFor(svg), background: 'white' });
  return Buffer.from(r.render().asPng());
}
