import { PassThrough } from 'node:stream';
import { afterEach, describe, expect, test } from 'vitest';
import { addSecret, clearSecrets, redact, redactStream } from '../src/redact.js';
import { tokenProblem } from '../src/config/environment.js';

afterEach(clearSecrets);

describe('redact', () => {
  test('every occurrence of every secret, the longer one first, and its JSON-escaped form', () => {
    addSecret('abcd1234');
    addSecret('abcd1234-long');
    addSecret('q"uo\\te');
    expect(redact('x abcd1234 y abcd1234-long z abcd1234')).toBe('x *** y *** z ***');
    expect(redact(JSON.stringify({ name: 'q"uo\\te' }))).toBe('{"name":"***"}');
  });

  test('nothing registered, or a value too short to be a secret: the text is unchanged', () => {
    expect(redact('dev-token')).toBe('dev-token');
    addSecret('abc');
    addSecret(undefined);
    expect(redact('abc abc')).toBe('abc abc');
  });

  test('a redacted stream hides secrets in strings and in bytes', () => {
    const out = new PassThrough();
    let seen = '';
    out.on('data', (d: Buffer) => (seen += d.toString('utf8')));
    redactStream(out as unknown as NodeJS.WriteStream);
    addSecret('tok-12345');
    out.write('one tok-12345\n');
    out.write(Buffer.from('two tok-12345\n'));
    expect(seen).toBe('one ***\ntwo ***\n');
  });
});

describe('tokenProblem', () => {
  test.each([
    ['abc\n', 'ends with a line break'],
    ['abc\r', 'ends with a line break'],
    [' abc', 'starts with white space'],
    ['a\u0000c', 'holds a control character (U+0000) at position 2'],
    ['a\u007fc', 'holds a control character (U+007F) at position 2'],
    ['aé€', 'holds a character outside Latin-1 (U+20AC) at position 3'],
  ])('%j: %s', (token, problem) => {
    expect(tokenProblem(token)).toBe(problem);
  });

  test('a usable token (Latin-1 included) has no problem', () => {
    expect(tokenProblem('eyJhbGciOi.J9-_~+/=é')).toBeUndefined();
  });
});
