// `wsc schema`: write the JSON Schemas of the file formats, or check them
// (the files are bundle/schema-files.ts's).
import { resolve } from 'node:path';
import { schemaFiles, staleSchemas, writeSchemaFiles } from '../bundle/schema-files.js';
import { EXIT } from '../errors.js';
import { shellArg } from '../render/run-commands.js';
import type { SchemaOptions } from '../command-options.js';
import type { CommandContext } from './context.js';

export async function run(opts: SchemaOptions, ctx: CommandContext): Promise<number> {
  const dir = resolve(ctx.cwd, opts.out);
  const files = schemaFiles(dir, opts.out);
  if (opts.check) {
    const stale = await staleSchemas(files, opts.out);
    if (stale.length === 0) {
      ctx.out(`Schemas in ${opts.out} are up to date.\n`);
      return EXIT.ok;
    }
    ctx.err(`${stale.join('\n')}\nRun \`wsc schema --out ${shellArg(opts.out)}\` and commit the result.\n`);
    return EXIT.failure;
  }
  await writeSchemaFiles(dir, opts.out, files);
  ctx.out(`${files.map((f) => `wrote ${f.shown}`).join('\n')}\n`);
  return EXIT.ok;
}
