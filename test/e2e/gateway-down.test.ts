// Failing upstreams end fast: behind a gateway that answers 502 with its
// HTML page once the service behind it died, the breaker counts those
// answers as it counts refused connections. Once it opens no new request
// starts, apply ends within seconds (exit 4 when something was applied, 1
// when nothing was), and each kind of failure is one grouped line (count,
// status, first and last address), not one line per request.
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { describe, expect, test } from 'vitest';
import { bundleFiles, pid } from './helpers/bundles.js';
import { e2eSuite, type Emulator, emulatorEnv, runCli, target, withEmulator, writeFiles } from './helpers/index.js';

e2eSuite(180_000);

const BAD_GATEWAY =
  '<html>\r\n<head><title>502 Bad Gateway</title></head>\r\n<body>\r\n<center><h1>502 Bad Gateway</h1></center>\r\n' +
  '<hr><center>nginx</center>\r\n</body>\r\n</html>\r\n';

interface Gateway {
  url: string;
  /** Requests answered 502 since the service died. */
  afterDeath: number;
  close(): Promise<void>;
}

function bodyOf(req: IncomingMessage): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => resolve(Buffer.concat(chunks)));
    req.on('error', reject);
  });
}

/**
 * A reverse proxy in front of the emulator: forwards every request until `writesBeforeDeath`
 * writes have been forwarded, then stops the emulator (the service dies) and answers every
 * request with nginx's 502 page, as a gateway does for an upstream that is gone.
 */
async function gateway(emu: Emulator, writesBeforeDeath: number): Promise<Gateway> {
  let writes = 0;
  let dead = false;
  const g = { url: '', afterDeath: 0, close: async () => {} };
  const server: Server = createServer((req, res) => {
    void (async () => {
      const body = await bodyOf(req);
      const write = req.method !== 'GET';
      if (!dead && write && writes >= writesBeforeDeath) {
        dead = true;
        await emu.close();
      }
      if (dead) {
        g.afterDeath++;
        res.writeHead(502, { 'content-type': 'text/html', 'content-length': Buffer.byteLength(BAD_GATEWAY) });
        return res.end(BAD_GATEWAY);
      }
      if (write) writes++;
      const headers = Object.fromEntries(
        Object.entries(req.headers).filter(([k]) => !['host', 'connection', 'content-length'].includes(k)),
      ) as Record<string, string>;
      const up = await fetch(`${emu.url}${req.url ?? '/'}`, {
        method: req.method ?? 'GET',
        headers,
        ...(body.length > 0 || write ? { body: new Uint8Array(body) } : {}),
      });
      const text = Buffer.from(await up.arrayBuffer());
      res.writeHead(up.status, { 'content-type': up.headers.get('content-type') ?? 'application/json' });
      res.end(text);
    })().catch(() => res.destroy());
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  g.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  g.close = () =>
    new Promise<void>((r) => {
      server.closeAllConnections();
      server.close(() => r());
    });
  return g;
}

/** `looseReports` of bundles.ts, each report's SQL changed: every report is an update. */
function changed(n: number): Record<string, string> {
  const files = bundleFiles({ looseReports: n });
  for (const [k, v] of Object.entries(files)) files[k] = v.replace(/sqlQuery: select (\d+)/, 'sqlQuery: select $1 + 1');
  return files;
}

function expectGroupedOutput(r: { stdout: string; stderr: string }, n: number): void {
  // Bounded output: not one line per request. The summary's Failed and Skipped sections, and the progress
  // lines of failures and skips on stderr, stay a few lines whatever the number of requests.
  const failedAndSkipped = r.stdout.slice(r.stdout.indexOf('\nFailed:'));
  expect(failedAndSkipped.split('\n').length).toBeLessThan(40);
  expect(r.stderr.split('\n').filter((l) => /^ {2}(failed|skipped) /.test(l)).length).toBeLessThanOrEqual(20);
  const out = r.stdout + r.stderr;
  // The skipped requests are one line: count, first, last, the breaker's reason.
  expect(out).toMatch(
    /^ {2}\d+ requests, first report\/rep\d{9}, last report\/rep\d{9}: not started: 8 requests in a row to 127\.0\.0\.1:\d+ failed \(answered 502 with an HTML page\), the server behind it seems down$/m,
  );
  const skipped = Number(/^ {2}(\d+) requests, first/m.exec(out)?.[1]);
  expect(skipped).toBeGreaterThan(n / 2);
  // On stderr, no more than ten lines of one kind, then one line for the rest.
  expect(out).toMatch(/… \d+ more skipped: not started: 8 requests in a row/);
}

describe('a gateway answering 502 after the service behind it died', () => {
  test('300 updates, the service dead after 20: exit 4 within seconds, grouped lines, few requests after death', async () => {
    await withEmulator({}, async (emu) => {
      const n = 300;
      const first = writeFiles(bundleFiles({ looseReports: n }));
      expect(
        (await runCli(['apply', '--auto-approve', '--dir', first, ...target(emu)], { env: emulatorEnv })).code,
      ).toBe(0);
      const gw = await gateway(emu, 20);
      try {
        const started = Date.now();
        const r = await runCli(['apply', '--auto-approve', '--dir', writeFiles(changed(n)), ...target(gw)], {
          env: emulatorEnv,
          timeoutMs: 120_000,
        });
        const took = Date.now() - started;
        expect(r.code, r.stdout.slice(0, 3000) + r.stderr.slice(0, 3000)).toBe(4);
        expect(took).toBeLessThan(30_000);
        // The breaker opens at the 8th answer in a row; those in flight end, none starts after.
        expect(gw.afterDeath).toBeLessThanOrEqual(8 + 8);
        expect(r.stdout).toMatch(/^Apply partly failed: (19|20) requests applied, \d+ failed, \d+ skipped/m);
        expectGroupedOutput(r, n);
        expect(r.stdout).toMatch(
          /^ {2}\d+ requests failed for one reason: PUT -> 502, first report\/rep\d{9}, last report\/rep\d{9}$/m,
        );
        expect(r.stdout).toContain('Re-running apply converges');
      } finally {
        await gw.close();
      }
    });
  });

  test('dead before the first write: exit 1 (nothing applied) within seconds', async () => {
    await withEmulator({}, async (emu) => {
      const n = 200;
      const gw = await gateway(emu, 0);
      try {
        const started = Date.now();
        const r = await runCli(
          ['apply', '--auto-approve', '--dir', writeFiles(bundleFiles({ looseReports: n })), ...target(gw)],
          {
            env: emulatorEnv,
            timeoutMs: 120_000,
          },
        );
        expect(r.code, r.stdout.slice(0, 3000) + r.stderr.slice(0, 3000)).toBe(1);
        expect(Date.now() - started).toBeLessThan(30_000);
        expect(gw.afterDeath).toBeLessThanOrEqual(8 + 8);
        expect(r.stdout).toMatch(/^Apply failed: 0 requests applied/m);
        expectGroupedOutput(r, n);
        expect(r.stdout.slice(r.stdout.indexOf('\nFailed:'))).not.toContain(pid(1100));
      } finally {
        await gw.close();
      }
    });
  });
});
