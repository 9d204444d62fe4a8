// docs/emulator.md says what the emulator holds when started without a seed:
// its deployments (of one account) and its tokens are the built-in seed's.
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect, test } from 'vitest';
import { defaultSeed } from '../../src/emulator/index.js';
import { read } from './markdown.js';

const root = fileURLToPath(new URL('../..', import.meta.url));
const page = read(join(root, 'docs/emulator.md'));

/** Body rows of the table whose header row starts with `| first |`. */
function table(first: string): string[][] {
  const at = page.indexOf(`\n| ${first} |`);
  expect(at, `a table headed "${first}"`).toBeGreaterThan(-1);
  const lines = page.slice(at + 1).split('\n');
  const end = lines.findIndex((l) => !l.startsWith('|'));
  return lines.slice(2, end).map((l) =>
    l
      .slice(1, -1)
      .split(' | ')
      .map((c) => c.trim().replace(/^`|`$/g, '')),
  );
}

test('the deployments it names are the built-in seed’s, all of one account', () => {
  const seed = defaultSeed();
  expect(table('deployment').map(([id, name]) => ({ id: Number(id), name }))).toEqual(
    seed.deployments.map((d) => ({ id: d.id, name: d.name })),
  );
  expect(new Set(seed.deployments.map((d) => d.accountId)).size).toBe(1);
  expect(page).toContain(`**one account (${seed.deployments[0]!.accountId}) with two deployments**`);
  expect(seed.deployments).toHaveLength(2);
});

test('the tokens it names are the built-in seed’s users, with their roles', () => {
  const words: Record<string, string> = { admin: 'admin', 'ai-bi-user': 'AI BI User', viewer: 'viewer' };
  const rows = table('token');
  expect(rows.map(([token, email]) => [token, email])).toEqual(defaultSeed().users.map((u) => [u.tokens[0], u.email]));
  for (const [i, u] of defaultSeed().users.entries()) expect(rows[i]![2]!.startsWith(words[u.role]!)).toBe(true);
});
