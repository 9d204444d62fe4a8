// What makes a slug unusable: wsc sends a workbook's slug as one segment of a
// request path (`PUT /workbooks/by-slug/{slug}`). `wsc validate` refuses such
// a slug in a bundle; `wsc export` gives a live workbook that holds one a safe
// slug and an adopt block (the rename is planned, never done by export).

import { CONTROL_CHAR } from './unsafe-chars.js';

/** The longest slug wsc sends (a request path segment; far longer ones meet a 431 from the server). */
export const MAX_SLUG_LENGTH = 200;

export type SlugProblem = 'dots' | 'separator' | 'control' | 'length';

/** Why a slug (trimmed) cannot be sent as a path segment; undefined when it can. */
export function slugProblem(slug: string): SlugProblem | undefined {
  if (slug === '.' || slug === '..') return 'dots';
  if (/[/\\]/.test(slug)) return 'separator';
  if (CONTROL_CHAR.test(slug)) return 'control';
  if (slug.length > MAX_SLUG_LENGTH) return 'length';
  return undefined;
}
