// The command reference in docs/ names every flag each command's --help
// lists, and every flag its tables describe is one that command takes. Each
// command's help is got once, in this process (runCli: the CLI's own parsing
// and commands); that the launcher prints the help is the first test's run.
import { execFileSync } from 'node:child_process';
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, test } from 'vitest';
import { ensureBuilt, root, runCli } from '../e2e/helpers/index.js';
import { read, section } from './markdown.js';

beforeAll(ensureBuilt, 180_000);

const page = (name: string) => read(join(root, 'docs', name));

/** Where each command's flags are described: its own section or page, after the shared flags. */
function reference(command: string): string {
  const commands = page('commands.md');
  const shared = section(commands, 'Flags of `validate`, `plan`, `apply`, `export` and `doctor`');
  const own: Record<string, string> = {
    plan: page('plan-apply.md'),
    apply: page('plan-apply.md'),
    export: page('export.md'),
  };
  return `${shared}\n${own[command] ?? section(commands, `\`wsc ${command}\``)}`;
}

const helps = new Map<string, Promise<string[]>>();

/** The flags `wsc COMMAND --help` lists (but --help), once per command. */
function helpFlags(command: string): Promise<string[]> {
  let flags = helps.get(command);
  if (!flags) {
    flags = runCli([command, '--help']).then((r) => {
      expect(r.code, r.stderr).toBe(0);
      const options = r.stdout.split('\nOptions:\n')[1]!.split('\n\n')[0]!;
      return [...options.matchAll(/^ {2}(?:-\w, )?(--[\w-]+)/gm)].map((m) => m[1]!).filter((f) => f !== '--help');
    });
    helps.set(command, flags);
  }
  return flags;
}

/** The flags a markdown table of the text describes: the first cell of each row, `--flag …`. */
function tableFlags(text: string): string[] {
  return [...text.matchAll(/^\| `(--[\w-]+)/gm)].map((m) => m[1]!);
}

const COMMANDS = ['validate', 'plan', 'apply', 'drift', 'export', 'doctor', 'emulator', 'preview', 'schema'];

describe('docs/ command reference', () => {
  test('names every command of the CLI', () => {
    const help = execFileSync(process.execPath, [join(root, 'bin/wsc.js'), '--help'], { encoding: 'utf8' });
    const listed = [...help.split('\nCommands:\n')[1]!.matchAll(/^ {2}(\w+)/gm)].map((m) => m[1]!);
    expect(listed.filter((c) => c !== 'help').sort()).toEqual([...COMMANDS].sort());
    for (const c of COMMANDS) expect(page('commands.md')).toContain(`| \`wsc ${c}`);
  });

  test.each(COMMANDS)('every flag of `wsc %s --help` is described', async (command) => {
    const text = reference(command);
    const missing = (await helpFlags(command)).filter((f) => !new RegExp(`\`${f}[\` ,]`).test(text));
    expect(missing).toEqual([]);
  });

  test.each(COMMANDS)('every flag the tables for `wsc %s` describe is one it takes', async (command) => {
    const commands = page('commands.md');
    const own: Record<string, string> = {
      plan: section(page('plan-apply.md'), '`wsc plan`'),
      apply: section(page('plan-apply.md'), '`wsc apply [PLANFILE]`'),
      export: page('export.md'),
    };
    const text = own[command] ?? section(commands, `\`wsc ${command}\``);
    const takes = new Set(await helpFlags(command));
    expect(tableFlags(text).filter((f) => !takes.has(f))).toEqual([]);
  });

  test('the shared flags are those of plan', async () => {
    const shared = section(page('commands.md'), 'Flags of `validate`, `plan`, `apply`, `export` and `doctor`');
    const takes = new Set(await helpFlags('plan'));
    expect(tableFlags(shared).filter((f) => !takes.has(f))).toEqual([]);
  });

  test('every `wsc COMMAND --flag` written in README, CONTRIBUTING and docs/ is a flag of that command', async () => {
    const pages = ['README.md', 'CONTRIBUTING.md', ...readdirSync(join(root, 'docs')).map((f) => `docs/${f}`)];
    const takes = new Map(await Promise.all(COMMANDS.map(async (c) => [c, new Set(await helpFlags(c))] as const)));
    const uses: string[] = [];
    const wrong: string[] = [];
    for (const file of pages.filter((f) => f.endsWith('.md'))) {
      read(join(root, file))
        .split('\n')
        .forEach((line, i) => {
          // A command line as written in a code span or block: `wsc plan --dir x --out plan.json`.
          for (const m of line.matchAll(/\bwsc (\w+)((?: +(?:--[\w-]+|[^\s`|)\]-][^\s`|)\]]*))*)/g)) {
            const flags = takes.get(m[1]!);
            if (!flags) continue;
            for (const flag of m[2]!.match(/(?<![\w-])--[\w-]+/g) ?? []) {
              uses.push(flag);
              if (!flags.has(flag)) wrong.push(`${file}:${i + 1} wsc ${m[1]} ${flag}`);
            }
          }
        });
    }
    expect(uses.length).toBeGreaterThan(50);
    expect(wrong).toEqual([]);
  });
});
