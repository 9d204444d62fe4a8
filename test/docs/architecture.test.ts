// ARCHITECTURE.md is where a newcomer starts: every folder of src/ (nested
// ones too) and every top folder of test/ is named there, and so are the
// files to start from. A folder added without a word there fails here.
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, test } from 'vitest';

const ROOT = join(import.meta.dirname, '../..');
const text = readFileSync(join(ROOT, 'ARCHITECTURE.md'), 'utf8');

function folders(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true })
    .filter((e) => e.isDirectory())
    .flatMap((e) => [join(dir, e.name), ...folders(join(dir, e.name))]);
}

/**
 * Named: by its path from the root (`src/core/plan/`), or, for a folder inside a folder of src/, by its path
 * below that one (`plan/`, in the table of `src/core`) when that one is named.
 */
function named(folder: string): boolean {
  const rel = relative(ROOT, folder).split('\\').join('/');
  if (text.includes(`${rel}/`)) return true;
  const [, parent, ...below] = rel.split('/');
  if (parent === undefined || below.length === 0 || !text.includes(`src/${parent}/`)) return false;
  return text.includes(`\`${below.join('/')}/`);
}

describe('ARCHITECTURE.md', () => {
  test('names every folder of src/', () => {
    const all = folders(join(ROOT, 'src'));
    expect(all.length).toBeGreaterThan(10);
    expect(all.filter((f) => !named(f)).map((f) => relative(ROOT, f))).toEqual([]);
  });

  test('names every top folder of test/', () => {
    const top = readdirSync(join(ROOT, 'test'), { withFileTypes: true }).filter((e) => e.isDirectory());
    expect(top.filter((e) => !text.includes(`test/${e.name}/`)).map((e) => e.name)).toEqual([]);
  });

  test('names the files a newcomer starts from, and where each rule lives', () => {
    const start = text.slice(text.indexOf('## Start here'), text.indexOf('## One rule, one place'));
    for (const file of ['src/defaults.ts', 'src/bundle/load.ts', 'src/main.ts']) expect(start).toContain(file);
    const rules = text.slice(text.indexOf('## One rule, one place'), text.indexOf('## The tree'));
    for (const file of [
      'src/domain/unsafe-chars.ts',
      'src/bundle/locate.ts',
      'src/yaml/positions.ts',
      'src/core/ownership.ts',
      'src/core/deletes.ts',
      'src/bundle-dir.ts',
      'src/core/widget-identity.ts',
    ])
      expect(rules).toContain(file);
  });
});
