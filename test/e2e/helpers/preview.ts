// `wsc preview` serving its page for a browser test: the built CLI run in the
// test process on a free loopback port, the page's address read from its first
// line; `stop` sends SIGINT and resolves to the run's result.
import type { ChildProcess } from 'node:child_process';
import { runCli, type CliResult } from './index.js';

export interface ServedPreview {
  url: string;
  stop(): Promise<CliResult>;
}

export async function servePreview(args: string[]): Promise<ServedPreview> {
  let child: ChildProcess | undefined;
  let out = '';
  let ready: (url: string) => void = () => {};
  const started = new Promise<string>((r) => (ready = r));
  const done = runCli(['preview', ...args, '--port', '0'], {
    timeoutMs: 300_000,
    onSpawn: (c) => {
      child = c;
      c.stdout!.on('data', (d: Buffer | string) => {
        out += String(d);
        const m = /at (http:\/\/127\.0\.0\.1:\d+\/)/.exec(out);
        if (m) ready(m[1]!);
      });
    },
  });
  const url = await started;
  return {
    url,
    stop: () => {
      child?.kill('SIGINT');
      return done;
    },
  };
}
