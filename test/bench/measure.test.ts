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
  test('11 ascending and 9 descending pages of reports: 11 in sequence (the descending chain starts after the first page)', () => {
    const log = [...Array.from({ length: 11 }, () => get(R, { sortDirection: 'ASC' })), ...Array.from({ length: 9 }, () => get(R, { sortDirection: 'DESC' })), get(W), get(W)];
    expect(listRounds(log)).toBe(11);
  });
  test('a descending chain as long as the ascending one costs one round more', () => {
    expect(listRounds([get(R, { sortDirection: 'ASC' }), get(R, { sortDirection: 'ASC' }), get(R, { sortDirection: 'DESC' }), get(R, { sortDirection: 'DESC' })])).toBe(3);
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
