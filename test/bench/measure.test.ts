// The benchmark's figures from a request log: the pages in sequence of lists
// read side by side, each one cursor chain, and the spans of reads and writes.
import { describe, expect, test } from 'vitest';
import { logFigures, longestChain } from '../../bench/measure.js';
import type { RequestLogEntry } from '../../src/emulator/index.js';

let seq = 0;
const get = (path: string, query: Record<string, string> = {}, at = 0, ms = 20): RequestLogEntry =>
  ({
    seq: ++seq,
    method: 'GET',
    path,
    query,
    status: 200,
    startedAt: new Date(Date.UTC(2026, 0, 1) + at).toISOString(),
    durationMs: ms,
  }) as unknown as RequestLogEntry;
const R = '/api/v1/deployments/1/reports';
const W = '/api/v1/deployments/1/workbooks';
const A = '/api/v1/user-attributes';

describe('longestChain', () => {
  test('lists read side by side: the pages of the longest one', () => {
    const reports = Array.from({ length: 20 }, (_, i) => get(R, i ? { after: `c${i}` } : {}, i * 25));
    expect(longestChain([...reports, get(W), get(W, { after: 'x' }), get(A)])).toBe(20);
  });
  test('writes and single reads do not count', () => {
    const log = [get(W), get(W), get(W), get(R), get(`${R}/7`), { ...get(R), method: 'POST' }];
    expect(longestChain(log)).toBe(3);
    expect(logFigures(log)).toMatchObject({ requests: 6, writes: 1, listPages: 4, longestChain: 3 });
  });
  test('no list read: 0', () => {
    expect(longestChain([get(`${R}/7`)])).toBe(0);
    expect(longestChain([])).toBe(0);
  });
});

test('reads span from the first arrival to the last answer', () => {
  expect(logFigures([get(R, {}, 0, 20), get(R, {}, 25, 20)]).readMs).toBe(45);
});

test("the semantic check's deployment token is a POST that changes nothing: not counted as a write", () => {
  const mint = { ...get('/api/v1/deployments/1/token', {}, 0, 20), method: 'POST' };
  const write = { ...get(`${R}/7`, {}, 100, 20), method: 'PATCH' };
  expect(logFigures([mint, get(R, {}, 0, 20), write])).toMatchObject({ requests: 3, writes: 1, writeMs: 20 });
  expect(logFigures([mint, get(R, {}, 0, 20)]).readMs).toBe(20);
});
