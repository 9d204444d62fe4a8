// The environment-variable table of docs/commands.md is the table in src/env.ts, and
// every WSC_* variable the code mentions is in that table.
import { readFileSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect, test } from 'vitest';
import { ENV_VARS } from '../../src/env.js';

const root = fileURLToPath(new URL('../..', import.meta.url));

function files(dir: string): string[] {
  return readdirSync(dir).flatMap((n) => {
    const p = join(dir, n);
    return statSync(p).isDirectory() ? files(p) : p.endsWith('.ts') ? [p] : [];
  });
}

test('docs/commands.md env table matches src/env.ts', () => {
  const page = readFileSync(join(root, 'docs/commands.md'), 'utf8');
  const table = /<!-- env-table:start -->([\s\S]*)<!-- env-table:end -->/.exec(page)?.[1] ?? '';
  const rows = table.split('\n').filter((l) => l.startsWith('| `'));
  expect(rows.map((r) => /^\| `([^`]+)`/.exec(r)?.[1])).toEqual(ENV_VARS.map((v) => v.name));
  for (const v of ENV_VARS) expect(table).toContain(`| \`${v.name}\` | ${v.description} |`);
});

test('every WSC_* variable used in src/ is documented', () => {
  const used = new Set<string>();
  for (const f of files(join(root, 'src'))) {
    for (const m of readFileSync(f, 'utf8').matchAll(/\bWSC_[A-Z_]+\b/g)) used.add(m[0]);
  }
  const documented = new Set(ENV_VARS.map((v) => v.name));
  // Variables named by users in their own wsc.yaml (e.g. WSC_STAGING_TOKEN) appear only in fixtures, not src/.
  expect([...used].filter((u) => !documented.has(u))).toEqual([]);
});
