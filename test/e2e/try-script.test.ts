// `npm run try` as a newcomer runs it: every step shown (validate, the first
// apply, an edit, the plan of that edit in full, its apply, the final plan),
// in a length one screen of scrolling takes in.
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { beforeAll, describe, expect, test } from 'vitest';
import { ensureBuilt, root } from './helpers/index.js';

beforeAll(ensureBuilt, 180_000);

describe('npm run try', () => {
  test('shows each step, the change planned in full, applies compact, ends with no changes; under 150 lines', () => {
    const r = spawnSync(process.execPath, [join(root, 'scripts/try.mjs')], { encoding: 'utf8', timeout: 120_000 });
    expect(r.status, r.stderr).toBe(0);
    const out = `${r.stdout}${r.stderr}`;
    const lines = out.split('\n');
    expect(lines.length).toBeLessThan(150);
    expect(lines.filter((l) => l.startsWith('$ wsc ')).map((l) => l.split(' --dir ')[0])).toEqual([
      '$ wsc validate',
      '$ wsc apply --compact --auto-approve',
      '$ wsc plan',
      '$ wsc apply --compact --auto-approve',
      '$ wsc plan --detailed-exitcode',
    ]);
    // The plan in full: the widget lines with their titles and places, and the map.
    expect(out).toMatch(
      /~ widget win-rate "Win rate this quarter" resized 6×4 → 6×3 {2}\(workbooks\/sales-pipeline\.yaml:\d+\)/,
    );
    expect(out).toContain('before (lg, 12 columns)');
    // The apply after it: compact, the widgets named.
    expect(out).toContain('(widgets: win-rate resized, cycle-length config)');
    expect(out).toContain('Apply complete: 0 created, 1 updated, 0 adopted, 1 published.');
    expect(out).toContain('No changes. The deployment matches the bundle.');
  }, 180_000);
});
