// `wsc schema`'s files: the JSON Schemas of the file formats (json-schema.ts)
// as files of a directory, compared with what is there (`--check`) or written
// through the one link-safe writer (out-file.ts), the directory made when
// missing.
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { UsageError, WscError } from '../errors.js';
import { causeOf } from '../domain/fs-cause.js';
import { makeDirectory } from '../make-dir.js';
import { refuseLink, writeOutFile } from '../out-file.js';
import { generateSchemas, schemaText } from './json-schema.js';

export interface SchemaOut {
  /** Where it is written. */
  path: string;
  /** Its path as the user gave the directory. */
  shown: string;
  text: string;
}

/** The schemas' files in `dir` (`shown`: the directory as given). */
export function schemaFiles(dir: string, shown: string): SchemaOut[] {
  return generateSchemas().map((f) => ({ path: join(dir, f.name), shown: join(shown, f.name), text: schemaText(f) }));
}

/**
 * Each file that is missing or differs from its schema: `<file as shown> is <why>`, which writing them
 * mends. A file that cannot be read (a file where the directory goes, no permission) is a UsageError:
 * writing there would fail too, so `--check` says what is in the way instead.
 */
export async function staleSchemas(files: readonly SchemaOut[], shown: string): Promise<string[]> {
  const stale: string[] = [];
  for (const f of files) {
    const current = await readFile(f.path, 'utf8').catch((e: unknown) => e);
    if (current === f.text) continue;
    if (typeof current === 'string') stale.push(`${f.shown} is out of date`);
    else if ((current as NodeJS.ErrnoException).code === 'ENOENT') stale.push(`${f.shown} is missing`);
    else
      throw new UsageError(`cannot read the schemas in ${shown}: ${f.shown}: ${causeOf(current)}.`, {
        code: 'schema_out_dir',
        hint: 'Give --out a directory you can read and write (it is created when missing).',
      });
  }
  return stale;
}

/** Writes the files into `dir` (made when missing; `shown` in messages), or a UsageError that says why not. */
export async function writeSchemaFiles(dir: string, shown: string, files: readonly SchemaOut[]): Promise<void> {
  try {
    await makeDirectory(dir);
    for (const f of files) refuseLink(f.path);
    for (const f of files) writeOutFile(f.path, f.text);
  } catch (e) {
    if (e instanceof WscError) throw e;
    throw new UsageError(`cannot write the schemas into ${shown}: ${causeOf(e)}.`, {
      code: 'schema_out_dir',
      hint: 'Give --out a directory you can write to (it is created when missing).',
    });
  }
}
