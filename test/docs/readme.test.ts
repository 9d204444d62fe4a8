// The README as a newcomer's page: short, with a table of contents, its
// command table the commands `wsc --help` lists (each example using flags
// that command takes), its exit codes those wsc ends with, and its bundle
// examples a bundle `wsc validate` accepts. wsc runs in this process (runCli:
// the CLI's own parsing and commands); test/docs/commands.test.ts and
// test/cli/ run the launcher.
import { writeFileSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { EXIT } from '../../src/errors.js';
import { root, runCli, tempDir } from '../e2e/helpers/index.js';
import { anchorsOf, linksOf, read, section } from './markdown.js';

const README = read(join(root, 'README.md'));

/** What `wsc ...args --help` prints. */
async function help(...args: string[]): Promise<string> {
  const r = await runCli([...args, '--help']);
  expect(r.code, r.stderr).toBe(0);
  return r.stdout;
}

/** The cells of each body row of the first table in a text. */
function tableRows(text: string): string[][] {
  return text
    .split('\n')
    .filter((l) => l.startsWith('|') && !/^\|[-| ]+\|$/.test(l))
    .slice(1)
    .map((l) =>
      l
        .slice(1, -1)
        .split(' | ')
        .map((c) => c.trim()),
    );
}

describe('README', () => {
  test('is at most 400 lines', () => {
    expect(README.split('\n').length).toBeLessThanOrEqual(400);
  });

  test('opens with a table of contents naming every section', () => {
    const contents = section(README, 'Contents');
    const listed = new Set(linksOf(contents).map((l) => l.href));
    const sections = [...README.matchAll(/^## (.+)$/gm)].map((m) => m[1]!).filter((s) => s !== 'Contents');
    const anchors = [...anchorsOf(README)];
    for (const s of sections) {
      const anchor = anchors.find((a) => a === anchorsOf(`## ${s}`).values().next().value);
      expect(listed.has(`#${anchor}`), `Contents links to "## ${s}"`).toBe(true);
    }
    expect(sections.length).toBeGreaterThanOrEqual(8);
  });

  test("its command table is the commands of `wsc --help`, each with an example of that command's flags", async () => {
    const rows = tableRows(section(README, 'Commands'));
    const table = rows.map((r) => /^`wsc (\w+)/.exec(r[0]!)?.[1]);
    // commander's own `help [command]` is not a command of wsc.
    const listed = [...(await help()).split('\nCommands:\n')[1]!.matchAll(/^ {2}(\w+)/gm)].map((m) => m[1]!);
    expect(listed).toContain('help');
    expect([...table].sort()).toEqual(listed.filter((c) => c !== 'help').sort());
    for (const row of rows) {
      const command = table[rows.indexOf(row)]!;
      const example = /^`(wsc [^`]+)`$/.exec(row.at(-1)!)?.[1];
      expect(example, `an example for ${command}`).toMatch(new RegExp(`^wsc ${command}\\b`));
      const flags = await help(command);
      for (const flag of example!.match(/--[\w-]+/g) ?? []) {
        expect(flags, `wsc ${command} --help lists ${flag}`).toMatch(new RegExp(`^ {2}(?:-\\w, )?${flag}\\b`, 'm'));
      }
    }
  });

  test('its exit codes, and those of docs/errors.md, are every code wsc ends with', () => {
    const codes = [...new Set(Object.values(EXIT))].sort((a, b) => a - b).map(String);
    const expected = [...codes, '130, 143'];
    expect(tableRows(section(README, 'Exit codes')).map((r) => r[0])).toEqual(expected);
    expect(tableRows(section(read(join(root, 'docs/errors.md')), 'Exit codes')).map((r) => r[0])).toEqual(expected);
  });

  test('its report, workbook and wsc.yaml examples are a bundle `wsc validate` accepts', async () => {
    const yaml = (heading: string) => {
      const text = section(README, 'The bundle');
      const at = text.indexOf(heading);
      expect(at, heading).toBeGreaterThan(-1);
      return /```yaml\n([\s\S]*?)```/.exec(text.slice(at))![1]!;
    };
    const dir = tempDir('wsc-readme-');
    mkdirSync(join(dir, 'reports'));
    mkdirSync(join(dir, 'workbooks'));
    writeFileSync(join(dir, 'reports/mrr-trend.yaml'), yaml('### A report'));
    writeFileSync(join(dir, 'workbooks/revenue-overview.yaml'), yaml('### A workbook'));
    writeFileSync(join(dir, 'wsc.yaml'), yaml('### `wsc.yaml`'));
    const r = await runCli(['validate', '--dir', dir, '--strict']);
    expect(r.code, `${r.stdout}${r.stderr}`).toBe(0);
    expect(r.stdout).toContain('Bundle is valid: 1 workbook, 1 report, 0 user attributes.');
  });
});
