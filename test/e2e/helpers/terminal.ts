// `wsc apply` on a real pseudo-terminal (util-linux `script`), answering its
// question: for the tests of what a person at a terminal sees.
import { spawn, spawnSync } from 'node:child_process';
import { ensureBuilt, root, type Emulator } from './index.js';

/** util-linux `script` is here (elsewhere the terminal tests are skipped). */
export const hasScript =
  process.platform === 'linux' &&
  spawnSync('script', ['--version'], { encoding: 'utf8' }).stdout?.includes('util-linux');

/** Runs `wsc apply [flags]` in a pseudo-terminal of 100 columns, answers the question; all the terminal showed. */
export function applyOnTerminal(
  emu: Emulator,
  dir: string,
  answer: string,
  flags: string[] = [],
): Promise<{ code: number | null; screen: string }> {
  ensureBuilt();
  const wsc = `node ${root}/bin/wsc.js`;
  const cmd = `stty cols 100; exec ${wsc} apply ${flags.join(' ')} --dir ${dir} --base-url ${emu.url} --deployment 1`;
  const child = spawn('script', ['-qec', cmd, '/dev/null'], {
    env: { PATH: process.env['PATH'] ?? '', HOME: process.env['HOME'] ?? '', WSC_TOKEN: 'dev-token', TERM: 'xterm' },
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  let screen = '';
  let answered = false;
  const onData = (d: Buffer) => {
    screen += d.toString('utf8');
    if (!answered && screen.includes('Apply these changes? (yes/no)')) {
      answered = true;
      child.stdin.write(`${answer}\r`);
    }
  };
  child.stdout.on('data', onData);
  child.stderr.on('data', onData);
  const timer = setTimeout(() => child.kill('SIGKILL'), 60_000);
  return new Promise((resolve) =>
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, screen });
    }),
  );
}

/** Runs `wsc ARGS` in a pseudo-terminal of `cols` columns (COLUMNS unset); all the terminal showed. */
export function wscOnTerminal(args: string[], cols: number): Promise<{ code: number | null; screen: string }> {
  ensureBuilt();
  const cmd = `stty cols ${cols}; unset COLUMNS; exec node ${root}/bin/wsc.js ${args.join(' ')}`;
  const child = spawn('script', ['-qec', cmd, '/dev/null'], {
    env: { PATH: process.env['PATH'] ?? '', HOME: process.env['HOME'] ?? '', WSC_TOKEN: 'dev-token', TERM: 'xterm' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let screen = '';
  child.stdout.on('data', (d: Buffer) => (screen += d.toString('utf8')));
  child.stderr.on('data', (d: Buffer) => (screen += d.toString('utf8')));
  const timer = setTimeout(() => child.kill('SIGKILL'), 60_000);
  return new Promise((resolve) =>
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, screen });
    }),
  );
}
