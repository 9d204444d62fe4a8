// A user attribute create that meets 409 (another run made the same name):
// read back by name, updated where it differs, never failed for that alone.
import { describe, expect, test } from 'vitest';
import type { UserAttribute } from '../../src/domain/wire.js';
import { createUserAttributeConverging } from '../../src/core/execute/user-attribute-create.js';
import type { ApiPort } from '../../src/core/api-port.js';
import { ApiError } from '../../src/errors.js';

const conflict = () =>
  new ApiError(
    { method: 'POST', path: '/api/v1/user-attributes', status: 409, serverMessage: 'already exists' },
    'conflict',
  );

function port(existing: UserAttribute | undefined, calls: string[]): ApiPort {
  return {
    createUserAttribute: async () => {
      calls.push('create');
      throw conflict();
    },
    findUserAttributeByName: async (name: string) => {
      calls.push(`find ${name}`);
      return existing;
    },
    updateUserAttribute: async (id: number, body: unknown) => {
      calls.push(`update ${id} ${JSON.stringify(body)}`);
      return { ...existing!, ...(body as object) };
    },
  } as unknown as ApiPort;
}

const where = { address: 'user-attribute/region', pos: { file: 'user-attributes/region.yaml', line: 2, col: 1 } };
const body = { name: 'region', type: 'string', displayName: 'Region', defaultValue: 'emea' };

describe('createUserAttributeConverging', () => {
  test('same content: the existing attribute is taken, nothing else is sent', async () => {
    const calls: string[] = [];
    const got = await createUserAttributeConverging(
      port({ id: 7, name: 'region', type: 'string', displayName: 'Region', defaultValue: 'emea' }, calls),
      body,
      where,
    );
    expect(got).toEqual({ id: 7, recovered: true });
    expect(calls).toEqual(['create', 'find region']);
  });

  test('different content: the existing attribute is updated with the fields that differ', async () => {
    const calls: string[] = [];
    const got = await createUserAttributeConverging(
      port({ id: 7, name: 'region', type: 'string', displayName: 'Old', defaultValue: null }, calls),
      body,
      where,
    );
    expect(got).toEqual({ id: 7, recovered: true });
    expect(calls).toEqual(['create', 'find region', 'update 7 {"displayName":"Region","defaultValue":"emea"}']);
  });

  test('a different type cannot be reconciled: a clear error naming both types', async () => {
    const calls: string[] = [];
    const err = await createUserAttributeConverging(
      port({ id: 7, name: 'region', type: 'number' }, calls),
      body,
      where,
    ).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ApiError);
    expect((err as ApiError).code).toBe('user_attribute_type_differs');
    expect((err as ApiError).message).toMatch(/type number, not string/);
    expect((err as ApiError).hint).toMatch(/user-attributes\/region\.yaml/);
    expect(calls).toEqual(['create', 'find region']);
  });

  test('nothing of that name on reading back: the conflict itself is reported', async () => {
    const err = await createUserAttributeConverging(port(undefined, []), body, where).catch((e: unknown) => e);
    expect((err as ApiError).status).toBe(409);
    expect((err as ApiError).code).toBe('http_409');
  });
});
