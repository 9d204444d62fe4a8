// The way forward of an invalid bundle, the same from every command that loads one: the `wsc validate` that
// shows its errors again, with the run's own --dir and --env (a bundle elsewhere, variables of another
// environment would give other errors, or none).
import { BundleError } from './errors.js';

/** How a run named its bundle and environment, as typed: the way forward of an invalid bundle repeats them. */
export interface Shown {
  dir: string;
  env?: string | undefined;
}

/**
 * `p`, or its BundleError with the `wsc validate` that shows the errors again: the run's --dir (when not the
 * working directory) and --env (when given), so that it validates the same bundle with the same variables.
 */
export async function validateAgain<T>(p: Promise<T>, shown: Shown): Promise<T> {
  try {
    return await p;
  } catch (e) {
    if (!(e instanceof BundleError)) throw e;
    const dir = shown.dir === '.' || shown.dir === '' ? '' : ` --dir ${shown.dir}`;
    throw new BundleError(e.diagnostics, `wsc validate${dir}${shown.env !== undefined ? ` --env ${shown.env}` : ''}`);
  }
}
