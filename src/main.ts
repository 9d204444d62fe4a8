// The one place that exits. Parses argv, runs the command, and turns any
// error into a message and an exit code (README, Exit codes). Known errors print no
// stack; unknown ones are internal bugs and print their stack.
import { CommanderError } from 'commander';
import { EXIT, InternalError, isWscError, UsageError, type WscError } from './errors.js';
import { envValue } from './env.js';
import { decideStyle, type Style } from './render/style.js';
import { enableTimings, endPhase, phaseTimings, renderTimings } from './timings.js';
import { visible } from './visible.js';
import { redactStream } from './redact.js';
import { guardUnfinished } from './process-guard.js';

export async function main(argv: string[]): Promise<void> {
  // Every line wsc prints passes through here: no token reaches a terminal or a log.
  redactStream(process.stdout);
  redactStream(process.stderr);
  const noColor = argv.includes('--no-color');
  const style = decideStyle({
    isTTY: Boolean(process.stderr.isTTY),
    columns: process.stderr.columns,
    env: process.env,
    noColorFlag: noColor,
  });
  const guard = guardUnfinished(process, (t) => void process.stderr.write(t));
  const timings = envValue(process.env, 'WSC_TIMINGS') !== undefined;
  if (timings) enableTimings();
  let code: number;
  try {
    const { buildCli } = await import('./cli.js');
    const program = buildCli();
    await program.parseAsync(argv);
    code = program.exitCode ?? EXIT.ok;
  } catch (e) {
    code = await report(e, style);
  }
  if (timings) {
    // The command marked its phases; what is left is its output (or its error).
    endPhase('output');
    process.stderr.write(renderTimings(phaseTimings()));
  }
  // Let pending writes drain; never cut stdout short with process.exit().
  process.exitCode = code;
  guard.done();
}

/** Prints an error thrown out of a command (to stderr) and returns its exit code. */
export async function report(e: unknown, style: Style): Promise<number> {
  if (e instanceof CommanderError) {
    // --help and --version end up here with exit code 0; commander printed them.
    if (e.exitCode === 0 || e.code === 'commander.helpDisplayed' || e.code === 'commander.version') return EXIT.ok;
    // commander already printed its message; add nothing but the exit code.
    return EXIT.invalid;
  }
  // An InternalError is a bug found by wsc itself: printed as any unknown error, with its stack.
  if (isWscError(e) && !(e instanceof InternalError)) {
    process.stderr.write(await formatError(e, style));
    return e.exitCode;
  }
  const err = e instanceof Error ? e : new Error(String(e));
  process.stderr.write(
    `${style.c.red('internal error:')} ${visible(err.message)}\n${visible(err.stack ?? '')}\n` +
      'This is a bug in wsc. Please report it with the command you ran.\n',
  );
  return EXIT.failure;
}

async function formatError(e: WscError, style: Style): Promise<string> {
  const { renderError } = await import('./render/error.js');
  return renderError(e, style);
}

export { UsageError };
