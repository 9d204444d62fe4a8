// The one place that exits. Parses argv, runs the command, and turns any
// error into a message and an exit code (docs/errors.md). Known errors print no
// stack; unknown ones are internal bugs and print their stack.
import { CommanderError, type Command } from 'commander';
import { EXIT, InternalError, isWscError } from './errors.js';
import type { Style } from './render/style.js';
import { enableTimings, endPhase, phaseTimings, renderTimings } from './timings.js';
import { visible } from './visible.js';
import { clearSecrets, redactStream } from './redact.js';
import { guardUnfinished } from './process-guard.js';
import { processContext, type ContextFactory } from './commands/context.js';

/** The entry of `bin/wsc.js`: runs argv on the process's streams and sets process.exitCode. */
export async function main(argv: string[]): Promise<void> {
  // Every line wsc prints passes through here: no token reaches a terminal or a log.
  redactStream(process.stdout);
  redactStream(process.stderr);
  // A reader that went away (`wsc plan --help | head -1`) is no error: output stops, the run ends as it would.
  quietOnClosedPipe(process.stdout);
  quietOnClosedPipe(process.stderr);
  const guard = guardUnfinished(process, (t) => void process.stderr.write(t));
  const code = await runWith(argv, processContext, true);
  // Let pending writes drain; never cut stdout short with process.exit().
  process.exitCode = code;
  guard.done();
}

/**
 * Once the reader of `stream` is gone (EPIPE, as `head -1` leaves it), what is
 * still written there is dropped: no unhandled 'error' event and its stack
 * trace. The command is not cut short (an apply under way finishes its
 * requests) and ends with its own exit code, as git and gh end quietly.
 */
function quietOnClosedPipe(stream: NodeJS.WriteStream): void {
  stream.on('error', (e: NodeJS.ErrnoException) => {
    if (e.code !== 'EPIPE' && e.code !== 'ERR_STREAM_DESTROYED') throw e;
    stream.write = () => true;
  });
}

let inProcessRuns = 0;

/**
 * Runs argv (`node`, `wsc`, then the arguments) with the contexts `context`
 * makes, and resolves with the exit code; touches neither process.exitCode
 * nor the process's streams. For running wsc inside another program (the
 * end-to-end tests): give it test/helpers/captured-context.ts's, whose output is
 * redacted as the process's streams are. Signals cannot reach such a run.
 */
export async function runWsc(argv: string[], context: ContextFactory): Promise<number> {
  // The secrets of earlier runs are not this one's (and would blot out its output); runs
  // that overlap share the registry, so it is reset only when none is under way.
  if (inProcessRuns++ === 0) clearSecrets();
  try {
    return await runWith(argv, context, false);
  } finally {
    inProcessRuns--;
  }
}

async function runWith(argv: string[], context: ContextFactory, processStreams: boolean): Promise<number> {
  // What wsc itself prints (errors, timings) before a command has parsed its own --no-color.
  const own = context({ noColor: argv.includes('--no-color') });
  const out = (t: string) => own.out(t);
  const err = (t: string) => own.err(t);
  const timings = own.settings.timings;
  if (timings) enableTimings();
  let code: number;
  try {
    const { buildCli } = await import('./cli.js');
    const program = buildCli(context);
    // Commander's help and messages go where the command's output goes; on the process's own
    // streams it keeps its own look at the terminal, elsewhere it writes plain 80 columns.
    if (!processStreams) configureOutput(program, out, err);
    await program.parseAsync(argv);
    code = program.exitCode ?? EXIT.ok;
  } catch (e) {
    code = await report(e, own.style, err);
  }
  if (timings) {
    // The command marked its phases; what is left is its output (or its error).
    endPhase('output');
    err(renderTimings(phaseTimings()));
  }
  return code;
}

function configureOutput(cmd: Command, out: (t: string) => void, err: (t: string) => void): void {
  cmd.configureOutput({
    writeOut: out,
    writeErr: err,
    getOutHelpWidth: () => 80,
    getErrHelpWidth: () => 80,
    getOutHasColors: () => false,
    getErrHasColors: () => false,
  });
  // Subcommands copied their parent's settings when they were made.
  for (const sub of cmd.commands) configureOutput(sub, out, err);
}

/** Prints an error thrown out of a command (to stderr, or `write`) and returns its exit code. */
export async function report(
  e: unknown,
  style: Style,
  write: (text: string) => void = (t) => void process.stderr.write(t),
): Promise<number> {
  if (e instanceof CommanderError) {
    // --help and --version end up here with exit code 0; commander printed them.
    if (e.exitCode === 0 || e.code === 'commander.helpDisplayed' || e.code === 'commander.version') return EXIT.ok;
    // commander already printed its message; add nothing but the exit code.
    return EXIT.invalid;
  }
  // An InternalError is a bug found by wsc itself: printed as any unknown error, with its stack.
  if (isWscError(e) && !(e instanceof InternalError)) {
    write((await import('./render/error.js')).renderError(e, style));
    return e.exitCode;
  }
  const err = e instanceof Error ? e : new Error(String(e));
  write(
    `${style.c.red('internal error:')} ${visible(err.message)}\n${visible(err.stack ?? '')}\n` +
      'This is a bug in wsc. Please report it with the command you ran.\n',
  );
  return EXIT.failure;
}
