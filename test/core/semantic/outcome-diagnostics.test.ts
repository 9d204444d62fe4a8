// `validate --semantic-check`'s diagnostics from the check's outcome
// (core/semantic/outcome.ts semanticDiagnostics), and plan's stderr warning
// of a check that did not run (render/plan-semantic.ts semanticNotRun).
import { describe, expect, it } from 'vitest';
import type { SemanticIssue } from '../../../src/core/semantic/check.js';
import { semanticDiagnostics } from '../../../src/core/semantic/outcome.js';
import { semanticNotRun } from '../../../src/render/plan-semantic.js';
import { plainStyle } from '../../../src/render/style.js';

const issue = (member: string, by: 'meta' | 'cube', line: number): SemanticIssue => ({
  address: 'report/r1',
  where: 'jsonQuery.measures[0]',
  member,
  role: 'measure',
  pos: { file: 'reports/r1.yaml', line, col: 5 },
  message: `${member} is not a measure`,
  by,
});

describe('semanticDiagnostics', () => {
  it('refusals are errors at their place (by the model or by Cube), names not confirmed warnings', () => {
    const d = semanticDiagnostics({
      status: 'checked',
      cubes: 3,
      result: {
        checked: 3,
        issues: [issue('a.x', 'meta', 4), issue('a.y', 'cube', 6)],
        warnings: [issue('a.z', 'meta', 8)],
        unchecked: [],
      },
    });
    expect(d.map((x) => [x.severity, x.rule, x.pos.line, x.message])).toEqual([
      ['error', 'refused-by-model', 4, 'a.x is not a measure'],
      ['error', 'refused-by-cube', 6, 'a.y is not a measure'],
      ['warning', 'not-public', 8, 'a.z is not a measure'],
    ]);
  });

  it('an unreadable model is one warning on wsc.yaml; off and none are nothing', () => {
    const d = semanticDiagnostics({ status: 'unavailable', members: 2, tried: '/v1/meta', why: 'HTTP 502' });
    expect(d).toEqual([
      {
        severity: 'warning',
        rule: 'data-model-unreadable',
        message: 'the data model could not be read, so no member was checked: HTTP 502 (tried /v1/meta)',
        pos: { file: 'wsc.yaml', line: 1, col: 1 },
      },
    ]);
    expect(semanticDiagnostics({ status: 'off', reason: '--skip-semantic-check' })).toEqual([]);
    expect(semanticDiagnostics({ status: 'none' })).toEqual([]);
  });
});

describe('semanticNotRun', () => {
  it('says what was tried, why it failed and how many uses are not checked, control characters shown', () => {
    const text = semanticNotRun(
      { status: 'unavailable', members: 4, tried: '/v1/meta', why: 'bad\u001b[2J' },
      plainStyle,
    );
    expect(text).toBe(
      'warning the semantic check did not run: the data model could not be read (bad\\u001b[2J). ' +
        'Tried: /v1/meta. The 4 member use(s) the bundle names are not checked.\n',
    );
  });
});
