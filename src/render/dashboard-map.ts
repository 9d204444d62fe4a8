// The dashboard's grid at `lg` as a text map: each widget a box labelled with
// its id, changed ones marked `*`; before and after side by side when both
// fit the width (the terminal's, or a GitHub comment's code block) with every
// label as whole as one map alone would have it, one above the other
// otherwise. A label is cut only where its box is narrower than it. ASCII
// only, so it lines up in any font.
import { gridAt, type Grid } from '../core/dashboard-grid.js';
import type { JsonValue } from '../core/json.js';
import { visible } from '../visible.js';

const GAP = 2;
/** Rows past this are cut (a marker line says how many): a map is a glance, not the whole page. */
const MAX_ROWS = 60;

function label(id: string, marked: ReadonlySet<string>): string {
  return `${marked.has(id) ? '*' : ''}${visible(id)}`;
}

/** How many labels a map cuts when a column is `cw` characters wide. */
function cutLabels(grid: Grid, cw: number, marked: ReadonlySet<string>): number {
  return grid.widgets.filter((w) => w.box.w >= 1 && label(w.id, marked).length > w.box.w * cw - 1).length;
}

function draw(grid: Grid, cw: number, marked: ReadonlySet<string>): string[] {
  const cols = Math.max(grid.cols, ...grid.widgets.map((w) => w.box.x + w.box.w));
  const rows = Math.min(grid.rows, MAX_ROWS);
  const width = cols * cw + 1;
  const canvas = Array.from({ length: rows + 1 }, () => Array<string>(width).fill(' '));
  const put = (x: number, y: number, ch: string) => {
    if (y >= 0 && y <= rows && x >= 0 && x < width) canvas[y]![x] = ch;
  };
  for (const w of grid.widgets) {
    const { x, y, w: bw, h } = w.box;
    if (bw < 1 || h < 1) continue;
    const x0 = Math.max(0, x) * cw;
    const x1 = (Math.max(0, x) + bw) * cw;
    const y0 = Math.max(0, y);
    const y1 = Math.max(0, y) + h;
    for (let i = x0; i <= x1; i++) {
      put(i, y0, '-');
      put(i, y1, '-');
    }
    for (let j = y0; j <= y1; j++) {
      put(x0, j, '|');
      put(x1, j, '|');
    }
    for (const [i, j] of [
      [x0, y0],
      [x1, y0],
      [x0, y1],
      [x1, y1],
    ] as const)
      put(i, j, '+');
    let text = label(w.id, marked);
    const room = x1 - x0 - 1;
    if (text.length > room) text = room > 1 ? `${text.slice(0, room - 1)}~` : text.slice(0, Math.max(0, room));
    [...text].forEach((ch, k) => put(x0 + 1 + k, y0, ch));
  }
  const lines = canvas.map((l) => l.join(''));
  if (grid.rows > MAX_ROWS) lines.push(`(${grid.rows - MAX_ROWS} more rows)`);
  return lines;
}

/**
 * The map of a dashboard's layout at `lg`, before and after, as lines at most
 * `width` characters wide. `before` undefined: the dashboard is new (one map).
 */
export function layoutMap(
  before: JsonValue | undefined,
  after: JsonValue | undefined,
  marked: ReadonlySet<string>,
  width = 100,
): string[] {
  const grids = [before, after].filter((d) => d !== undefined).map((d) => gridAt(d, 'lg'));
  const titles = grids.length === 2 ? ['before', 'after'] : [before === undefined ? 'after' : 'before'];
  const cols = Math.max(1, ...grids.map((g) => Math.max(g.cols, ...g.widgets.map((w) => w.box.x + w.box.w))));
  // A column's width in characters when the two maps share the width; side by side needs 2 at least.
  // No wider than every label needs (and a column of 6 characters): a wide terminal gets whole ids,
  // not a picture wider than a reader's eye takes in.
  const need = Math.max(
    6,
    ...grids.flatMap((g) =>
      g.widgets.filter((w) => w.box.w >= 1).map((w) => Math.ceil((label(w.id, marked).length + 1) / w.box.w)),
    ),
  );
  const half = Math.min(need, Math.floor((Math.floor((width - GAP) / 2) - 1) / cols));
  const full = Math.min(need, Math.max(1, Math.floor((width - 1) / cols)));
  const cuts = (cw: number) => grids.reduce((n, g) => n + cutLabels(g, cw, marked), 0);
  const sideBySide = grids.length === 2 && half >= 2 && cuts(half) <= cuts(full);
  const cw = sideBySide ? half : full;
  const maps = grids.map((g, i) => [`${titles[i]} (lg, ${g.cols} columns)`, ...draw(g, cw, marked)]);
  const legend = marked.size > 0 ? ['* changed'] : [];
  if (!sideBySide) return [...maps.flatMap((m, i) => (i === 0 ? m : ['', ...m])).map((l) => l.trimEnd()), ...legend];
  const left = maps[0]!;
  const right = maps[1]!;
  const w = Math.max(...left.map((l) => l.length)) + GAP;
  const out: string[] = [];
  for (let i = 0; i < Math.max(left.length, right.length); i++)
    out.push(`${(left[i] ?? '').padEnd(w)}${right[i] ?? ''}`.trimEnd());
  return [...out, ...legend];
}
