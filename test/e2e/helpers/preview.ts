// `wsc preview` serving its page for a browser test: the built CLI run in the
// test process on a free loopback port, the page's address read from its first
// line; `stop` sends SIGINT and resolves to the run's result.
import type { ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { chromium, type Browser } from 'playwright-core';
import { afterAll, beforeAll, expect } from 'vitest';
import { cleanupTemp, runCli, type CliResult } from './index.js';

/** Debian's Chromium, if installed; browser suites skip without it and say why in their name. */
export const chromiumExecutable = ['/usr/lib/chromium/chromium', '/usr/bin/chromium'].find((p) => existsSync(p));
export const noChromiumReason = chromiumExecutable
  ? ''
  : ' (SKIPPED: no Chromium here; `apt-get install -y chromium`, as .ci/run does)';

interface ServedPreview {
  url: string;
  stop(): Promise<CliResult>;
}

async function servePreview(args: string[]): Promise<ServedPreview> {
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

export interface PreviewInBrowser {
  browser: Browser;
  url: string;
}

/**
 * Inside a describe: before all, `wsc preview` with the arguments `setup` returns is served and
 * Chromium launched (fields filled in then); after all, both are closed (the preview must exit 0)
 * and temp dirs removed.
 */
export function previewInBrowser(setup: () => string[] | Promise<string[]>): PreviewInBrowser {
  const ctx = { url: '' } as PreviewInBrowser;
  let served: ServedPreview | undefined;
  beforeAll(async () => {
    served = await servePreview(await setup());
    ctx.url = served.url;
    ctx.browser = await chromium.launch({ executablePath: chromiumExecutable!, args: ['--no-sandbox'] });
  }, 60_000);
  afterAll(async () => {
    await ctx.browser?.close();
    if (served) expect((await served.stop()).code).toBe(0);
    cleanupTemp();
  });
  return ctx;
}
