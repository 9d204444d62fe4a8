// The error a call throws, for tests of refusals: one place that catches it
// and fails the test when the call throws something else or nothing.
import { WscError } from '../../src/errors.js';

/**
 * The error `f` throws, of `kind` (WscError by default): a throw of another
 * kind is thrown on, and no throw at all fails the test.
 */
export function errorOf<E extends WscError = WscError>(
  f: () => unknown,
  kind: abstract new (...args: never[]) => E = WscError as unknown as abstract new (...args: never[]) => E,
): E {
  try {
    f();
  } catch (e) {
    if (e instanceof kind) return e;
    throw e;
  }
  throw new Error(`expected a ${kind.name}, and nothing was thrown`);
}
