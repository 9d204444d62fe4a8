import { createHmac } from 'node:crypto';
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type AddressInfo } from 'node:net';
import { basename, dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createEmulator, defaultSeed, generateSeed, StateFileError } from '../../src/emulator/index.js';
import { cleanupTemp, ensureBuilt, root, runCli, tempDir } from '../e2e/helpers/index.js';
import { call, checkLog, d1, sleep } from './helpers.js';

afterAll(() => cleanupTemp());

describe('state file (in-process)', () => {
  it('is written at start, holds every change after flush, and is loaded on restart (seed ignored then)', async () => {
    const file = join(tempDir(), 'state.json');
    const emu = await createEmulator({ stateFile: file, randomSeed: 1 });
    expect(JSON.parse(readFileSync(file, 'utf8')).deployments).toHaveLength(2);
    const wb = await call(emu, 'PUT', `${d1}/workbooks/by-slug/kept`, { name: 'Kept', meta: { a: 1 } });
    const rep = await call(emu, 'POST', `${d1}/reports`, { publicId: 'keptReport01', workbookId: wb.body.id });
    await emu.flush();
    const onDisk = JSON.parse(readFileSync(file, 'utf8'));
    expect(onDisk.reports.map((r: { publicId: string }) => r.publicId)).toEqual(['keptReport01']);
    const before = emu.snapshot();
    checkLog(emu.log);
    await emu.close();

    const again = await createEmulator({ stateFile: file, seed: generateSeed({ reports: 5, workbooks: 1 }) });
    try {
      expect(again.snapshot()).toEqual(before);
      const same = await call(again, 'PUT', `${d1}/workbooks/by-slug/kept`, { name: 'Kept', meta: { a: 1 } });
      expect(same.body.updatedAt).toBe(wb.body.updatedAt);
      // Counters persist: new ids never reuse old ones, timestamps keep increasing.
      const next = await call(again, 'POST', `${d1}/reports`, {});
      expect(next.body.id).toBeGreaterThan(rep.body.id);
      expect(next.body.createdAt > rep.body.createdAt).toBe(true);
      checkLog(again.log);
    } finally {
      await again.close();
    }
  });

  it('close() flushes pending writes', async () => {
    const file = join(tempDir(), 'state.json');
    const emu = await createEmulator({ stateFile: file });
    await Promise.all(Array.from({ length: 30 }, (_, i) => call(emu, 'POST', `${d1}/reports`, { name: `r${i}` })));
    await emu.close();
    expect(JSON.parse(readFileSync(file, 'utf8')).reports).toHaveLength(30);
  });

  it('creates the directory of the state file (an embedded .wsc/state/)', async () => {
    const file = join(tempDir(), '.wsc', 'state', 'local.json');
    const emu = await createEmulator({ stateFile: file });
    await emu.close();
    expect(JSON.parse(readFileSync(file, 'utf8')).users[0].tokens).toEqual(['dev-token']);
  });

  it('an unloadable state file is an error naming it, not a silent reset', async () => {
    const file = join(tempDir(), 'state.json');
    writeFileSync(file, '{"deployments": [');
    const broken = createEmulator({ stateFile: file });
    await expect(broken).rejects.toBeInstanceOf(StateFileError);
    await expect(broken).rejects.toThrow(`cannot load the state file ${file}: not valid JSON (`);
    expect(readFileSync(file, 'utf8')).toBe('{"deployments": [');
    const dir = join(tempDir(), 'a-directory');
    mkdirSync(dir);
    await expect(createEmulator({ stateFile: dir })).rejects.toThrow(
      `cannot load the state file ${dir}: is a directory (EISDIR)`,
    );
  });

  it('a state file that cannot be written as it starts: nothing starts, the part of the path at fault named', async () => {
    const above = join(tempDir(), 'file');
    writeFileSync(above, 'x');
    const file = join(above, 'state', 'local.json');
    await expect(createEmulator({ stateFile: file })).rejects.toThrow(
      `cannot write the state file ${file}: a part of the path is not a directory (ENOTDIR): ${above}`,
    );
  });

  it('writes that fail while it serves: it serves on, says so once, writes again when it can; flush fails meanwhile', async () => {
    const dir = tempDir();
    const file = join(dir, 'state.json');
    const told: (string | undefined)[] = [];
    const emu = await createEmulator({ stateFile: file, onStateFile: (f) => told.push(f?.message) });
    try {
      // Where each write's temporary file goes, a directory: every write fails (as a full disk would).
      const jam = () => tempFilesOf(file).forEach((t) => mkdirSync(t));
      const unjam = () => tempFilesOf(file).forEach((t) => rmSync(t, { recursive: true }));
      jam();
      expect((await call(emu, 'POST', `${d1}/reports`, { name: 'kept in memory' })).status).toBe(200);
      await expect(emu.flush()).rejects.toThrow(`cannot write the state file ${file}: is a directory (EISDIR)`);
      expect((await call(emu, 'POST', `${d1}/reports`, { name: 'second' })).status).toBe(200);
      await expect(emu.flush()).rejects.toBeInstanceOf(StateFileError);
      // Told once, however many writes failed; the file still holds the state it started with.
      expect(told).toEqual([expect.stringContaining('is a directory (EISDIR)')]);
      expect(JSON.parse(readFileSync(file, 'utf8')).reports).toEqual([]);
      unjam();
      expect((await call(emu, 'POST', `${d1}/reports`, { name: 'third' })).status).toBe(200);
      await emu.flush();
      expect(told).toHaveLength(2);
      expect(told[1]).toBeUndefined();
      const names = JSON.parse(readFileSync(file, 'utf8')).reports.map((r: { name: string }) => r.name);
      expect(names).toEqual(['kept in memory', 'second', 'third']);
      jam();
      expect((await call(emu, 'POST', `${d1}/reports`, { name: 'lost' })).status).toBe(200);
      await expect(emu.close()).rejects.toBeInstanceOf(StateFileError);
      expect(told).toHaveLength(3);
      expect(JSON.parse(readFileSync(file, 'utf8')).reports).toHaveLength(3);
    } finally {
      await emu.close().catch(() => undefined);
    }
  });
});

/** The temporary files a process (this one by default) writes `file` through (persist.ts writeAtomic), by sequence. */
function tempFilesOf(file: string, pid = process.pid): string[] {
  return Array.from({ length: 40 }, (_, seq) => join(dirname(file), `.${basename(file)}.${pid}.${seq}.tmp`));
}

interface Running {
  child: ChildProcess;
  url: string;
  token: string;
  stdout: () => string;
  stderr: () => string;
  exited: Promise<number | null>;
}

function startCli(args: string[]): Promise<Running> {
  const child = spawn(process.execPath, [join(root, 'bin/wsc.js'), 'emulator', ...args], {
    cwd: root,
    env: { PATH: process.env['PATH'] ?? '', NO_COLOR: '1', CI: 'true' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  let err = '';
  const exited = new Promise<number | null>((r) => child.on('exit', (code) => r(code)));
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no URL printed.\nstdout: ${out}\nstderr: ${err}`)), 15_000);
    child.stderr.setEncoding('utf8').on('data', (d: string) => (err += d));
    child.stdout.setEncoding('utf8').on('data', (d: string) => {
      out += d;
      const m = /listening on (http:\/\/127\.0\.0\.1:\d+)\ntoken: (\S+)\n/.exec(out);
      if (m) {
        clearTimeout(timer);
        resolve({ child, url: m[1]!, token: m[2]!, stdout: () => out, stderr: () => err, exited });
      }
    });
    void exited.then((code) => reject(new Error(`exited ${code}\nstdout: ${out}\nstderr: ${err}`)));
  });
}

/** Resolves once `done` holds (checked every 10 ms), failing after 10 s. */
async function waitFor(done: () => boolean): Promise<void> {
  const deadline = Date.now() + 10_000;
  while (!done()) {
    if (Date.now() > deadline) throw new Error('waited 10 s in vain');
    await sleep(10);
  }
}

async function post(url: string, token: string, body: unknown): Promise<number> {
  const r = await fetch(`${url}${d1}/reports`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  await r.text();
  return r.status;
}

describe('wsc emulator (built CLI)', () => {
  beforeAll(() => ensureBuilt(), 120_000);

  it('prints its URL and token, serves, and stops gracefully on SIGTERM with the state flushed', async () => {
    const file = join(tempDir(), 'state.json');
    const run = await startCli(['--port', '0', '--state', file]);
    expect(run.stdout()).toMatch(/^wsc emulator listening on http:\/\/127\.0\.0\.1:\d+\ntoken: dev-token\n$/);
    const statuses = await Promise.all(
      Array.from({ length: 20 }, (_, i) => post(run.url, run.token, { name: `r${i}` })),
    );
    expect(statuses).toEqual(Array(20).fill(200));
    run.child.kill('SIGTERM');
    expect(await run.exited).toBe(0);
    expect(JSON.parse(readFileSync(file, 'utf8')).reports).toHaveLength(20);
    // One line per request on stderr.
    expect(run.stderr().match(/^POST \/api\/v1\/deployments\/1\/reports 200 \d+ms$/gm)).toHaveLength(20);
  });

  it('--state FILE that cannot be written: served on and said once, written again, exit 1 at stop naming what is lost', async () => {
    const file = join(tempDir(), 'state.json');
    writeFileSync(file, JSON.stringify(defaultSeed()));
    const run = await startCli(['--port', '0', '--state', file]);
    const jam = () => tempFilesOf(file, run.child.pid).forEach((t) => mkdirSync(t));
    const unjam = () => tempFilesOf(file, run.child.pid).forEach((t) => rmSync(t, { recursive: true }));
    // The part of the path at fault: the write's temporary file, a directory here.
    const failing = expect.stringMatching(
      new RegExp(
        `^state: cannot write the state file ${file}: is a directory \\(EISDIR\\): ${dirname(file)}/\\.state\\.json\\.${run.child.pid}\\.\\d+\\.tmp; the state is kept in memory and written at the next change$`,
      ),
    );
    const saved = () => JSON.parse(readFileSync(file, 'utf8')).reports.map((r: { name: string }) => r.name);
    const stateLines = () =>
      run
        .stderr()
        .split('\n')
        .filter((l) => l.startsWith('state: c') || l.startsWith('state: w'));
    jam();
    expect(await post(run.url, run.token, { name: 'a' })).toBe(200);
    expect(await post(run.url, run.token, { name: 'b' })).toBe(200);
    await waitFor(() => stateLines().length === 1);
    unjam();
    expect(await post(run.url, run.token, { name: 'c' })).toBe(200);
    await waitFor(() => stateLines().length === 2);
    expect(stateLines()).toEqual([failing, `state: written to ${file} again`]);
    expect(saved()).toEqual(['a', 'b', 'c']);
    jam();
    expect(await post(run.url, run.token, { name: 'd' })).toBe(200);
    run.child.kill('SIGTERM');
    expect(await run.exited).toBe(1);
    expect(stateLines()).toEqual([failing, `state: written to ${file} again`, failing]);
    expect(run.stderr()).toContain(
      `.tmp. The changes since its last write are lost. [state_not_saved]\nHint: give --state a file in a directory wsc can write`,
    );
    expect(run.stderr()).toContain(`Error: cannot write the state file ${file}: is a directory (EISDIR): `);
    expect(run.stderr()).not.toMatch(/ {4}at |wsc emulator stopped/);
    expect(saved()).toEqual(['a', 'b', 'c']);
  });

  it('--state FILE that cannot be loaded or written as it starts: exit 3 naming the flag, the file left as it was', async () => {
    const dir = tempDir();
    writeFileSync(join(dir, 'broken.json'), '{"deployments": [');
    writeFileSync(join(dir, 'file'), 'x');
    for (const [state, why] of [
      [join(dir, 'broken.json'), 'not valid JSON ('],
      [join(dir, 'file/state.json'), `a part of the path is not a directory (ENOTDIR): ${join(dir, 'file')}`],
    ] as const) {
      const r = await runCli(['emulator', '--port', '0', '--state', state], { timeoutMs: 15_000 });
      expect(r.code, r.stderr).toBe(3);
      expect(r.stderr).toContain(
        `Error: --state: cannot ${why.startsWith('not') ? 'load' : 'write'} the state file ${state}: ${why}`,
      );
      expect(r.stderr).not.toContain('    at ');
    }
    expect(readFileSync(join(dir, 'broken.json'), 'utf8')).toBe('{"deployments": [');
  });

  it('a port in use: exit 3 at once, naming it in words as the preview does', async () => {
    const blocker = createServer();
    await new Promise<void>((r) => blocker.listen(0, '127.0.0.1', () => r()));
    const { port } = blocker.address() as AddressInfo;
    try {
      const r = await runCli(['emulator', '--port', String(port)], { timeoutMs: 15_000 });
      expect(r.code, r.stderr).toBe(3);
      expect(r.stderr).toContain(`Error: cannot listen on 127.0.0.1:${port}: the port is in use (EADDRINUSE).`);
      expect(r.stderr).toContain('Hint: Pick another --port (0 = any free port).');
    } finally {
      blocker.close();
    }
  });

  it('SIGKILL in the middle of a burst of writes leaves a state file that parses and loads', async () => {
    const file = join(tempDir(), 'state.json');
    writeFileSync(`${file}.seed.json`, JSON.stringify(generateSeed({ reports: 2000, workbooks: 20 })));
    const run = await startCli(['--port', '0', '--state', file, '--seed', `${file}.seed.json`]);
    let acked = 0;
    let stop = false;
    const workers = Array.from({ length: 8 }, async (_, w) => {
      for (let i = 0; !stop; i++) {
        try {
          if ((await post(run.url, run.token, { name: `burst ${w}-${i}`, meta: { pad: 'x'.repeat(200) } })) === 200)
            acked++;
        } catch {
          return; // the server is gone
        }
      }
    });
    let dead = false;
    void run.exited.then(() => (dead = true));
    const deadline = Date.now() + 20_000;
    while (acked < 300 && !dead && Date.now() < deadline) await sleep(5);
    expect(dead).toBe(false);
    run.child.kill('SIGKILL');
    stop = true;
    await Promise.all(workers);
    expect(await run.exited).toBeNull();
    const state = JSON.parse(readFileSync(file, 'utf8'));
    expect(state.reports.length).toBeGreaterThanOrEqual(2000);
    expect(state.reports.length).toBeLessThanOrEqual(2000 + acked + 8);
    const emu = await createEmulator({ stateFile: file });
    try {
      expect(emu.snapshot().reports).toHaveLength(state.reports.length);
      expect((await call(emu, 'GET', `${d1}/reports?first=1`)).body.count).toBe(state.reports.length);
    } finally {
      await emu.close();
    }
  });

  it('loads a seed file; latency and faults flags work', async () => {
    const dir = tempDir();
    const seed = defaultSeed();
    seed.users[0]!.tokens = ['seeded-token'];
    writeFileSync(join(dir, 'seed.json'), JSON.stringify(seed));
    const run = await startCli([
      '--port',
      '0',
      '--seed',
      join(dir, 'seed.json'),
      '--latency',
      '5-10',
      '--faults',
      '503=1,methods=POST,retry-after=3',
    ]);
    try {
      expect(run.token).toBe('seeded-token');
      const r = await fetch(`${run.url}${d1}/reports`, {
        method: 'POST',
        headers: { authorization: 'seeded-token' },
        body: '{}',
      });
      expect([r.status, r.headers.get('retry-after')]).toEqual([503, '3']);
      await r.text();
      await sleep(50);
      expect(run.stderr()).toMatch(/^POST \/api\/v1\/deployments\/1\/reports 503 \[fault 503\] \d+ms$/m);
    } finally {
      run.child.kill('SIGINT');
      expect(await run.exited).toBe(0);
    }
    expect(existsSync(join(dir, 'state.json'))).toBe(false);
  });

  it('--dev-mode, --core-data-api-url and --cube-api-secret: what the environments and /v1/meta answer', async () => {
    const run = await startCli([
      '--port',
      '0',
      '--dev-mode',
      '--core-data-api-url',
      'http://127.0.0.1:4000/cubejs-api/v1',
      '--cube-api-secret',
      'cli-secret',
    ]);
    try {
      const auth = { authorization: `Bearer ${run.token}` };
      const envs = await (await fetch(`${run.url}${d1}/environments`, { headers: auth })).json();
      expect(envs.items[0].api_credentials).toEqual([
        expect.objectContaining({ type: 'rest', url: 'http://127.0.0.1:4000/cubejs-api/v1' }),
      ]);
      const minted = await fetch(`${run.url}${d1}/token`, { method: 'POST', headers: auth, body: '{}' });
      const { cubeApiToken } = (await minted.json()) as { cubeApiToken: string };
      const [h, p, mac] = cubeApiToken.split('.');
      expect(createHmac('sha256', 'cli-secret').update(`${h}.${p}`).digest('base64url')).toBe(mac);
      // The emulator's own Core Data API takes the JWT; dev mode lists the hidden primary key.
      const meta = await (
        await fetch(`${run.url}/cubejs-api/v1/meta`, { headers: { authorization: cubeApiToken } })
      ).json();
      const id = meta.cubes.find((c: any) => c.name === 'orders').dimensions.find((d: any) => d.name === 'orders.id');
      expect(id).toMatchObject({ primaryKey: true, isVisible: false, public: false });
      expect(run.stderr()).toContain('Core Data API: http://127.0.0.1:4000/cubejs-api/v1');
    } finally {
      run.child.kill('SIGINT');
      expect(await run.exited).toBe(0);
    }
  });

  it.each([
    [['--latency', 'fast'], /--latency/],
    [['--latency', '9-3'], /--latency/],
    [['--faults', '418=1'], /--faults: .*unknown key/],
    [['--host', '0.0.0.0'], /loopback/],
    [['--seed', '/no/such/seed.json'], /--seed/],
    [['--port', '70000'], /port|70000/],
    [['--core-data-api-url', 'ftp://models.example.com/v1'], /--core-data-api-url: expected an http\(s\) URL/],
    [['--cube-api-secret', ''], /--cube-api-secret: the secret is empty/],
  ])('invalid flags %j exit 3', async (args, message) => {
    const r = await runCli(['emulator', '--port', '0', ...args], { timeoutMs: 15_000 });
    expect(r.code).toBe(3);
    expect(r.stderr).toMatch(message);
    expect(r.stdout).toBe('');
  });
});
