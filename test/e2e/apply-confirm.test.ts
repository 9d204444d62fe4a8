// On a terminal, apply shows the plan and asks before writing. A terminal
// cannot be faked for a child process portably, so this runs the command
// in-process with a CommandContext that says "interactive" and answers the
// question, against a real emulator over HTTP (no mocked HTTP).
import { afterAll, describe, expect, test } from 'vitest';
import type { ApplyOptions } from '../../src/command-options.js';
import { run } from '../../src/commands/apply.js';
import type { CommandContext } from '../../src/commands/context.js';
import { readSettings } from '../../src/env.js';
import { writes } from '../../src/emulator/index.js';
import { plainStyle } from '../../src/render/style.js';
import { reportsIn, writeBundle } from './helpers/bundles.js';
import { cleanupTemp, withEmulator, type Emulator } from './helpers/index.js';

afterAll(cleanupTemp);

function terminal(answer: boolean) {
  const seen = { out: '', err: '', questions: [] as string[] };
  const ctx: CommandContext = {
    out: (t) => void (seen.out += t),
    err: (t) => void (seen.err += t),
    settings: readSettings({ WSC_TOKEN: 'dev-token' }),
    cwd: process.cwd(),
    style: plainStyle,
    interactive: true,
    confirm: async (q) => {
      seen.questions.push(q);
      return answer;
    },
    onInterrupt: () => () => undefined,
  };
  return { ctx, seen };
}

function options(dir: string, url: string): ApplyOptions & { args: string[] } {
  return {
    dir,
    baseUrl: url,
    deployment: 1,
    output: 'human',
    color: false,
    verbose: false,
    concurrency: 8,
    maxRetries: 6,
    autoApprove: false,
    target: [],
    args: [],
  };
}

/** apply of two new reports on a (captured) terminal whose user answers yes or no: its exit code and what it showed. */
async function answered(
  yes: boolean,
  check: (run: { code: number; seen: ReturnType<typeof terminal>['seen']; emu: Emulator }) => Promise<void>,
): Promise<void> {
  const dir = writeBundle({ looseReports: 2 });
  await withEmulator({}, async (emu) => {
    const { ctx, seen } = terminal(yes);
    await check({ code: await run(options(dir, emu.url), ctx), seen, emu });
  });
}

describe('apply on a terminal', () => {
  test('shows the plan, asks, and on "no" writes nothing', async () => {
    await answered(false, async ({ code, seen, emu }) => {
      expect(code).toBe(1);
      expect(seen.questions).toEqual(['Apply these changes? (yes/no)']);
      expect(seen.out).toContain('Plan: 2 to create, 0 to update, 0 to adopt, 0 to publish.');
      expect(seen.out).toMatch(/\nApply cancelled\. Nothing was changed\.\n$/);
      expect(seen.err).not.toContain('Plan:');
      expect(writes(emu.log)).toEqual([]);
    });
  });

  test('on "yes" applies, progress on stderr, the plan and the result on stdout', async () => {
    await answered(true, async ({ code, seen, emu }) => {
      expect(code).toBe(0);
      expect(seen.out).toContain('Plan: 2 to create, 0 to update, 0 to adopt, 0 to publish.');
      expect(seen.out.split('\n\n').at(-1)).toBe('Apply complete: 2 created, 0 updated, 0 adopted, 0 published.\n');
      expect(seen.err).toMatch(
        /^ {2}done {4}report\/rep00000100[01] \(create report, id \d+\)\n {2}done {4}report\/rep00000100[01] \(create report, id \d+\)\nReports: 2 of 2 applied\n/m,
      );
      expect(reportsIn(emu)).toHaveLength(2);
    });
  });
});
