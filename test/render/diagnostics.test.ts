import { Chalk } from 'chalk';
import { describe, expect, it } from 'vitest';
import type { Diagnostic } from '../../src/errors.js';
import { renderDiagnostics, renderValidateSummary, sortDiagnostics } from '../../src/render/diagnostics.js';
import { plainStyle, type Style } from '../../src/render/style.js';

const d = (
  file: string,
  line: number,
  col: number,
  severity: Diagnostic['severity'],
  rule: string,
  message: string,
  hint?: string,
): Diagnostic => ({
  severity,
  rule,
  message,
  pos: { file, line, col },
  ...(hint ? { hint } : {}),
});

const diags = [
  d('workbooks/b.yaml', 3, 1, 'warning', 'widget-overlap', 'widget `b` overlaps widget `a`'),
  d('reports/r.yaml', 9, 2, 'error', 'bad-value', '`publicId`: "x" must be exactly 12 characters of [0-9A-Za-z]'),
  d(
    'workbooks/b.yaml',
    12,
    5,
    'error',
    'unknown-key',
    'unknown key `nmae` (did you mean `name`?)',
    'Allowed keys: kind, slug.',
  ),
  d('reports/r.yaml', 2, 11, 'error', 'duplicate-public-id', 'duplicate report publicId `abcdefabcdef`'),
];

describe('diagnostics renderer', () => {
  it('groups per file (name order), errors before warnings, then by position', () => {
    expect(renderDiagnostics(diags, plainStyle)).toMatchInlineSnapshot(`
      "reports/r.yaml:2:11 error duplicate report publicId \`abcdefabcdef\` [duplicate-public-id]
      reports/r.yaml:9:2 error \`publicId\`: "x" must be exactly 12 characters of [0-9A-Za-z] [bad-value]

      workbooks/b.yaml:12:5 error unknown key \`nmae\` (did you mean \`name\`?) [unknown-key]
        hint: Allowed keys: kind, slug.
      workbooks/b.yaml:3:1 warning widget \`b\` overlaps widget \`a\` [widget-overlap]

      3 errors, 1 warning
      "
    `);
  });

  it('prints nothing for no diagnostics', () => {
    expect(renderDiagnostics([], plainStyle)).toBe('');
  });

  it('summary lines', () => {
    expect(renderValidateSummary(true, { workbooks: 3, reports: 1, userAttributes: 0 }, plainStyle)).toBe(
      'Bundle is valid: 3 workbooks, 1 report, 0 user attributes.\n',
    );
    expect(renderValidateSummary(false, { workbooks: 0, reports: 0, userAttributes: 0 }, plainStyle)).toBe(
      'Bundle is invalid. Fix the errors above; nothing was sent to any API.\n',
    );
  });

  it('colours only when the style says so', () => {
    const colour: Style = { color: true, spinner: false, c: new Chalk({ level: 1 }) };
    expect(renderDiagnostics(diags.slice(1, 2), colour)).toContain('\u001b[31merror\u001b[39m');
    expect(renderDiagnostics(diags, plainStyle)).not.toContain('\u001b[');
  });

  it('sortDiagnostics is stable for equal positions (by message)', () => {
    const a = d('f', 1, 1, 'error', 'r', 'b');
    const b = d('f', 1, 1, 'error', 'r', 'a');
    expect(sortDiagnostics([a, b]).map((x) => x.message)).toEqual(['a', 'b']);
  });
});
