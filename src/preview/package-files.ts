// Where the package's own files (assets/) are: one level up from dist/ (the
// build, which bundles this module into a chunk there) and two from
// src/preview/ (the sources, as the tests run them).
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

/** `assets/<name>/` (ending in a slash) where it holds `marker`, or undefined; `from`: this module's URL. */
export function assetsDir(name: string, marker: string, from: string = import.meta.url): string | undefined {
  for (const up of ['../', '../../']) {
    const dir = fileURLToPath(new URL(`${up}assets/${name}/`, from));
    if (existsSync(`${dir}${marker}`)) return dir;
  }
  return undefined;
}
