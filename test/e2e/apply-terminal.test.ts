// The built CLI on a real pseudo-terminal (util-linux `script`): apply shows
// the plan, asks, reads the answer from the terminal, and shows a spinner per
// phase. Skipped where `script` is not the util-linux one.
import { describe, expect, test } from 'vitest';
import { writes } from '../../src/emulator/index.js';
import { reportsIn, writeBundle } from './helpers/bundles.js';
import { e2eSuite, withEmulator, type Emulator } from './helpers/index.js';
import { applyOnTerminal, hasScript } from './helpers/terminal.js';

e2eSuite();

/** apply of two new reports on a real terminal, the user typing `answer`: its exit code and screen. */
async function answering(
  answer: 'yes' | 'no',
  check: (run: { code: number | null; screen: string; emu: Emulator }) => Promise<void>,
): Promise<void> {
  const dir = writeBundle({ looseReports: 2 });
  await withEmulator({}, async (emu) => check({ ...(await applyOnTerminal(emu, dir, answer)), emu }));
}

describe.skipIf(!hasScript)('apply on a terminal', () => {
  test('answering yes applies, with a spinner and a line per kind of request once its last one ended', async () => {
    await answering('yes', async ({ code, screen, emu }) => {
      expect(code).toBe(0);
      expect(screen).toContain('Plan: 2 to create, 0 to update, 0 to adopt, 0 to publish.');
      expect(screen).toMatch(/✔.*Reports:\S* 2 of 2 applied/);
      expect(screen).toContain('2 created, 0 updated, 0 adopted, 0 published.');
      expect(reportsIn(emu)).toHaveLength(2);
    });
  });

  test('answering no writes nothing', async () => {
    await answering('no', async ({ code, screen, emu }) => {
      expect(code).toBe(1);
      expect(screen).toContain('Apply cancelled. Nothing was changed.');
      expect(writes(emu.log)).toEqual([]);
    });
  });
});
