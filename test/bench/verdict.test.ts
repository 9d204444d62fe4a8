// The bench's verdicts (DESIGN §9): within 5% of a limit is noise, fewer than
// 5 runs is no verdict, a scenario that did not do its work fails; and the
// targets built from the rows apply that rule to the same-work comparison.
import { describe, expect, test } from 'vitest';
import type { CliRun } from '../../bench/measure.js';
import { summarize, type Row } from '../../bench/summary.js';
import { checkTargets, FLOOR_LABEL, SCENARIO } from '../../bench/targets.js';
import { margin, verdict } from '../../bench/verdict.js';

describe('verdict', () => {
  const at = (value: number, limit = 1.5, runs = 5, valid = true) => verdict({ value, limit, runs, valid });
  test.each([
    [1.2, 'PASS'],
    [1.42, 'PASS'],
    [1.425, 'within noise'],
    [1.5, 'within noise'],
    [1.575, 'within noise'],
    [1.58, 'FAIL'],
    [3, 'FAIL'],
  ])('%s against a limit of 1.5: %s', (value, expected) => expect(at(value)).toBe(expected));

  test('the band is 5% of the limit, whatever its unit', () => {
    expect(at(2090, 2000)).toBe('within noise');
    expect(at(2110, 2000)).toBe('FAIL');
    expect(at(1890, 2000)).toBe('PASS');
  });
  test('fewer than 5 runs: no verdict, even far from the limit', () => {
    expect(at(3, 1.5, 4)).toBe('too few runs');
    expect(at(0.1, 1.5, 1)).toBe('too few runs');
    expect(at(1.2, 1.5, 9)).toBe('PASS');
  });
  test('a scenario that did not do its work, or no figure: FAIL, whatever the runs', () => {
    expect(at(1.0, 1.5, 5, false)).toBe('FAIL');
    expect(at(1.0, 1.5, 2, false)).toBe('FAIL');
    expect(at(NaN)).toBe('FAIL');
    expect(at(Infinity)).toBe('FAIL');
  });
  test('margin says how far, and which side', () => {
    expect(margin(1.8, 1.5)).toBe('20% over the limit');
    expect(margin(1.2, 1.5)).toBe('20% under the limit');
  });
});

describe('checkTargets: `wsc plan` against the same-work script', () => {
  const run = (wallMs: number, stdout = ''): CliRun => ({
    code: 0,
    stdout,
    stderr: '',
    wallMs,
    maxRssMb: 100,
    cpuMs: wallMs,
    requests: 4,
    writes: 0,
    listPages: 4,
    longestChain: 2,
    netMs: 50,
    readMs: 55,
    writeMs: 0,
    log: [],
  });
  const row = (scenario: string, walls: number[], expectedOut?: string, out = expectedOut): Row => ({
    size: 1000,
    scenario,
    s: summarize(walls.map((w) => run(w, out))),
    readBound: 50,
    writeBound: 0,
    expectedCode: 0,
    ...(expectedOut !== undefined ? { expectedOut } : {}),
  });
  const ctx = { sizes: [1000], latency: 20, concurrency: 8, typicalLatency: 0 };
  const sameWork = (rows: Row[]) => checkTargets(rows, ctx).find((t) => t.name.includes('same-work'))!;

  test('the ratio of the interleaved medians, with its verdict', () => {
    const plan = row(SCENARIO.plan, [350, 900, 351, 340, 360]);
    const same = row(SCENARIO.sameWork, [300, 290, 310, 305, 700], '1100 1000 100 0');
    expect(sameWork([plan, same])).toMatchObject({
      verdict: 'PASS',
      name: expect.stringContaining('≤ 1.3x the same-work'),
      detail: expect.stringContaining('1.15x: 351 ms vs 305 ms'),
    });
    // 1.38x passed the limit before the amendment of 2026-11-29; it fails now.
    const before = row(SCENARIO.plan, [400, 900, 420, 410, 430]);
    expect(sameWork([before, same]).verdict).toBe('FAIL');
    const near = row(SCENARIO.plan, [405, 400, 410, 402, 408]);
    expect(sameWork([near, same]).verdict).toBe('within noise');
  });
  test('the floor: an empty bundle against an empty deployment, at most 1.25x the script', () => {
    const floorRow = (scenario: string, walls: number[]): Row => ({
      ...row(scenario, walls),
      size: 0,
      label: FLOOR_LABEL,
    });
    const floor = (plan: number[]) =>
      checkTargets([floorRow(SCENARIO.floorPlan, plan), floorRow(SCENARIO.floorSameWork, [200, 200, 200, 200, 200])], {
        ...ctx,
        sizes: [],
      }).find((t) => t.name.startsWith('floor'))!;
    expect(floor([220, 220, 220, 220, 220])).toMatchObject({
      verdict: 'PASS',
      detail: expect.stringContaining('1.10x'),
    });
    expect(floor([300, 300, 300, 300, 300]).verdict).toBe('FAIL');
  });
  test('a script that did not read what it had to fails the target, however fast', () => {
    const plan = row(SCENARIO.plan, [400, 410, 420, 430, 440]);
    const short = row(SCENARIO.sameWork, [300, 300, 300, 300, 300], '1100 1000 100 0', '1100 500 100 0');
    expect(sameWork([plan, short]).verdict).toBe('FAIL');
  });
  test('fewer than 5 runs of either side: no verdict', () => {
    const plan = row(SCENARIO.plan, [400, 410, 420, 430, 440]);
    const same = row(SCENARIO.sameWork, [300, 300, 300, 300], '1');
    expect(sameWork([plan, same]).verdict).toBe('too few runs');
  });
  test('only at 1,000 and 10,000 reports', () => {
    const plan = { ...row(SCENARIO.plan, [900, 900, 900, 900, 900]), size: 50_000 };
    const same = { ...row(SCENARIO.sameWork, [300, 300, 300, 300, 300]), size: 50_000 };
    expect(checkTargets([plan, same], { ...ctx, sizes: [50_000] }).some((t) => t.name.includes('same-work'))).toBe(
      false,
    );
  });
});
