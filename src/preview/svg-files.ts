// The files of `wsc preview --out` and `wsc plan --pictures`: one SVG per dashboard and breakpoint drawn,
// named in one place (core/picture-names.ts), each with the workbook it draws.
import { pictureName, pictureStems } from '../core/picture-names.js';
import type { PreviewWorkbook } from './model.js';
import { dashboardSvg } from './svg.js';

/**
 * The files `wsc preview --out` writes: `<stem>.<breakpoint>.svg` per breakpoint with a layout of its own
 * (breakpoint names sort widest first), the stem the safe form of the slug that export uses for file
 * names (no markup, path or hidden name can come from a slug); slugs that share a stem get a hash of the
 * slug, as export's files do. With `against`, only the dashboards that changed, the change marked.
 */
export function dashboardSvgs(
  workbooks: readonly PreviewWorkbook[],
  against?: string,
): { name: string; slug: string; text: string }[] {
  const drawn = workbooks.filter((wb) =>
    against !== undefined ? wb.changes?.changed === true : !wb.grids.every((g) => g.cards.length === 0),
  );
  const names = pictureStems(drawn.map((wb) => wb.slug));
  const out: { name: string; slug: string; text: string }[] = [];
  for (const wb of drawn) {
    for (const g of wb.grids) {
      if (!wb.layouts.includes(g.breakpoint)) continue;
      const changes =
        against !== undefined && wb.changes ? { grid: wb.changes.grids[g.breakpoint], against } : undefined;
      const name = pictureName(names.get(wb.slug)!, g.breakpoint);
      out.push({ name, slug: wb.slug, text: dashboardSvg(wb, g, changes) });
    }
  }
  return out;
}
