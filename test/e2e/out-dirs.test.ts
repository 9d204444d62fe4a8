// --out of export and schema: a directory that cannot be made is a usage
// error (exit 3) naming it, at once, whatever the file system; never a hang
// (Node's recursive mkdir loops under /proc) nor an "internal error".
import { existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, test } from 'vitest';
import { cleanupTemp, runCli, tempDir } from './helpers/index.js';

afterAll(cleanupTemp);

describe('--out that cannot be a directory', () => {
  const file = join(tempDir(), 'a-file');
  writeFileSync(file, 'x');
  const cases: Array<[string, string[], RegExp]> = [
    ['schema, under a file', ['schema', '--out', `${file}/schemas`], /cannot write the schemas into .*a-file\/schemas: ENOTDIR\. \[schema_out_dir\]/],
    ['export, under a file', ['export', '--out', `${file}/bundle`], /cannot use .*a-file\/bundle as the output directory: ENOTDIR\. \[export_out_dir\]/],
  ];
  if (existsSync('/proc/self')) {
    cases.push(['schema, under /proc', ['schema', '--out', '/proc/wsc-nope'], /cannot write the schemas into \/proc\/wsc-nope: ENOENT\. \[schema_out_dir\]/]);
    cases.push(['export, under /proc', ['export', '--out', '/proc/wsc-nope'], /cannot use \/proc\/wsc-nope as the output directory: ENOENT\. \[export_out_dir\]/]);
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
