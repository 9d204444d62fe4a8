// visible(): control characters and direction overrides from outside wsc
// become `\uXXXX`; everything else, tabs and line breaks included, is kept.
import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { visible } from '../src/visible.js';
import { anyString, runs } from './helpers/property.js';

// eslint-disable-next-line no-control-regex
const UNSAFE = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/;

describe('visible', () => {
  test.each([
    ['escape sequences', 'a\u001b[2Jb\u001b]0;t\u0007', 'a\\u001b[2Jb\\u001b]0;t\\u0007'],
    ['a carriage return (would overwrite the line)', 'ok\rbad', 'ok\\u000dbad'],
    ['C1 controls and DEL', '\u009b31m\u007f', '\\u009b31m\\u007f'],
    ['direction overrides and isolates', 'a\u202Eb\u2066c\u200Fd', 'a\\u202eb\\u2066c\\u200fd'],
    ['tabs, line breaks and other Unicode kept', 'select\t1\n-- é 😀 日本', 'select\t1\n-- é 😀 日本'],
  ])('%s', (_name, input, shown) => {
    expect(visible(input)).toBe(shown);
  });

  test('any text: nothing unsafe is left; text without any comes back as it was', () => {
    fc.assert(
      fc.property(anyString(), (s) => {
        const v = visible(s);
        expect(UNSAFE.test(v)).toBe(false);
        if (!UNSAFE.test(s)) expect(v).toBe(s);
        // Many calls in a row agree (no state kept between them).
        expect(visible(s)).toBe(v);
      }),
      { numRuns: runs(2000) },
    );
  });
});
