// The strings of apply's progress: the event lines (at most LISTED_PER_CAUSE
// per kind of failure or skip) and the spinner's text. Strings only: the
// spinner itself is driven by commands/progress.ts.
import type { ApplyEvent, Phase } from '../core/execute/index.js';
import { PHASE_TITLES, renderApplyEvent } from './apply.js';
import { LISTED_PER_CAUSE } from './apply-failures.js';
import type { Style } from './style.js';
import { visible } from '../visible.js';

/**
 * At most LISTED_PER_CAUSE progress lines per kind of failure or skip (a server
 * gone can fail or stop thousands of requests alike); the rest are counted and
 * said in one line when their kind of request ends, and in the summary.
 */
export function quieter(style: Style) {
  const shown = new Map<string, number>();
  const held = new Map<string, { n: number; what: string }>();
  return {
    /** The event's line, or undefined when it is one too many of its kind. */
    line(e: ApplyEvent): string | undefined {
      const line = renderApplyEvent(e, style);
      if (e.type !== 'request-fail' && e.type !== 'request-skip') return line;
      const what =
        e.type === 'request-skip' ? `skipped: ${visible(e.reason)}` : `failed: ${e.error.code} (see the summary)`;
      const n = (shown.get(what) ?? 0) + 1;
      shown.set(what, n);
      if (n <= LISTED_PER_CAUSE) return line;
      held.set(what, { n: (held.get(what)?.n ?? 0) + 1, what });
      return undefined;
    },
    /** One line per kind held back since the last flush. */
    flush(): string {
      let out = '';
      for (const { n, what } of held.values()) out += `  ${style.c.yellow(`… ${n} more`)} ${what}\n`;
      held.clear();
      return out;
    },
  };
}

/** How far each kind of request under way has got, as the spinner shows it: `Reports 2/5 · …`. */
export function spinnerText(active: ReadonlyMap<Phase, { total: number; settled: number }>): string {
  return [...active.entries()]
    .sort(([a], [b]) => a - b)
    .map(([p, s]) => `${PHASE_TITLES[p]} ${s.settled}/${s.total}`)
    .join(' · ');
}
