// What `wsc validate` does, in-process: resolve the environment (no token
// needed), load the bundle, return every diagnostic.
import { loadBundle, type LoadResult } from '../../src/bundle/load.js';
import { resolveEnvironment } from '../../src/config/environment.js';
import { BundleError } from '../../src/errors.js';

export async function validateDir(dir: string, env: Record<string, string | undefined> = {}): Promise<LoadResult> {
  try {
    const e = await resolveEnvironment({ dir, flags: {}, env, requireToken: false });
    return await loadBundle(dir, { vars: e.vars, env, mayHoldUnknownRefs: e.mayHoldUnknownRefs });
  } catch (err) {
    if (err instanceof BundleError)
      return { desired: { workbooks: [], reports: [], userAttributes: [] }, diagnostics: err.diagnostics };
    throw err;
  }
}
