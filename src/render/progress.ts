// Apply progress on stderr: on a terminal (Style.spinner) one ora spinner
// showing the kinds of request under way, with failures, skips and
// recoveries printed above it and a line per kind once its last request has
// ended; anywhere else, plain lines in the order requests end.
import ora, { type Ora } from 'ora';
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
function quieter(style: Style) {
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

export interface Progress {
  onEvent: (e: ApplyEvent) => void;
  /** Stop the spinner (idempotent); call in a finally. */
  stop(): void;
}

export function createProgress(opts: {
  style: Style;
  write: (text: string) => void;
  stream?: NodeJS.WriteStream;
}): Progress {
  const { style, write } = opts;
  const quiet = quieter(style);
  if (!style.spinner || !opts.stream) {
    return {
      onEvent: (e) => {
        const held = e.type === 'phase-end' ? quiet.flush() : '';
        const line = quiet.line(e);
        if (held || line) write(held + (line ?? ''));
      },
      stop: () => {
        const held = quiet.flush();
        if (held) write(held);
      },
    };
  }

  const active = new Map<Phase, { total: number; settled: number }>();
  let spinner: Ora | undefined;
  const text = () =>
    [...active.entries()]
      .sort(([a], [b]) => a - b)
      .map(([p, s]) => `${PHASE_TITLES[p]} ${s.settled}/${s.total}`)
      .join(' · ');
  const stopSpinner = () => {
    spinner?.stop();
    spinner = undefined;
  };
  const stop = () => {
    stopSpinner();
    const held = quiet.flush();
    if (held) opts.stream!.write(held);
  };
  const refresh = () => {
    if (active.size === 0) return stopSpinner();
    if (!spinner) spinner = ora({ stream: opts.stream, discardStdin: false, text: text() }).start();
    else spinner.text = text();
  };
  const above = (line: string) => {
    if (spinner) spinner.clear();
    opts.stream!.write(line);
    if (spinner) spinner.render();
  };

  return {
    onEvent: (e) => {
      switch (e.type) {
        case 'phase-start':
          active.set(e.phase, { total: e.total, settled: 0 });
          break;
        case 'phase-end': {
          active.delete(e.phase);
          const held = quiet.flush();
          if (held) above(held);
          const summary = renderApplyEvent(e, style)!.trimEnd();
          if (spinner) {
            if (e.failed || e.skipped) spinner.fail(summary);
            else spinner.succeed(summary);
            spinner = undefined;
          } else {
            above(`${summary}\n`);
          }
          break;
        }
        case 'request-done':
        case 'request-fail':
        case 'request-skip': {
          const s = active.get(e.request.phase);
          if (s) s.settled++;
          if (e.type !== 'request-done' || e.recovered) {
            const line = quiet.line(e);
            if (line) above(line);
          }
          break;
        }
        default:
          break;
      }
      refresh();
    },
    stop,
  };
}
