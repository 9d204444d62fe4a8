// A bundle of OFF_THREAD_FROM_FILES files or more is loaded on a worker
// thread while the deployment is read (bundle/load-off-thread.ts,
// api/deployment-read.ts). What must not change with that: the plan, the lines
// it points at, the exit codes, and an invalid bundle sending no write (GETs
// only: DESIGN §9) and winning over a connection error.
import { spawnSync } from 'node:child_process';
import {
  cpSync,
  linkSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { join, relative } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { writeBundleFromSeed, type BenchBundle } from '../../bench/bundle.js';
import { OFF_THREAD_FROM_FILES } from '../../src/bundle/load-off-thread.js';
import { generateSeed, writes } from '../../src/emulator/index.js';
import { e2eSuite, emulatorEnv, ensureBuilt, root, runCli, target, tempDir, withEmulator } from './helpers/index.js';

e2eSuite();

// Every run is the built CLI (its worker is dist/bundle-worker.js), as users run it; the loader's thread from
// the TypeScript sources is test/bundle/load-off-thread.test.ts's. The bundle is a deployment's 40 reports and
// 4 workbooks (with dashboards and folders) beside OFF_THREAD_FROM_FILES files of notes (comments, no document):
// the thread's path is taken by the count of files, and each run stays cheap.
const spawn = true;
const SEED = generateSeed({ reports: 40, workbooks: 4, withDashboards: true, folders: 2, randomSeed: 41 });
const seed = () => structuredClone(SEED);
let written: BenchBundle;
beforeAll(() => {
  written = writeBundleFromSeed(SEED, tempDir());
  mkdirSync(join(written.dir, 'notes'));
  for (let i = 0; i < OFF_THREAD_FROM_FILES; i++)
    writeFileSync(join(written.dir, 'notes', `n${i}.yaml`), `# note ${i}\n`);
});

/** `src`'s files hard-linked into `dst` (5,000 files: a copy would cost each test a second). */
function linkTree(src: string, dst: string): void {
  for (const e of readdirSync(src, { withFileTypes: true })) {
    if (e.isDirectory()) {
      mkdirSync(join(dst, e.name));
      linkTree(join(src, e.name), join(dst, e.name));
    } else linkSync(join(src, e.name), join(dst, e.name));
  }
}

/** `text` written to `file` as a new file: a hard link to the bundle written once stays as it was. */
function put(file: string, text: string): void {
  writeFileSync(`${file}.new`, text);
  renameSync(`${file}.new`, file);
}

/** The bundle of the seed, for one test (its files linked, each edit a new file): a plan of it is empty. */
function bundleOf(_s: typeof SEED): BenchBundle {
  const dir = tempDir();
  linkTree(written.dir, dir);
  const moved = (f: string) => join(dir, relative(written.dir, f));
  return { dir, reportFiles: written.reportFiles.map(moved), workbookFiles: written.workbookFiles.map(moved) };
}

/** Replaces the first `from` in a file. */
function edit(file: string, from: string | RegExp, to: string): void {
  const text = readFileSync(file, 'utf8');
  const next = text.replace(from, to);
  expect(next).not.toBe(text);
  put(file, next);
}

describe('a large bundle, loaded on a worker thread beside the reads', () => {
  it('is as large as docs/plan-apply.md says', () => {
    const doc = readFileSync(join(import.meta.dirname, '../../docs/plan-apply.md'), 'utf8');
    const n = OFF_THREAD_FROM_FILES.toLocaleString('en-US');
    expect(doc).toContain(`A bundle of ${n} files or more is read, parsed and checked`);
    expect(doc).toContain(`for a bundle under\n${n} files`);
  });

  it('plans as a small one: no change; then the edited fields at their lines, the attributes and folders read', async () => {
    const s = seed();
    s.userAttributes = [{ id: 7, accountId: 1, name: 'region', type: 'string', displayName: 'Region' }];
    await withEmulator({ seed: s }, async (emu) => {
      const b = bundleOf(s);
      const same = await runCli(['plan', '--dir', b.dir, ...target(emu), '--detailed-exitcode'], {
        env: emulatorEnv,
        spawn,
      });
      expect(same.stderr).toContain('checked against the data model of deployment 1 (8 cubes and views): no error.');
      expect(same.code).toBe(0);
      expect(same.stdout).toContain('No changes');

      const file = b.reportFiles[7]!;
      const line =
        readFileSync(file, 'utf8')
          .split('\n')
          .findIndex((l) => l.startsWith('title:')) + 1;
      edit(file, /^title: .*$/m, 'title: Edited in Git');
      // The user attributes and the folder tree are read once the bundle, loaded meanwhile, names some: the
      // attribute is then unchanged and the folder found (no create), the report moved into it.
      writeFileSync(
        join(b.dir, 'region.yaml'),
        'kind: UserAttribute\nname: region\ntype: string\ndisplayName: Region\n',
      );
      const moved = b.reportFiles[0]!;
      put(moved, `${readFileSync(moved, 'utf8').replace(/^folderId: .*\n/m, '')}folder: Folder 1\n`);
      const changed = await runCli(
        ['plan', '--dir', b.dir, ...target(emu), '--detailed-exitcode', '--output', 'json'],
        {
          env: emulatorEnv,
          spawn,
        },
      );
      expect(changed.code, changed.stderr).toBe(2);
      const plan = JSON.parse(changed.stdout) as {
        changes: { address: string; actions: string[]; fields?: { path: string; after: unknown; line?: number }[] }[];
      };
      const publicId = (f: string) => /^publicId: (\S+)$/m.exec(readFileSync(f, 'utf8'))![1];
      const address = (f: string) => `report/${publicId(f)}`;
      expect(plan.changes.map((c) => `${c.actions.join('+')} ${c.address}`).sort()).toEqual(
        [`update ${address(moved)}`, `update ${address(file)}`].sort(),
      );
      const title = plan.changes.find((c) => c.address === address(file))!.fields?.find((f) => f.path === 'title');
      expect(title).toMatchObject({ after: 'Edited in Git', line });
      expect(emu.log.some((e) => e.path === '/api/v1/user-attributes')).toBe(true);
      expect(writes(emu.log)).toEqual([]);
    });
  });

  it('an invalid bundle: exit 3 with its diagnostics, no write sent; the reads (and the model read) had begun', async () => {
    const s = seed();
    await withEmulator({ seed: s }, async (emu) => {
      const b = bundleOf(s);
      edit(b.reportFiles[3]!, /^name: .*$/m, 'name: [unclosed');
      edit(b.reportFiles[9]!, /^title: .*$/m, 'titel: typo');
      const model = () => emu.log.filter((e) => /\/(environments|token)$|^\/cubejs-api\//.test(e.path));
      for (const cmd of [['plan'], ['apply', '--auto-approve'], ['plan', '--skip-semantic-check']]) {
        emu.clearLog();
        const r = await runCli([...cmd, '--dir', b.dir, ...target(emu)], { env: emulatorEnv, spawn });
        expect(r.code).toBe(3);
        expect(r.stderr).toMatch(new RegExp(`reports/[^:]+\\.yaml:\\d+:\\d+`));
        expect(r.stderr).toContain('unknown key');
        expect(r.stderr).toContain('The bundle has 2 errors.');
        // The lists were asked for while the bundle loaded (a smaller bundle's run sends nothing: plan.test.ts).
        expect(emu.log.some((e) => e.path === '/api/v1/deployments/1/reports')).toBe(true);
        // GETs only, but for the deployment token the semantic check mints beside the lists (no content).
        expect(writes(emu.log)).toEqual([]);
        const nonGets = emu.log.filter((e) => e.method !== 'GET').map((e) => `${e.method} ${e.path}`);
        expect(new Set(nonGets)).toEqual(new Set(nonGets.length > 0 ? ['POST /api/v1/deployments/1/token'] : []));
        // The model's read left with the lists, unless the check is skipped.
        if (cmd.includes('--skip-semantic-check')) expect(model()).toEqual([]);
        else expect(model().length).toBeGreaterThan(0);
      }
    });
  });

  it('the semantic check places what Cube refuses at file:line:col; skipped, it reads no model', async () => {
    const s = seed();
    await withEmulator({ seed: s }, async (emu) => {
      const b = bundleOf(s);
      writeFileSync(
        join(b.dir, 'reports/typo.yaml'),
        'kind: Report\npublicId: semTypo00001\nname: typo\njsonQuery:\n  measures: [orders.cont]\n',
      );
      const r = await runCli(['plan', '--dir', b.dir, ...target(emu)], { env: emulatorEnv, spawn });
      expect(r.code, r.stderr).toBe(3);
      expect(r.stdout).toContain(
        "✗ reports/typo.yaml:5:14 report/semTypo00001 jsonQuery.measures[0]: Cube refuses the query: 'cont' not found",
      );

      emu.clearLog();
      const skipped = await runCli(
        ['plan', '--dir', b.dir, ...target(emu), '--skip-semantic-check', '--detailed-exitcode'],
        {
          env: emulatorEnv,
          spawn,
        },
      );
      expect(skipped.code, skipped.stderr).toBe(2);
      expect(emu.log.filter((e) => /\/(environments|token)$|^\/cubejs-api\//.test(e.path))).toEqual([]);
    });
  });

  it('a broken wsc.yaml ends the run at once, the worker thread started beside it ended too (the process exits)', async () => {
    const b = bundleOf(seed());
    put(join(b.dir, 'wsc.yaml'), 'environments:\n  dev: [unclosed\n');
    const r = await runCli(['plan', '--dir', b.dir], { env: emulatorEnv, spawn });
    expect(r.code, r.stderr).toBe(3);
    expect(r.stderr).toContain('wsc.yaml:');
  });

  it('a worker thread that cannot start ends the run at once, saying why (an install missing its file)', () => {
    ensureBuilt();
    const install = tempDir();
    for (const part of ['bin', 'dist', 'package.json'])
      cpSync(join(root, part), join(install, part), { recursive: true });
    symlinkSync(join(root, 'node_modules'), join(install, 'node_modules'));
    rmSync(join(install, 'dist/bundle-worker.js'));
    const b = bundleOf(seed());
    const started = performance.now();
    const r = spawnSync(
      process.execPath,
      [join(install, 'bin/wsc.js'), 'plan', '--dir', b.dir, '--base-url', 'http://127.0.0.1:1', '--deployment', '1'],
      {
        encoding: 'utf8',
        timeout: 30_000,
        env: { PATH: process.env['PATH'] ?? '', CI: 'true', NO_COLOR: '1', WSC_TOKEN: 'dev-token' },
      },
    );
    expect(r.signal).toBeNull();
    expect(r.status).toBe(1);
    expect(r.stderr).toContain('bundle-worker.js');
    expect(performance.now() - started).toBeLessThan(15_000);
  });

  it("an invalid bundle's errors win over a server that cannot be reached or a token it refuses", async () => {
    const s = seed();
    const b = bundleOf(s);
    edit(b.reportFiles[0]!, /^title: .*$/m, 'titel: typo');
    const down = await runCli(['plan', '--dir', b.dir, '--base-url', 'http://127.0.0.1:1', '--deployment', '1'], {
      env: emulatorEnv,
      spawn,
    });
    expect(down.code).toBe(3);
    expect(down.stderr).toContain('The bundle has 1 error.');
    expect(down.stderr).not.toMatch(/ECONNREFUSED|could not connect|cannot reach/i);
    await withEmulator({ seed: s }, async (emu) => {
      const refused = await runCli(['plan', '--dir', b.dir, ...target(emu)], {
        env: { WSC_TOKEN: 'not-the-token' },
        spawn,
      });
      expect(refused.code).toBe(3);
      expect(refused.stderr).toContain('The bundle has 1 error.');
      expect(writes(emu.log)).toEqual([]);
    });
  });
});
