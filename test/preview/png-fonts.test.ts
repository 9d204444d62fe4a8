// The PNG's fonts: DejaVu Sans as wsc ships it (assets/fonts) draws wsc's pictures pixel for pixel as the
// system's fonts did, every character of its ranges in both weights; a picture it cannot draw so (a
// character outside it, a family, style or weight wsc does not use) is drawn with the system's fonts.
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { pathToFileURL } from 'node:url';
import { Resvg, type ResvgRenderOptions } from '@resvg/resvg-js';
import { describe, expect, test } from 'vitest';
import { CHART_FONT } from '../../src/preview/chart-spec.js';
import { BUNDLED_RANGES, bundledFontFiles, bundledFontsSuffice } from '../../src/preview/png-fonts.js';
import { fontsFor, pngOf } from '../../src/preview/png.js';
import { assetsDir } from '../../src/preview/package-files.js';
import { root } from '../e2e/helpers/index.js';

const FAMILY = { defaultFontFamily: 'DejaVu Sans', sansSerifFamily: 'DejaVu Sans' };
/** How every PNG was drawn before the fonts were shipped: the machine's fonts. */
const SYSTEM: ResvgRenderOptions['font'] = { loadSystemFonts: true, ...FAMILY };
const render = (svg: string, font: ResvgRenderOptions['font']) =>
  Buffer.from(new Resvg(svg, { font, background: 'white' }).render().asPng());

const shipped = bundledFontFiles();
const SHIPPED: ResvgRenderOptions['font'] = { loadSystemFonts: false, fontFiles: shipped ?? [], ...FAMILY };

const goldens = ['preview', 'charts'].flatMap((d) =>
  readdirSync(join(root, 'test/golden', d)).map((f) => join(root, 'test/golden', d, f)),
);

const esc = (t: string) => t.replaceAll('&', '&amp;').replaceAll('<', '&lt;').replaceAll('>', '&gt;');

/** Every character of the ranges, 48 to a line, in both weights and both of wsc's font families. */
function allCharacters(): string {
  const chars = BUNDLED_RANGES.flatMap(([a, b]) =>
    Array.from({ length: b - a + 1 }, (_, i) => String.fromCodePoint(a + i)),
  );
  const lines: string[] = [];
  for (let i = 0; i < chars.length; i += 48) lines.push(chars.slice(i, i + 48).join(''));
  const texts = ['normal', 'bold'].flatMap((weight, w) =>
    lines.map((l, i) => {
      const family = i % 2 === 0 ? 'sans-serif' : CHART_FONT;
      const y = 16 * (w * lines.length + i + 1);
      return `<text x="4" y="${y}" font-family="${family}" font-weight="${weight}">${esc(l)}</text>`;
    }),
  );
  const height = 16 * (2 * lines.length + 1);
  return `<svg xmlns="http://www.w3.org/2000/svg" width="900" height="${height}" font-size="13">${texts.join('')}</svg>`;
}

describe('the shipped fonts', () => {
  test('are in the package (assets/ is in its files) and found from the sources as from the build', () => {
    expect(shipped).toEqual([
      join(root, 'assets/fonts/DejaVuSans.ttf'),
      join(root, 'assets/fonts/DejaVuSans-Bold.ttf'),
    ]);
    // The build bundles package-files.ts into a chunk of dist/: one level under the package, not two.
    const fonts = join(root, 'assets/fonts/');
    const from = (file: string) => pathToFileURL(join(root, file)).href;
    expect(assetsDir('fonts', 'DejaVuSans.ttf', from('dist/chunk-X.js'))).toBe(fonts);
    expect(assetsDir('fonts', 'DejaVuSans.ttf', from('src/preview/x.ts'))).toBe(fonts);
    expect(assetsDir('fonts', 'DejaVuSans.ttf', from('a/b/c/x.js'))).toBeUndefined();
    for (const f of shipped!) expect(statSync(f).size).toBeLessThan(150_000);
    expect(existsSync(join(root, 'assets/fonts/LICENSE'))).toBe(true);
    const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { files: string[] };
    expect(pkg.files).toContain('assets');
  });

  test('draw every character of their ranges, regular and bold, as the machine fonts do', () => {
    const svg = allCharacters();
    expect(bundledFontsSuffice(svg)).toBe(true);
    const mine = render(svg, SHIPPED);
    expect(mine.equals(render(svg, SYSTEM))).toBe(true);
    // The control: without the shipped fonts, nothing draws the text (a PNG of the layout alone).
    expect(mine.equals(render(svg, { loadSystemFonts: false, ...FAMILY }))).toBe(false);
  });

  test.each(goldens.map((f) => [relative(root, f), f]))(
    '%s: drawn from them alone, the same PNG as with the machine fonts',
    async (_name, file) => {
      const svg = readFileSync(file, 'utf8');
      expect(bundledFontsSuffice(svg)).toBe(true);
      expect(fontsFor(svg)).toEqual(SHIPPED);
      expect((await pngOf(svg)).equals(render(svg, SYSTEM))).toBe(true);
    },
  );
});

describe('a picture they cannot draw as the system would: the machine fonts', () => {
  const picture = (text: string, attrs = '') =>
    `<svg xmlns="http://www.w3.org/2000/svg" width="300" height="40" font-family="sans-serif"><text x="4" y="20"${attrs}>${text}</text></svg>`;

  test.each([
    ['a Latin title with their signs', picture('Umsatz → Größe · 5 € × 2 ✓ “ok” …'), true],
    ['a title in Cyrillic', picture('Выручка по месяцам'), false],
    ['a title in Japanese', picture('月次売上'), false],
    ['a character reference (may name any character)', picture('&#1042;'), false],
    ['a control character', picture('a\u0007b'), false],
    ['a family wsc does not use', picture('Revenue', ' font-family="serif"'), false],
    ['italic', picture('Revenue', ' font-style="italic"'), false],
    ['a light weight', picture('Revenue', ' font-weight="300"'), false],
    ['a CSS font shorthand', picture('Revenue', ' style="font: 12px serif"'), false],
    ['bold and the charts’ family', picture('Revenue', ` font-weight="bold" font-family="${CHART_FONT}"`), true],
  ])('%s (the shipped fonts suffice: %s)', (_name, svg, suffice) => {
    expect(bundledFontsSuffice(svg)).toBe(suffice);
    expect(fontsFor(svg)).toEqual(suffice ? SHIPPED : SYSTEM);
  });

  test('Cyrillic is drawn as before, where the shipped fonts alone would leave it out', async () => {
    const svg = picture('Выручка по месяцам');
    const png = await pngOf(svg);
    expect(png.equals(render(svg, SYSTEM))).toBe(true);
    expect(png.equals(render(svg, SHIPPED))).toBe(false);
  });
});
