import { describe, expect, it } from 'vitest';
import { MAX_SERVER_MESSAGE, readErrorBody } from '../../src/api/error-body.js';

describe('readErrorBody: the message of any JSON error shape', () => {
  it.each([
    [
      'NestJS string',
      { statusCode: 400, message: 'name must be a string', error: 'Bad Request' },
      'name must be a string',
    ],
    [
      'NestJS array',
      { statusCode: 400, message: ['name too long', 'first must not be greater than 100'] },
      'name too long; first must not be greater than 100',
    ],
    ['NestJS object', { statusCode: 400, message: { field: 'name' } }, '{"field":"name"}'],
    ['top-level error', { error: 'Forbidden resource' }, 'Forbidden resource'],
    ['nested error.message', { error: { message: 'Workbook not found', code: 'not_found' } }, 'Workbook not found'],
    [
      'problem+json',
      { type: 'about:blank', title: 'Bad Request', detail: 'first is too large', status: 400 },
      'Bad Request: first is too large',
    ],
    ['problem+json title only', { title: 'Unauthorized' }, 'Unauthorized'],
    ['bare array', ['a', 'b'], 'a; b'],
    ['array of objects', [{ message: 'x' }, { detail: 'y' }], 'x; y'],
    ['errors array', { errors: [{ message: 'bad slug' }] }, 'bad slug'],
  ])('%s', (_name, body, message) => {
    expect(readErrorBody(body).message).toBe(message);
  });

  it('reads the code at the top level or in a nested error', () => {
    expect(readErrorBody({ statusCode: 409, message: 'm', code: 'upsert_branch_changed' }).code).toBe(
      'upsert_branch_changed',
    );
    expect(readErrorBody({ error: { message: 'm', code: 'ambiguous_legacy_id' } }).code).toBe('ambiguous_legacy_id');
    expect(readErrorBody({ message: 'm' }).code).toBeUndefined();
  });

  it('says nothing for a body that carries no message', () => {
    expect(readErrorBody({ statusCode: 500 })).toEqual({});
    expect(readErrorBody(null)).toEqual({});
    expect(readErrorBody({ message: '   ' })).toEqual({});
  });

  it('cuts a long message and makes control characters visible', () => {
    const m = readErrorBody({ message: `\u001b[2J${'x'.repeat(2000)}` }).message!;
    expect(m.startsWith('\\u001b[2J')).toBe(true);
    expect(m.endsWith('…')).toBe(true);
    expect(m.length).toBeLessThanOrEqual(MAX_SERVER_MESSAGE + 10);
  });

  it('redacts before cutting', () => {
    expect(
      readErrorBody({ detail: 'token sk-secret-1 is bad', title: 'Unauthorized' }, (s) =>
        s.split('sk-secret-1').join('***'),
      ).message,
    ).toBe('Unauthorized: token *** is bad');
  });
});
