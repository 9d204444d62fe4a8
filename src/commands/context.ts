// What a command gets from the process: streams, environment, terminal
// facts. Commands are the only code (with main.ts) that touches the process;
// they receive it through this object so tests can run them in-process too.
import { createInterface } from 'node:readline/promises';
import { processSettings, type Settings } from '../env.js';
import { decideStyle, type Style } from '../render/style.js';

export interface CommandContext {
  out(text: string): void;
  err(text: string): void;
  /** The environment variables, read once (src/env.ts). */
  settings: Settings;
  cwd: string;
  style: Style;
  /** stdin is a terminal (prompts allowed). */
  interactive: boolean;
  /** Ask a yes/no question on the terminal; resolves false on anything but yes. */
  confirm(question: string): Promise<boolean>;
  /**
   * Calls `first` on the first SIGINT or SIGTERM; a second one ends the
   * process at once, by the signal's default action. Returns a function that
   * stops listening (the default action is back).
   */
  onInterrupt(first: (signal: NodeJS.Signals) => void): () => void;
}

/** Makes the context of one run; `noColor` is its --no-color flag. */
export type ContextFactory = (opts: { noColor?: boolean }) => CommandContext;

const INTERRUPTS: readonly NodeJS.Signals[] = ['SIGINT', 'SIGTERM'];

function onProcessInterrupt(first: (signal: NodeJS.Signals) => void): () => void {
  let seen = false;
  const stop = () => {
    for (const s of INTERRUPTS) process.off(s, handler);
  };
  function handler(signal: NodeJS.Signals): void {
    if (!seen) {
      seen = true;
      first(signal);
      return;
    }
    // Asked twice: as if wsc had never listened (the shell sees 128 + the signal's number).
    stop();
    process.kill(process.pid, signal);
  }
  for (const s of INTERRUPTS) process.on(s, handler);
  return stop;
}

/** Resolves at the first SIGINT or SIGTERM, and stops listening: a second one ends the process. */
export function interrupted(ctx: CommandContext): Promise<void> {
  return new Promise((done) => {
    const stop = ctx.onInterrupt(() => {
      stop();
      done();
    });
  });
}

export function processContext(opts: { noColor?: boolean }): CommandContext {
  const settings = processSettings();
  const style = decideStyle({
    isTTY: Boolean(process.stderr.isTTY),
    columns: process.stderr.columns,
    outColumns: process.stdout.isTTY ? process.stdout.columns : undefined,
    settings,
    noColorFlag: opts.noColor === true,
  });
  return {
    out: (t) => void process.stdout.write(t),
    err: (t) => void process.stderr.write(t),
    settings,
    // Read when a command asks: main.ts makes a context before any command runs, and
    // process.cwd() throws in a directory that was removed (`wsc --version` must still answer).
    get cwd() {
      return process.cwd();
    },
    style,
    interactive: Boolean(process.stdin.isTTY) && settings.ci === undefined,
    onInterrupt: onProcessInterrupt,
    confirm: (question) => confirmOn(process.stdin, process.stderr, style, question),
  };
}

/**
 * Asks `question` on `output` and reads the answer from `input`. Without
 * colour the prompt is plain text and readline runs without its terminal
 * mode, whose line editing writes cursor escape sequences of its own.
 */
export async function confirmOn(
  input: NodeJS.ReadableStream,
  output: NodeJS.WritableStream,
  style: Style,
  question: string,
): Promise<boolean> {
  const rl = createInterface({ input, output, terminal: style.color });
  try {
    const answer = await rl.question(`${question} `);
    return /^(y|yes)$/i.test(answer.trim());
  } finally {
    rl.close();
  }
}
