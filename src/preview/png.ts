// A picture's PNG beside its SVG, for where an SVG is not shown (a pull
// request comment shows images, not an SVG's text): rasterised by resvg
// (Rust, through its npm binary; no browser), loaded on first use. Text is
// drawn with the machine's fonts (sans-serif is DejaVu Sans where it is
// installed), so a PNG's pixels may differ between machines; the SVG is the
// picture of record (docs/preview.md measures the cost).
type Resvg = typeof import('@resvg/resvg-js');

let lib: Promise<Resvg> | undefined;

export async function pngOf(svg: string): Promise<Buffer> {
  lib ??= import('@resvg/resvg-js');
  const { Resvg } = await lib;
  const r = new Resvg(svg, {
    font: { loadSystemFonts: true, defaultFontFamily: 'DejaVu Sans', sansSerifFamily: 'DejaVu Sans' },
    background: 'white',
  });
  return Buffer.from(r.render().asPng());
}
