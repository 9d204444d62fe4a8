// `wsc preview --model FILE`: a saved `/v1/meta` answer, for the members'
// titles on the report cards; read offline, refused with one code when it is
// not one.
import { readFile } from 'node:fs/promises';
import { indexModel, type ModelIndex } from '../core/semantic/model-index.js';
import { MetaAnswer } from '../domain/data-model.js';
import { causeOf } from '../domain/fs-cause.js';
import { UsageError } from '../errors.js';

/** The model index of the file at `abs` (named `shown` in messages), or a UsageError (`preview_model`). */
export async function readModelFile(abs: string, shown: string): Promise<ModelIndex> {
  const refuse = (why: string) =>
    new UsageError(`--model ${shown}: ${why}.`, {
      code: 'preview_model',
      hint: 'Give the answer of the Core Data API\'s GET /v1/meta saved as JSON: { "cubes": [...] }.',
    });
  let data: unknown;
  try {
    data = JSON.parse(await readFile(abs, 'utf8'));
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    throw refuse(code !== undefined ? causeOf(e) : `not JSON (${(e as Error).message})`);
  }
  const parsed = MetaAnswer.safeParse(data);
  if (!parsed.success) throw refuse('not a /v1/meta answer (an object with a `cubes` list)');
  return indexModel(parsed.data);
}
