// The benchmark's figures from a request log: pages in sequence of a list
// read from both ends, and of plain chains read side by side.
import { describe, expect, test } from 'vitest';
import { listRounds, logFigures } from '../../bench/measure.js';
import type { RequestLogEntry } from '../../src/emulator/index.js';

let seq = 0;
const get = (path: string, query: Record<string, string> = {}, at = 0, ms = 20): RequestLogEntry =>
  ({ seq: ++seq, method: 'GET', path, query, status: 200, startedAt: new Date(Date.UTC(2026, 0, 1) + at).toISOString(), durationMs: ms }) as unknown as RequestLogEntry;
const R = '/api/v1/deployments/1/reports';
const W = '/api/v1/deployments/1/workbooks';

describe('listRounds', () => {
  const chain = (dir: string, n: number, from: number) => Array.from({ length: n }, (_, i) => get(R, { sortDirection: dir }, from + i * 25, 20));
  test('11 ascending and 9 descending pages of reports, the descending chain after the first page: 11 in sequence', () => {
    expect(listRounds([...chain('ASC', 11, 0), ...chain('DESC', 9, 25), get(W), get(W)])).toBe(11);
  });
  test('a descending chain as long as the ascending one and started after its first page: one round more', () => {
    expect(listRounds([...chain('ASC', 2, 0), ...chain('DESC', 2, 25)])).toBe(3);
  });
  test('both chains started together (the descending page arrives before the first answer left): the longer one', () => {
    expect(listRounds([...chain('ASC', 10, 0), ...chain('DESC', 10, 2)])).toBe(10);
    expect(listRounds([...chain('ASC', 1, 0), ...chain('DESC', 1, 1)])).toBe(1);
  });
  test('plain chains: the longest one; writes and single reads do not count', () => {
    const log = [get(W), get(W), get(W), get(R), { ...get(`${R}/7`) }, { ...get(R), method: 'POST' } as RequestLogEntry];
    expect(listRounds(log)).toBe(3);
    expect(logFigures(log)).toMatchObject({ requests: 6, writes: 1, listPages: 4, listRounds: 3 });
  });
  test('reads span from the first arrival to the last answer', () => {
    expect(logFigures([get(R, {}, 0, 20), get(R, {}, 25, 20)]).readMs).toBe(45);
  });
});
