// A context that prints into strings instead of the process's streams, for
// running wsc in-process (src/main.ts runWsc: the end-to-end tests).
import type { ContextFactory } from '../../src/commands/context.js';
import { readSettings } from '../../src/env.js';
import { redact } from '../../src/redact.js';
import { decideStyle } from '../../src/render/style.js';

/** What a captured run printed, each stream in order. */
export interface Captured {
  stdout: string;
  stderr: string;
}

/**
 * Contexts that print into `captured` instead of the process's streams, for
 * running wsc in-process (tests). As the process's streams, they redact every
 * secret. Stdout and stderr are pipes (no colour, no spinner), stdin is not a
 * terminal and holds `input` (a confirm() reads its first line), and no
 * signal reaches the run.
 */
export function capturedContext(
  captured: Captured,
  opts: { env: Record<string, string | undefined>; cwd: string; input?: string },
): ContextFactory {
  const settings = readSettings(opts.env);
  return (o) => ({
    out: (t) => void (captured.stdout += redact(t)),
    err: (t) => void (captured.stderr += redact(t)),
    settings,
    cwd: opts.cwd,
    style: decideStyle({ isTTY: false, columns: undefined, settings, noColorFlag: o.noColor === true }),
    interactive: false,
    onInterrupt: () => () => {},
    confirm: async (question) => {
      captured.stderr += redact(`${question} `);
      return /^(y|yes)$/i.test((opts.input ?? '').split('\n')[0]!.trim());
    },
  });
}
