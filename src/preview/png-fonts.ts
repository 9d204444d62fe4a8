// The fonts a picture's PNG is drawn with. resvg reads a font's whole file
// again for each glyph it draws, and loads the system's fonts afresh for each
// picture: with the system's DejaVu Sans (760 KB) half of a PNG's time went
// to reading it. wsc ships DejaVu Sans and DejaVu Sans Bold cut to the
// characters below (assets/fonts, 110 KB each, made by
// scripts/subset-fonts.mjs from Debian's fonts-dejavu-core; their licence
// beside them). A picture these fonts draw as the system's DejaVu Sans would
// (its every character among them, its text in the families, styles and
// weights wsc's pictures use) is drawn from them alone: the same pixels, in
// half the time, on every machine. Any other picture is drawn with the
// system's fonts, as before (a title in Greek, Cyrillic or Japanese: resvg
// finds each character in whichever system font has it).
import { existsSync } from 'node:fs';
import { CHART_FONT } from './chart-spec.js';
import { assetsDir } from './package-files.js';

/**
 * The characters of the shipped fonts (inclusive code point ranges; each of them is in DejaVu Sans 2.37
 * and its Bold, so no other font would draw it): the subset script cuts the fonts to them.
 */
export const BUNDLED_RANGES: ReadonlyArray<readonly [number, number]> = [
  [0x20, 0x7e], // Basic Latin
  [0xa0, 0x24f], // Latin-1 Supplement, Latin Extended-A and -B
  [0x2010, 0x2027], // dashes, quotes, bullets, the ellipsis
  [0x2030, 0x205e], // per mille, primes, guillemets
  [0x20a0, 0x20b5], // currency signs (€, ₹, …)
  [0x20b8, 0x20ba],
  [0x20bd, 0x20bd],
  [0x2100, 0x2109], // letterlike symbols (№, ™, …)
  [0x210b, 0x2149],
  [0x214b, 0x214b],
  [0x214e, 0x214e],
  [0x2190, 0x21ff], // arrows
  [0x2200, 0x22ff], // mathematical operators (the minus sign, ×'s kin)
  [0x2500, 0x257f], // box drawing
  [0x25a0, 0x25ff], // geometric shapes
  [0x2713, 0x2713], // ✓
  [0x2717, 0x2717], // ✗
];

const hex = (c: number) => `\\u{${c.toString(16)}}`;
/** A character the shipped fonts do not hold (tab and line ends are markup). */
const OUTSIDE = new RegExp(`[^\\t\\n\\r${BUNDLED_RANGES.map(([a, b]) => `${hex(a)}-${hex(b)}`).join('')}]`, 'u');

/** The font-family values of wsc's pictures: the layout's and the charts'. */
const FAMILIES = new Set(['sans-serif', CHART_FONT]);
const WEIGHTS = new Set(['normal', 'bold', '400', '700']);

/** Each value of a presentation attribute or CSS property `name` in the SVG's text. */
function valuesOf(svg: string, name: string): string[] {
  const re = new RegExp(`${name}\\s*(?:=\\s*"([^"]*)"|=\\s*'([^']*)'|:\\s*([^;}"'>]*))`, 'g');
  return [...svg.matchAll(re)].map((m) => (m[1] ?? m[2] ?? m[3] ?? '').trim());
}

/**
 * Whether the shipped fonts draw `svg` as the system's DejaVu Sans would: every character among
 * theirs (a character reference, `&#…;`, may name any, so it does not qualify), every font-family one
 * of wsc's, weights regular or bold, and no style, variant, stretch or `font` shorthand.
 */
export function bundledFontsSuffice(svg: string): boolean {
  if (OUTSIDE.test(svg) || svg.includes('&#')) return false;
  if (/font-(?:style|variant|stretch)|[\s;{"']font\s*:/.test(svg)) return false;
  return (
    valuesOf(svg, 'font-family').every((f) => FAMILIES.has(f)) &&
    valuesOf(svg, 'font-weight').every((w) => WEIGHTS.has(w))
  );
}

const FILES = ['DejaVuSans.ttf', 'DejaVuSans-Bold.ttf'];

/** The shipped fonts' files, or undefined where an installation lacks them (the system's are used). */
export function bundledFontFiles(): string[] | undefined {
  const dir = assetsDir('fonts', FILES[0]!);
  if (dir === undefined) return undefined;
  const files = FILES.map((f) => `${dir}${f}`);
  return files.every((f) => existsSync(f)) ? files : undefined;
}
