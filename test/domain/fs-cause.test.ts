import { openSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { causeOf, fsCause } from '../../src/domain/fs-cause.js';
import { tempDir } from '../helpers/temp-dir.js';

describe('a file-system error in words', () => {
  it("a real error of Node's fs: its words and its code", () => {
    const dir = tempDir();
    const failure = (f: () => unknown) => {
      try {
        f();
      } catch (e) {
        return e;
      }
      throw new Error('did not fail');
    };
    expect(causeOf(failure(() => openSync(join(dir, 'missing', 'x'), 'r')))).toBe('no such file or directory (ENOENT)');
    expect(causeOf(failure(() => openSync(dir, 'w')))).toBe('is a directory (EISDIR)');
  });

  it('an unknown code stays as it is; an error without a code is its text', () => {
    expect(fsCause('EWHATEVER')).toBe('EWHATEVER');
    expect(causeOf(new Error('boom'))).toBe('Error: boom');
    expect(causeOf(undefined)).toBe('undefined');
  });
});
