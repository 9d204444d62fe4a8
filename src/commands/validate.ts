// Placeholder until the command lands; replaced by its owner.
import { InternalError } from '../errors.js';
import type { CommandContext } from './context.js';

export async function run(_opts: unknown, _ctx: CommandContext): Promise<number> {
  throw new InternalError('`wsc validate` is not built yet.');
}
