// `wsc emulator`'s flags as the emulator's options (emulator/flags.ts): each
// bad flag a FlagError with its words and hint, checked in the order the
// command line is read; the request line printed for each request.
import { tmpdir } from 'node:os';
import { describe, expect, it } from 'vitest';
import { emulatorOptionsOf, FlagError, parseLatency, requestLine } from '../../src/emulator/flags.js';
import { StateFileError, type RequestLogEntry } from '../../src/emulator/index.js';

const flags = { port: 0, host: '127.0.0.1', uiMade: false, workbookListing: 'all' as const, devMode: false };
const none = () => {};

function refusal(f: Partial<typeof flags> & Record<string, unknown>): FlagError {
  try {
    emulatorOptionsOf({ ...flags, ...f }, none);
  } catch (e) {
    if (e instanceof FlagError) return e;
    throw e;
  }
  throw new Error('not refused');
}

describe('parseLatency', () => {
  it('takes N or MIN-MAX milliseconds', () => {
    expect(parseLatency(undefined)).toBeUndefined();
    expect(parseLatency('50')).toBe(50);
    expect(parseLatency(' 20 - 80 ')).toEqual({ min: 20, max: 80 });
  });
  it('refuses anything else, and MIN over MAX', () => {
    expect(() => parseLatency('fast')).toThrow(/--latency: expected N or MIN-MAX milliseconds, got "fast"/);
    expect(() => parseLatency('80-20')).toThrow(/MIN must not exceed MAX/);
  });
});

describe('emulatorOptionsOf', () => {
  it("the options of the flags given; each request, and the state file's failures, a line of the command's", () => {
    const seen: string[] = [];
    const o = emulatorOptionsOf(
      { ...flags, latency: '5', faults: '429=0.5', state: 's.json', workbookListing: 'root-only' },
      (line) => seen.push(line),
    );
    expect(o).toMatchObject({ port: 0, host: '127.0.0.1', stateFile: 's.json', latencyMs: 5, logLimit: 1000 });
    const e = { seq: 1, method: 'GET', path: '/api/v1/x', query: {}, status: 200, durationMs: 3 };
    o.onRequest!({ ...e, requestBody: undefined, startedAt: '' });
    o.onStateFile!(new StateFileError('s.json', Object.assign(new Error('x'), { code: 'ENOSPC' })));
    o.onStateFile!(undefined);
    expect(seen).toEqual([
      'GET /api/v1/x 200 3ms\n',
      'state: cannot write the state file s.json: no space left on the device (ENOSPC); the state is kept in memory and written at the next change\n',
      'state: written to s.json again\n',
    ]);
    expect(emulatorOptionsOf(flags, none).onStateFile).toBeUndefined();
    expect(o.workbookListing).toBe('root-only');
    expect(o.faults).toBeDefined();
    expect(o.seed).toBeUndefined();
    expect(emulatorOptionsOf({ ...flags, uiMade: true }, none).seed).toBeTypeOf('object');
  });

  it('refuses a bad flag with its hint, the host first', () => {
    expect(refusal({ host: '0.0.0.0', latency: 'x' }).message).toMatch(/--host: the emulator serves loopback only/);
    expect(refusal({ latency: 'x', faults: 'nonsense' }).hint).toBe('e.g. --latency 50 or --latency 20-80');
    expect(refusal({ faults: 'nonsense=2' }).hint).toMatch(/^e\.g\. --faults /);
    expect(refusal({ seed: '/no/such/seed.json' }).message).toBe('--seed: no such file "/no/such/seed.json".');
    expect(refusal({ model: '/no/such/model.json' }).message).toBe('--model: no such file "/no/such/model.json".');
    const dir = tmpdir();
    expect(refusal({ seed: dir }).message).toBe(`--seed: "${dir}" is a directory, not a file.`);
    expect(refusal({ model: dir }).message).toBe(`--model: "${dir}" is a directory, not a file.`);
    expect(refusal({ coreDataApiUrl: 'ftp://x' }).message).toMatch(/expected an http\(s\) URL, got "ftp:\/\/x"/);
    expect(refusal({ cubeApiSecret: '' }).message).toBe('--cube-api-secret: the secret is empty.');
  });
});

describe('requestLine', () => {
  it('method, path and query, status (or reset), fault and time', () => {
    const e = { seq: 1, method: 'GET', path: '/api/v1/x', query: { first: '2' }, status: 200, durationMs: 3 };
    const entry = { ...e, requestBody: undefined, startedAt: '' } as RequestLogEntry;
    expect(requestLine(entry)).toBe('GET /api/v1/x?first=2 200 3ms\n');
    expect(requestLine({ ...entry, query: {}, status: 0, fault: 'reset-after' })).toBe(
      'GET /api/v1/x reset [fault reset-after] 3ms\n',
    );
  });
});
