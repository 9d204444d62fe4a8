// makeDirectory: mkdir -p that always ends, where Node's recursive mkdir loops
// (a path under /proc) as much as where it works.
import { existsSync, mkdirSync, mkdtempSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, test } from 'vitest';
import { makeDirectory } from '../src/make-dir.js';

const root = mkdtempSync(join(tmpdir(), 'wsc-mkdir-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

describe('makeDirectory', () => {
  test('creates missing parents; an existing directory is fine; twice at once is fine', async () => {
    const d = join(root, 'a/b/c');
    await makeDirectory(d);
    expect(statSync(d).isDirectory()).toBe(true);
    await makeDirectory(d);
    await Promise.all([
      makeDirectory(join(root, 'p/q/r')),
      makeDirectory(join(root, 'p/q/r')),
      makeDirectory(join(root, 'p/q/s')),
    ]);
    expect(statSync(join(root, 'p/q/r')).isDirectory() && statSync(join(root, 'p/q/s')).isDirectory()).toBe(true);
  });

  test('a file in the way, at the end or above it: ENOTDIR, naming the file', async () => {
    const file = join(root, 'file');
    writeFileSync(file, 'x');
    await expect(makeDirectory(file)).rejects.toMatchObject({ code: 'ENOTDIR', path: file });
    await expect(makeDirectory(join(file, 'sub/deeper'))).rejects.toMatchObject({ code: 'ENOTDIR', path: file });
  });

  test('a link to a directory is followed', async () => {
    mkdirSync(join(root, 'target'));
    symlinkSync(join(root, 'target'), join(root, 'link'));
    await makeDirectory(join(root, 'link/inside'));
    expect(existsSync(join(root, 'target/inside'))).toBe(true);
  });

  test.skipIf(!existsSync('/proc/self'))(
    'under /proc, where mkdir answers ENOENT under a directory that exists: an error, not a loop',
    async () => {
      await expect(makeDirectory('/proc/wsc-no-such-dir/x')).rejects.toMatchObject({ code: 'ENOENT' });
    },
  );
});
