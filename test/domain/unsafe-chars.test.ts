// The character classes of domain/unsafe-chars.ts, each made from the shared
// ranges, match exactly the characters the copies they replaced matched (the
// literal classes below are those copies, as they stood in visible.ts,
// yaml/read.ts, bundle/write.ts, bundle/checks-safety.ts, api/error-wording.ts,
// api/data-model.ts and config/environment.ts): every UTF-16 code unit is tried.
import { describe, expect, test } from 'vitest';
import * as chars from '../../src/domain/unsafe-chars.js';
import { escapedAll, visible } from '../../src/visible.js';

/* eslint-disable no-control-regex */
const before: [keyof typeof chars, RegExp][] = [
  ['CONTROL_CHAR', /[\u0000-\u001f\u007f-\u009f]/],
  ['CONTROL_OR_BIDI', /[\u0000-\u001f\u007f-\u009f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/],
  ['SHOWN_ESCAPED', /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/],
  ['INVISIBLE', /[\u00ad\u061c\u180e\u200b-\u200f\u202a-\u202e\u2060-\u2064\u2066-\u2069\ufeff]/],
  ['NOT_PRINTABLE_IN_YAML', /[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F\u0080-\u0084\u0086-\u009F]/],
  ['RAW_IN_DOUBLE_QUOTES', /[\u007F-\u0084\u0086-\u009F]/],
  ['NEEDS_DOUBLE_QUOTES', /[\uFEFF\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F-\u009F\u2028\u2029\uD800-\uDFFF]/],
  ['BINARY_CONTROL', /[\u0000-\u0008]/],
];
/* eslint-enable no-control-regex */

const units = Array.from({ length: 0x10000 }, (_, i) => String.fromCharCode(i));

describe('domain/unsafe-chars: one module, the same characters as before', () => {
  test.each(before)('%s matches exactly the former class', (name, old) => {
    const re = chars[name] as RegExp;
    expect(re.flags).toBe('');
    const differ = units.filter((u) => re.test(u) !== old.test(u));
    expect(differ.map((u) => u.charCodeAt(0).toString(16))).toEqual([]);
  });

  test('NOT_IN_HEADER: what a header cannot carry (was: a control, DEL, or beyond Latin-1)', () => {
    const old = (u: string) => {
      const c = u.charCodeAt(0);
      return !(c >= 0x20 && c !== 0x7f && c <= 0xff);
    };
    expect(units.filter((u) => chars.NOT_IN_HEADER.test(u) !== old(u))).toEqual([]);
  });

  test('the classes keep no state: test twice, same answer', () => {
    for (const [name] of before) {
      const re = chars[name] as RegExp;
      const hit = units.find((u) => re.test(u))!;
      expect([re.test(hit), re.test(hit)]).toEqual([true, true]);
    }
  });

  test('visible escapes controls and reordering marks, keeps tab and line feed; escapedAll takes any class', () => {
    expect(visible('a\u001b[2Jb\t\n\u202ec')).toBe('a\\u001b[2Jb\t\n\\u202ec');
    expect(visible('plain')).toBe('plain');
    expect(escapedAll('x\u200by\ufeff', chars.INVISIBLE)).toBe('x\\u200by\\ufeff');
  });
});
