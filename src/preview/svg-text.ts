// Text in the preview's SVGs: escaped for XML, and cut or wrapped to the
// pixels a card has (by an average character width: no fonts are measured).

/** The average width of a 12px sans-serif character, for cutting text to a card. */
export const CHAR = 7;

/** `s` as XML text: characters XML 1.0 cannot hold at all are dropped; the rest escaped. */
export function xml(s: string): string {
  return s
    .replace(/[^\t\n\r\u0020-\uD7FF\uE000-\uFFFD\u{10000}-\u{10FFFF}]/gu, '')
    .replaceAll('&', '&amp;')
    .replaceAll('<', '&lt;')
    .replaceAll('>', '&gt;')
    .replaceAll('"', '&quot;');
}

/** `s` cut to `px` with `…` when it does not fit; `cut` says whether it was. */
export function fit(s: string, px: number): { text: string; cut: boolean } {
  const n = Math.max(0, Math.floor(px / CHAR));
  const chars = [...s];
  if (chars.length <= n) return { text: s, cut: false };
  return { text: n <= 1 ? '' : `${chars.slice(0, n - 1).join('')}…`, cut: true };
}

/** `s` cut to `px` with `…` when it does not fit. */
export function cut(s: string, px: number): string {
  return fit(s, px).text;
}

/** Words of `s` in lines of at most `px`, at most `max` lines (the last cut with `…`). */
export function wrap(s: string, px: number, max: number): string[] {
  const n = Math.max(4, Math.floor(px / CHAR));
  const lines: string[] = [];
  let line = '';
  for (const word of s.split(/\s+/)) {
    if (line === '') line = word;
    else if (line.length + 1 + word.length <= n) line += ` ${word}`;
    else {
      lines.push(line);
      line = word;
    }
  }
  if (line !== '') lines.push(line);
  if (lines.length <= max) return lines.map((l) => cut(l, px));
  return [...lines.slice(0, max - 1).map((l) => cut(l, px)), cut(`${lines[max - 1]!}…`, px)];
}
