// Each command's --help lists exactly the flags that command reads, then its
// examples and exit codes. Run in this process (runCli): the built launcher in a
// child process prints the same help (test/e2e/spawned-smoke.test.ts).
import { describe, expect, test } from 'vitest';
import { HELP, helpAfter } from '../../src/help.js';
import { runCli, type CliResult } from '../e2e/helpers/index.js';

/** The long flag of every line of the Options section, in order. */
function flagsOf(help: string): string[] {
  const section = help.split('\nOptions:\n')[1]!.split('\n\n')[0]!;
  return section
    .split('\n')
    .map((line) => /^ {2}(?:-\w, )?(--[\w-]+)/.exec(line)?.[1])
    .filter((f): f is string => f !== undefined);
}

const BUNDLE = ['--dir', '--env'];
const TARGET = ['--base-url', '--deployment'];
const CONNECTION = [
  '--verbose',
  '--concurrency',
  '--max-retries',
  '--page-size',
  '--max-list-items',
  '--max-list-bytes',
];
/** What every command that talks to a deployment reads first, in this order. */
const CONNECTED = [...BUNDLE, ...TARGET, '--output', '--no-color', ...CONNECTION];

const EXPECTED: Record<string, string[]> = {
  validate: [...BUNDLE, ...TARGET, '--output', '--no-color', '--strict', '--semantic-check', '--help'],
  plan: [
    ...CONNECTED,
    '--out',
    '--detailed-exitcode',
    '--target',
    '--prune',
    '--max-deletes',
    '--ui-edits',
    '--compact',
    '--no-compact',
    '--show-unmanaged',
    '--pictures',
    '--with-data',
    '--skip-semantic-check',
    '--help',
  ],
  apply: [
    ...CONNECTED,
    '--auto-approve',
    '--target',
    '--prune',
    '--max-deletes',
    '--ui-edits',
    '--overwrite-ui-edits',
    '--take-over',
    '--compact',
    '--no-compact',
    '--show-unmanaged',
    '--skip-semantic-check',
    '--help',
  ],
  drift: [...CONNECTED, '--detailed-exitcode', '--help'],
  export: [...CONNECTED, '--out', '--into', '--workbook', '--only', '--help'],
  doctor: [...CONNECTED, '--deep', '--help'],
  emulator: [
    '--port',
    '--host',
    '--state',
    '--seed',
    '--model',
    '--dev-mode',
    '--core-data-api-url',
    '--cube-api-secret',
    '--ui-made',
    '--latency',
    '--faults',
    '--workbook-listing',
    '--no-color',
    '--help',
  ],
  preview: [
    '--dir',
    '--env',
    '--port',
    '--out',
    '--against',
    '--model',
    '--with-data',
    '--no-data',
    '--no-color',
    '--help',
  ],
  schema: ['--out', '--check', '--no-color', '--help'],
};

const helps = new Map<string, Promise<CliResult>>();
/** `wsc CMD --help`, run once per command (both tests below read it). */
function help(cmd: string): Promise<CliResult> {
  if (!helps.has(cmd)) helps.set(cmd, runCli([cmd, '--help']));
  return helps.get(cmd)!;
}

describe('wsc CMD --help', () => {
  test.each(Object.keys(EXPECTED))('%s lists exactly its flags, examples and exit codes', async (cmd) => {
    const r = await help(cmd);
    expect(r.code, r.stderr).toBe(0);
    expect(flagsOf(r.stdout)).toEqual(EXPECTED[cmd]);
    expect(r.stdout).toContain('\nExamples:\n  $ wsc ');
    expect(r.stdout).toContain('\nExit codes:\n');
    expect(r.stdout).toContain(helpAfter(cmd as keyof typeof HELP));
  });

  test('the output formats offered are the ones each command prints', async () => {
    const choices = async (cmd: string) => {
      const text = (await help(cmd)).stdout.replace(/\s+/g, ' ');
      return /--output <format> output format \(choices: ([^)]*?), default/.exec(text)?.[1];
    };
    expect(await choices('plan')).toBe('"human", "json", "markdown"');
    expect(await choices('drift')).toBe('"human", "json", "markdown"');
    for (const cmd of ['validate', 'apply', 'export', 'doctor']) expect(await choices(cmd)).toBe('"human", "json"');
  });

  test('a flag another command takes is refused (exit 3)', async () => {
    const r = await runCli(['validate', '--concurrency', '4']);
    expect(r.code).toBe(3);
    expect(r.stderr).toContain("unknown option '--concurrency'");
  });

  test('every example names its own command and every exit-code table has 0', () => {
    for (const [name, h] of Object.entries(HELP)) {
      expect(h.examples.length).toBeGreaterThanOrEqual(2);
      for (const e of h.examples) expect(e.startsWith(`wsc ${name}`)).toBe(true);
      expect(h.exitCodes[0]![0]).toBe(0);
    }
  });
});
