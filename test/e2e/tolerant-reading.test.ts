// Tolerant reading: a live report with a value this wsc does not know (here an
// unknown `source`) is a warning naming it when the bundle does not manage it,
// and an error naming the field and the value, with a hint at the server's
// version, when it does. Export leaves it out with a warning. Error bodies of
// other JSON shapes are shown.
import { createServer, type Server } from 'node:http';
import { afterAll, describe, expect, test } from 'vitest';
import { generateSeed, type SeedState } from '../../src/emulator/index.js';
import { cleanupTemp, emulatorEnv, runCli, target, tempDir, withEmulator, writeFiles } from './helpers/index.js';

afterAll(cleanupTemp);

function seed(): SeedState {
  const s = generateSeed({ reports: 30, workbooks: 2 });
  s.reports!.push({
    id: 9001,
    deploymentId: 1,
    publicId: 'notebookRep1',
    name: 'From a newer server',
    source: 'NOTEBOOK',
  });
  return s;
}

describe('an item this version of wsc cannot read', () => {
  test('unmanaged: plan warns naming it and goes on; export leaves it out with a warning', async () => {
    await withEmulator({ seed: seed() }, async (emu) => {
      const dir = writeFiles({
        'reports/a.yaml': 'kind: Report\npublicId: managedRep01\nname: A\nsqlQuery: select 1\n',
      });
      const r = await runCli(['plan', '--dir', dir, ...target(emu), '--detailed-exitcode'], { env: emulatorEnv });
      expect(r.code, r.stderr).toBe(2);
      expect(r.stderr).toMatch(
        /warning report 9001 \(notebookRep1\): not read: source: "NOTEBOOK" \(.*\); the bundle does not manage it, so it is left alone\./,
      );
      expect(r.stdout).toContain('Plan: 1 to create');

      const out = tempDir();
      const ex = await runCli(['export', '--out', out, ...target(emu)], { env: emulatorEnv, cwd: tempDir() });
      expect(ex.code, ex.stderr).toBe(0);
      expect(ex.stderr).toContain('report 9001 (notebookRep1) not exported: the server sent source: "NOTEBOOK"');
      expect(ex.stdout).toMatch(/Exported deployment 1 to .*30 reports/);
    });
  }, 60_000);

  test('managed: exit 1 naming the field and the value, a hint at the server version, nothing sent', async () => {
    await withEmulator({ seed: seed() }, async (emu) => {
      const dir = writeFiles({ 'reports/unreadable.yaml': 'kind: Report\npublicId: notebookRep1\nname: Renamed\n' });
      emu.clearLog();
      const r = await runCli(['apply', '--dir', dir, ...target(emu), '--auto-approve'], { env: emulatorEnv });
      expect(r.code).toBe(1);
      expect(r.stderr).toMatch(
        /reports\/unreadable\.yaml:2:\d+: report\/notebookRep1 \(live id 9001\): the server sent source: "NOTEBOOK"/,
      );
      expect(r.stderr).toMatch(
        /Hint: The server is likely newer than this wsc: compare the API version `wsc doctor` reports/,
      );
      expect(r.stderr).not.toMatch(/base URL/);
      expect(emu.log.every((e) => e.method === 'GET')).toBe(true);
    });
  }, 60_000);
});

describe('error bodies of any JSON shape', () => {
  test('problem+json and nested error messages are shown, cut and visible', async () => {
    const bodies = [
      { type: 'about:blank', title: 'Forbidden', detail: 'deployment 1 is \u001b[31mlocked\u001b[0m', status: 403 },
      { error: { message: 'x'.repeat(3000), code: 'too_long' } },
    ];
    let n = 0;
    const server: Server = createServer((_req, res) => {
      res.writeHead(403, { 'content-type': 'application/problem+json' });
      res.end(JSON.stringify(bodies[n++ % bodies.length]));
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
    try {
      const url = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
      const args = [
        'plan',
        '--dir',
        writeFiles({ 'reports/a.yaml': 'kind: Report\npublicId: managedRep01\nname: A\n' }),
        '--base-url',
        url,
        '--deployment',
        '1',
        '--concurrency',
        '1',
      ];
      const r = await runCli(args, { env: emulatorEnv });
      expect(r.code).toBe(1);
      expect(r.stderr).toMatch(/403 Forbidden.*: (Forbidden: deployment 1 is \\u001b\[31mlocked\\u001b\[0m|x{500}…)/);
      expect(r.stderr).not.toContain('\u001b[31m');
    } finally {
      await new Promise((r) => server.close(r));
    }
  }, 60_000);
});
