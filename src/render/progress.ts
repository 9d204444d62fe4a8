// Apply progress on stderr: on a terminal (Style.spinner) one ora spinner
// showing the kinds of request under way, with failures, skips and
// recoveries printed above it and a line per kind once its last request has
// ended; anywhere else, plain lines in the order requests end.
import ora, { type Ora } from 'ora';
import type { ApplyEvent, Phase } from '../core/execute.js';
import { PHASE_TITLES, renderApplyEvent } from './apply.js';
import type { Style } from './style.js';

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
  if (!style.spinner || !opts.stream) {
    return {
      onEvent: (e) => {
        const line = renderApplyEvent(e, style);
        if (line) write(line);
      },
      stop: () => {},
    };
  }

  const active = new Map<Phase, { total: number; settled: number }>();
  let spinner: Ora | undefined;
  const text = () =>
    [...active.entries()]
      .sort(([a], [b]) => a - b)
      .map(([p, s]) => `${PHASE_TITLES[p]} ${s.settled}/${s.total}`)
      .join(' · ');
  const stop = () => {
    spinner?.stop();
    spinner = undefined;
  };
  const refresh = () => {
    if (active.size === 0) return stop();
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
            const line = renderApplyEvent(e, style);
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
