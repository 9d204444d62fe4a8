// `wsc preview --out DIR --against REF` end to end, with the built CLI:
// against git:<ref> in a real repository (the working tree, the index and
// HEAD left as they were: nothing is checked out), and against env:<name>,
// the emulator on a free loopback port (list requests only: nothing written).
// Each kind of change lands marked in the picture of its dashboard; a
// dashboard that did not change gets no picture.
import { execFileSync } from 'node:child_process';
import { readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, test } from 'vitest';
import { writes } from '../../src/emulator/index.js';
import { cleanupTemp, copyFixture, emulatorEnv, runCli, target, tempDir, withEmulator } from './helpers/index.js';
import { editFile } from '../helpers/edit-file.js';
import { repositories } from './helpers/action.js';
import { exampleRepo, git, svgsIn } from './helpers/git.js';

afterAll(cleanupTemp);

/** fixtures/example edited as a pull request would: each kind of change once, in revenue-overview. */
function editExample(dir: string): void {
  const file = join(dir, 'workbooks/revenue-overview.yaml');
  writeFileSync(
    file,
    `${readFileSync(file, 'utf8')
      .replace('position: { x: 4, y: 2, w: 3, h: 2 }', 'position: { x: 8, y: 2, w: 3, h: 2 }')
      .replace('position: { x: 8, y: 4, w: 4, h: 4 }', 'position: { x: 8, y: 4, w: 4, h: 3 }')
      .replace('visualization: bar', 'visualization: area')
      .replace(/ {6}- id: divider-accounts\n.*\n.*\n/, '')}      - id: churn-kpi
        type: CHART
        position: { x: 0, y: 21, w: 4, h: 4 }
        config:
          reportId: { $report: chrnRate0001 }
          visualization: kpi
`,
  );
}

function expectMarks(svg: string): void {
  const change = (id: string) => new RegExp(`<g data-id="${id}" data-change="([a-z ]+)"`).exec(svg)?.[1];
  expect(change('churn-kpi')).toBe('added');
  expect(change('grain')).toBe('moved');
  expect(change('nrr-kpi')).toBe('resized');
  expect(change('arr-by-region')).toBe('config');
  expect(change('mrr-trend')).toBeUndefined();
  expect(svg).toContain('<g data-removed="divider-accounts">');
  expect(svg).toContain('<g data-was="grain">');
  expect(svg).toContain('<g class="legend">');
}

// Each test has a bundle (and a repository or an emulator) of its own: they run at once.
describe.concurrent('preview --against', () => {
  test('git:HEAD in a repository: one picture per breakpoint of the changed dashboard, each change marked; git state untouched', async ({
    expect,
  }) => {
    const { repo, bundle } = exampleRepo({ under: 'dashboards' });
    editExample(bundle);
    git(repo, 'add', 'dashboards/workbooks/revenue-overview.yaml');
    const state = () => [
      git(repo, 'status', '--porcelain'),
      git(repo, 'rev-parse', 'HEAD'),
      git(repo, 'diff', '--cached'),
    ];
    const before = state();

    const out = tempDir('wsc-pictures-');
    const r = await runCli(['preview', '--dir', bundle, '--out', out, '--against', 'git:main'], { env: {} });
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    expect(svgsIn(out)).toEqual(['revenue-overview.lg.svg', 'revenue-overview.sm.svg']);
    const lg = readFileSync(join(out, 'revenue-overview.lg.svg'), 'utf8');
    expectMarks(lg);
    expect(lg).toContain('Revenue overview · lg (12 columns) · changes against git:main');
    expect(state()).toEqual(before);

    // The same input, the same bytes.
    const again = tempDir('wsc-pictures-');
    await runCli(['preview', '--dir', bundle, '--out', again, '--against', 'git:main'], { env: {} });
    expect(readFileSync(join(again, 'revenue-overview.lg.svg'), 'utf8')).toBe(lg);

    // From a subdirectory of the repository, a ref by another name: the same.
    git(repo, 'tag', 'v1', 'main');
    const sub = await runCli(['preview', '--dir', '.', '--out', again, '--against', 'git:v1'], {
      env: {},
      cwd: bundle,
    });
    expect(sub.code).toBe(0);
    expect(readFileSync(join(again, 'revenue-overview.lg.svg'), 'utf8')).toBe(lg.replace('git:main', 'git:v1'));

    // Nothing changed against the working tree's own state once committed.
    git(repo, 'commit', '-qm', 'edit');
    const none = await runCli(['preview', '--dir', bundle, '--out', tempDir(), '--against', 'git:HEAD'], { env: {} });
    expect(none.stdout).toBe('No dashboard changed against git:HEAD.\n');
  }, 120_000);

  test('git:REF: a blob over the limit of a bundle file is not read (issue 43, item 8): a warning, the rest drawn', async ({
    expect,
  }) => {
    const { bundle } = exampleRepo({
      under: 'dashboards',
      // 6 MiB of YAML comment: over the 5 MiB a bundle file may be
      beforeCommit: (b) => writeFileSync(join(b, 'reports/huge.yaml'), `# ${'x'.repeat(6 * 1024 * 1024)}\n`),
    });
    rmSync(join(bundle, 'reports/huge.yaml'));
    editExample(bundle);
    const out = tempDir('wsc-pictures-');
    const r = await runCli(['preview', '--dir', bundle, '--out', out, '--against', 'git:main'], { env: {} });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toBe(
      'warning git:main: reports/huge.yaml: file is 6.0 MiB, over the 5.0 MiB limit for a bundle file; ' +
        'not read, the baseline is without it\n',
    );
    expectMarks(readFileSync(join(out, 'revenue-overview.lg.svg'), 'utf8'));
  }, 120_000);

  test('a ref git does not know, or no repository, or no form: exit 3 with the code, nothing written', async ({
    expect,
  }) => {
    const plain = copyFixture('example');
    const out = join(tempDir(), 'pictures');
    const noRepo = await runCli(['preview', '--dir', plain, '--out', out, '--against', 'git:main'], { env: {} });
    expect(noRepo.code).toBe(3);
    expect(noRepo.stderr).toContain(`--against git:main cannot read the repository: no git repository holds ${plain}`);
    expect(noRepo.stderr).toContain('preview_git');
    const repo = tempDir('wsc-git-');
    execFileSync('cp', ['-r', `${plain}/.`, repo]);
    git(repo, 'init', '-q');
    git(repo, 'add', '.');
    git(repo, 'commit', '-qm', 'x');
    const unknown = await runCli(['preview', '--dir', repo, '--out', out, '--against', 'git:no-such-branch'], {
      env: {},
    });
    expect(unknown.code).toBe(3);
    expect(unknown.stderr).toContain(
      'Error: --against git:no-such-branch: the repository has no commit, branch or tag `no-such-branch`. [preview_git]',
    );
    expect(unknown.stderr).toContain('A shallow CI checkout holds its own commit alone: fetch the base first');
    for (const bad of ['main', 'git:', 'git:--output=/tmp/x', 'svn:main']) {
      const r = await runCli(['preview', '--dir', repo, '--out', out, '--against', bad], { env: {} });
      expect(r.code, bad).toBe(3);
      expect(r.stderr, bad).toContain('--against takes git:<ref> or env:<environment>');
    }
    expect(() => readdirSync(out)).toThrow();
  }, 120_000);

  test('a shallow CI checkout without the base: the fetch the hint names, made as written, lets it draw', async ({
    expect,
  }) => {
    const { checkout } = repositories();
    const out = join(tempDir(), 'pictures');
    const args = ['preview', '--dir', join(checkout, 'dashboards'), '--out', out, '--against', 'git:origin/main'];
    const missing = await runCli(args, { env: {} });
    expect(missing.code).toBe(3);
    const fetch = /`(git fetch [^`]+)`/.exec(missing.stderr)![1]!.replaceAll('<branch>', 'main').split(' ');
    git(checkout, ...fetch.slice(1), '-q');
    const drawn = await runCli(args, { env: {} });
    expect(drawn.code, drawn.stderr).toBe(0);
    expect(readFileSync(join(out, 'revenue-overview.lg.svg'), 'utf8')).toContain('>visualization table → bar<');
  }, 120_000);

  test('env:<name>: the live deployment read with list requests only; a new deployment is all added', async ({
    expect,
  }) => {
    const dir = copyFixture('example');
    await withEmulator({}, async (emu) => {
      const yaml = join(dir, 'wsc.yaml');
      editFile(
        yaml,
        'environments:\n',
        `environments:\n  emu:\n    baseUrl: ${emu.url}\n    deploymentId: 1\n    vars: { currency: USD, fiscalYearStartMonth: 2 }\n`,
      );
      const empty = tempDir('wsc-pictures-');
      const first = await runCli(['preview', '--dir', dir, '--out', empty, '--against', 'env:emu'], {
        env: emulatorEnv,
      });
      expect(first.code, first.stderr).toBe(0);
      expect(svgsIn(empty)).toEqual([
        'customer-health.lg.svg',
        'revenue-overview.lg.svg',
        'revenue-overview.sm.svg',
        'sales-pipeline.lg.svg',
      ]);
      const all = readFileSync(join(empty, 'revenue-overview.lg.svg'), 'utf8');
      expect(all.match(/data-change="added"/g)).toHaveLength(8);

      expect((await runCli(['apply', '--auto-approve', '--dir', dir, ...target(emu)], { env: emulatorEnv })).code).toBe(
        0,
      );
      editExample(dir);
      const seen = emu.log.length;
      const out = tempDir('wsc-pictures-');
      const r = await runCli(['preview', '--dir', dir, '--out', out, '--against', 'env:emu'], { env: emulatorEnv });
      expect(r.code, r.stderr).toBe(0);
      expect(r.stderr).toContain('Reading deployment 1 at');
      expect(svgsIn(out)).toEqual(['revenue-overview.lg.svg', 'revenue-overview.sm.svg']);
      expectMarks(readFileSync(join(out, 'revenue-overview.lg.svg'), 'utf8'));
      const log = emu.log.slice(seen);
      expect(log.length).toBeGreaterThan(0);
      expect(writes(log)).toEqual([]);
      expect(log.every((e) => e.method === 'GET')).toBe(true);

      // The markdown plan against the same deployment draws and names exactly these files for that dashboard.
      const pics = tempDir('wsc-plan-pics-');
      const md = await runCli(['plan', '--dir', dir, '--env', 'emu', '--output', 'markdown', '--pictures', pics], {
        env: emulatorEnv,
      });
      expect(md.stdout).toContain(
        `**Pictures of the changed dashboards** in <code>${pics}</code> (PNG, and SVG beside):\n\n` +
          '| dashboard | pictures |\n|---|---|\n' +
          '| <code>workbook/revenue-overview</code> | ' +
          `${svgsIn(out)
            .map((f) => `<code>${f.replace(/svg$/, 'png')}</code> (<code>${f}</code>)`)
            .join(', ')} |\n\n`,
      );
      expect(readdirSync(pics).sort()).toEqual(readdirSync(out).sort());
      expect(md.stdout.match(/\| <code>workbook\//g)).toHaveLength(1);
    });
  }, 120_000);
});
