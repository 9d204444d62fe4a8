// `wsc schema`: write the JSON Schemas of the file formats, or check them.
import { readFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { generateSchemas, schemaText } from '../bundle/json-schema.js';
import { EXIT, UsageError, WscError } from '../errors.js';
import { makeDirectory } from '../make-dir.js';
import { refuseLink, writeOutFile } from '../out-file.js';
import type { SchemaOptions } from './options.js';
import type { CommandContext } from './context.js';

export async function run(opts: SchemaOptions, ctx: CommandContext): Promise<number> {
  const dir = resolve(ctx.cwd, opts.out);
  const files = generateSchemas().map((f) => ({
    path: join(dir, f.name),
    shown: join(opts.out, f.name),
    text: schemaText(f),
  }));
  if (opts.check) {
    const stale: string[] = [];
    for (const f of files) {
      const current = await readFile(f.path, 'utf8').catch(() => undefined);
      if (current !== f.text) stale.push(f.shown);
    }
    if (stale.length === 0) {
      ctx.out(`Schemas in ${opts.out} are up to date.\n`);
      return EXIT.ok;
    }
    ctx.err(
      `${stale.map((s) => `${s} is out of date`).join('\n')}\nRun \`wsc ` +
        `schema --out ${opts.out}\` and commit the result.\n`,
    );
    return EXIT.failure;
  }
  try {
    await makeDirectory(dir);
    for (const f of files) refuseLink(f.path);
    for (const f of files) writeOutFile(f.path, f.text);
  } catch (e) {
    if (e instanceof WscError) throw e;
    throw new UsageError(
      `cannot write the schemas into ${opts.out}: ${(e as NodeJS.ErrnoException).code ?? String(e)}.`,
      {
        code: 'schema_out_dir',
        hint: 'Give --out a directory you can write to (it is created when missing).',
      },
    );
  }
  ctx.out(`${files.map((f) => `wrote ${f.shown}`).join('\n')}\n`);
  return EXIT.ok;
}
