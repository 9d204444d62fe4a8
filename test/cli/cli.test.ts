// The CLI surface: every command is listed, --version works,
// usage errors exit 3. Runs the built launcher as a user would; the usage
// errors of the table run in this process (runCli: the same parsing, messages
// and exit codes) but for one of commander's and one of wsc's own, which the
// launcher runs.
import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, test } from 'vitest';
import { ensureBuilt, runCli } from '../e2e/helpers/index.js';

const root = fileURLToPath(new URL('../..', import.meta.url));
const pkg = JSON.parse(readFileSync(`${root}/package.json`, 'utf8')) as { version: string };

function wsc(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  ensureBuilt();
  return new Promise((resolve) => {
    execFile(
      'node',
      [`${root}/bin/wsc.js`, ...args],
      { env: { ...process.env, NO_COLOR: '1' } },
      (err, stdout, stderr) => {
        const code = err ? (typeof err.code === 'number' ? err.code : 1) : 0;
        resolve({ code, stdout, stderr });
      },
    );
  });
}

describe('wsc command line', () => {
  test('--help lists every command with one line each', async () => {
    const r = await wsc(['--help']);
    expect(r.code).toBe(0);
    for (const cmd of ['validate', 'plan', 'apply', 'export', 'emulator', 'schema']) {
      expect(r.stdout).toMatch(new RegExp(`^  ${cmd}\\b.*\\S`, 'm'));
    }
  });

  test('--version prints the package version', async () => {
    const r = await wsc(['--version']);
    expect(r.code).toBe(0);
    expect(r.stdout.trim()).toBe(pkg.version);
  });

  test.each([
    [['frobnicate'], /unknown command 'frobnicate'/, 'spawned'],
    [['plan', '--bogus'], /unknown option '--bogus'/, 'in-process'],
    [['plan', '--concurrency', 'x'], /expected a whole number, got "x"/, 'in-process'],
    [['plan', '--concurrency', '0'], /expected a number from 1 to 64/, 'in-process'],
    [['plan', '--output', 'yaml'], /Allowed choices are human, json, markdown/, 'in-process'],
    [['export'], /export needs --out DIR \(a new snapshot\) or --into DIR \(an existing bundle\)/, 'spawned'],
    [['export', '--out', 'a', '--into', 'b'], /give one of --out and --into/, 'in-process'],
    [
      ['plan', '--with-data'],
      /--with-data draws the pictures of --pictures DIR with data: without --pictures/,
      'in-process',
    ],
    [
      ['preview', '--out', 'p', '--with-data', '--no-data'],
      /'--with-data' cannot be used with option '--no-data'/,
      'in-process',
    ],
  ])('usage error %j exits 3 with a message (%s)', async (args, message, how) => {
    const r = how === 'spawned' ? await wsc(args) : await runCli(args);
    expect(r.code).toBe(3);
    expect(r.stderr).toMatch(message);
    expect(r.stderr).not.toMatch(/\n\s+at /); // no stack trace
  });

  test("a flag commander refuses names the command's own help, which, followed, shows its flags", async () => {
    const bad = await runCli(['export', '--frob']);
    expect(bad.code).toBe(3);
    const help = /\(run `wsc ([^`]+)` for usage\)/.exec(bad.stderr)?.[1];
    expect(help).toBe('export --help');
    const shown = await runCli(help!.split(' '));
    expect(shown.code).toBe(0);
    expect(shown.stdout).toContain('Usage: wsc export [options]');
    expect(shown.stdout).toContain('--only <address...>');
    expect((await runCli(['frobnicate'])).stderr).toContain('(run `wsc --help` for usage)');
  });
});
