// `wsc schema`'s files (bundle/schema-files.ts): written into a directory
// made when missing, then up to date; one edited or removed is stale.
import { mkdirSync, mkdtempSync, rmSync, unlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { schemaFiles, staleSchemas, writeSchemaFiles } from '../../src/bundle/schema-files.js';

const root = mkdtempSync(join(tmpdir(), 'wsc-schema-files-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

describe('schema files', () => {
  it('written, then up to date; an edited, an unreadable and a missing file are stale, each said so', async () => {
    const dir = join(root, 'nested', 'schemas');
    const files = schemaFiles(dir, 'schemas');
    expect(files.map((f) => f.shown)).toContain(join('schemas', 'wsc.schema.json'));
    expect(await staleSchemas(files)).toEqual(files.map((f) => `${f.shown} is missing`));
    await writeSchemaFiles(dir, 'schemas', files);
    expect(await staleSchemas(files)).toEqual([]);
    writeFileSync(files[0]!.path, '{}\n');
    unlinkSync(files[1]!.path);
    mkdirSync(files[1]!.path);
    unlinkSync(files[2]!.path);
    expect(await staleSchemas(files)).toEqual([
      `${files[0]!.shown} is out of date`,
      `${files[1]!.shown} is unreadable: is a directory (EISDIR)`,
      `${files[2]!.shown} is missing`,
    ]);
  });

  it('a directory that cannot be made is a usage error naming it as given', async () => {
    const file = join(root, 'a-file');
    writeFileSync(file, 'x');
    const files = schemaFiles(join(file, 'schemas'), 'a-file/schemas');
    await expect(writeSchemaFiles(join(file, 'schemas'), 'a-file/schemas', files)).rejects.toThrow(
      /cannot write the schemas into a-file\/schemas: /,
    );
  });
});
