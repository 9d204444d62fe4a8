// The built CLI on a real pseudo-terminal (util-linux `script`): apply shows
// the plan, asks, reads the answer from the terminal, and shows a spinner per
// phase. Skipped where `script` is not the util-linux one.
import { describe, expect, test } from 'vitest';
import { writes } from '../../src/emulator/index.js';
import { reportsIn, writeBundle } from './helpers/bundles.js';
import { e2eSuite, withEmulator } from './helpers/index.js';
import { applyOnTerminal, hasScript } from './helpers/terminal.js';

e2eSuite();

describe.skipIf(!hasScript)('apply on a terminal', () => {
  test('answering yes applies, with a spinner and a line per kind of request once its last one ended', async () => {
    const dir = writeBundle({ looseReports: 2 });
    await withEmulator({}, async (emu) => {
      const { code, screen } = await applyOnTerminal(emu, dir, 'yes');
      expect(code).toBe(0);
      expect(screen).toContain('Plan: 2 to create, 0 to update, 0 to adopt, 0 to publish.');
      expect(screen).toMatch(/✔.*Reports:\S* 2 of 2 applied/);
      expect(screen).toContain('2 created, 0 updated, 0 adopted, 0 published.');
      expect(reportsIn(emu)).toHaveLength(2);
    });
  });

  test('answering no writes nothing', async () => {
    const dir = writeBundle({ looseReports: 2 });
    await withEmulator({}, async (emu) => {
      const { code, screen } = await applyOnTerminal(emu, dir, 'no');
      expect(code).toBe(1);
      expect(screen).toContain('Apply cancelled. Nothing was changed.');
      expect(writes(emu.log)).toEqual([]);
    });
  });
});
