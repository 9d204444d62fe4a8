// config/ and bundle/ share src/yaml/ instead of importing each other; src/yaml/ imports neither.
import { readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, test } from 'vitest';

const src = resolve(import.meta.dirname, '../../src');

/** Every relative import of the .ts files under src/<folder>, as `file -> target`. */
function imports(folder: string): string[] {
  const out: string[] = [];
  const walk = (dir: string) => {
    for (const e of readdirSync(dir, { withFileTypes: true })) {
      const p = join(dir, e.name);
      if (e.isDirectory()) walk(p);
      else if (e.name.endsWith('.ts')) {
        for (const m of readFileSync(p, 'utf8').matchAll(/^\s*(?:import|export)[^'"]*from\s+'(\.[^']+)'/gm)) {
          out.push(`${p.slice(src.length + 1)} -> ${join(dir, m[1]!).slice(src.length + 1)}`);
        }
      }
    }
  };
  walk(join(src, folder));
  return out;
}

describe('the YAML layer between config/ and bundle/', () => {
  test('config/ imports nothing of bundle/', () => {
    expect(imports('config').filter((i) => / -> bundle\//.test(i))).toEqual([]);
  });

  test('bundle/ imports only the wsc.yaml schema of config/ (for its JSON Schema)', () => {
    expect(imports('bundle').filter((i) => / -> config\//.test(i))).toEqual([
      'bundle/json-schema.ts -> config/schema.js',
    ]);
  });

  test('yaml/ imports neither', () => {
    const all = imports('yaml');
    expect(all.length).toBeGreaterThan(0);
    expect(all.filter((i) => / -> (config|bundle)\//.test(i))).toEqual([]);
  });
});
