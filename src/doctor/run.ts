// Running doctor's checks: one after another, each line handed on as soon as
// it is decided (the command prints it then), each check within its own time
// and the whole run within doctor's; a check whose `needs` did not pass is not
// run and says so. Whatever the host does, the run ends: a check that has no
// verdict in time is a ✗, and what is still in flight is aborted when the
// command closes the client.
import { DOCTOR_TIMEOUT_S } from '../defaults.js';
import type { WscError } from '../errors.js';
import type { CheckLine, CheckResult, DoctorCheck, DoctorContext } from './types.js';

/** Time for one check (its requests have a few seconds each and one retry: see budget.ts). */
export const CHECK_BUDGET_MS = 12_000;
/** Time for every check together: doctor ends within a minute whatever the host does. */
export const TOTAL_BUDGET_MS = DOCTOR_TIMEOUT_S * 1000;

export interface RunOptions {
  checkBudgetMs?: number;
  totalBudgetMs?: number;
  /** Each line, as soon as it is decided. */
  onLine?: (line: CheckLine) => void;
  now?: () => number;
}

const secondsOf = (ms: number) => `${Math.round(ms / 1000)} s`;

/** A check's result, or a ✗ when it throws or has none within `ms` (`late`: its time ran out). */
async function runOne(c: DoctorCheck, ctx: DoctorContext, ms: number): Promise<{ result: CheckResult; late: boolean }> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<{ result: CheckResult; late: boolean }>((resolve) => {
    timer = setTimeout(
      () =>
        resolve({
          result: {
            ok: false,
            detail: `no verdict within ${secondsOf(ms)}: the server answers too slowly or not at all`,
            hint: 'Run a command that needs it with --verbose to see each request and how long it waits.',
          },
          late: true,
        }),
      ms,
    );
  });
  const checked = c.run(ctx).then(
    (result) => ({ result, late: false }),
    (e: unknown) => {
      const w = e as Partial<WscError> & Error;
      return {
        result: { ok: false, detail: w.message, ...(w.hint !== undefined ? { hint: w.hint } : {}) },
        late: false,
      };
    },
  );
  try {
    return await Promise.race([checked, late]);
  } finally {
    clearTimeout(timer);
  }
}

export async function runChecks(
  ctx: DoctorContext,
  checks: readonly DoctorCheck[],
  opts: RunOptions = {},
): Promise<CheckLine[]> {
  const now = opts.now ?? Date.now;
  const total = opts.totalBudgetMs ?? TOTAL_BUDGET_MS;
  const started = now();
  const lines: CheckLine[] = [];
  /** Each check's line, and for one not run, the failed check at the root of why. */
  const byName = new Map<string, { line: CheckLine; cause?: string }>();
  /**
   * A check given the rest of the run's time used it up: the run's time is spent, even when the clock reads a
   * millisecond short of it (a timer may fire that early by Date.now()), so no next check runs for a millisecond.
   */
  let spent = false;
  for (const c of checks) {
    const blocker = c.needs?.map((n) => byName.get(n)).find((b) => b !== undefined && !b.line.ok);
    let line: CheckLine;
    let cause: string | undefined;
    const left = total - (now() - started);
    if (blocker !== undefined) {
      cause = blocker.cause ?? blocker.line.name;
      line = { name: c.name, ok: false, checked: false, detail: `not checked: ${cause} failed` };
    } else if (spent || left <= 0) {
      line = { name: c.name, ok: false, checked: false, detail: `not checked: doctor's ${secondsOf(total)} ran out` };
    } else {
      const ms = Math.min(c.budgetMs ?? opts.checkBudgetMs ?? CHECK_BUDGET_MS, left);
      const { result, late } = await runOne(c, ctx, ms);
      spent = late && ms === left;
      line = { name: c.name, checked: true, ...result };
    }
    byName.set(c.name, cause === undefined ? { line } : { line, cause });
    lines.push(line);
    opts.onLine?.(line);
  }
  return lines;
}
