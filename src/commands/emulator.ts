// `wsc emulator`: serve the local Workspace Content API until SIGINT/SIGTERM.
// The flags become the emulator's options in emulator/flags.ts.
import type { EmulatorOptions as CliEmulatorOptions } from '../command-options.js';
import { UsageError } from '../errors.js';
import { causeOf } from '../domain/fs-cause.js';
import { createEmulator } from '../emulator/index.js';
import { emulatorOptionsOf, FlagError } from '../emulator/flags.js';
import { emulatorStateError } from '../api/emulator-state-errors.js';
import { interrupted, type CommandContext } from './context.js';

export async function run(opts: CliEmulatorOptions, ctx: CommandContext): Promise<number> {
  let options;
  try {
    options = emulatorOptionsOf(opts, (line) => ctx.err(line));
  } catch (e) {
    if (!(e instanceof FlagError)) throw e;
    throw new UsageError(e.message, e.hint !== undefined ? { hint: e.hint } : {});
  }
  let emulator;
  try {
    emulator = await createEmulator(options);
  } catch (e) {
    const err = e as NodeJS.ErrnoException;
    if (err.code === 'EADDRINUSE' || err.code === 'EACCES')
      throw new UsageError(`cannot listen on ${opts.host}:${opts.port}: ${causeOf(err)}.`, {
        hint: 'Pick another --port (0 = any free port).',
      });
    throw emulatorStateError(e, 'start') ?? new UsageError(`cannot start the emulator: ${err.message}`);
  }
  ctx.out(`wsc emulator listening on ${emulator.url}\ntoken: ${emulator.adminToken}\n`);
  ctx.err(
    `API base: ${emulator.url}/api/v1 (deployments under /api/v1/deployments/{id}); ` +
      `Core Data API: ${opts.coreDataApiUrl ?? `${emulator.url}/cubejs-api/v1`}` +
      `${opts.state ? `\nstate: ${opts.state}` : ''}\nstop with Ctrl-C\n`,
  );
  await interrupted(ctx);
  await emulator.close().catch((e: unknown) => {
    throw emulatorStateError(e, 'stop') ?? e;
  });
  ctx.err('wsc emulator stopped\n');
  return 0;
}
