// The loader on damaged bundles: random edits of the example bundle's files
// (characters that mean something in YAML, tabs, CRs, BOMs, NULs, variables,
// references, duplicated lines, shifted indentation). Whatever the damage,
// loadBundle must answer with diagnostics rather than throw, and every
// diagnostic must be one a user can act on: a known severity, a rule name, a
// message without "undefined" or "[object Object]", and a position inside
// the bundle (a file it read, a line that file has, a column from 1). A bundle
// it calls valid must give distinct addresses. The hand-written bad bundles
// (test/e2e/bad-bundles.test.ts) say what each message is; this says there is
// no input left without one.
import { readdirSync, readFileSync, unlinkSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { loadBundle } from '../../src/bundle/load.js';
import { edit, applyEdit } from './damage.js';
import { bundle } from './tmp.js';
import { runs } from '../helpers/property.js';

const example = resolve(import.meta.dirname, '../../fixtures/example');
const FILES: Record<string, string> = {};
for (const sub of ['reports', 'workbooks', 'user-attributes']) {
  for (const f of readdirSync(join(example, sub))) FILES[`${sub}/${f}`] = readFileSync(join(example, sub, f), 'utf8');
}
const NAMES = Object.keys(FILES).sort();
const opts = {
  vars: { financeFolderId: null, currency: 'USD', fiscalYearStartMonth: 2 },
  env: {},
  mayHoldUnknownRefs: false,
};

/**
 * Puts `text` at `rel` in `dir` as a new file: overwriting one in place is
 * what makes ext4 flush it to disk (auto_da_alloc), milliseconds a write.
 */
function replace(dir: string, rel: string, text: string): void {
  unlinkSync(join(dir, rel));
  writeFileSync(join(dir, rel), text);
}

/** Damage to one file or two: which files, and the edits to each. */
const damage = fc.array(
  fc.record({ file: fc.nat(NAMES.length - 1), edits: fc.array(edit, { minLength: 1, maxLength: 4 }) }),
  { minLength: 1, maxLength: 2 },
);

describe('loadBundle on damaged bundles', () => {
  // The example, written once: each case writes its damaged files over it and puts them back after.
  const dir = bundle(FILES);

  it('answers every damage with diagnostics a user can act on, never a throw', async () => {
    await fc.assert(
      fc.asyncProperty(damage, async (d) => {
        const texts = { ...FILES };
        for (const { file, edits } of d) texts[NAMES[file]!] = edits.reduce(applyEdit, texts[NAMES[file]!]!);
        const damaged = new Set(d.map(({ file }) => NAMES[file]!));
        for (const rel of damaged) replace(dir, rel, texts[rel]!);
        let loaded: Awaited<ReturnType<typeof loadBundle>>;
        try {
          loaded = await loadBundle(dir, opts);
        } finally {
          for (const rel of damaged) replace(dir, rel, FILES[rel]!);
        }
        const { desired, diagnostics } = loaded;
        for (const g of diagnostics) {
          const where = `${JSON.stringify(g)}\nin ${JSON.stringify(d)}`;
          expect(['error', 'warning'], where).toContain(g.severity);
          expect(g.rule, where).toMatch(/^[a-z][a-z0-9-]*$/);
          expect(g.message.length, where).toBeGreaterThan(0);
          expect(g.message + (g.hint ?? ''), where).not.toMatch(/\bundefined\b(?! variable)|\[object Object\]|\bNaN\b/);
          if (g.pos.file !== '.') expect(NAMES, where).toContain(g.pos.file);
          expect(Number.isInteger(g.pos.line) && g.pos.line >= 1, where).toBe(true);
          expect(Number.isInteger(g.pos.col) && g.pos.col >= 1, where).toBe(true);
          if (g.pos.file !== '.')
            expect(g.pos.line, where).toBeLessThanOrEqual(texts[g.pos.file]!.split(/\r\n|\r|\n/).length + 1);
        }
        if (!diagnostics.some((g) => g.severity === 'error')) {
          const addresses = [...desired.workbooks, ...desired.reports, ...desired.userAttributes].map((r) => r.address);
          expect(new Set(addresses).size).toBe(addresses.length);
        }
      }),
      { numRuns: runs(300) },
    );
  }, 120_000);

  it('the undamaged example loads clean (the property starts from a valid bundle)', async () => {
    const clean = bundle(FILES);
    const { diagnostics } = await loadBundle(clean, opts);
    expect(diagnostics).toEqual([]);
  });
});
