// A chart specification drawn as SVG in Node, without a browser: Vega-Lite
// compiled to Vega, Vega's headless view rendered to an SVG string (the
// platform draws reports with Vega too). The libraries are loaded on first
// use only: a command that draws no chart never loads them. The ids Vega
// numbers with a counter of the process (clip paths, gradients) are renamed
// after the picture's own prefix in order of appearance, so the same answer
// gives the same bytes whatever was drawn before it, and two charts in one
// dashboard's SVG never share an id. PNG: resvg (chart-png.ts).

type VegaLite = typeof import('vega-lite');
type Vega = typeof import('vega');

let libs: Promise<{ vl: VegaLite; vega: Vega }> | undefined;

function load(): Promise<{ vl: VegaLite; vega: Vega }> {
  libs ??= Promise.all([import('vega-lite'), import('vega')]).then(([vl, vega]) => ({ vl, vega }));
  return libs;
}

/** Every `id` of the SVG renamed `<prefix>-<n>` in order, with the references to it. */
function renameIds(svg: string, prefix: string): string {
  const ids: string[] = [];
  for (const m of svg.matchAll(/\bid="([^"]+)"/g)) if (!ids.includes(m[1]!)) ids.push(m[1]!);
  let out = svg;
  ids.forEach((id, i) => {
    const to = `${prefix}-${i}`;
    const esc = id.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
    out = out
      .replace(new RegExp(`\\bid="${esc}"`, 'g'), `id="${to}"`)
      .replace(new RegExp(`url\\(#${esc}\\)`, 'g'), `url(#${to})`)
      .replace(new RegExp(`href="#${esc}"`, 'g'), `href="#${to}"`);
  });
  return out;
}

/** The SVG of a Vega-Lite specification, its ids prefixed with `prefix`. */
export async function renderChart(spec: Record<string, unknown>, prefix: string): Promise<string> {
  const { vl, vega } = await load();
  const compiled = vl.compile(spec as unknown as Parameters<VegaLite['compile']>[0]).spec;
  const view = new vega.View(vega.parse(compiled), { renderer: 'none', logLevel: vega.Error });
  try {
    return renameIds(await view.toSVG(), prefix);
  } finally {
    view.finalize();
  }
}
