// Each command once as a user runs it (the built launcher, bin/wsc.js, in a
// child process) beside the same run in-process, which is how most end-to-end
// tests run it: both must give the same exit code, stdout, stderr and
// requests. (`emulator` and `preview` serving are spawned in their own tests:
// emulator/persistence and e2e/preview-*; --help and --version in cli/cli; each
// command's --help, in-process, in cli/help.)
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { generateSeed } from '../../src/emulator/index.js';
import { writeBundle } from './helpers/bundles.js';
import type { CliResult, Emulator, EmulatorOptions } from './helpers/index.js';
import {
  cleanupTemp,
  emulatorEnv,
  ensureBuilt,
  root,
  runCli,
  spawnCli,
  target,
  tempDir,
  withEmulator,
} from './helpers/index.js';

beforeAll(ensureBuilt, 180_000);
afterAll(cleanupTemp);

const BUNDLE = { workbook: true, dashboard: true, publish: true, reports: 3 } as const;

/** Runs `args(emu)` spawned and in-process, each against a fresh emulator; both results and request logs. */
type Logged = CliResult & { requests: string[] };

async function both(args: (emu: Emulator) => string[], emulator: EmulatorOptions = {}): Promise<Logged[]> {
  const out = [];
  for (const run of [spawnCli, runCli]) {
    out.push(
      await withEmulator(emulator, async (emu) => {
        const r = await run(args(emu), { env: emulatorEnv });
        // Sorted: requests that run side by side reach the server in either order.
        return { ...r, requests: emu.log.map((e) => `${e.method} ${e.path}`).sort() };
      }),
    );
  }
  return out;
}

/** The emulator's port appears in what some commands print; the two runs had different ones. */
const hostless = (t: string) => t.replace(/127\.0\.0\.1:\d+/g, 'HOST');
const samePorts = (r: Logged) => ({ ...r, stdout: hostless(r.stdout), stderr: hostless(r.stderr) });

describe('spawned and in-process runs agree', () => {
  test('validate', async () => {
    const dir = writeBundle(BUNDLE);
    const [spawned, inProcess] = await both(() => ['validate', '--dir', dir]);
    expect(spawned!.code).toBe(0);
    expect(inProcess).toEqual(spawned);
  });

  test('validate of an invalid bundle: exit 3, the diagnostic', async () => {
    const dir = writeBundle(BUNDLE);
    const [spawned, inProcess] = await both(() => ['validate', '--dir', join(dir, 'nowhere')]);
    expect(spawned!.code).toBe(3);
    expect(inProcess).toEqual(spawned);
  });

  test('plan --detailed-exitcode', async () => {
    const dir = writeBundle(BUNDLE);
    const [spawned, inProcess] = await both((emu) => ['plan', '--detailed-exitcode', '--dir', dir, ...target(emu)]);
    expect(spawned!.code).toBe(2);
    expect(samePorts(inProcess!)).toEqual(samePorts(spawned!));
  });

  test('apply --auto-approve --output json', async () => {
    const dir = writeBundle(BUNDLE);
    // One write at a time: in parallel, the order of the `done` lines and the ids the server gives are a race.
    const apply = (emu: Emulator) =>
      ['apply', '--auto-approve', '--output', 'json', '--concurrency', '1', '--dir', dir].concat(target(emu));
    const [spawned, inProcess] = await both(apply);
    expect(spawned!.code).toBe(0);
    expect(spawned!.requests.some((r) => r.startsWith('POST'))).toBe(true);
    expect(samePorts(inProcess!)).toEqual(samePorts(spawned!));
  });

  test('export', async () => {
    const outs = [tempDir(), tempDir()];
    let i = 0;
    const seed = generateSeed({ reports: 6, workbooks: 2, withDashboards: true, randomSeed: 3 });
    const [spawned, inProcess] = await both((emu) => ['export', '--out', outs[i++]!, ...target(emu)], { seed });
    expect(spawned!.code).toBe(0);
    expect(spawned!.stdout).toContain('6 reports');
    expect(spawned!.requests.every((r) => r.startsWith('GET'))).toBe(true);
    const sameOut = { ...spawned!, stdout: spawned!.stdout.split(outs[0]!).join(outs[1]) };
    expect(samePorts(inProcess!)).toEqual(samePorts(sameOut));
  });

  test('doctor', async () => {
    const dir = writeBundle(BUNDLE);
    const [spawned, inProcess] = await both((emu) => ['doctor', '--dir', dir, ...target(emu)]);
    expect(spawned!.code).toBe(0);
    expect(samePorts(inProcess!)).toEqual(samePorts(spawned!));
  });

  test('schema --check', async () => {
    const [spawned, inProcess] = await both(() => ['schema', '--check', '--out', join(root, 'schemas')]);
    expect(spawned!.code).toBe(0);
    expect(inProcess).toEqual(spawned);
  });

  test("a command's --help", async () => {
    const [spawned, inProcess] = await both(() => ['plan', '--help']);
    expect(spawned!.code).toBe(0);
    expect(spawned!.stdout).toContain('\nExit codes:\n');
    expect(inProcess).toEqual(spawned);
  });

  test('a usage error from commander: exit 3, its message on stderr, nothing on stdout', async () => {
    const [spawned, inProcess] = await both(() => ['plan', '--no-such-flag']);
    expect(spawned!.code).toBe(3);
    expect(spawned!.stderr).toContain("unknown option '--no-such-flag'");
    expect(inProcess).toEqual(spawned);
  });

  test('a token given is never printed, spawned or not', async () => {
    const dir = writeBundle(BUNDLE);
    const token = 'smoke-secret-token-0123';
    const args = ['plan', '--dir', dir, '--base-url', 'http://127.0.0.1:9', '--deployment', '1', '--verbose'];
    args.push('--max-retries', '0');
    const env = { WSC_TOKEN: token };
    const [spawned, inProcess] = [await spawnCli(args, { env }), await runCli(args, { env })];
    // The trace carries timings: the two agree on all else.
    const untimed = (r: CliResult) => ({ ...r, stderr: r.stderr.replace(/\(\d+ms\)/g, '(N ms)') });
    expect(spawned.code).toBe(1);
    expect(spawned.stderr).toContain('Authorization: Bearer ***');
    expect(untimed(inProcess)).toEqual(untimed(spawned));
    for (const r of [spawned, inProcess]) expect(r.stdout + r.stderr).not.toContain(token);
  });
});
