// `wsc preview` serving its page, run in the test process (src/main.ts runWsc
// with a captured context, as runCli runs a command) on a free loopback port,
// the page's address read from its first line; `stop` interrupts it, as
// Ctrl-C does, and resolves to the run's result. That a served preview
// process ends on a real SIGINT, with a page connected, is
// preview-out.test.ts's (spawned there).
import { runWsc } from '../../../src/main.js';
import { capturedContext, type Captured } from '../../helpers/captured-context.js';
import { root, type CliResult } from './index.js';

export interface ServedPreview {
  url: string;
  stop(): Promise<CliResult>;
}

/** `wsc preview ...args --port 0` serving in this process, once its page's address is printed. */
export async function servePreview(args: string[]): Promise<ServedPreview> {
  const captured: Captured = { stdout: '', stderr: '' };
  const env: Record<string, string> = { CI: 'true', NO_COLOR: '1' };
  for (const k of ['PATH', 'HOME', 'TMPDIR']) if (process.env[k]) env[k] = process.env[k]!;
  const base = capturedContext(captured, { env, cwd: root });
  const interrupts: (() => void)[] = [];
  let ready: (url: string) => void = () => {};
  const started = new Promise<string>((r) => (ready = r));
  const done = runWsc([process.execPath, 'wsc', 'preview', ...args, '--port', '0'], (o) => {
    const ctx = base(o);
    return {
      ...ctx,
      out: (t) => {
        ctx.out(t);
        const m = /at (http:\/\/127\.0\.0\.1:\d+\/)/.exec(captured.stdout);
        if (m) ready(m[1]!);
      },
      // Ctrl-C, as the process's handler would pass it on.
      onInterrupt: (first) => {
        const i = interrupts.push(() => first('SIGINT')) - 1;
        return () => void (interrupts[i] = () => {});
      },
    };
  }).then((code) => ({ code, ...captured }));
  const url = await Promise.race([
    started,
    done.then((r) => Promise.reject(new Error(`wsc preview ended (${r.code}) before serving:\n${r.stderr}`))),
  ]);
  return {
    url,
    stop: () => {
      for (const f of interrupts) f();
      return done;
    },
  };
}
