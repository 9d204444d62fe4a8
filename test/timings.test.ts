// WSC_TIMINGS: phases from marks, the printed table, and reading it back (the bench does).
import { afterEach, describe, expect, it } from 'vitest';
import { enableTimings, endPhase, parseTimings, phaseTimings, renderTimings } from '../src/timings.js';

describe('timings', () => {
  afterEach(() => enableTimings()); // clears the marks between tests

  it('keeps the phases marked since it was enabled, in order, as differences', () => {
    enableTimings();
    endPhase('a');
    // Spin until the process itself has used 10 ms of CPU (wall time alone could pass on a loaded machine).
    const before = process.cpuUsage();
    for (;;) {
      const d = process.cpuUsage(before);
      if (d.user + d.system >= 10_000) break;
    }
    endPhase('b');
    const t = phaseTimings();
    expect(t.map((x) => x.phase)).toEqual(['a', 'b']);
    // The first phase counts from the process's start; the second only what came after the first mark.
    expect(t[0]!.wallMs).toBeGreaterThan(0);
    expect(t[1]!.cpuMs).toBeGreaterThanOrEqual(10);
    expect(t[1]!.wallMs).toBeGreaterThan(0);
    expect(t[1]!.wallMs).toBeLessThan(t[0]!.wallMs + 1000);
  });

  it('renders a table with a total, and parses it back out of other output', () => {
    const phases = [
      { phase: 'start-up', wallMs: 120.4, cpuMs: 131.6 },
      { phase: 'read deployment', wallMs: 500, cpuMs: 1500.2 },
    ];
    const text = renderTimings(phases);
    expect(text).toBe(
      [
        'timings (WSC_TIMINGS):',
        '                     wall      CPU',
        '  start-up         120 ms   132 ms',
        '  read deployment  500 ms  1500 ms',
        '  total            620 ms  1632 ms',
        '',
      ].join('\n'),
    );
    expect(parseTimings(`Reading deployment 1…\n${text}`)).toEqual([
      { phase: 'start-up', wallMs: 120, cpuMs: 132 },
      { phase: 'read deployment', wallMs: 500, cpuMs: 1500 },
    ]);
  });

  it('parses nothing from output without a table, or with a table cut short', () => {
    expect(parseTimings('No changes.\n')).toBeUndefined();
    const cut = renderTimings([{ phase: 'bundle', wallMs: 1, cpuMs: 2 }])
      .split('\n')
      .slice(0, 3)
      .join('\n');
    expect(parseTimings(cut)).toBeUndefined();
    expect(renderTimings([])).toBe('');
  });
});
