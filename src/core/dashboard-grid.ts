// Where a dashboard's widgets sit at a breakpoint, the way the grid places
// them: a widget's own layout for that breakpoint, else the one of the
// nearest larger breakpoint that has one, else its `position`; a placement
// taken from elsewhere is moved back inside the grid's columns, and a layout
// holding such placements is packed upwards as the grid packs it; a layout
// the dashboard states in full for that breakpoint is kept as written, its
// overlaps and widgets outside the grid flagged. Pure: used by the plan's map, the SVGs and the preview.
import { isObj, type JsonValue } from './json.js';
import { widgetLabel } from './widget-identity.js';
import { boxOf } from './plan/dashboard-diff.js';
import type { GridBox } from './diff-model.js';
import { BREAKPOINTS, DEFAULT_COLS, type Breakpoint } from '../domain/grid.js';

export interface PlacedWidget {
  id: string;
  type: string;
  box: GridBox;
  /** The breakpoint whose layout placed it (`lg` for `position`). */
  from: Breakpoint;
  /** Its box leaves the grid (past the last column, negative, or empty). */
  outOfGrid: boolean;
  /** Ids of the widgets its box overlaps. */
  overlaps: string[];
  widget: { [k: string]: JsonValue };
}

export interface Grid {
  breakpoint: Breakpoint;
  cols: number;
  rows: number;
  widgets: PlacedWidget[];
}

function colsAt(draft: JsonValue | undefined, bp: Breakpoint): number {
  const layout = isObj(draft) ? draft['layout'] : undefined;
  const cols = isObj(layout) ? layout['cols'] : undefined;
  const n = isObj(cols) ? cols[bp] : undefined;
  return typeof n === 'number' && Number.isInteger(n) && n > 0 ? n : DEFAULT_COLS[bp];
}

function widgetsOf(draft: JsonValue | undefined): { [k: string]: JsonValue }[] {
  const list = isObj(draft) ? draft['widgets'] : undefined;
  return Array.isArray(list) ? list.filter(isObj) : [];
}

/** Breakpoints with a layout of their own: `lg` (positions) and any a widget names in `responsiveLayouts`. */
export function breakpointsWithLayout(draft: JsonValue | undefined): Breakpoint[] {
  const named = new Set<Breakpoint>(['lg']);
  for (const w of widgetsOf(draft)) {
    const r = w['responsiveLayouts'];
    if (isObj(r)) for (const bp of BREAKPOINTS) if (boxOf(r[bp]) !== undefined) named.add(bp);
  }
  return BREAKPOINTS.filter((bp) => named.has(bp));
}

function intersects(a: GridBox, b: GridBox): boolean {
  return a.x < b.x + b.w && b.x < a.x + a.w && a.y < b.y + b.h && b.y < a.y + a.h;
}

/**
 * Packs a layout upwards, as the grid does with one it derived from a larger
 * breakpoint: in row order, each widget rises as far as it can, then moves
 * below whatever it would overlap.
 */
function compactVertically(widgets: PlacedWidget[]): void {
  const order = [...widgets].sort((a, b) => a.box.y - b.box.y || a.box.x - b.box.x);
  const placed: GridBox[] = [];
  for (const w of order) {
    const box = { ...w.box };
    while (box.y > 0 && !placed.some((p) => intersects(p, { ...box, y: box.y - 1 }))) box.y--;
    for (let hit = placed.find((p) => intersects(p, box)); hit; hit = placed.find((p) => intersects(p, box))) {
      box.y = hit.y + hit.h;
    }
    w.box = box;
    placed.push(box);
  }
}

export function gridAt(draft: JsonValue | undefined, bp: Breakpoint): Grid {
  const cols = colsAt(draft, bp);
  const larger = BREAKPOINTS.slice(0, BREAKPOINTS.indexOf(bp) + 1).reverse();
  const widgets: PlacedWidget[] = [];
  for (const [i, w] of widgetsOf(draft).entries()) {
    const r = isObj(w['responsiveLayouts']) ? w['responsiveLayouts'] : {};
    const from = larger.find((b) => boxOf(r[b]) !== undefined) ?? 'lg';
    let box = boxOf(r[from]) ?? boxOf(w['position']);
    if (!box) continue;
    if (from !== bp) {
      // Taken from a larger breakpoint: the grid fits it into this one's columns.
      const width = Math.min(box.w, cols);
      box = { ...box, w: width, x: Math.max(0, Math.min(box.x, cols - width)) };
    }
    const outOfGrid = box.x < 0 || box.y < 0 || box.w < 1 || box.h < 1 || box.x + box.w > cols;
    const id = widgetLabel(w, i);
    const type = typeof w['type'] === 'string' ? w['type'] : '?';
    widgets.push({ id, type, box, from, outOfGrid, overlaps: [], widget: w });
  }
  if (widgets.some((w) => w.from !== bp)) compactVertically(widgets);
  for (const a of widgets) for (const b of widgets) if (a !== b && intersects(a.box, b.box)) a.overlaps.push(b.id);
  const rows = Math.max(0, ...widgets.map((w) => w.box.y + w.box.h));
  return { breakpoint: bp, cols, rows, widgets };
}
