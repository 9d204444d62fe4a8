// A reviewer's view of a dashboard change, end to end: the built CLI against
// the emulator on a free loopback port, fixtures/example applied, widgets
// moved, resized and reconfigured in their file. The plan says each in one
// line, with the widget's title and its place in the file, plus the layout
// map drawn for the terminal's width.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, test } from 'vitest';
import { cleanupTemp, copyFixture, emulatorEnv, runCli, target, withEmulator } from './helpers/index.js';
import { hasScript, wscOnTerminal } from './helpers/terminal.js';

afterAll(cleanupTemp);

const FILE = 'workbooks/revenue-overview.yaml';

/** `line:col` of the first line of `file` that holds `text`, at `from` (a sequence item starts after its `- `). */
function placeOf(dir: string, text: string, from = text): string {
  const lines = readFileSync(join(dir, FILE), 'utf8').split('\n');
  const i = lines.findIndex((l) => l.includes(text));
  return `${i + 1}:${lines[i]!.indexOf(from) + 1}`;
}

describe('plan: widgets of fixtures/example moved, resized, reconfigured', () => {
  test('human, markdown and JSON plans: one line per widget change with its title and file:line:col, plus the map', async () => {
    const dir = copyFixture('example');
    await withEmulator({}, async (emu) => {
      const args = ['--dir', dir, ...target(emu)];
      expect((await runCli(['apply', '--auto-approve', ...args], { env: emulatorEnv })).code).toBe(0);
      const file = join(dir, FILE);
      writeFileSync(
        file,
        readFileSync(file, 'utf8')
          .replace('position: { x: 4, y: 2, w: 3, h: 2 }', 'position: { x: 7, y: 2, w: 3, h: 2 }')
          .replace('position: { x: 8, y: 4, w: 4, h: 4 }', 'position: { x: 8, y: 4, w: 4, h: 3 }')
          .replace('visualization: bar', 'visualization: area')
          .replace('name: Revenue overview', 'name: Revenue overview 2'),
      );
      const at = (text: string, from?: string) => `${FILE}:${placeOf(dir, text, from)}`;
      const [grain, nrr, viz, name, draft] = [
        at('- id: grain', 'id: grain'),
        at('- id: nrr-kpi', 'id: nrr-kpi'),
        at('visualization: area'),
        at('name: Revenue'),
        at('dashboardDraft:'),
      ];

      // Not a terminal, no COLUMNS: 100 columns; two maps side by side would cut `region-filter`: one above the other.
      const human = await runCli(['plan', '--detailed-exitcode', ...args], { env: emulatorEnv });
      expect(human.code).toBe(2);
      const lines = human.stdout.split('\n');
      const start = lines.indexOf(`    meta.dashboardDraft:  (${draft})`);
      expect(lines.slice(start - 3, start + 6)).toEqual([
        '~ workbook/revenue-overview will be updated and published',
        `    ${FILE}:3:1`,
        `    name: "Revenue overview" → "Revenue overview 2"  (${name})`,
        `    meta.dashboardDraft:  (${draft})`,
        `      ~ widget grain moved 4,2 → 7,2  (${grain})`,
        `      ~ widget nrr-kpi "Net revenue retention (trailing 12 months)" resized 4×4 → 4×3  (${nrr})`,
        `      ~ widget arr-by-region "ARR by region" config.visualization: "bar" → "area"  (${viz})`,
        '',
        '    before (lg, 12 columns)',
      ]);
      expect(human.stdout).toContain('\n    after (lg, 12 columns)\n');
      expect(human.stdout).toMatch(/\+region-filter-+\+\*grain-+\+/);
      expect(human.stdout).not.toContain('~+');
      const mapWidth = (out: string) =>
        Math.max(
          ...out
            .split('\n')
            .filter((l) => /^ {4}[+|]/.test(l))
            .map((l) => l.length),
        );
      expect(mapWidth(human.stdout)).toBeLessThanOrEqual(100);

      // A wide terminal: side by side, every id whole.
      const wide = await runCli(['plan', ...args], { env: { ...emulatorEnv, COLUMNS: '200' } });
      const header = wide.stdout.split('\n').find((l) => l.includes('before (lg'))!;
      expect(header).toMatch(/^ {4}before \(lg, 12 columns\) +after \(lg, 12 columns\)$/);
      expect(wide.stdout).toMatch(/\+region-filter-+\+\*grain-+\+-+\+ +\+region-filter-+\+-+\+\*grain-+\+/);
      expect(mapWidth(wide.stdout)).toBeLessThanOrEqual(200);
      if (hasScript) {
        // On a terminal its own width counts: 200 columns, side by side.
        const tty = await wscOnTerminal(['plan', '--no-color', ...args], 200);
        expect(tty.code).toBe(0);
        expect(tty.screen).toMatch(/ {4}before \(lg, 12 columns\) +after \(lg, 12 columns\)\r?\n/);
      }
      // A narrow one: one above the other, ids cut only where their box is narrower than they are.
      const narrow = await runCli(['plan', ...args], { env: { ...emulatorEnv, COLUMNS: '50' } });
      expect(narrow.stdout).toContain('+divider-accounts-');
      expect(narrow.stdout).toMatch(/\+region-fil~\+\*grain--\+/);
      expect(mapWidth(narrow.stdout)).toBeLessThanOrEqual(50);

      const compact = await runCli(['plan', '--compact', ...args], { env: emulatorEnv });
      expect(compact.stdout).toContain(
        `~ workbook/revenue-overview  ${FILE}  (name, widgets: grain moved, nrr-kpi resized, arr-by-region config)\n`,
      );

      const md = await runCli(['plan', '--output', 'markdown', ...args], { env: emulatorEnv });
      expect(md.stdout).toContain(
        [
          '```diff',
          '- name: "Revenue overview"',
          `+ name: "Revenue overview 2"  (${name})`,
          `  meta.dashboardDraft:  (${draft})`,
          '- widget grain at 4,2',
          `+ widget grain at 7,2  (${grain})`,
          '- widget nrr-kpi "Net revenue retention (trailing 12 months)" size 4×4',
          `+ widget nrr-kpi "Net revenue retention (trailing 12 months)" size 4×3  (${nrr})`,
          '- widget arr-by-region "ARR by region" config.visualization: "bar"',
          `+ widget arr-by-region "ARR by region" config.visualization: "area"  (${viz})`,
          '+ (publish the dashboard draft)',
          '```',
          '',
          '```text',
          'before (lg, 12 columns)                            after (lg, 12 columns)',
        ].join('\n'),
      );

      const json = await runCli(['plan', '--output', 'json', ...args], { env: emulatorEnv });
      const fields = JSON.parse(json.stdout).changes[0].fields;
      const lineNo = (s: string) => Number(s.split(':')[1]);
      const colNo = (s: string) => Number(s.split(':')[2]);
      expect(fields[0]).toEqual({
        path: 'name',
        before: 'Revenue overview',
        after: 'Revenue overview 2',
        line: lineNo(name),
        col: colNo(name),
      });
      expect(fields[1].path).toBe('meta.dashboardDraft');
      expect([fields[1].line, fields[1].col]).toEqual([lineNo(draft), colNo(draft)]);
      expect(fields[1].dashboard).toEqual({
        members: [],
        widgets: [
          {
            widget: 'grain',
            change: 'moved',
            before: { x: 4, y: 2 },
            after: { x: 7, y: 2 },
            line: lineNo(grain),
            col: colNo(grain),
          },
          {
            widget: 'nrr-kpi',
            change: 'resized',
            before: { w: 4, h: 4 },
            after: { w: 4, h: 3 },
            title: 'Net revenue retention (trailing 12 months)',
            line: lineNo(nrr),
            col: colNo(nrr),
          },
          {
            widget: 'arr-by-region',
            change: 'member',
            path: 'config.visualization',
            before: 'bar',
            after: 'area',
            title: 'ARR by region',
            line: lineNo(viz),
            col: colNo(viz),
          },
        ],
        reports: {},
        layoutChanged: true,
      });
    });
  }, 120_000);
});
