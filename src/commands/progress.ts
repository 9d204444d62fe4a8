// Apply progress on stderr: on a terminal (Style.spinner, decided in
// render/style.ts: never on 0 columns, where ora spins forever) one ora spinner
// showing the kinds of request under way, with failures, skips and
// recoveries printed above it and a line per kind once its last request has
// ended; anywhere else, plain lines in the order requests end. The lines and
// the spinner's text are render/progress.ts's strings.
import ora, { type Ora } from 'ora';
import type { ApplyEvent, Phase } from '../core/execute/index.js';
import { renderApplyEvent } from '../render/apply.js';
import { quieter, spinnerText } from '../render/progress.js';
import type { Style } from '../render/style.js';

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
  const text = () => spinnerText(active);
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
