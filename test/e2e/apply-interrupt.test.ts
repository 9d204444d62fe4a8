// Ctrl-C during apply (or the CI runner's SIGTERM when a job is cancelled):
// the built CLI, writing to the emulator over HTTP, gets a signal once its
// first write is on the wire. It starts no new request, lets those in flight
// end, reports what was applied and what was not started, and exits 4; a
// re-run converges with no duplicate. A second signal ends it at once.
import { afterAll, describe, test, type TestContext } from 'vitest';
import { writes, type Emulator } from '../../src/emulator/index.js';
import { forwardingServer } from '../helpers/forwarding-server.js';
import { reportsIn, writeBundle } from './helpers/bundles.js';
import { cleanupTemp, runCli, withEmulator } from './helpers/index.js';

afterAll(cleanupTemp);

const env = { WSC_TOKEN: 'dev-token' };

/** Resolves once the emulator has received a write (its log has it from the request's start). */
async function firstWrite(emu: Emulator): Promise<void> {
  while (writes(emu.log).length === 0) await new Promise((r) => setTimeout(r, 5));
}

// Each test has its own emulator and bundle: they run at once.
describe.concurrent('apply interrupted', () => {
  test.for(['SIGINT', 'SIGTERM'] as const)(
    '%s: the writes in flight end, nothing new starts, exit 4 with what was not started; the re-run converges',
    { timeout: 60_000 },
    async (signal, { expect }: TestContext) => {
      const dir = writeBundle({ looseReports: 12 });
      await withEmulator({ latencyMs: 150 }, async (emu) => {
        const target = ['--dir', dir, '--base-url', emu.url, '--deployment', '1'];
        const r = await runCli(['apply', ...target, '--auto-approve', '--concurrency', '2'], {
          env,
          onSpawn: (child) => void firstWrite(emu).then(() => child.kill(signal)),
        });
        expect(r.code, r.stderr).toBe(4);
        expect(r.stderr).toContain(
          `Interrupted (${signal}): no new request will start; waiting for those in flight to end`,
        );
        const head = /^Apply interrupted: (\d+) requests? applied, 0 failed, (\d+) skipped/m.exec(r.stdout);
        expect(head, r.stdout).not.toBeNull();
        const [applied, skipped] = [Number(head![1]), Number(head![2])];
        expect(applied).toBeGreaterThanOrEqual(1);
        expect(applied + skipped).toBe(12);
        expect(r.stdout.match(/: not started: apply was interrupted$/gm)).toHaveLength(skipped);
        expect(r.stdout).not.toContain('Failed:');
        // Every write that reached the server was answered and counted: none cut off, none unreported.
        const sent = writes(emu.log);
        expect(sent).toHaveLength(applied);
        expect(sent.every((e) => e.status === 200)).toBe(true);
        expect(reportsIn(emu)).toHaveLength(applied);

        const again = await runCli(['apply', ...target, '--auto-approve'], { env });
        expect(again.code, again.stderr).toBe(0);
        expect(reportsIn(emu)).toHaveLength(12);
        expect(new Set(reportsIn(emu).map((x) => x.publicId)).size).toBe(12);
        const plan = await runCli(['plan', ...target, '--detailed-exitcode'], { env });
        expect(plan.code, plan.stdout).toBe(0);
      });
    },
  );

  test('a second SIGINT ends the process at once, without waiting for the write in flight', async ({ expect }) => {
    const dir = writeBundle({ looseReports: 3 });
    await withEmulator({}, async (emu) => {
      // Between the CLI and the emulator: reads go straight through, each write is held 2.5 s first.
      let wrote: () => void = () => undefined;
      const firstWriteSent = new Promise<void>((r) => (wrote = r));
      const slowWrites = await forwardingServer(emu.url, async (req, res, _url, forward) => {
        if (req.method !== 'GET') {
          wrote();
          await new Promise((r) => setTimeout(r, 2_500));
        }
        const up = await forward();
        const text = await up.text();
        res.writeHead(up.status, { 'content-type': up.headers.get('content-type') ?? 'application/json' });
        res.end(text);
      });
      try {
        let interruptedAt = 0;
        const run = runCli(
          [
            'apply',
            ...['--dir', dir, '--base-url', slowWrites.url, '--deployment', '1'],
            ...['--auto-approve', '--concurrency', '1'],
          ],
          {
            env,
            onSpawn: (child) => {
              let stderr = '';
              child.stderr!.on('data', (d: string) => {
                stderr += d;
                if (stderr.includes('Interrupted (SIGINT)') && interruptedAt === 0) {
                  interruptedAt = Date.now();
                  child.kill('SIGINT');
                }
              });
              void firstWriteSent.then(() => child.kill('SIGINT'));
            },
          },
        );
        await expect(run).rejects.toThrow(/was killed \(SIGINT\)/);
        expect(interruptedAt).toBeGreaterThan(0);
        // Well before the 2.5 s the write in flight takes.
        expect(Date.now() - interruptedAt).toBeLessThan(1_500);
      } finally {
        await slowWrites.close();
      }
    });
  }, 60_000);
});
