// fixtures/invalid/<case>: each bundle has exactly one problem; the loader
// reports exactly that one diagnostic, at that file, line and column.
import { readdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { validateDir } from './validate-dir.js';

const dir = resolve(import.meta.dirname, '../../fixtures/invalid');

// [case, rule, message, file, line, col]
const CASES: [string, string, string, string, number, number][] = [
  [
    'app-entry-too-long',
    'bad-value',
    '`meta.dashboardDraft.app.entry`: too long: 303 characters, at most 255 allowed',
    'workbooks/app.yaml',
    7,
    14,
  ],
  [
    'bad-adopt',
    'unknown-key',
    'unknown key `deployment` in `adopt` (did you mean `deploymentId`?)',
    'reports/mrr.yaml',
    4,
    3,
  ],
  [
    'integer-too-large',
    'integer-too-large',
    '`meta.threshold` is an integer beyond 2^53 (read as 12345678901234567000): a JSON number cannot carry it ' +
      'exactly, and wsc does not round silently',
    'reports/arr.yaml',
    4,
    14,
  ],
  [
    'bad-public-id',
    'bad-value',
    '`publicId`: "rev-mrr-01" must be exactly 12 characters of [0-9A-Za-z]',
    'reports/mrr.yaml',
    2,
    11,
  ],
  [
    'bad-widget-type',
    'bad-value',
    '`meta.dashboardDraft.widgets[0].type`: "CHRT" is not one of `CHART`, `TEXT`, `FILTER`, `AI`, `TIME_GRAIN`, `FIELD`, `PARENT`, `SPACER`, `DIVIDER`, `CONTAINER` (did you mean `CHART`?)',
    'workbooks/revenue.yaml',
    7,
    15,
  ],
  ['duplicate-key', 'duplicate-key', 'duplicate key `name`', 'workbooks/revenue.yaml', 4, 1],
  [
    'duplicate-public-id',
    'duplicate-public-id',
    'duplicate report publicId `revMrrTrnd01`, also defined at reports/a.yaml:2:1',
    'reports/b.yaml',
    2,
    1,
  ],
  [
    'duplicate-slug',
    'duplicate-slug',
    'duplicate workbook slug `revenue`, also defined at workbooks/a.yaml:2:1 (" revenue " and "Revenue" are the same slug once trimmed and lowercased)',
    'workbooks/b.yaml',
    2,
    1,
  ],
  [
    'duplicate-widget-id',
    'duplicate-widget-id',
    'duplicate widget id `header` in this dashboard, also used at workbooks/revenue.yaml:6:9',
    'workbooks/revenue.yaml',
    9,
    9,
  ],
  [
    'kind-case',
    'unknown-kind',
    'unknown kind "workbook" (did you mean `Workbook`?); expected one of Workbook, Report, UserAttribute',
    'workbooks/revenue.yaml',
    1,
    7,
  ],
  [
    'malformed-reference',
    'bad-reference',
    '`$report` must name a publicId (a string), got 5',
    'reports/mrr.yaml',
    4,
    23,
  ],
  [
    'missing-position-h',
    'missing-key',
    'missing required key `h` in `meta.dashboardDraft.widgets[0].position`',
    'workbooks/revenue.yaml',
    8,
    9,
  ],
  ['multi-doc-second-bad', 'missing-key', 'missing required key `rows` in `pivotItems`', 'reports/pipeline.yaml', 7, 1],
  [
    'report-description',
    'unknown-key',
    "unknown key `description`: a report's description is read-only in the API (the Report input has no `description`)",
    'reports/mrr.yaml',
    4,
    1,
  ],
  [
    'undefined-variable',
    'undefined-variable',
    'undefined variable `${vars.financeFolder}` (did you mean `${vars.financeFolderId}`?)',
    'workbooks/revenue.yaml',
    3,
    11,
  ],
  ['unknown-key', 'unknown-key', 'unknown key `nmae` (did you mean `name`?)', 'workbooks/revenue.yaml', 3, 1],
  [
    'unknown-kind',
    'unknown-kind',
    'unknown kind "Dashboard"; expected one of Workbook, Report, UserAttribute',
    'workbooks/revenue.yaml',
    1,
    7,
  ],
  [
    'unknown-reference',
    'unknown-reference',
    'report `revMrrTrnd01` is not in the bundle',
    'workbooks/revenue.yaml',
    10,
    32,
  ],
  [
    'widget-without-id',
    'missing-key',
    'missing required key `id` in `meta.dashboardDraft.widgets[0]`',
    'workbooks/revenue.yaml',
    6,
    9,
  ],
  ['workbook-adopt-public-id', 'unknown-key', 'unknown key `publicId` in `adopt`', 'workbooks/ops.yaml', 4, 34],
  ['wrong-type', 'wrong-type', '`folderId`: expected an integer, got "seven"', 'workbooks/revenue.yaml', 4, 11],
  [
    'wsc-yaml-literal-token',
    'bad-value',
    '`environments.staging.token`: "sk_live_do_not_commit" must be `${env.NAME}`: wsc.yaml is committed, so the token itself must come from the environment',
    'wsc.yaml',
    5,
    12,
  ],
  [
    'wsc-yaml-unknown-key',
    'unknown-key',
    'unknown key `baseURL` in `environments.staging` (did you mean `baseUrl`?)',
    'wsc.yaml',
    3,
    5,
  ],
  [
    'yaml-syntax',
    'yaml-syntax',
    'YAML syntax error: missed comma between flow collection entries',
    'workbooks/revenue.yaml',
    5,
    1,
  ],
];

describe('fixtures/invalid', () => {
  it('every fixture directory has an expectation, and every expectation a directory', () => {
    const dirs = readdirSync(dir).sort();
    expect(dirs).toEqual(CASES.map((c) => c[0]).sort());
  });

  it.each(CASES)('%s: exactly one diagnostic, %s', async (name, rule, message, file, line, col) => {
    const { diagnostics } = await validateDir(join(dir, name));
    expect(diagnostics.map((d) => ({ severity: d.severity, rule: d.rule, message: d.message, ...d.pos }))).toEqual([
      { severity: 'error', rule, message, file, line, col },
    ]);
  });
});
