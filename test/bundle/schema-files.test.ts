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
  it('written, then up to date; an edited and a missing file are stale, each said so; an unreadable one is an error', async () => {
    const dir = join(root, 'nested', 'schemas');
    const files = schemaFiles(dir, 'schemas');
    expect(files.map((f) => f.shown)).toContain(join('schemas', 'wsc.schema.json'));
    expect(await staleSchemas(files, 'schemas')).toEqual(files.map((f) => `${f.shown} is missing`));
    await writeSchemaFiles(dir, 'schemas', files);
    expect(await staleSchemas(files, 'schemas')).toEqual([]);
    writeFileSync(files[0]!.path, '{}\n');
    unlinkSync(files[2]!.path);
    expect(await staleSchemas(files, 'schemas')).toEqual([
      `${files[0]!.shown} is out of date`,
      `${files[2]!.shown} is missing`,
    ]);
    // A directory where a file goes: writing would fail as reading does, so it is no stale file.
    unlinkSync(files[1]!.path);
    mkdirSync(files[1]!.path);
    await expect(staleSchemas(files, 'schemas')).rejects.toThrow(
      /^cannot read the schemas in schemas: schemas\/report\.schema\.json: is a directory \(EISDIR\)\.$/,
    );
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
