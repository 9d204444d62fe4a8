// One dashboard at one breakpoint as a self-contained SVG: the grid's columns,
// each widget a card (type, id, the title of the report it charts or a TEXT
// widget's first line), overlapping and out-of-grid widgets outlined in red
// and said so. No fonts, images or scripts from elsewhere, no dates: the same
// bundle gives the same bytes, so the files can be committed or uploaded.
import { fileStem, groupNames } from '../core/export/names.js';
import type { PreviewCard, PreviewGrid, PreviewWorkbook } from './model.js';

const HEADER = 32;
const PAD = 4;
const CHAR = 7; // average width of a 12px sans-serif character, for cutting text to a card

const STYLE = [
  '.col{fill:#f3f4f6}',
  '.card{fill:#fff;stroke:#9ca3af}',
  '.bad{stroke:#dc2626;stroke-width:3}',
  '.t{fill:#6b7280;font-size:10px}',
  '.i{font-weight:bold}',
  '.e{fill:#dc2626}',
  '.h{font-size:14px;font-weight:bold}',
].join('');

function xml(s: string): string {
  // Characters XML 1.0 cannot hold at all are dropped; the rest escaped.
  return s
    .replace(/[^\t\n\r\u0020-\uD7FF\uE000-\uFFFD\u{10000}-\u{10FFFF}]/gu, '')
    .replaceAll('&', '&amp;')
    .replaceAll('<', '&lt;')
    .replaceAll('>', '&gt;')
    .replaceAll('"', '&quot;');
}

function cut(s: string, px: number): string {
  const n = Math.max(0, Math.floor(px / CHAR));
  const chars = [...s];
  return chars.length <= n ? s : n <= 1 ? '' : `${chars.slice(0, n - 1).join('')}…`;
}

function num(n: number): string {
  return String(Math.round(n * 100) / 100);
}

function problem(c: PreviewCard, cols: number): string | undefined {
  const parts: string[] = [];
  if (c.outOfGrid) parts.push(`out of the grid (x ${c.x}, w ${c.w}, ${cols} columns)`);
  if (c.overlaps.length > 0) parts.push(`overlaps ${c.overlaps.join(', ')}`);
  return parts.length > 0 ? parts.join('; ') : undefined;
}

function card(c: PreviewCard, g: PreviewGrid, colW: number): string {
  const x = Math.max(0, c.x) * colW + PAD;
  const y = HEADER + Math.max(0, c.y) * g.rowHeight + PAD;
  const w = Math.max(1, c.w * colW - 2 * PAD);
  const h = Math.max(1, c.h * g.rowHeight - 2 * PAD);
  const bad = problem(c, g.cols);
  const room = w - 16;
  const label = c.report
    ? (c.report.title ?? c.report.name ?? c.report.publicId)
    : c.missingReport
      ? `{ $report: ${c.missingReport} } (not in the bundle)`
      : c.firstLine;
  const type = `<tspan class="t">${xml(cut(c.type, room))}</tspan>`;
  const lines: string[] = [`${type} <tspan class="i">${xml(cut(c.id, room - c.type.length * CHAR))}</tspan>`];
  if (label !== undefined) lines.push(xml(cut(label, room)));
  if (bad !== undefined) lines.push(`<tspan class="e">${xml(cut(bad, room))}</tspan>`);
  const fit = Math.max(1, Math.floor((h - 6) / 16));
  const text = lines
    .slice(0, fit)
    .map((l, i) => `<text x="${num(x + 8)}" y="${num(y + 16 + i * 16)}">${l}</text>`)
    .join('');
  const cls = bad !== undefined ? 'card bad' : 'card';
  const tip = `${c.type} ${c.id}${label !== undefined ? `: ${label}` : ''}${bad ? ` (${bad})` : ''}`;
  const rect = `<rect class="${cls}" x="${num(x)}" y="${num(y)}" width="${num(w)}" height="${num(h)}" rx="4"/>`;
  return `<g data-id="${xml(c.id)}"><title>${xml(tip)}</title>${rect}${text}</g>`;
}

export function dashboardSvg(wb: PreviewWorkbook, g: PreviewGrid): string {
  const colW = g.width / g.cols;
  const height = HEADER + Math.max(1, g.rows) * g.rowHeight + PAD;
  const cols: string[] = [];
  for (let i = 0; i < g.cols; i++) {
    if (i % 2 === 0)
      cols.push(
        `<rect class="col" x="${num(i * colW)}" y="${HEADER}" width="${num(colW)}" height="${height - HEADER}"/>`,
      );
  }
  const title = `${wb.title ?? wb.name ?? wb.slug} · ${g.breakpoint} (${g.cols} columns)`;
  return [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${num(g.width)}" height="${height}" ` +
      `viewBox="0 0 ${num(g.width)} ${height}" font-family="sans-serif" font-size="12">`,
    `<style>${STYLE}</style>`,
    `<rect width="100%" height="100%" fill="#fafafa"/>`,
    `<text class="h" x="8" y="21">${xml(cut(title, g.width - 16))}</text>`,
    ...cols,
    ...g.cards.map((c) => card(c, g, colW)),
    '</svg>',
    '',
  ].join('\n');
}

/**
 * The files `wsc preview --out` writes: `<stem>.<breakpoint>.svg` per breakpoint with a layout of its own,
 * the stem the safe form of the slug that export uses for file names (no markup, path or hidden name can
 * come from a slug); slugs that share a stem get a hash of the slug, as export's files do.
 */
export function dashboardSvgs(workbooks: readonly PreviewWorkbook[]): { name: string; text: string }[] {
  const drawn = workbooks.filter((wb) => !wb.grids.every((g) => g.cards.length === 0));
  const byStem = new Map<string, string[]>();
  for (const wb of drawn) byStem.set(fileStem(wb.slug), [...(byStem.get(fileStem(wb.slug)) ?? []), wb.slug]);
  const names = new Map<string, string>();
  for (const [stem, slugs] of byStem) for (const [slug, name] of groupNames(stem, slugs)) names.set(slug, name);
  const out: { name: string; text: string }[] = [];
  for (const wb of drawn) {
    for (const g of wb.grids)
      if (wb.layouts.includes(g.breakpoint))
        out.push({ name: `${names.get(wb.slug)!}.${g.breakpoint}.svg`, text: dashboardSvg(wb, g) });
  }
  return out;
}
