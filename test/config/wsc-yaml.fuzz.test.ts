// Environment resolution on a damaged wsc.yaml: random edits of the example's
// (test/bundle/damage.ts), resolved for each of its environments with the
// tokens set. Whatever the damage, resolveEnvironment answers with an
// environment or with a BundleError (diagnostics at positions in wsc.yaml)
// or a ConfigError, worded without stray `undefined` or `[object Object]`,
// and no message, hint or resolved field other than the token itself holds a
// token's value.
import { readFileSync, writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { resolveConfig } from '../../src/config/resolve.js';
import { readSettings } from '../../src/env.js';
import { BundleError, ConfigError } from '../../src/errors.js';
import { applyEdit, edit } from '../bundle/damage.js';
import { bundle } from '../bundle/tmp.js';
import { runs } from '../helpers/property.js';

const ORIGINAL = readFileSync(resolve(import.meta.dirname, '../../fixtures/example/wsc.yaml'), 'utf8');
const TOKENS = {
  WSC_STAGING_TOKEN: 'stg-S3CRET-token-1',
  WSC_PRODUCTION_TOKEN: 'prd-S3CRET-token-2',
  WSC_TOKEN: 'any-S3CRET-token-3',
};
const SECRET = /S3CRET/;

describe('resolveConfig on a damaged wsc.yaml', () => {
  const dir = bundle();

  it('answers with an environment, a BundleError or a ConfigError; positions in wsc.yaml; no token in any message', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(edit, { minLength: 1, maxLength: 4 }),
        fc.constantFrom(undefined, 'local', 'staging', 'production'),
        async (edits, env) => {
          const text = edits.reduce(applyEdit, ORIGINAL);
          writeFileSync(resolve(dir, 'wsc.yaml'), text);
          const where = `edits ${JSON.stringify(edits)}, env ${String(env)}`;
          try {
            const { environment: r } = await resolveConfig({
              dir,
              flags: env === undefined ? {} : { env },
              settings: readSettings(TOKENS),
              connects: false,
            });
            const { token, ...rest } = r as unknown as { token?: unknown } & Record<string, unknown>;
            void token;
            expect(JSON.stringify(rest), where).not.toMatch(SECRET);
          } catch (e) {
            expect(e instanceof BundleError || e instanceof ConfigError, `${String(e)}\n${where}`).toBe(true);
            const err = e as BundleError | ConfigError;
            const words =
              err instanceof BundleError
                ? err.diagnostics.map((d) => `${d.message} ${d.hint ?? ''}`).join('\n')
                : `${err.message} ${err.hint ?? ''}`;
            expect(words.trim().length, where).toBeGreaterThan(0);
            expect(words, where).not.toMatch(/\bundefined\b(?! variable)|\[object Object\]|\bNaN\b/);
            expect(words, where).not.toMatch(SECRET);
            if (err instanceof BundleError) {
              const lines = text.split(/\r\n|\r|\n/).length;
              for (const d of err.diagnostics) {
                expect(d.pos.file, where).toBe('wsc.yaml');
                expect(Number.isInteger(d.pos.line) && d.pos.line >= 1 && d.pos.line <= lines + 1, where).toBe(true);
                expect(Number.isInteger(d.pos.col) && d.pos.col >= 1, where).toBe(true);
              }
            }
          }
        },
      ),
      { numRuns: runs(300) },
    );
  }, 120_000);

  it('the undamaged file resolves every environment (the property starts from a valid file)', async () => {
    const clean = bundle({ 'wsc.yaml': ORIGINAL });
    for (const env of ['local', 'staging', 'production']) {
      const config = { dir: clean, flags: { env }, settings: readSettings(TOKENS), connects: false };
      const { environment: r } = await resolveConfig(config);
      expect(r.name).toBe(env);
    }
  });
});
