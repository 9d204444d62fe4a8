// One dashboard at one breakpoint as a self-contained SVG: the grid's columns,
// each widget a card that says what it is (type and id; a CHART's glyph and
// report title, a FILTER's label and member, a TIME_GRAIN's default and
// options, a TEXT widget's lines with `…` where they are cut), overlapping and
// out-of-grid widgets outlined in red and said so. Drawn against a baseline
// (`--against`), the change is marked: added cards green, removed ones as
// dashed red outlines where they were, moved or resized ones amber with their
// old box dashed and an arrow from it, config changes badged blue; a legend
// says so. No fonts, images or scripts from elsewhere, no dates: the same
// input gives the same bytes, so the files can be committed or uploaded.
import type { GridBox } from '../core/diff-model.js';
import type { CardMarks, GridChanges, RemovedCard } from './changes.js';
import type { CardChart } from './chart-types.js';
import { GLYPHS } from './glyphs.js';
import { CHAR, cut, fit, wrap, xml } from './svg-text.js';
import type { PreviewCard, PreviewGrid, PreviewWorkbook } from './model.js';

const HEADER = 32;
const LEGEND = 24;
const PAD = 4;
const LINE = 16;

const COLOURS = { added: '#16a34a', removed: '#dc2626', moved: '#d97706', config: '#2563eb', kept: '#7c3aed' };

const STYLE = [
  '.col{fill:#f3f4f6}',
  '.card{fill:#fff;stroke:#9ca3af}',
  '.bad{stroke:#dc2626;stroke-width:3}',
  `.added{fill:#f0fdf4;stroke:${COLOURS.added};stroke-width:2}`,
  `.moved{stroke:${COLOURS.moved};stroke-width:2}`,
  `.config{stroke:${COLOURS.config};stroke-width:2}`,
  `.old{fill:none;stroke:${COLOURS.moved};stroke-width:1.5;stroke-dasharray:5 4}`,
  `.gone{fill:#fecaca;fill-opacity:.25;stroke:${COLOURS.removed};stroke-width:2;stroke-dasharray:6 4}`,
  `.arrow{stroke:${COLOURS.moved};stroke-width:2;fill:none}`,
  '.glyph{fill:none;stroke:#4f46e5;stroke-width:1.5;stroke-linejoin:round;stroke-linecap:round}',
  '.badge{font-size:10px;font-weight:bold;fill:#fff}',
  '.t{fill:#6b7280;font-size:10px}',
  '.i{font-weight:bold}',
  '.m{fill:#4b5563}',
  '.e{fill:#dc2626}',
  '.h{font-size:14px;font-weight:bold}',
  '.l{font-size:11px;fill:#374151}',
].join('');

function num(n: number): string {
  return String(Math.round(n * 100) / 100);
}

function problem(c: PreviewCard, cols: number): string | undefined {
  const parts: string[] = [];
  if (c.outOfGrid) parts.push(`out of the grid (x ${c.x}, w ${c.w}, ${cols} columns)`);
  if (c.overlaps.length > 0) parts.push(`overlaps ${c.overlaps.join(', ')}`);
  return parts.length > 0 ? parts.join('; ') : undefined;
}

interface Frame {
  g: PreviewGrid;
  colW: number;
  top: number;
}

/** A grid box in pixels, inside its cell's padding. */
function rectOf(b: GridBox, f: Frame): { x: number; y: number; w: number; h: number } {
  return {
    x: Math.max(0, b.x) * f.colW + PAD,
    y: f.top + Math.max(0, b.y) * f.g.rowHeight + PAD,
    w: Math.max(1, b.w * f.colW - 2 * PAD),
    h: Math.max(1, b.h * f.g.rowHeight - 2 * PAD),
  };
}

function rect(cls: string, r: { x: number; y: number; w: number; h: number }): string {
  return `<rect class="${cls}" x="${num(r.x)}" y="${num(r.y)}" width="${num(r.w)}" height="${num(r.h)}" rx="4"/>`;
}

/** Where a card's chart is drawn, inside its box: under its two lines (and the before/after captions). */
const CHART_TOP = 16 + LINE + 6;
const CAPTION = 14;

/**
 * The pixel size (and place, from the card's corner) of the picture a CHART card draws with data at grid
 * `g`; `sideBySide`: each of the two (before and after). Undefined when the card is too small for one.
 */
export function chartArea(
  box: GridBox,
  g: PreviewGrid,
  sideBySide: boolean,
): { x: number; y: number; w: number; h: number } | undefined {
  const r = rectOf(box, { g, colW: g.width / g.cols, top: 0 });
  const y = CHART_TOP + (sideBySide ? CAPTION : 0);
  const full = r.w - 12;
  const w = Math.floor(sideBySide ? (full - 8) / 2 : full);
  const h = Math.floor(r.h - y - 6);
  return w >= 60 && h >= 36 ? { x: 6, y, w, h } : undefined;
}

/** A picture drawn by chart-render.ts, placed at `x`,`y` (its own size kept by its viewBox). */
function embed(svg: string, x: number, y: number, w: number, h: number): string {
  const open = /^<svg\b[^>]*>/.exec(svg);
  if (!open) return '';
  const view = /viewBox="([^"]+)"/.exec(open[0])?.[1] ?? `0 0 ${w} ${h}`;
  return (
    `<svg x="${num(x)}" y="${num(y)}" width="${num(w)}" height="${num(h)}" viewBox="${view}" ` +
    `preserveAspectRatio="xMidYMid meet">${svg.slice(open[0].length)}`
  );
}

/** One picture, or what stands in its place: Cube's refusal in red, why there is none in grey. */
function pictureOf(ch: CardChart, x: number, y: number, w: number, h: number): string {
  if (ch.svg !== undefined) {
    const note =
      ch.note !== undefined
        ? `<text class="t" x="${num(x + w)}" y="${num(y + h + 4)}" text-anchor="end">${xml(ch.note)}</text>`
        : '';
    return embed(ch.svg, x, y, w, h) + note;
  }
  const [cls, text] = ch.error !== undefined ? ['e', `Cube refused the query: ${ch.error}`] : ['m', ch.why ?? ''];
  return wrap(text, w, Math.max(1, Math.floor(h / LINE)))
    .map((l, i) => `<text class="${cls}" x="${num(x)}" y="${num(y + 12 + i * LINE)}">${xml(l)}</text>`)
    .join('');
}

/** A CHART card's data: its picture, or the baseline's and its own side by side under their captions. */
function chartOf(c: PreviewCard, f: Frame): string {
  const ch = c.chart;
  if (ch === undefined) return '';
  const r = rectOf(c, f);
  const a = chartArea(c, f.g, ch.before !== undefined);
  if (a === undefined) return '';
  if (ch.before === undefined) return `<g class="chart">${pictureOf(ch, r.x + a.x, r.y + a.y, a.w, a.h)}</g>`;
  const x2 = r.x + a.x + a.w + 8;
  const cap = (x: number, t: string) => `<text class="t" x="${num(x)}" y="${num(r.y + a.y - 4)}">${t}</text>`;
  return (
    `<g class="chart">${cap(r.x + a.x, 'before')}${pictureOf(ch.before, r.x + a.x, r.y + a.y, a.w, a.h)}` +
    `${cap(x2, 'after')}${pictureOf(ch, x2, r.y + a.y, a.w, a.h)}</g>`
  );
}

/** What the card says under its type and id, line by line (already cut to `room` pixels). */
function contentLines(c: PreviewCard, room: number): { lines: string[]; glyph: boolean } {
  if (c.report || c.missingReport !== undefined) {
    const title = c.report
      ? (c.report.title ?? c.report.name ?? c.report.publicId)
      : `{ $report: ${c.missingReport} } (not in the bundle)`;
    const glyph = c.glyph !== undefined;
    return { lines: [xml(cut(title, room - (glyph ? 22 : 0)))], glyph };
  }
  if (c.glyph !== undefined) return { lines: [xml(cut(c.visualization ?? 'chart', room - 22))], glyph: true };
  // A FILTER or TIME_GRAIN card is often two rows high: what it says fits on one line.
  if (c.filter) {
    const { label, member } = c.filter;
    const line = label !== undefined && member !== undefined ? `${label} · ${member}` : (label ?? member);
    return { lines: line === undefined ? [] : [xml(cut(line, room))], glyph: false };
  }
  if (c.grain) {
    const parts = [];
    if (c.grain.default !== undefined) parts.push(`default ${c.grain.default}`);
    if (c.grain.options.length > 0) parts.push(`of ${c.grain.options.join(', ')}`);
    return { lines: parts.length > 0 ? [xml(cut(parts.join(' '), room))] : [], glyph: false };
  }
  return { lines: [], glyph: false };
}

/**
 * What a config badge says: the change of what a chart draws (`visualization table → bar`), else the one
 * member that changed (`label changed`), else `config` for several.
 */
function configBadge(c: PreviewCard, marks: CardMarks | undefined): string {
  if (c.change !== undefined) return c.change;
  const paths = marks?.paths ?? [];
  return paths.length === 1 ? `${paths[0]!.replace(/^config\./, '')} changed` : 'config';
}

/** A badge's label cut to `px` (a badge's character is 6 px wide, and it has 10 px of padding). */
function fitBadge(label: string, px: number): string {
  const n = Math.max(6, Math.floor((px - 10) / 6));
  const chars = [...label];
  return chars.length <= n ? label : `${chars.slice(0, n - 1).join('')}…`;
}

function badge(label: string, colour: string, right: number, y: number): { svg: string; width: number } {
  const w = label.length * 6 + 10;
  const x = right - w;
  return {
    svg:
      `<rect x="${num(x)}" y="${num(y)}" width="${w}" height="14" rx="7" fill="${colour}"/>` +
      `<text class="badge" x="${num(x + 5)}" y="${num(y + 10.5)}">${label}</text>`,
    width: w,
  };
}

function card(c: PreviewCard, f: Frame, marks: CardMarks | undefined): string {
  const r = rectOf(c, f);
  const bad = problem(c, f.g.cols);
  const room = r.w - 16;
  const kinds = marks?.kinds ?? [];
  // Badges first (top right), so the first line leaves them room.
  let right = r.x + r.w - 4;
  const badges: string[] = [];
  const add = (label: string, colour: string) => {
    const b = badge(label, colour, right, r.y + 4);
    badges.push(b.svg);
    right -= b.width + 3;
  };
  if (kinds.includes('added')) add('added', COLOURS.added);
  const layout = kinds.filter((k) => k === 'moved' || k === 'resized');
  if (layout.length > 0) add(layout.join(', '), COLOURS.moved);
  // The badge names what changed in what the card draws (`visualization table → bar`), cut to half the card.
  if (kinds.includes('config')) add(xml(fitBadge(configBadge(c, marks), r.w / 2)), COLOURS.config);
  // Edited outside wsc and kept by apply (uiEdits: keep): no change, its own mark.
  if (kinds.includes('kept')) add('kept, edited outside wsc', COLOURS.kept);
  const headRoom = right - r.x - 8;
  const type = `<tspan class="t">${xml(cut(c.type, headRoom))}</tspan>`;
  const head = `${type} <tspan class="i">${xml(cut(c.id, headRoom - (c.type.length + 1) * CHAR))}</tspan>`;
  const lines: { svg: string; indent: number }[] = [{ svg: head, indent: 0 }];
  const content = contentLines(c, room);
  content.lines.forEach((l, i) => lines.push({ svg: l, indent: content.glyph && i === 0 ? 22 : 0 }));
  const fitLines = Math.max(1, Math.floor((r.h - 6) / LINE));
  if (c.textLines !== undefined) {
    // A TEXT card: as many lines as fit, `…` where a line or the rest is cut.
    const left = Math.max(0, fitLines - lines.length - (bad !== undefined ? 1 : 0));
    c.textLines.slice(0, left).forEach((t, i) => {
      const more = i === left - 1 && c.textLines!.length > left;
      const f1 = fit(t, room);
      const text = more && !f1.cut ? `${cut(t, room - CHAR)}…` : f1.text;
      lines.push({ svg: `<tspan class="m">${xml(text)}</tspan>`, indent: 0 });
    });
  }
  if (bad !== undefined) lines.push({ svg: `<tspan class="e">${xml(cut(bad, room))}</tspan>`, indent: 0 });
  const shown = lines.slice(0, c.chart !== undefined && chartArea(c, f.g, c.chart.before !== undefined) ? 2 : fitLines);
  const text = shown
    .map((l, i) => `<text x="${num(r.x + 8 + l.indent)}" y="${num(r.y + 16 + i * LINE)}">${l.svg}</text>`)
    .join('');
  const at = `translate(${num(r.x + 8)},${num(r.y + 16 + LINE - 12)})`;
  const glyph =
    content.glyph && c.glyph !== undefined && shown.length > 1
      ? `<path class="glyph" transform="${at}" d="${GLYPHS[c.glyph]}"/>`
      : '';
  const cls = [
    'card',
    bad !== undefined ? 'bad' : '',
    kinds.includes('added') ? 'added' : layout.length > 0 ? 'moved' : kinds.includes('config') ? 'config' : '',
  ]
    .filter((x) => x !== '')
    .join(' ');
  const label =
    c.report?.title ?? c.filter?.label ?? c.textLines?.[0] ?? (c.glyph !== undefined ? c.visualization : undefined);
  const what = c.change ?? marks?.paths?.join(', ');
  const change = kinds.length > 0 ? ` [${kinds.join(', ')}${what !== undefined ? `: ${what}` : ''}]` : '';
  const tip = `${c.type} ${c.id}${label !== undefined ? `: ${label}` : ''}${bad ? ` (${bad})` : ''}${change}`;
  return (
    `<g data-id="${xml(c.id)}"${kinds.length > 0 ? ` data-change="${kinds.join(' ')}"` : ''}>` +
    `<title>${xml(tip)}</title>${rect(cls, r)}${glyph}${text}${badges.join('')}${chartOf(c, f)}</g>`
  );
}

/** Whether two grid boxes share any cell. */
function intersects(a: GridBox, b: GridBox): boolean {
  return a.x < b.x + b.w && b.x < a.x + a.w && a.y < b.y + b.h && b.y < a.y + a.h;
}

/** A removed widget whose place a card now takes: its outline only, its label in the list under the grid. */
function coveredCard(w: RemovedCard, f: Frame): string {
  const title = `<title>${xml(`${w.type} ${w.id} removed`)}</title>`;
  return `<g data-removed="${xml(w.id)}">${title}${rect('gone', rectOf(w.box, f))}</g>`;
}

/** The labels of the removed widgets drawn under the grid, one line each, from `y`. */
function removedList(ws: readonly RemovedCard[], y: number, width: number): string {
  return ws
    .map((w, i) => {
      const where = `x ${w.box.x}, y ${w.box.y}, w ${w.box.w}, h ${w.box.h}`;
      const title = w.title !== undefined ? ` · ${w.title}` : '';
      const line = xml(cut(`removed: ${w.type} ${w.id}${title} (the dashed red box at ${where})`, width - 16));
      return `<text class="e" data-removed-label="${xml(w.id)}" x="8" y="${num(y + 14 + i * LINE)}">${line}</text>`;
    })
    .join('');
}

function removedCard(w: RemovedCard, f: Frame): string {
  const r = rectOf(w.box, f);
  const b = badge('removed', COLOURS.removed, r.x + r.w - 4, r.y + 4);
  const room = r.w - 16 - b.width;
  const id = xml(cut(w.id, room - (w.type.length + 1) * CHAR));
  const lines = [`<tspan class="t">${xml(cut(w.type, room))}</tspan> <tspan class="i">${id}</tspan>`];
  if (w.title !== undefined) lines.push(xml(cut(w.title, r.w - 16)));
  const text = lines
    .slice(0, Math.max(1, Math.floor((r.h - 6) / LINE)))
    .map((l, i) => `<text x="${num(r.x + 8)}" y="${num(r.y + 16 + i * LINE)}" fill="#991b1b">${l}</text>`)
    .join('');
  return (
    `<g data-removed="${xml(w.id)}"><title>${xml(`${w.type} ${w.id} removed`)}</title>` +
    `${rect('gone', r)}${b.svg}${text}</g>`
  );
}

/** The old box of a moved or resized card, dashed, and an arrow from its corner to the new one's when it moved. */
function oldBox(id: string, m: CardMarks, now: GridBox, f: Frame): string {
  const from = rectOf(m.before!, f);
  const to = rectOf(now, f);
  let arrow = '';
  if (m.kinds.includes('moved')) {
    const [x1, y1, x2, y2] = [from.x + 10, from.y + 10, to.x + 10, to.y + 10];
    arrow = `<path class="arrow" marker-end="url(#arrow)" d="M${num(x1)} ${num(y1)} L${num(x2)} ${num(y2)}"/>`;
  }
  // A kept widget's box is where it stays live (apply does not move it), not where it was.
  const box = m.kinds.includes('kept')
    ? `<rect ${STAYS} x="${num(from.x)}" y="${num(from.y)}" width="${num(from.w)}" height="${num(from.h)}" rx="4"/>`
    : rect('old', from);
  return `<g data-was="${xml(id)}">${box}${arrow}</g>`;
}

/** Where a kept widget stays live: dashed in its own colour (inline, so that pictures without one are unchanged). */
const STAYS = `fill="none" stroke="${COLOURS.kept}" stroke-width="1.5" stroke-dasharray="5 4"`;

function legend(y: number, width: number, kept: boolean): string {
  const items: [string, string][] = [
    ['added', `<rect class="added" x="0" y="-9" width="14" height="10" rx="2"/>`],
    ['removed (where it was)', `<rect class="gone" x="0" y="-9" width="14" height="10" rx="2"/>`],
    ['moved or resized (old box dashed)', `<rect class="old" x="0" y="-9" width="14" height="10" rx="2"/>`],
    ['config changed', `<rect x="0" y="-9" width="14" height="10" rx="2" fill="${COLOURS.config}"/>`],
    ...(kept
      ? [
          [
            'kept, edited outside wsc (where it stays dashed)',
            `<rect ${STAYS} x="0" y="-9" width="14" height="10" rx="2"/>`,
          ],
        ]
      : []),
  ] as [string, string][];
  let x = 8;
  const out: string[] = [];
  for (const [label, swatch] of items) {
    if (x + 20 + label.length * 6 > width) break;
    out.push(`<g transform="translate(${x},${y})">${swatch}<text class="l" x="19" y="0">${label}</text></g>`);
    x += 34 + label.length * 6;
  }
  return `<g class="legend">${out.join('')}</g>`;
}

/**
 * The SVG of `wb` at grid `g`; with `changes` (drawn `--against` a baseline), the change marked and
 * `against` named in the title.
 */
export function dashboardSvg(
  wb: PreviewWorkbook,
  g: PreviewGrid,
  changes?: { grid: GridChanges; against: string },
): string {
  const colW = g.width / g.cols;
  const top = HEADER + (changes ? LEGEND : 0);
  const removed = changes?.grid.removed ?? [];
  const removedRows = Math.max(0, ...removed.map((w) => w.box.y + w.box.h));
  const rows = Math.max(1, g.rows, removedRows);
  // A removed widget under a card now there: no label over the card's; its label goes under the grid.
  const covered = removed.filter((w) => g.cards.some((c) => intersects(w.box, c)));
  const gridBottom = top + rows * g.rowHeight + PAD;
  const height = gridBottom + (covered.length > 0 ? covered.length * LINE + 10 : 0);
  const f: Frame = { g, colW, top };
  const cols: string[] = [];
  for (let i = 0; i < g.cols; i++) {
    if (i % 2 === 0)
      cols.push(
        `<rect class="col" x="${num(i * colW)}" y="${top}" width="${num(colW)}" height="${gridBottom - top}"/>`,
      );
  }
  const what = changes ? ` · changes against ${changes.against}` : '';
  const title = `${wb.title ?? wb.name ?? wb.slug} · ${g.breakpoint} (${g.cols} columns)${what}`;
  const marks = changes?.grid.cards ?? {};
  const olds = g.cards.flatMap((c) => (marks[c.id]?.before ? [oldBox(c.id, marks[c.id]!, c, f)] : []));
  return [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${num(g.width)}" height="${height}" ` +
      `viewBox="0 0 ${num(g.width)} ${height}" font-family="sans-serif" font-size="12">`,
    `<style>${STYLE}</style>`,
    ...(changes
      ? [
          '<defs><marker id="arrow" viewBox="0 0 10 10" refX="9" refY="5" markerWidth="7" markerHeight="7" ' +
            `orient="auto-start-reverse"><path d="M0 0 L10 5 L0 10 Z" fill="${COLOURS.moved}"/></marker></defs>`,
        ]
      : []),
    `<rect width="100%" height="100%" fill="#fafafa"/>`,
    `<text class="h" x="8" y="21">${xml(cut(title, g.width - 16))}</text>`,
    ...(changes
      ? [
          legend(
            HEADER + 14,
            g.width,
            Object.values(marks).some((m) => m.kinds.includes('kept')),
          ),
        ]
      : []),
    ...cols,
    ...g.cards.map((c) => card(c, f, marks[c.id])),
    // Over the cards: a removed widget's place may be taken by another now, and both are to be seen.
    ...removed.map((w) => (covered.includes(w) ? coveredCard(w, f) : removedCard(w, f))),
    ...olds,
    ...(covered.length > 0 ? [removedList(covered, gridBottom, g.width)] : []),
    '</svg>',
    '',
  ].join('\n');
}
