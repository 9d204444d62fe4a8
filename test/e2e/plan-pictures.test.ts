// `wsc plan --output markdown --pictures DIR` end to end against the emulator: it writes the pictures
// `wsc preview --out DIR --against env:<the plan's environment>` writes (the same files, byte for byte, SVG
// and PNG, with data only with --with-data), names each dashboard's PNG with its SVG beside in the markdown
// (a dashboard that only charts a changed report too), writes nothing to the API, and leaves the plan as it
// was without --pictures.
import { readFileSync, readdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, test } from 'vitest';
import { writes } from '../../src/emulator/index.js';
import { cleanupTemp, copyFixture, emulatorEnv, runCli, target, tempDir, withEmulator } from './helpers/index.js';
import type { Emulator } from './helpers/index.js';
import { REVENUE_OVERVIEW_PICTURES } from './helpers/bundles.js';

afterAll(cleanupTemp);

function replaceIn(file: string, from: string | RegExp, to: string): void {
  const text = readFileSync(file, 'utf8');
  const next = text.replace(from, to);
  if (next === text) throw new Error(`${file} does not hold ${String(from)}`);
  writeFileSync(file, next);
}

const files = (dir: string) => readdirSync(dir).sort();

/** fixtures/example, copied and applied to `emu`'s deployment 1. */
async function appliedExample(emu: Emulator): Promise<string> {
  const dir = copyFixture('example');
  const applied = await runCli(['apply', '--auto-approve', '--dir', dir, ...target(emu)], { env: emulatorEnv });
  expect(applied.code, applied.stderr).toBe(0);
  return dir;
}

describe('plan --pictures DIR', () => {
  test('writes what preview --out --against env: writes, names PNG and SVG per dashboard, a report-only change too', async () => {
    const dir = copyFixture('example');
    await withEmulator({}, async (emu) => {
      replaceIn(
        join(dir, 'wsc.yaml'),
        'environments:\n',
        `environments:\n  emu:\n    baseUrl: ${emu.url}\n    deploymentId: 1\n    vars: { currency: USD, fiscalYearStartMonth: 2 }\n`,
      );
      const applied = await runCli(['apply', '--auto-approve', '--dir', dir, ...target(emu)], { env: emulatorEnv });
      expect(applied.code, applied.stderr).toBe(0);
      // A report's query alone changes: no dashboard file is touched, revenue-overview charts the report.
      replaceIn(
        join(dir, 'reports/arr-by-region.yaml'),
        'measures: [subscriptions.arr]\n  dimensions',
        'measures: [subscriptions.arr, subscriptions.mrr]\n  dimensions',
      );
      const plain = await runCli(['plan', '--dir', dir, '--env', 'emu', '--output', 'markdown'], { env: emulatorEnv });
      expect(plain.code, plain.stderr).toBe(0);
      expect(plain.stdout).not.toContain('Pictures');

      const seen = emu.log.length;
      const pics = join(tempDir('wsc-plan-pics-'), 'pics');
      const md = await runCli(
        ['plan', '--dir', dir, '--env', 'emu', '--output', 'markdown', '--pictures', pics, '--with-data'],
        { env: emulatorEnv },
      );
      expect(md.code, md.stderr).toBe(0);
      // Read only: the live lists, a minted token, and the Core Data API's reads of the charts' data.
      const posts = writes(emu.log.slice(seen)).map((e) => `${e.method} ${e.path}`);
      expect(posts.length).toBeGreaterThan(0);
      for (const p of posts) expect(p).toMatch(/^POST \/.*\/v1\/(load|cubesql)$/);
      expect(files(pics)).toEqual(REVENUE_OVERVIEW_PICTURES);
      const svg = readFileSync(join(pics, 'revenue-overview.lg.svg'), 'utf8');
      expect(svg).toContain('>query: + subscriptions.mrr<');
      expect(svg).toContain('<g class="chart"><svg ');
      expect(readFileSync(join(pics, 'revenue-overview.lg.png')).subarray(1, 4).toString()).toBe('PNG');

      // The same files, byte for byte, as preview writes against the same environment.
      const out = tempDir('wsc-preview-pics-');
      const pv = await runCli(['preview', '--dir', dir, '--out', out, '--against', 'env:emu', '--with-data'], {
        env: emulatorEnv,
      });
      expect(pv.code, pv.stderr).toBe(0);
      expect(files(out)).toEqual(files(pics));
      for (const f of files(out)) expect(readFileSync(join(pics, f)).equals(readFileSync(join(out, f))), f).toBe(true);

      // The markdown: the plan as without --pictures, and the section naming each PNG with its SVG beside.
      const section =
        `**Pictures of the changed dashboards** in <code>${pics}</code> (PNG, and SVG beside):\n\n` +
        '| dashboard | pictures |\n|---|---|\n' +
        '| <code>workbook/revenue-overview</code> | <code>revenue-overview.lg.png</code> (<code>revenue-overview.lg.svg</code>), ' +
        '<code>revenue-overview.sm.png</code> (<code>revenue-overview.sm.svg</code>) |\n\n';
      expect(md.stdout).toContain(section);
      expect(md.stdout.replace(section, '')).toBe(plain.stdout);

      // Without --with-data the pictures hold no data (boxes), as preview's files.
      const boxes = tempDir('wsc-plan-boxes-');
      const nodata = await runCli(['plan', '--dir', dir, '--env', 'emu', '--output', 'markdown', '--pictures', boxes], {
        env: emulatorEnv,
      });
      expect(nodata.code, nodata.stderr).toBe(0);
      expect(readFileSync(join(boxes, 'revenue-overview.lg.svg'), 'utf8')).not.toContain('<g class="chart"><svg ');

      // The one link-safe writer: a link where a picture goes is refused (exit 3), never written through.
      const victim = join(tempDir('wsc-victim-'), 'victim.txt');
      writeFileSync(victim, 'untouched');
      const linked = tempDir('wsc-plan-linked-');
      symlinkSync(victim, join(linked, 'revenue-overview.sm.png'));
      const refused = await runCli(
        ['plan', '--dir', dir, '--env', 'emu', '--output', 'markdown', '--pictures', linked],
        { env: emulatorEnv },
      );
      expect(refused.code).toBe(3);
      expect(refused.stderr).toContain('is a symbolic link; wsc will not write through it.');
      expect(readFileSync(victim, 'utf8')).toBe('untouched');
    });
  }, 180_000);

  test("drawn against the deployment the plan read, its flags' too (--base-url, --deployment), read once", async () => {
    // The bundle's default environment is the embedded emulator; the flags point the run elsewhere. The
    // embedded deployment is empty: pictures drawn against it would show every dashboard as new.
    await withEmulator({}, async (emu) => {
      const dir = await appliedExample(emu);
      replaceIn(join(dir, 'workbooks/revenue-overview.yaml'), 'visualization: table', 'visualization: bar');
      const seen = emu.log.length;
      const pics = join(tempDir('wsc-plan-pics-'), 'pics');
      const md = await runCli(['plan', '--dir', dir, '--output', 'markdown', '--pictures', pics, ...target(emu)], {
        env: emulatorEnv,
      });
      expect(md.code, md.stderr).toBe(0);
      expect(files(pics)).toEqual(REVENUE_OVERVIEW_PICTURES);
      expect(readFileSync(join(pics, 'revenue-overview.lg.svg'), 'utf8')).toContain('>visualization table → bar<');
      // The deployment read once (a second read would ask each list's first page again), and said once.
      const lists = emu.log
        .slice(seen)
        .filter((e) => e.method === 'GET' && !/\/\d+$/.test(e.path))
        .map((e) => `${e.path}?${new URLSearchParams(e.query).toString()}`);
      expect(lists.some((l) => l.startsWith('/api/v1/deployments/1/workbooks?'))).toBe(true);
      expect(new Set(lists).size).toBe(lists.length);
      expect(md.stderr.match(/^Reading deployment/gm)).toEqual(['Reading deployment']);
      expect(md.stderr).not.toContain('embedded emulator');
    });
  }, 180_000);

  test('with --target: only what the plan changes is drawn (a targeted report: the dashboard that charts it)', async () => {
    await withEmulator({}, async (emu) => {
      const dir = await appliedExample(emu);
      emu.clearLog();
      // Two changes: a widget of revenue-overview, and a report only sales-pipeline charts.
      replaceIn(join(dir, 'workbooks/revenue-overview.yaml'), 'visualization: table', 'visualization: bar');
      replaceIn(
        join(dir, 'reports/pipeline.yaml'),
        'measures: [opportunities.amount, opportunities.count]\n  dimensions',
        'measures: [opportunities.amount]\n  dimensions',
      );
      const SALES = ['sales-pipeline.lg.png', 'sales-pipeline.lg.svg'];
      const drawn = async (...targets: string[]) => {
        const pics = join(tempDir('wsc-plan-pics-'), 'pics');
        const t = targets.flatMap((a) => ['--target', a]);
        const md = await runCli(
          ['plan', '--dir', dir, '--output', 'markdown', '--pictures', pics, ...t, ...target(emu)],
          {
            env: emulatorEnv,
          },
        );
        expect(md.code, md.stderr).toBe(0);
        return { files: files(pics), md: md.stdout };
      };
      expect((await drawn()).files).toEqual([...REVENUE_OVERVIEW_PICTURES, ...SALES].sort());
      const board = await drawn('workbook/revenue-overview');
      expect(board.files).toEqual(REVENUE_OVERVIEW_PICTURES);
      expect(board.md).not.toContain('sales-pipeline');
      const report = await drawn('report/pipeStage001');
      expect(report.files).toEqual(SALES);
      expect(report.md).toContain('sales-pipeline.lg.png');
      expect(report.md).not.toContain('revenue-overview.lg.png');
      expect(writes(emu.log)).toEqual([]);
    });
  }, 180_000);

  test('--with-data without --pictures: refused before anything is read (exit 3), the way forward printed', async () => {
    const dir = copyFixture('example');
    await withEmulator({}, async (emu) => {
      const r = await runCli(['plan', '--dir', dir, '--with-data', ...target(emu)], { env: emulatorEnv });
      expect(r.code).toBe(3);
      expect(r.stdout).toBe('');
      expect(r.stderr).toBe(
        'Error: --with-data draws the pictures of --pictures DIR with data: without --pictures, nothing is drawn. ' +
          '[with_data_without_pictures]\nHint: Add --pictures DIR (the markdown plan names the pictures), or leave ' +
          '--with-data out.\n',
      );
      expect(emu.log.map((e) => `${e.method} ${e.path}`)).toEqual([]);
      // Both ways forward work as printed: with --pictures DIR, the first test of this file; without --with-data:
      const without = await runCli(['plan', '--dir', dir, ...target(emu)], { env: emulatorEnv });
      expect(without.code, without.stderr).toBe(0);
      expect(writes(emu.log)).toEqual([]);
    });
  }, 180_000);
});
