// `wsc preview` end to end (the built CLI), without a browser: --out's SVGs
// are byte-equal across runs, an invalid bundle exits 3 after drawing what it
// can, no API is involved (no base URL, no token, no emulator state written);
// the page server refuses a port in use and stops on Ctrl-C with a page open.
import type { ChildProcess } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { afterAll, describe, test, type ExpectStatic } from 'vitest';
import { cleanupTemp, copyFixture, root, runCli, tempDir } from './helpers/index.js';

afterAll(cleanupTemp);

/** Every file of `a` is in `b` with the same bytes (compared whole: toEqual walks a buffer byte by byte). */
function expectSameFiles(expect: ExpectStatic, a: string, b: string): void {
  for (const f of readdirSync(a)) expect(readFileSync(join(b, f)).equals(readFileSync(join(a, f))), f).toBe(true);
}

// Every test has directories of its own: they run at once (the page server's in processes of their own).
describe.concurrent('wsc preview --out', () => {
  test('byte-equal SVGs across runs, one per dashboard and breakpoint with a layout; nothing else touched', async ({
    expect,
  }) => {
    const dir = copyFixture('example');
    const [a, b] = [tempDir('wsc-svg-a-'), tempDir('wsc-svg-b-')];
    for (const out of [a, b]) {
      const r = await runCli(['preview', '--dir', dir, '--out', out], { env: { WSC_TOKEN: undefined } });
      expect(r.stderr).toBe('');
      expect(r.code).toBe(0);
      expect(r.stdout).toBe(
        ['customer-health.lg', 'revenue-overview.lg', 'revenue-overview.sm', 'sales-pipeline.lg']
          .flatMap((f) => [`${f}.svg`, `${f}.png`])
          .map((f) => `wrote ${join(out, f)}\n`)
          .join(''),
      );
    }
    expectSameFiles(expect, a, b);
    // No data without --with-data: the charts are boxes.
    expect(readFileSync(join(a, 'revenue-overview.lg.svg'), 'utf8')).not.toContain('class="chart"');
    // Not even the embedded emulator's state: preview never reaches for a deployment.
    expect(existsSync(join(dir, '.wsc'))).toBe(false);
  });

  test("--with-data: the charts drawn with the environment's data, the same bytes on a second run", async ({
    expect,
  }) => {
    const dir = copyFixture('example');
    const [a, b] = [tempDir('wsc-svg-a-'), tempDir('wsc-svg-b-')];
    for (const out of [a, b]) {
      const r = await runCli(['preview', '--dir', dir, '--out', out, '--with-data'], { env: { WSC_TOKEN: undefined } });
      expect(r.stderr).toBe('');
      expect(r.code).toBe(0);
    }
    expectSameFiles(expect, a, b);
    const svg = readFileSync(join(a, 'revenue-overview.lg.svg'), 'utf8');
    // The line, the KPI in its percent format, the bars and the table, each a picture in its card.
    expect(svg.match(/<g class="chart"><svg /g)).toHaveLength(4);
    expect(svg).toMatch(/>\d+\.\d%</);
    // The embedded deployment's data comes from its model: no state file written.
    expect(existsSync(join(dir, '.wsc'))).toBe(false);
    expect(readFileSync(join(a, 'revenue-overview.lg.png')).subarray(1, 4).toString()).toBe('PNG');
  });

  test('--with-data without a token: the pictures drawn as boxes, and stderr says why (exit 0)', async ({ expect }) => {
    const dir = copyFixture('example');
    const out = tempDir('wsc-svg-');
    const r = await runCli(['preview', '--dir', dir, '--out', out, '--with-data', '--env', 'production'], {
      env: { WSC_TOKEN: undefined, WSC_PRODUCTION_TOKEN: undefined },
    });
    expect(r.code).toBe(0);
    expect(r.stderr).toBe(
      'wsc: the pictures are drawn without data: no connection to read data with: wsc.yaml:25:12: environment ' +
        '`production` reads its token from ${env.WSC_PRODUCTION_TOKEN}, but WSC_PRODUCTION_TOKEN is not set.\n',
    );
    expect(readFileSync(join(out, 'revenue-overview.lg.svg'), 'utf8')).not.toContain('class="chart"');
  });

  test('an invalid bundle: diagnostics with file:line:col on stderr, exit 3, the valid dashboards still drawn', async ({
    expect,
  }) => {
    const dir = copyFixture('example');
    writeFileSync(join(dir, 'workbooks/broken.yaml'), 'kind: Workbook\nslug: broken\ncolour: red\n');
    const out = tempDir('wsc-svg-');
    const r = await runCli(['preview', '--dir', dir, '--out', out]);
    expect(r.code).toBe(3);
    expect(r.stderr).toContain('workbooks/broken.yaml:3:1');
    expect(readdirSync(out)).toContain('revenue-overview.lg.svg');
  });
});

describe.concurrent('wsc preview (the page server)', () => {
  test('a port in use: exit 3 at once, naming it; nothing left running', async ({ expect }) => {
    const blocker = createServer();
    await new Promise<void>((r) => blocker.listen(0, '127.0.0.1', () => r()));
    const { port } = blocker.address() as AddressInfo;
    try {
      // Without data: the port is the point, and the page is drawn before it listens.
      const r = await runCli(
        ['preview', '--dir', join(root, 'fixtures/example'), '--no-data', '--port', String(port)],
        {
          timeoutMs: 20_000,
        },
      );
      expect(r.code).toBe(3);
      expect(r.stderr).toContain(`cannot listen on 127.0.0.1:${port}: the port is in use (EADDRINUSE).`);
    } finally {
      blocker.close();
    }
  });

  test('Ctrl-C with a page connected (its event stream open): exit 0 promptly', async ({ expect }) => {
    let child: ChildProcess | undefined;
    let url = '';
    const done = runCli(['preview', '--dir', join(root, 'fixtures/example'), '--port', '0'], {
      timeoutMs: 60_000,
      onSpawn: (c) => {
        child = c;
        c.stdout!.on('data', (d: Buffer | string) => {
          url ||= /at (http:\/\/127\.0\.0\.1:\d+\/)/.exec(String(d))?.[1] ?? '';
        });
      },
    });
    // The page reads the embedded deployment's data before it serves: seconds under a loaded test run.
    await expect.poll(() => url, { timeout: 40_000 }).not.toBe('');
    const model = await (await fetch(`${url}api/model`)).json();
    expect(model.workbooks.map((w: { slug: string }) => w.slug)).toEqual([
      'customer-health',
      'revenue-overview',
      'sales-pipeline',
    ]);
    const events = await fetch(`${url}api/events`);
    const reader = events.body!.getReader();
    expect(new TextDecoder().decode((await reader.read()).value)).toContain('event: hello');
    const started = Date.now();
    child!.kill('SIGINT');
    expect((await done).code).toBe(0);
    expect(Date.now() - started).toBeLessThan(5_000);
  });
});
