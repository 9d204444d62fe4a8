// The scripts the benchmark runs beside `wsc plan`. The fetch-only script must
// read every item of the three lists, each as one cursor chain of full pages,
// or the comparison flatters wsc. The same-work script (the targeted
// comparison) must do the work it is named for: parse every bundle file and
// check each document with wsc's own schemas, so a broken file fails it.
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { writeBundleFromSeed } from '../../bench/bundle.js';
import { buildSameWork } from '../../bench/build-scripts.js';
import { runNode, root, type CliRun } from '../../bench/measure.js';
import { createEmulator, generateSeed, type Emulator } from '../../src/emulator/index.js';

let emu: Emulator;
let sameWork: string;
let dir: string;
let small: string;
const seed = generateSeed({ reports: 120, workbooks: 7, withDashboards: true, randomSeed: 5 });
const smallSeed = generateSeed({ reports: 18, workbooks: 3, withDashboards: true, randomSeed: 5 });
beforeAll(async () => {
  emu = await createEmulator({ port: 0, seed, maxPageSize: 500, logResponses: false, randomSeed: 1 });
  sameWork = await buildSameWork();
  dir = mkdtempSync(join(tmpdir(), 'wsc-bench-test-'));
  writeBundleFromSeed(seed, dir);
  small = mkdtempSync(join(tmpdir(), 'wsc-bench-small-'));
  writeBundleFromSeed(smallSeed, small);
}, 60_000);
afterAll(async () => {
  await emu.close();
  for (const d of [dir, small]) rmSync(d, { recursive: true, force: true });
});

const env = () => ({ WSC_TOKEN: emu.adminToken });
const lists = () => [emu.url, '1', '50'];

/** 120 reports in 3 pages of 50 (the last one short), one after another; the other lists beside them. */
function expectPagedReads(run: CliRun): void {
  const reportPages = run.log.filter((e) => e.path === '/api/v1/deployments/1/reports');
  expect(reportPages.map((e) => e.query['first'])).toEqual(['50', '50', '50']);
  expect(reportPages.map((e) => e.query['after'] !== undefined)).toEqual([false, true, true]);
  expect(run.log.some((e) => e.path === '/api/v1/deployments/1/workbooks')).toBe(true);
  expect(run.log.some((e) => e.path === '/api/v1/user-attributes')).toBe(true);
  expect(run.longestChain).toBe(3);
  expect(run.writes).toBe(0);
}

test('the fetch-only script reads 120 reports in 3 pages of 50 one after another, the other lists beside', async () => {
  const run = await runNode(emu, join(root, 'bench/honest.mjs'), lists(), env());
  expect(run.code, run.stderr).toBe(0);
  const [reports, workbooks, attributes] = run.stdout.trim().split(' ').map(Number);
  expect([reports, workbooks, attributes]).toEqual([120, 7, seed.userAttributes?.length ?? 0]);
  expectPagedReads(run);
  expect(run.maxRssMb).toBeGreaterThan(0);
});

describe('the same-work script', () => {
  test('checks every document of the bundle and reads every list, side by side or one after the other', async () => {
    for (const extra of [[], ['--sequential']]) {
      const run = await runNode(emu, sameWork, [dir, ...lists(), ...extra], env());
      expect(run.code, run.stderr).toBe(0);
      expect(run.stdout.trim()).toBe(`${120 + 7} 120 7 ${seed.userAttributes?.length ?? 0}`);
      expectPagedReads(run);
    }
  });

  test("built with undici's request instead of fetch (the floor's row of the HTTP client): the same reads, the same checks", async () => {
    const withUndici = await buildSameWork('undici');
    expect(readFileSync(withUndici, 'utf8')).toContain('node_modules/undici/index.js');
    expect(readFileSync(sameWork, 'utf8')).not.toContain('node_modules/undici/');
    const run = await runNode(emu, withUndici, [dir, ...lists()], env());
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout.trim()).toBe(`${120 + 7} 120 7 ${seed.userAttributes?.length ?? 0}`);
    expectPagedReads(run);
  });

  /**
   * A small bundle (the size is not the point of a broken file: 21 documents) with one file replaced (or
   * added), run through the script, then put back: the tests run one after the other, so one bundle, written
   * once, serves them all.
   */
  async function withFile(rel: string, text: string): Promise<CliRun> {
    const file = join(small, rel);
    const before = existsSync(file) ? readFileSync(file, 'utf8') : undefined;
    try {
      mkdirSync(dirname(file), { recursive: true });
      writeFileSync(file, text);
      return await runNode(emu, sameWork, [small, ...lists()], env());
    } finally {
      if (before === undefined) rmSync(file);
      else writeFileSync(file, before);
    }
  }
  const someReport = () => `reports/${smallSeed.reports!.find((r) => r.deploymentId === 1)!.publicId}.yaml`;

  test('fails on a file js-yaml cannot parse, naming it', async () => {
    const run = await withFile(someReport(), 'kind: Report\npublicId: [unclosed\n');
    expect(run.code).toBe(1);
    expect(run.stderr).toContain(someReport());
    expect(run.stdout).toBe('');
  });

  test("fails on a document wsc's schema refuses (an unknown key, a publicId too short), naming the path", async () => {
    const run = await withFile(someReport(), 'kind: Report\npublicId: abc\ntitel: typo\n');
    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(/publicId: /);
    expect(run.stderr).toContain('titel');
  });

  test('fails on a document of no known kind, in a nested directory too', async () => {
    const run = await withFile('reports/more/zz-extra.yml', 'kind: Dashboard\nname: x\n');
    expect(run.code).toBe(1);
    expect(run.stderr).toContain('reports/more/zz-extra.yml: unknown kind "Dashboard"');
  });
});
