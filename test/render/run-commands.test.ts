// The commands ways forward print are read back by a shell: each value comes back as the run had it, whatever it
// holds (a space in a directory or a folder's path, quotes, `$`), checked with bash itself.
import { spawnSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { confirmWaysForward, planCommand, shellArg } from '../../src/render/run-commands.js';

/** The words bash makes of `line` (no command is run: printf prints each word, NUL-terminated). */
function wordsOf(line: string): string[] {
  const r = spawnSync('bash', ['-c', `printf '%s\\0' ${line}`], { encoding: 'utf8' });
  expect(r.status, r.stderr).toBe(0);
  return r.stdout.split('\0').slice(0, -1);
}

describe('shellArg', () => {
  const values = [
    'dashboards',
    'My dashboards',
    'folder/Finance/Revenue analytics',
    "it's",
    'a$b `c` "d" \\e',
    '*.yaml ~ ! & ; | < > ( ) { } [ ] # ?',
    'ünïcode ✓',
    'tab\there',
    '',
  ];

  it('every value comes back from bash as it was, each one word', () => {
    expect(wordsOf(values.map(shellArg).join(' '))).toEqual(values);
  });

  it('plain values stay as typed', () => {
    for (const v of ['dashboards', 'report/revTopAcct01', 'https://acme.cubecloud.dev', './a-b_c.d@e%f+g=h,i:j'])
      expect(shellArg(v)).toBe(v);
  });

  it("a run's commands, read back by bash, carry the values whole", () => {
    const run = { dir: 'My dashboards', env: 'prod', target: ['folder/Finance/Revenue analytics'], prune: true };
    expect(wordsOf(planCommand('--out plan.json', run))).toEqual([
      'wsc',
      'plan',
      '--target',
      'folder/Finance/Revenue analytics',
      '--prune',
      '--out',
      'plan.json',
      '--dir',
      'My dashboards',
      '--env',
      'prod',
    ]);
    const hint = confirmWaysForward({ ...run, overwriteUiEdits: ['report/a'] });
    const apply = /`(wsc apply [^`]+)`/.exec(hint)![1]!;
    expect(wordsOf(apply)).toEqual([
      'wsc',
      'apply',
      '--target',
      'folder/Finance/Revenue analytics',
      '--prune',
      '--overwrite-ui-edits',
      'report/a',
      '--auto-approve',
      '--dir',
      'My dashboards',
      '--env',
      'prod',
    ]);
  });
});
