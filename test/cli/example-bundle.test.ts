// The example bundle stands on its own once copied out of this repository:
// every editor-schema line points inside the bundle (at its own schemas/, as
// an exported bundle's do) at a file that is there and up to date, and its
// .gitignore keeps the embedded emulator's state out of Git.
import { cpSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, test } from 'vitest';
import { generateSchemas, schemaText } from '../../src/bundle/json-schema.js';
import { schemaLine } from '../../src/bundle/write.js';

const example = fileURLToPath(new URL('../../fixtures/example', import.meta.url));
const copy = mkdtempSync(join(tmpdir(), 'wsc-example-'));
afterAll(() => rmSync(copy, { recursive: true, force: true }));

function yamlFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const p = join(dir, e.name);
    if (e.isDirectory()) return e.name.startsWith('.') ? [] : yamlFiles(p);
    return /\.ya?ml$/.test(e.name) ? [p] : [];
  });
}

describe('fixtures/example copied out of the repository', () => {
  cpSync(example, copy, { recursive: true });
  const files = yamlFiles(copy);

  test.each(files.map((f) => [relative(copy, f)]))('%s: its $schema line resolves inside the bundle', (rel) => {
    const first = readFileSync(join(copy, rel), 'utf8').split('\n')[0]!;
    const m = /^# yaml-language-server: \$schema=(\S+)$/.exec(first);
    expect(m, first).not.toBeNull();
    const target = resolve(dirname(join(copy, rel)), m![1]!);
    expect(target.startsWith(copy + '/')).toBe(true);
    expect(existsSync(target)).toBe(true);
    // The same line export writes for a file at that place.
    const kind = rel === 'wsc.yaml' ? 'wsc' : (m![1]!.match(/([a-z-]+)\.schema\.json$/)![1] as 'report');
    expect(first).toBe(schemaLine(kind, rel));
  });

  test('its schemas/ are the ones this wsc generates', () => {
    for (const f of generateSchemas()) {
      const text = readFileSync(join(example, 'schemas', f.name), 'utf8');
      expect(text, `${f.name} is stale: run npm run schema`).toBe(schemaText(f));
    }
  });

  test('its .gitignore holds .wsc/', () => {
    expect(readFileSync(join(example, '.gitignore'), 'utf8').split('\n')).toContain('.wsc/');
  });
});
