// The connection settings every networked command takes from its flags and
// the resolved configuration: concurrency, retries, the client's limits
// (config/resolve.ts) and the --verbose trace.
import type { ConnectOptions } from '../api/connect.js';
import type { ClientLimits } from '../config/resolve.js';
import type { CommonOptions } from '../command-options.js';
import type { CommandContext } from './context.js';
import { visible } from '../visible.js';

export type ConnectionFlags = Pick<CommonOptions, 'concurrency' | 'maxRetries' | 'verbose'>;

export function connectOptions(opts: ConnectionFlags, client: ClientLimits, ctx: CommandContext): ConnectOptions {
  return {
    concurrency: opts.concurrency,
    maxRetries: opts.maxRetries,
    ...client,
    notice: (line: string) => ctx.err(`${visible(line)}\n`),
    ...(opts.verbose ? { trace: (line: string) => ctx.err(`${visible(line)}\n`) } : {}),
  };
}
