// The emulator's state file in wsc's errors: `wsc emulator --state FILE`, and an embedded environment's
// `.wsc/state/<env>.json`. The emulator tells why the file could not be loaded or written
// (emulator/persist.ts StateFileError); here that becomes an exit. As it starts, nothing has changed: the file
// or its directory is the user's to mend (exit 3). After changes, what was not written ends with the process
// (exit 1), and the message says what is lost.
import { StateFileError } from '../emulator/persist.js';
import { ConfigError, EXIT, UsageError, WscError } from '../errors.js';

/** The state file's error once a run has changed the state: `lost` says what ends with the process. */
function stateNotSaved(e: StateFileError, lost: string, hint: string): WscError {
  return new WscError('state_not_saved', `${e.message}. ${lost}`, EXIT.failure, { hint, cause: e });
}

/** An embedded environment's state file in wsc's errors (undefined for any other error). */
export function embeddedStateError(e: unknown, env: string, at: 'start' | 'end'): WscError | undefined {
  if (!(e instanceof StateFileError)) return undefined;
  const where = `The embedded environment \`${env}\` keeps its state in the bundle's .wsc/state/`;
  if (e.op === 'load')
    return new ConfigError('state_file_unusable', e.message, {
      hint: `${where}: remove ${e.file} to start it afresh (what it held is lost).`,
      cause: e,
    });
  const hint = `${where}: make that a directory wsc can write.`;
  if (at === 'start') return new ConfigError('state_file_unusable', e.message, { hint, cause: e });
  return stateNotSaved(
    e,
    'What this run changed in the embedded environment is not kept: a plan shows it again.',
    hint,
  );
}

/**
 * `wsc emulator --state FILE`'s state file in wsc's errors (undefined for any other error): as it starts, a
 * usage error naming the flag; as it stops, the changes since the file's last write are lost.
 */
export function emulatorStateError(e: unknown, at: 'start' | 'stop'): WscError | undefined {
  if (!(e instanceof StateFileError)) return undefined;
  if (at === 'start') return new UsageError(`--state: ${e.message}`, { cause: e });
  const hint = 'give --state a file in a directory wsc can write; the emulator printed when its writes began to fail';
  return stateNotSaved(e, 'The changes since its last write are lost.', hint);
}
