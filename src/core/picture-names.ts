// The names of the pictures `wsc preview --out` writes, in one place for the
// preview and for the markdown plan that lists them: `<stem>.<breakpoint>.svg`,
// the stem the safe file stem export uses for a slug (hashed when two slugs
// of the set share one), a file per breakpoint with a layout of its own
// (breakpoint names sort widest first: lg, md, sm, xs, xxs).
import { BREAKPOINTS, type Breakpoint } from '../domain/grid.js';
import { breakpointsWithLayout } from './dashboard-grid.js';
import { fileStem, groupNames } from './export/names.js';
import type { JsonValue } from './json.js';

/** The file stem of each slug's pictures, among the slugs drawn together. */
export function pictureStems(slugs: readonly string[]): Map<string, string> {
  const byStem = new Map<string, string[]>();
  for (const slug of slugs) byStem.set(fileStem(slug), [...(byStem.get(fileStem(slug)) ?? []), slug]);
  const names = new Map<string, string>();
  for (const [stem, group] of byStem) for (const [slug, name] of groupNames(stem, group)) names.set(slug, name);
  return names;
}

/** The breakpoints drawn for a dashboard: those with a layout of their own now or, against a baseline, then. */
export function pictureBreakpoints(after: JsonValue | undefined, before?: JsonValue): Breakpoint[] {
  const now = breakpointsWithLayout(after);
  const then = before === undefined ? [] : breakpointsWithLayout(before);
  return BREAKPOINTS.filter((bp) => now.includes(bp) || then.includes(bp));
}

export function pictureName(stem: string, bp: Breakpoint): string {
  return `${stem}.${bp}.svg`;
}
