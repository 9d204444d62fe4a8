// Doctor's runner: each line handed on as it is decided, a check without a
// verdict in its time is ✗, the run's time bounds the whole, and a check whose
// needs failed is not run (naming the failed check at the root).
import { afterEach, describe, expect, test, vi } from 'vitest';
import { CHECK_BUDGET_MS, runChecks, TOTAL_BUDGET_MS } from '../../src/doctor/run.js';
import { deepCheck } from '../../src/doctor/deep.js';
import type { CheckLine, DoctorCheck, DoctorContext } from '../../src/doctor/types.js';

const ctx = {} as DoctorContext;
const never = () => new Promise<never>(() => undefined);
const check = (name: string, run: DoctorCheck['run'], needs?: string[]): DoctorCheck => ({
  name,
  run,
  ...(needs ? { needs } : {}),
});
const ok = async () => ({ ok: true, detail: 'fine' });
const bad = async () => ({ ok: false, detail: 'broken', hint: 'fix' });

describe('runChecks', () => {
  test('lines in order, each handed on before the next check starts', async () => {
    const seen: string[] = [];
    const lines = await runChecks(
      ctx,
      [
        check('a', async () => {
          seen.push('run a');
          return ok();
        }),
        check('b', async () => {
          seen.push('run b');
          return ok();
        }),
      ],
      { onLine: (l: CheckLine) => seen.push(`line ${l.name}`) },
    );
    expect(seen).toEqual(['run a', 'line a', 'run b', 'line b']);
    expect(lines.every((l) => l.ok && l.checked)).toBe(true);
  });

  test('a check with no verdict in its time is ✗; one that throws is ✗ with its message', async () => {
    const t0 = Date.now();
    const lines = await runChecks(
      ctx,
      [
        check('slow', never),
        check('throws', async () => {
          throw new Error('boom');
        }),
      ],
      { checkBudgetMs: 100 },
    );
    expect(Date.now() - t0).toBeLessThan(2_000);
    expect(lines[0]).toMatchObject({
      ok: false,
      checked: true,
      detail: expect.stringMatching(/^no verdict within 0 s/),
    });
    expect(lines[1]).toMatchObject({ ok: false, checked: true, detail: 'boom' });
  });

  test("needs: not run after a failure, the root cause named through a chain; the run's time bounds the rest", async () => {
    const lines = await runChecks(
      ctx,
      [
        check('host', bad),
        check('token', ok, ['host']),
        check('deployment', ok, ['token']),
        check('free', ok),
        check('slow', never),
        check('late', ok),
      ],
      { checkBudgetMs: 5_000, totalBudgetMs: 150 },
    );
    expect(lines.map((l) => [l.name, l.checked, l.detail])).toEqual([
      ['host', true, 'broken'],
      ['token', false, 'not checked: host failed'],
      ['deployment', false, 'not checked: host failed'],
      ['free', true, 'fine'],
      ['slow', true, expect.stringMatching(/^no verdict within/)],
      ['late', false, "not checked: doctor's 0 s ran out"],
    ]);
  });

  describe('the defaults docs/commands.md states, on a fake clock', () => {
    afterEach(() => void vi.useRealTimers());

    test("a check that used up the run's time ends it, though the clock reads a millisecond short", async () => {
      vi.useFakeTimers();
      const t0 = Date.now();
      // A timer may fire when Date.now() shows a millisecond less than its time: the 1 ms left is no time.
      const now = () => Math.max(t0, Date.now() - 1);
      const done = runChecks(ctx, [check('slow', never), check('next', ok)], { now, totalBudgetMs: 1_000 });
      await vi.advanceTimersByTimeAsync(2_000);
      expect((await done).map((l) => [l.name, l.checked, l.detail.replace(/:.*/, '')])).toEqual([
        ['slow', true, 'no verdict within 1 s'],
        ['next', false, 'not checked'],
      ]);
    });

    test('each check has 12 s, the round trip 40 s, the whole run 45 s; what is left is not checked', async () => {
      vi.useFakeTimers();
      expect([CHECK_BUDGET_MS, TOTAL_BUDGET_MS, deepCheck.budgetMs]).toEqual([12_000, 45_000, 40_000]);
      const t0 = Date.now();
      const decided: [string, number][] = [];
      const done = runChecks(
        ctx,
        [check('a', never), check('b', never), { ...deepCheck, run: never }, check('c', never), check('d', ok)],
        { onLine: (l) => decided.push([l.name, Date.now() - t0]) },
      );
      await vi.advanceTimersByTimeAsync(TOTAL_BUDGET_MS + 1_000);
      const lines = await done;
      expect(lines.map((l) => [l.name, l.checked, l.detail.replace(/:.*/, '')])).toEqual([
        ['a', true, 'no verdict within 12 s'],
        ['b', true, 'no verdict within 12 s'],
        // 40 s of its own, cut to the 21 s left of the run.
        ['export round trip', true, 'no verdict within 21 s'],
        ['c', false, 'not checked'],
        ['d', false, 'not checked'],
      ]);
      expect(lines[3]!.detail).toBe("not checked: doctor's 45 s ran out");
      expect(decided).toEqual([
        ['a', 12_000],
        ['b', 24_000],
        ['export round trip', 45_000],
        ['c', 45_000],
        ['d', 45_000],
      ]);
    });
  });
});
