// Nothing from outside wsc drives the terminal. A report's SQL, a server's
// error message, a key in a bundle file and a workbook's name each carry
// escape sequences (clear the screen, rename the window, a C1 CSI) and a
// direction override; wsc prints them as `\uXXXX` and writes no control
// character of its own to a pipe with colours off (NO_COLOR), so any there
// would be injected.
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, describe, expect, test } from 'vitest';
import { generateSeed } from '../../src/emulator/index.js';
import { cleanupTemp, runCli, withEmulator, writeFiles } from './helpers/index.js';

afterAll(cleanupTemp);

const env = { WSC_TOKEN: 'dev-token' };
// eslint-disable-next-line no-control-regex
const RAW = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/;

function expectNoRaw(text: string): void {
  const at = text.search(RAW);
  expect(at, `a raw control character at ${at}: ${JSON.stringify(text.slice(Math.max(0, at - 40), at + 40))}`).toBe(-1);
}

const report = (sql: string) => `kind: Report\npublicId: escAAAAAAAA1\nname: Escapes\nsqlQuery: ${sql}\n`;

describe('terminal safety', () => {
  test('plan: a live SQL holding escape sequences shows them as \\uXXXX in the diff', async () => {
    await withEmulator({}, async (emu) => {
      const dir = writeFiles({
        'reports/esc.yaml': report('"select 1\\n-- \\e[2J\\e]0;pwned\\a \\x9b31m \\u202Egnp.exe\\n"'),
      });
      const target = ['--dir', dir, '--base-url', emu.url, '--deployment', '1'];
      expect((await runCli(['apply', ...target, '--auto-approve'], { env })).code).toBe(0);
      writeFiles({ 'reports/esc.yaml': report('"select 2\\n"') }, dir);
      for (const output of ['human', 'markdown']) {
        const r = await runCli(['plan', ...target, '--output', output], { env });
        expect(r.code, r.stderr).toBe(0);
        expectNoRaw(r.stdout);
        expectNoRaw(r.stderr);
        expect(r.stdout).toContain('-- \\u001b[2J\\u001b]0;pwned\\u0007 \\u009b31m \\u202egnp.exe');
      }
    });
  });

  test('an error message from the server', async () => {
    const server = createServer((_req, res) => {
      res.writeHead(404, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ statusCode: 404, message: 'gone\u001b[2J\u001b]0;pwned\u0007', error: 'Not Found' }));
    });
    await new Promise<void>((ok) => server.listen(0, '127.0.0.1', ok));
    try {
      const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
      const dir = writeFiles({ 'reports/esc.yaml': report('select 1') });
      const r = await runCli(['plan', '--dir', dir, '--base-url', url, '--deployment', '1'], { env });
      expect(r.code).toBe(1);
      expectNoRaw(r.stderr);
      expect(r.stderr).toContain('gone\\u001b[2J');
    } finally {
      server.closeAllConnections();
      await new Promise<void>((ok) => server.close(() => ok()));
    }
  });

  test('validate: a key in a bundle file', async () => {
    const dir = writeFiles({ 'reports/esc.yaml': `${report('select 1')}"colour\\e[31m": red\n` });
    const r = await runCli(['validate', '--dir', dir]);
    expect(r.code).toBe(3);
    expectNoRaw(r.stdout + r.stderr);
    expect(r.stdout + r.stderr).toContain('colour\\u001b[31m');
  });

  test('export: a workbook name the server holds', async () => {
    const seed = generateSeed({ reports: 2, workbooks: 1, randomSeed: 3 });
    seed.workbooks![0]!.slug = null;
    seed.workbooks![0]!.name = 'Ops\u001b[2J\u202eboard';
    await withEmulator({ seed }, async (emu) => {
      const out = writeFiles({});
      const r = await runCli(['export', '--out', out, '--base-url', emu.url, '--deployment', '1'], { env });
      expect(r.code, r.stderr).toBe(0);
      expectNoRaw(r.stdout + r.stderr);
      expect(r.stdout).toContain('Ops\\u001b[2J\\u202eboard');
    });
  });
});
