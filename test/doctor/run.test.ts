// Doctor's runner: each line handed on as it is decided, a check without a
// verdict in its time is ✗, the run's time bounds the whole, and a check whose
// needs failed is not run (naming the failed check at the root).
import { describe, expect, test } from 'vitest';
import { runChecks } from '../../src/doctor/run.js';
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
});
