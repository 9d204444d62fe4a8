// `node --import tsx scripts/subset-fonts.mjs`: assets/fonts/, the fonts a
// picture's PNG is drawn with (src/preview/png-fonts.ts says why): Debian's
// DejaVu Sans and DejaVu Sans Bold (the fonts-dejavu-core package) cut to
// png-fonts.ts's BUNDLED_RANGES by fontTools' pyftsubset (the fonttools
// package), without hinting (resvg does not use it), every layout feature
// kept (kerning, ligatures), their names as they were: the Bitstream Vera
// licence lets a font be changed under a name without "Bitstream" or
// "Vera". Its text is copied beside them as LICENSE. Run by hand when the
// ranges change; test/preview/png-fonts.test.ts checks the result against the
// system's fonts, glyph for glyph.
import { execFileSync } from 'node:child_process';
import { copyFileSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { BUNDLED_RANGES } from '../src/preview/png-fonts.ts';

const root = fileURLToPath(new URL('..', import.meta.url));
const from = '/usr/share/fonts/truetype/dejavu';
const out = join(root, 'assets/fonts');
mkdirSync(out, { recursive: true });
const hex = (c) => c.toString(16).toUpperCase().padStart(4, '0');
const unicodes = BUNDLED_RANGES.map(([a, b]) => (a === b ? `U+${hex(a)}` : `U+${hex(a)}-${hex(b)}`)).join(',');
for (const font of ['DejaVuSans.ttf', 'DejaVuSans-Bold.ttf']) {
  execFileSync('pyftsubset', [
    join(from, font),
    `--unicodes=${unicodes}`,
    '--no-hinting',
    '--layout-features=*',
    `--output-file=${join(out, font)}`,
  ]);
}
copyFileSync('/usr/share/doc/fonts-dejavu-core/copyright', join(out, 'LICENSE'));
console.log(`wrote ${out}: DejaVuSans.ttf, DejaVuSans-Bold.ttf (${unicodes}) and LICENSE`);
