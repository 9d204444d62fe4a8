// JSON.parse for API bodies, minus the deprecated twin. List answers carry
// every item twice, in `items` and in the legacy `data` (still returned,
// deprecated): `{"items":X,"data":X,...}`. Parsing X once and
// sharing it halves the parse and the garbage of a plan's reads. The result
// is always what JSON.parse(text) gives (`data` equal to `items`, here the
// same array); anything else is parsed whole.

const HEAD = '{"items":';
const TWIN = ',"data":';
/** How far from the end the members after the twins may start (count, pageInfo). */
const TAIL_WINDOW = 4096;

/** JSON.parse(text), a leading byte-order mark allowed; throws as JSON.parse does. */
export function parseJsonBody(text: string): unknown {
  const t = text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
  return (t.startsWith(HEAD) && parseTwinned(t)) || JSON.parse(t);
}

/**
 * `{"items":X,"data":X,REST}` with X the very same text twice: X parsed once.
 * REST (one or more members) is found from the end: each `,"` near the end is
 * a candidate start, kept when the text before it splits into two equal
 * halves around `,"data":`. Then the text is exactly that concatenation, so
 * JSON.parse gives {items: X, data: X, ...REST}, later members winning.
 * Undefined when the shape is not there (the caller parses whole).
 */
function parseTwinned(t: string): { [k: string]: unknown } | undefined {
  const floor = Math.max(HEAD.length, t.length - TAIL_WINDOW);
  for (let r = t.lastIndexOf(',"'); r >= floor; r = t.lastIndexOf(',"', r - 1)) {
    const twice = r - HEAD.length - TWIN.length;
    if (twice <= 0 || twice % 2 !== 0) continue;
    const len = twice / 2;
    const second = HEAD.length + len + TWIN.length;
    if (!t.startsWith(TWIN, HEAD.length + len)) continue;
    const x = t.slice(HEAD.length, HEAD.length + len);
    if (!t.startsWith(x, second)) return undefined;
    try {
      const items: unknown = JSON.parse(x);
      // REST starts at a `"`, so `{REST` parses only as an object with members.
      const rest = JSON.parse(`{${t.slice(r + 1)}`) as { [k: string]: unknown };
      // Members defined in text order: a repeated `items` or `data` in REST wins, as in JSON.parse.
      return Object.fromEntries<unknown>([['items', items], ['data', items], ...Object.entries(rest)]);
    } catch {
      return undefined;
    }
  }
  return undefined;
}
