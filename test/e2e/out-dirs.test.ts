// Where wsc writes files: --out of export, schema, preview and plan, and GitHub's job
// summary. A place that cannot be written is a usage error (exit 3) naming
// it, at once, whatever the file system; never a hang (Node's recursive mkdir
// loops under /proc) nor an "internal error". plan checks its --out before
// reading the deployment; a job summary that cannot be added to is a warning.
import { existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, test } from 'vitest';
import { writes } from '../../src/emulator/index.js';
import { writeBundle } from './helpers/bundles.js';
import { cleanupTemp, root, runCli, tempDir, withEmulator } from './helpers/index.js';

afterAll(cleanupTemp);

describe('--out that cannot be a directory', () => {
  const file = join(tempDir(), 'a-file');
  writeFileSync(file, 'x');
  const cases: Array<[string, string[], RegExp]> = [
    [
      'schema, under a file',
      ['schema', '--out', `${file}/schemas`],
      /cannot write the schemas into .*a-file\/schemas: a part of the path is not a directory \(ENOTDIR\)\. \[schema_out_dir\]/,
    ],
    [
      'export, under a file',
      ['export', '--out', `${file}/bundle`],
      /cannot use .*a-file\/bundle as the output directory: a part of the path is not a directory \(ENOTDIR\)\. \[export_out_dir\]/,
    ],
    [
      'preview, under a file',
      ['preview', '--dir', join(root, 'fixtures/example'), '--out', `${file}/pictures`],
      /cannot write the pictures into .*a-file\/pictures: a part of the path is not a directory \(ENOTDIR\)\. \[preview_out_dir\]/,
    ],
  ];
  if (existsSync('/proc/self')) {
    cases.push([
      'schema, under /proc',
      ['schema', '--out', '/proc/wsc-nope'],
      /cannot write the schemas into \/proc\/wsc-nope: no such file or directory \(ENOENT\)\. \[schema_out_dir\]/,
    ]);
    cases.push([
      'export, under /proc',
      ['export', '--out', '/proc/wsc-nope'],
      /cannot use \/proc\/wsc-nope as the output directory: no such file or directory \(ENOENT\)\. \[export_out_dir\]/,
    ]);
    cases.push([
      'preview, under /proc',
      ['preview', '--dir', join(root, 'fixtures/example'), '--out', '/proc/wsc-nope'],
      /cannot write the pictures into \/proc\/wsc-nope: no such file or directory \(ENOENT\)\. \[preview_out_dir\]/,
    ]);
  }
  test.each(cases)('%s: exit 3, named, at once', async (_name, args, message) => {
    const started = Date.now();
    const r = await runCli(args, { cwd: tempDir(), timeoutMs: 15_000 });
    expect(r.code, r.stderr).toBe(3);
    expect(r.stderr).toMatch(message);
    expect(r.stderr).not.toMatch(/internal error/i);
    expect(Date.now() - started).toBeLessThan(10_000);
  });
});

describe('plan --out and GITHUB_STEP_SUMMARY that cannot be written', () => {
  const dir = writeBundle({ looseReports: 2 });
  const file = join(tempDir(), 'a-file');
  writeFileSync(file, 'x');
  const aDir = tempDir();

  test.each([
    ['under a file', `${file}/plan.json`, 'a part of the path is not a directory (ENOTDIR)'],
    ['in a directory that does not exist', join(aDir, 'missing/plan.json'), 'no such file or directory (ENOENT)'],
    ['a directory', aDir, 'is a directory (EISDIR)'],
  ])('--out %s: exit 3 naming it, before any request', async (_name, out, code) => {
    await withEmulator({}, async (emu) => {
      emu.clearLog();
      const r = await runCli(['plan', '--dir', dir, '--base-url', emu.url, '--deployment', '1', '--out', out], {
        env: { WSC_TOKEN: 'dev-token' },
      });
      expect(r.code, r.stderr).toBe(3);
      expect(r.stderr).toContain(`cannot save the plan to ${out}: ${code}. [plan_out_unwritable]`);
      expect(r.stderr).not.toMatch(/internal error/i);
      expect(emu.log).toEqual([]);
    });
  });

  test.each([
    ['a file', file],
    ['under a file', `${file}/pictures`],
  ])('--pictures at %s: exit 3 naming it and the flag, before any request', async (_name, pictures) => {
    await withEmulator({}, async (emu) => {
      emu.clearLog();
      const args = ['plan', '--dir', dir, '--base-url', emu.url, '--deployment', '1', '--pictures', pictures];
      const r = await runCli([...args, '--with-data'], { env: { WSC_TOKEN: 'dev-token' } });
      expect(r.code, r.stderr).toBe(3);
      expect(r.stderr).toContain(
        `cannot write the pictures into ${pictures}: a part of the path is not a directory (ENOTDIR). [preview_out_dir]`,
      );
      expect(r.stderr).toContain('Hint: Give --pictures a directory you can write to');
      expect(emu.log).toEqual([]);
      // The hint followed: a directory that can be made.
      args[args.length - 1] = join(tempDir(), 'pictures');
      const followed = await runCli(args, { env: { WSC_TOKEN: 'dev-token' } });
      expect(followed.code, followed.stderr).toBe(0);
    });
  });

  test('GITHUB_STEP_SUMMARY naming a directory: the plan still prints and exits as it would, with a warning', async () => {
    await withEmulator({}, async (emu) => {
      const r = await runCli(
        ['plan', '--dir', dir, '--base-url', emu.url, '--deployment', '1', '--detailed-exitcode'],
        { env: { WSC_TOKEN: 'dev-token', GITHUB_STEP_SUMMARY: aDir } },
      );
      expect(r.code, r.stderr).toBe(2);
      expect(r.stdout).toContain('Plan: 2 to create');
      expect(r.stderr).toContain(
        `warning could not add the plan to GITHUB_STEP_SUMMARY (${aDir}): is a directory (EISDIR).`,
      );
      expect(writes(emu.log)).toEqual([]);
    });
  });
});
