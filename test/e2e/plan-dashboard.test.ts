// A reviewer's view of a dashboard change, end to end: the built CLI against
// the emulator on a free loopback port, fixtures/example applied, one widget
// moved in its file. The plan says it in one line plus the layout map.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, test } from 'vitest';
import { cleanupTemp, copyFixture, emulatorEnv, runCli, target, withEmulator } from './helpers/index.js';

afterAll(cleanupTemp);

describe('plan: move one widget of fixtures/example', () => {
  test('human, markdown and JSON plans: one widget line plus the map', async () => {
    const dir = copyFixture('example');
    await withEmulator({}, async (emu) => {
      const args = ['--dir', dir, ...target(emu)];
      expect((await runCli(['apply', '--auto-approve', ...args], { env: emulatorEnv })).code).toBe(0);
      const file = join(dir, 'workbooks/revenue-overview.yaml');
      writeFileSync(
        file,
        readFileSync(file, 'utf8').replace(
          'position: { x: 4, y: 2, w: 3, h: 2 }',
          'position: { x: 7, y: 2, w: 3, h: 2 }',
        ),
      );

      const human = await runCli(['plan', '--detailed-exitcode', ...args], { env: emulatorEnv });
      expect(human.code).toBe(2);
      const lines = human.stdout.split('\n');
      const start = lines.indexOf('    meta.dashboardDraft:');
      expect(lines.slice(start - 2, start + 4)).toEqual([
        '~ workbook/revenue-overview will be updated and published',
        '    workbooks/revenue-overview.yaml:3',
        '    meta.dashboardDraft:',
        '      ~ widget grain moved 4,2 → 7,2',
        '',
        '    before (lg, 12 columns)                after (lg, 12 columns)',
      ]);
      // Nothing else in the block but the map, its legend and the publish line.
      const end = lines.indexOf('    ↑ publish the dashboard draft');
      expect(lines[end - 1]).toBe('    * changed');
      expect(lines.slice(start + 5, end - 1).every((l) => /^ {4}[+|\-a-z* ~]+$/.test(l))).toBe(true);
      expect(lines.slice(start + 5, end - 1).join('\n')).toMatch(
        /\+region-fil~\+\*grain--\+.*\+region-fil~\+-{8}\+\*grain--\+/,
      );
      expect(Math.max(...lines.map((l) => l.length))).toBeLessThanOrEqual(100);

      const md = await runCli(['plan', '--output', 'markdown', ...args], { env: emulatorEnv });
      expect(md.stdout).toContain(
        '```diff\n  meta.dashboardDraft:\n- widget grain at 4,2\n+ widget grain at 7,2\n+ (publish the dashboard draft)\n```\n\n```text\nbefore (lg, 12 columns)',
      );

      const json = await runCli(['plan', '--output', 'json', ...args], { env: emulatorEnv });
      const field = JSON.parse(json.stdout).changes[0].fields[0];
      expect(field.path).toBe('meta.dashboardDraft');
      expect(field.dashboard).toEqual({
        members: [],
        widgets: [{ widget: 'grain', change: 'moved', before: { x: 4, y: 2 }, after: { x: 7, y: 2 } }],
        reports: {},
        layoutChanged: true,
      });
    });
  }, 120_000);
});
