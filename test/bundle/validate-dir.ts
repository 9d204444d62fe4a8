// What `wsc validate` does, in-process: resolve the environment (no token
// needed), load the bundle, return every diagnostic.
import { loadBundle, type LoadResult } from '../../src/bundle/load.js';
import { resolveConfig } from '../../src/config/resolve.js';
import { readSettings } from '../../src/env.js';
import { BundleError } from '../../src/errors.js';

export async function validateDir(dir: string, env: Record<string, string | undefined> = {}): Promise<LoadResult> {
  try {
    const e = (await resolveConfig({ dir, flags: {}, settings: readSettings(env), connects: false })).environment;
    return await loadBundle(dir, { vars: e.vars, env, mayHoldUnknownRefs: e.mayHoldUnknownRefs });
  } catch (err) {
    if (err instanceof BundleError)
      return { desired: { workbooks: [], reports: [], userAttributes: [] }, diagnostics: err.diagnostics };
    throw err;
  }
}
