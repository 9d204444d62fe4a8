// `wsc validate` never loads the HTTP client (CONTRIBUTING, Layout rules):
// validate runs in CI without secrets and without network, and should not
// pay for undici. Checked on the built CLI at run time: every module the
// process loads is recorded (helpers/record-loads.mjs) and none of them may
// hold undici or src/api/client.ts (esbuild names each bundled source file in
// a comment). `wsc plan` is run the same way to show the check can see them.
import { execFile } from 'node:child_process';
import { cpSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import { ensureBuilt } from '../e2e/helpers/index.js';

const root = resolve(import.meta.dirname, '../..');
const work = mkdtempSync(join(tmpdir(), 'wsc-loads-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));
// A copy: plan's embedded emulator keeps its state beside the bundle.
const bundle = join(work, 'bundle');
cpSync(join(root, 'fixtures/example'), bundle, { recursive: true });

const HTTP_CLIENT = ['node_modules/undici/', 'src/api/client.ts'];

/** The files of dist/ that `wsc ARGS` loaded, and which of them hold the HTTP client. */
async function loadsOf(name: string, args: string[]): Promise<{ code: number; loaded: string[]; client: string[] }> {
  ensureBuilt();
  const log = join(work, `${name}.log`);
  const hook = resolve(import.meta.dirname, 'helpers/record-loads.mjs');
  const env = { PATH: process.env['PATH'] ?? '', WSC_TEST_LOADS: log, NO_COLOR: '1', CI: 'true' };
  const run = promisify(execFile)(process.execPath, ['--import', hook, join(root, 'bin/wsc.js'), ...args], {
    cwd: root,
    env,
  });
  const code = await run.then(
    () => 0,
    (e: { code?: number }) => e.code ?? -1,
  );
  const loaded = [
    ...new Set(
      readFileSync(log, 'utf8')
        .split('\n')
        .filter((u) => u.startsWith('file:') && u.includes('/dist/'))
        .map((u) => fileURLToPath(u)),
    ),
  ];
  const client = loaded.filter((f) => HTTP_CLIENT.some((marker) => readFileSync(f, 'utf8').includes(marker)));
  return { code, loaded, client };
}

describe('modules loaded by the built CLI', () => {
  it('wsc validate loads no module of the HTTP client', async () => {
    const r = await loadsOf('validate', ['validate', '--dir', bundle]);
    expect(r.code).toBe(0);
    expect(r.loaded.some((f) => /[/\\]validate-[^/\\]*\.js$/.test(f))).toBe(true);
    expect(r.client).toEqual([]);
  }, 60_000);

  it('wsc plan does load it (the check sees the client when it is loaded)', async () => {
    const r = await loadsOf('plan', ['plan', '--dir', bundle, '--skip-semantic-check']);
    expect(r.code).toBe(0);
    expect(r.client.length).toBeGreaterThan(0);
  }, 60_000);
});
