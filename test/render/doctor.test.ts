// Doctor's lines: ✓, ✗ with its hint, – for a check not run (no hint), the
// findings under a check (at most 30; JSON carries all), and the closing line.
import { describe, expect, test } from 'vitest';
import type { CheckLine } from '../../src/doctor/types.js';
import { renderDoctorJson, renderDoctorLine, renderDoctorSummary } from '../../src/render/doctor.js';
import { plainStyle } from '../../src/render/style.js';

const line = (over: Partial<CheckLine>): CheckLine => ({ name: 'x', ok: true, checked: true, detail: 'fine', ...over });

describe('doctor lines', () => {
  test('passed, failed with its hint, not checked without one', () => {
    expect(renderDoctorLine(line({}), plainStyle)).toBe('✓ x: fine\n');
    expect(renderDoctorLine(line({ ok: false, detail: 'bad', hint: 'fix it' }), plainStyle)).toBe(
      '✗ x: bad\n    hint: fix it\n',
    );
    const skipped = line({ ok: false, checked: false, detail: 'not checked: host failed', hint: 'ignored' });
    expect(renderDoctorLine(skipped, plainStyle)).toBe('– x: not checked: host failed\n');
  });

  test('findings: 30 shown and the rest counted; JSON keeps every one', () => {
    const items = Array.from({ length: 45 }, (_, i) => `would change: workbook/w${i}: adopt (slug)`);
    const text = renderDoctorLine(line({ ok: false, detail: 'found', items }), plainStyle);
    expect(text.split('\n').filter((l) => l.startsWith('    would change'))).toHaveLength(30);
    expect(text).toContain('    … and 15 more (--output json lists every one)\n');
    const json = JSON.parse(
      renderDoctorJson({ environment: 'e', baseUrl: 'u', deploymentId: 1, checks: [line({ ok: false, items })] }),
    ) as { ok: boolean; checks: { items: string[]; checked: boolean }[] };
    expect(json.ok).toBe(false);
    expect(json.checks[0]!.items).toHaveLength(45);
    expect(json.checks[0]!.checked).toBe(true);
  });

  test('the closing line counts failed and not-checked apart', () => {
    expect(renderDoctorSummary([line({}), line({})], plainStyle)).toBe('All 2 checks passed.\n');
    const lines = [line({}), line({ ok: false }), line({ ok: false, checked: false })];
    expect(renderDoctorSummary(lines, plainStyle)).toBe('1 of 3 checks failed, 1 not checked.\n');
  });
});
