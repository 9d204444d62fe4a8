// The honest alternative the benchmark compares `wsc plan` with: it must read
// every item of the three lists, each as one cursor chain of full pages, or
// the comparison flatters wsc.
import { afterAll, beforeAll, expect, test } from 'vitest';
import { runNode, root } from '../../bench/measure.js';
import { createEmulator, generateSeed, type Emulator } from '../../src/emulator/index.js';
import { join } from 'node:path';

let emu: Emulator;
beforeAll(async () => {
  const seed = generateSeed({ reports: 1200, workbooks: 7, randomSeed: 5 });
  emu = await createEmulator({ port: 0, seed, maxPageSize: 500, logResponses: false, randomSeed: 1 });
});
afterAll(() => emu.close());

test('reads 1,200 reports in 3 pages of 500 one after another, the workbooks and user attributes beside them', async () => {
  const run = await runNode(emu, join(root, 'bench/honest.mjs'), [emu.url, '1', '500'], { WSC_TOKEN: emu.adminToken });
  expect(run.code, run.stderr).toBe(0);
  const [reports, workbooks, attributes] = run.stdout.trim().split(' ').map(Number);
  expect([reports, workbooks]).toEqual([1200, 7]);
  expect(attributes).toBeGreaterThanOrEqual(0);
  const reportPages = run.log.filter((e) => e.path === '/api/v1/deployments/1/reports');
  expect(reportPages.map((e) => e.query['first'])).toEqual(['500', '500', '500']);
  expect(reportPages.map((e) => e.query['after'] !== undefined)).toEqual([false, true, true]);
  expect(run.longestChain).toBe(3);
  expect(run.writes).toBe(0);
  expect(run.maxRssMb).toBeGreaterThan(0);
});
