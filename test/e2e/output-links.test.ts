// No file wsc writes goes through a link it did not create (issue 43, item
// 4): a link planted where `preview --out`, `schema --out`, `plan --out` or
// export would write a file (as a pull request can commit one into the
// directory CI writes pictures to) is refused with the one message and code
// of src/out-file.ts, exit 3, before any file is written; its target is
// untouched and the link stays a link.
import { lstatSync, mkdirSync, readdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { copyFixture, e2eSuite, emulatorEnv, runCli, target, tempDir, withEmulator } from './helpers/index.js';

e2eSuite();

/** A file outside the output directory, and a link to it planted at `at` (a dangling one when `dangling`). */
function plant(at: string, dangling = false): { victim: string; check: () => void } {
  const outside = tempDir('wsc-outside-');
  const victim = join(outside, 'victim.txt');
  if (!dangling) writeFileSync(victim, 'untouched\n');
  symlinkSync(victim, at);
  return {
    victim,
    check: () => {
      expect(lstatSync(at).isSymbolicLink()).toBe(true);
      if (dangling) expect(readdirSync(outside)).toEqual([]);
      else expect(readFileSync(victim, 'utf8')).toBe('untouched\n');
    },
  };
}

const refusal = (at: string) => `${at} is a symbolic link; wsc will not write through it.`;

describe('a link where wsc would write a file is refused, the same way everywhere', () => {
  test.each([false, true])(
    'preview --out: a link named as one of the pictures (dangling: %s); no picture written',
    async (dangling) => {
      const dir = copyFixture('example');
      const out = tempDir('wsc-pictures-');
      const at = join(out, 'revenue-overview.lg.svg');
      const { check } = plant(at, dangling);
      const r = await runCli(['preview', '--dir', dir, '--out', out], { env: {} });
      expect(r.code).toBe(3);
      expect(r.stderr).toContain(refusal(at));
      expect(r.stderr).toContain('[output_link]');
      expect(readdirSync(out)).toEqual(['revenue-overview.lg.svg']);
      check();
    },
  );

  test('schema --out: a link named as a schema file', async () => {
    const out = tempDir('wsc-schemas-');
    const at = join(out, 'report.schema.json');
    const { check } = plant(at);
    const r = await runCli(['schema', '--out', out]);
    expect(r.code).toBe(3);
    expect(r.stderr).toContain(refusal(at));
    expect(readdirSync(out)).toEqual(['report.schema.json']);
    check();
  });

  test('plan --out: a link as the plan file, refused before the deployment is read', async () => {
    const dir = copyFixture('example');
    const at = join(tempDir('wsc-plans-'), 'plan.json');
    const { check } = plant(at);
    await withEmulator({}, async (emu) => {
      const r = await runCli(['plan', '--out', at, '--dir', dir, ...target(emu)], { env: emulatorEnv });
      expect(r.code).toBe(3);
      expect(r.stderr).toContain(refusal(at));
      expect(emu.log).toEqual([]);
    });
    check();
  });

  test('export --out: a link as a bundle file, the same message', async () => {
    await withEmulator({}, async (emu) => {
      const out = tempDir('wsc-export-');
      mkdirSync(join(out, 'reports'));
      const at = join(out, 'reports', 'anything.yaml');
      const { check } = plant(at);
      const r = await runCli(['export', '--out', out, ...target(emu)], { env: emulatorEnv });
      expect(r.code).toBe(3);
      expect(r.stderr).toContain(refusal(at));
      check();
    });
  });
});
