// Invalid input caught offline (exit 3, nothing sent, a clear message at its
// place): report reference cycles, unsafe slugs, a linked *.yaml outside the
// bundle, CR-only line endings, an unreadable subdirectory. Confusable slugs
// warn and are shown visibly.
import { chmodSync, symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { pid } from './helpers/bundles.js';
import { e2eSuite, emulatorEnv, runCli, target, tempDir, withEmulator, writeFiles } from './helpers/index.js';

e2eSuite();

const report = (i: number, meta = '') => `kind: Report\npublicId: ${pid(i)}\nname: R${i}\n${meta}`;
const refTo = (i: number) => `meta:\n  drill: { $report: ${pid(i)} }\n`;
const workbook = (slug: string) => `kind: Workbook\nslug: ${slug}\nname: W\n`;

async function refused(files: Record<string, string> | string, message: RegExp) {
  const dir = typeof files === 'string' ? files : writeFiles(files);
  const v = await runCli(['validate', '--dir', dir]);
  expect(v.code, v.stdout + v.stderr).toBe(3);
  expect(v.stdout).toMatch(message);
  expect(v.stderr + v.stdout).not.toMatch(/internal error|bug in wsc/);
  await withEmulator({}, async (emu) => {
    const p = await runCli(['apply', '--auto-approve', '--dir', dir, ...target(emu)], { env: emulatorEnv });
    expect(p.code).toBe(3);
    expect(p.stderr).toMatch(message);
    expect(emu.log).toEqual([]);
  });
}

describe('caught offline', () => {
  test('a report that refers to itself', () =>
    refused(
      { 'reports/a.yaml': report(1, refTo(1)) },
      /reports\/a\.yaml:5:21 error reports refer to each other in a cycle: report\/rep000000001 → report\/rep000000001 \[reference-cycle\]/,
    ));

  test('two reports that refer to each other', () =>
    refused(
      { 'reports/a.yaml': report(1, refTo(2)), 'reports/b.yaml': report(2, refTo(1)) },
      /reports\/a\.yaml:5:21 error reports refer to each other in a cycle: report\/rep000000001 → report\/rep000000002 → report\/rep000000001/,
    ));

  test.each([
    ['..', /the slug `\.\.` would name another path of the API/],
    ['.', /the slug `\.` would name another path/],
    ['"a/b"', /holds a `\/`/],
    ['"a\\u0007b"', /holds a control character/],
    ['x'.repeat(20_000), /the slug is 20000 characters long, over the 200 wsc allows/],
  ])('slug %#', (slug, message) => refused({ 'workbooks/w.yaml': workbook(slug) }, message));

  test('a *.yaml link to a file outside the bundle', () => {
    const outside = writeFiles({ 'secret.yaml': report(1) });
    const dir = writeFiles({ 'reports/ok.yaml': report(2) });
    symlinkSync(join(outside, 'secret.yaml'), join(dir, 'reports', 'link.yaml'));
    return refused(
      dir,
      /reports\/link\.yaml:1:1 error symbolic link to a file outside the bundle: not read \[symlink-outside\]/,
    );
  });

  test('CR-only line endings', () =>
    refused(
      { 'reports/a.yaml': report(1).replace(/\n/g, '\r') },
      /reports\/a\.yaml:1:1 error the file has line breaks that are a carriage return alone/,
    ));

  test.skipIf(process.getuid?.() === 0)('an unreadable subdirectory: the path and "permission denied"', async () => {
    const dir = writeFiles({ 'reports/a.yaml': report(1), 'more/b.yaml': report(2) });
    chmodSync(join(dir, 'more'), 0o000);
    try {
      await refused(dir, /more:1:1 error cannot read directory: permission denied \(EACCES\) \[dir-unreadable\]/);
    } finally {
      chmodSync(join(dir, 'more'), 0o755);
    }
  });
});

describe('folder depth (issue 43, item 7)', () => {
  const levels = (n: number) => Array.from({ length: n }, (_, i) => `L${i + 1}`).join('/');

  test('a 50-level folder path is refused offline, naming the limit', () =>
    refused(
      { 'reports/a.yaml': `${report(1)}folder: ${levels(50)}\n` },
      /reports\/a\.yaml:4:9 error folder path is 50 levels deep; the API nests folders at most 10 levels \[folder-too-deep\]/,
    ));

  test('10 levels, the limit, validate and apply (the emulator nests as deep and no deeper)', async () => {
    const dir = writeFiles({ 'reports/a.yaml': `${report(1)}folder: ${levels(10)}\n` });
    expect((await runCli(['validate', '--dir', dir])).code).toBe(0);
    await withEmulator({}, async (emu) => {
      const a = await runCli(['apply', '--auto-approve', '--dir', dir, ...target(emu)], { env: emulatorEnv });
      expect(a.code, a.stderr).toBe(0);
      const eleven = await runCli(
        [
          'apply',
          '--auto-approve',
          '--dir',
          writeFiles({ 'reports/a.yaml': `${report(1)}folder: ${levels(11)}\n` }),
          ...target(emu),
        ],
        { env: emulatorEnv },
      );
      expect(eleven.code).toBe(3);
    });
  });
});

describe('confusable slugs warn, shown visibly', () => {
  test('a zero-width space and a Cyrillic letter', async () => {
    const dir = writeFiles({
      'workbooks/a.yaml': workbook('"sa\\u200Bles"'),
      'workbooks/b.yaml': workbook('"s\\u0430les"'),
    });
    const v = await runCli(['validate', '--dir', dir]);
    expect(v.code, v.stdout).toBe(0);
    expect(v.stdout).toContain('workbooks/a.yaml:2:7 warning the slug "sa\\u200bles" holds an invisible character');
    expect(v.stdout).toContain(
      'workbooks/b.yaml:2:7 warning the slug "sаles" mixes Latin letters with look-alike letters of another script',
    );
    expect(tempDir()).toBeTruthy();
  });
});
