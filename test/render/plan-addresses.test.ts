// Every plan starts with every address that changes; compact plans; values by
// identity; the still-charted warning; unmanaged resources; 300 resources.
import { describe, expect, it } from 'vitest';
import { plan } from '../../src/core/plan/index.js';
import type { Plan, ResourceChange } from '../../src/core/plan-model.js';
import { parseSavedPlan, serializeSavedPlan } from '../../src/core/saved-plan.js';
import { COMPACT_OVER } from '../../src/render/plan-addresses.js';
import { renderPlanHuman } from '../../src/render/plan-human.js';
import { planJson } from '../../src/render/plan-json.js';
import { renderPlanMarkdown } from '../../src/render/plan-markdown.js';
import { plainStyle } from '../../src/render/style.js';
import { ctx, desired, dReport, dWorkbook, live, lReport, lWorkbook, pos } from '../core/builders.js';
import { samplePlan } from './plan-fixture.js';

const summary = {
  create: 1,
  update: 2,
  adopt: 0,
  publish: 0,
  noop: 0,
  record: 1,
  delete: 1,
  unmanaged: { workbooks: 0, reports: 0, userAttributes: 0 },
};

/** A plan with a folder, a delete, a UI-edited update, a record and a create-only difference. */
function everyKind(): Plan {
  const rc = (c: Partial<ResourceChange> & Pick<ResourceChange, 'address' | 'kind' | 'actions'>): ResourceChange => ({
    changes: [],
    requests: [],
    ...c,
  });
  return {
    formatVersion: 1,
    environment: 'prod',
    deploymentId: 7,
    publicIds: 'as-is',
    bundle: 'sales',
    changes: [
      rc({
        address: 'folder/Sales/EMEA',
        kind: 'folder',
        actions: ['create'],
        changes: [{ path: 'name', after: 'EMEA' }],
      }),
      rc({ address: 'report/oldReport001', kind: 'report', actions: ['delete'], liveId: 5 }),
      rc({
        address: 'report/revMrrTrnd01',
        kind: 'report',
        actions: ['blocked'],
        liveId: 6,
        pos: pos('reports/mrr-trend.yaml'),
        uiEdits: ['name'],
        blocked: {
          reason: 'ui-edit',
          message: 'changed outside wsc and in the bundle since the last apply: name',
          flag: '--overwrite-ui-edits report/revMrrTrnd01',
        },
        changes: [{ path: 'name', before: 'MRR (UI)', after: 'MRR' }],
      }),
      rc({
        address: 'report/recorded0001',
        kind: 'report',
        actions: ['record'],
        liveId: 8,
        pos: pos('reports/recorded.yaml'),
      }),
      rc({
        address: 'report/source000001',
        kind: 'report',
        actions: ['update'],
        liveId: 9,
        pos: pos('reports/source.yaml'),
        changes: [
          { path: 'source', before: 'SQL', after: 'PLAYGROUND', createOnly: true },
          { path: 'name', before: 'a', after: 'b' },
        ],
      }),
      rc({
        address: 'report/same00000001',
        kind: 'report',
        actions: ['noop'],
        liveId: 10,
        pos: pos('reports/same.yaml'),
      }),
    ],
    summary,
    fingerprints: [],
  };
}

describe('the address list every plan starts with', () => {
  it('human: one line per address that changes, with its action and file; deletes, marks, records and folders included', () => {
    const out = renderPlanHuman(everyKind(), plainStyle, { dir: '.' }, { compact: true });
    expect(out).toBe(`\
wsc will make these changes to deployment 7 (environment prod):

+ folder/Sales/EMEA                            (name)
- report/oldReport001                          not in the bundle
! report/revMrrTrnd01  reports/mrr-trend.yaml  (name)  ! edited outside wsc
= report/recorded0001  reports/recorded.yaml
~ report/source000001  reports/source.yaml     (source, name)  cannot be changed by update

Plan: 1 to create, 2 to update, 0 to adopt, 0 to publish, 1 to delete, 1 blocked by a UI edit. 1 ownership record to write. 1 difference only a create can make: this plan cannot be applied.
0 unchanged, 0 unmanaged resources left alone.
report/revMrrTrnd01 is left alone (changed outside wsc and in the bundle since the last apply: name): take the live values into the file with \`wsc export --only report/revMrrTrnd01 --into .\`, or overwrite it with \`wsc apply --overwrite-ui-edits report/revMrrTrnd01\`.
Compact plan (5 resources change): values left out; \`--no-compact\` shows them.
`);
  });

  it('human, not compact: the list, then the details', () => {
    const out = renderPlanHuman(everyKind(), plainStyle, { dir: '.' }, { compact: false });
    const list = out.indexOf('= report/recorded0001  reports/recorded.yaml\n');
    const detail = out.indexOf('! report/revMrrTrnd01 will be left alone\n');
    expect(list).toBeGreaterThan(0);
    expect(detail).toBeGreaterThan(list);
    expect(out).toContain('    name: "MRR (UI)" → "MRR"\n');
    expect(out).not.toContain('Compact plan');
  });

  it('JSON: the addresses first, with their action and file (additive: changes are as before)', () => {
    const j = planJson(everyKind());
    expect(Object.keys(j).indexOf('addresses')).toBeLessThan(Object.keys(j).indexOf('changes'));
    expect(j.addresses).toEqual([
      { address: 'folder/Sales/EMEA', action: 'create' },
      { address: 'report/oldReport001', action: 'delete' },
      { address: 'report/revMrrTrnd01', action: 'blocked', file: 'reports/mrr-trend.yaml' },
      { address: 'report/recorded0001', action: 'record', file: 'reports/recorded.yaml' },
      { address: 'report/source000001', action: 'update', file: 'reports/source.yaml' },
    ]);
    expect(j.changes.map((c) => c.address)).toEqual(j.addresses.map((a) => a.address));
  });

  it('markdown: the list in a diff fence (GitHub colours + and -), before any detail', () => {
    const md = renderPlanMarkdown(everyKind(), { compact: true });
    expect(md.slice(md.indexOf('```diff'))).toBe(`\
\`\`\`diff
+ folder/Sales/EMEA                            (name)
- report/oldReport001                          not in the bundle
! report/revMrrTrnd01  reports/mrr-trend.yaml  (name)  ! edited outside wsc
= report/recorded0001  reports/recorded.yaml
~ report/source000001  reports/source.yaml     (source, name)  cannot be changed by update
\`\`\`

_Compact plan (5 resources change): values left out; \`--no-compact\` shows them._

_0 unchanged, 0 unmanaged resources left alone._
`);
  });
});

/** `n` reports to create, each with a name and SQL. */
function manyCreates(n: number): Plan {
  const reports = Array.from({ length: n }, (_, i) =>
    dReport(`rep${String(i).padStart(9, '0')}`, {
      name: `Report ${i}`,
      sqlQuery: `select ${i}\nfrom t${i}\nwhere x = ${'y'.repeat(150)}`,
    }),
  );
  return plan(desired({ reports }), live({}), ctx({ environment: 'prod' }));
}

describe('compact plans', () => {
  it(`are the default past ${COMPACT_OVER} resources: addresses, field names and the summary, no values`, () => {
    expect(COMPACT_OVER).toBe(20);
    const big = renderPlanHuman(manyCreates(COMPACT_OVER + 1), plainStyle);
    expect(big).toContain('+ report/rep000000020  reports/rep000000020.yaml  (name, sqlQuery)\n');
    expect(big).not.toContain('select');
    expect(big).toContain('Compact plan (21 resources change): values left out; `--no-compact` shows them.\n');
    const small = renderPlanHuman(manyCreates(COMPACT_OVER), plainStyle);
    expect(small).toContain('    name: "Report 19"\n');
    expect(small).not.toContain('Compact plan');
  });

  it('--no-compact forces the values, --compact leaves them out of a small plan', () => {
    expect(renderPlanHuman(manyCreates(25), plainStyle, { dir: '.' }, { compact: false })).toContain(
      '    name: "Report 24"\n',
    );
    expect(renderPlanHuman(manyCreates(2), plainStyle, { dir: '.' }, { compact: true })).toBe(`\
wsc will make these changes to deployment 1 (environment prod):

+ report/rep000000000  reports/rep000000000.yaml  (name, sqlQuery)
+ report/rep000000001  reports/rep000000001.yaml  (name, sqlQuery)

Plan: 2 to create, 0 to update, 0 to adopt, 0 to publish.
0 unchanged, 0 unmanaged resources left alone.
Compact plan (2 resources change): values left out; \`--no-compact\` shows them.
`);
    expect(renderPlanMarkdown(manyCreates(25), { compact: false })).toContain('+ name: "Report 24"\n');
  });

  it('a markdown plan of 300 changed resources names all 300, within the comment budget', () => {
    const p = manyCreates(300);
    for (const compact of [undefined, false]) {
      const md = renderPlanMarkdown(p, { compact });
      for (let i = 0; i < 300; i++) expect(md).toContain(`+ report/rep${String(i).padStart(9, '0')}  `);
      expect(md.length).toBeLessThanOrEqual(64 * 1024);
    }
    const full = renderPlanMarkdown(p, { compact: false });
    expect(full).toMatch(
      /_The details of \d+ of 300 resources are left out to fit a comment \(all are named above\): see them with/,
    );
  });
});

/** Report 41 moves from workbook 101 (revenue-overview, whose live dashboard charts it) to 102 (sales-pipeline). */
function moved(): Plan {
  const draft = { widgets: [{ id: 'mrr', type: 'CHART', config: { reportId: 41 } }] };
  return plan(
    desired({ reports: [dReport('revMrrTrnd01', { workbookId: { $workbook: 'sales-pipeline' } })] }),
    live({
      workbooks: [
        lWorkbook(101, 'revenue-overview', { meta: { dashboardDraft: draft } }),
        lWorkbook(102, 'sales-pipeline'),
      ],
      reports: [lReport(41, 'revMrrTrnd01', { workbookId: 101 })],
    }),
    ctx({ environment: 'prod' }),
  );
}

describe('values by identity', () => {
  it('a report moved to another workbook reads by slugs, and warns while the old dashboard charts it', () => {
    expect(renderPlanHuman(moved(), plainStyle)).toBe(`\
wsc will make these changes to deployment 1 (environment prod):

~ report/revMrrTrnd01  reports/revMrrTrnd01.yaml

~ report/revMrrTrnd01 will be updated
    reports/revMrrTrnd01.yaml:1:1
    workbookId: { $workbook: revenue-overview } → { $workbook: sales-pipeline }

warning report/revMrrTrnd01 moves out of workbook/revenue-overview, whose dashboard still charts it (widget mrr): move or remove the chart, or keep the report in that workbook.
Plan: 0 to create, 1 to update, 0 to adopt, 0 to publish.
0 unchanged, 2 unmanaged resources left alone.
`);
    const j = planJson(moved());
    expect(j.changes[0]!.fields).toEqual([
      {
        path: 'workbookId',
        before: 101,
        after: 102,
        shown: { before: { $workbook: 'revenue-overview' }, after: { $workbook: 'sales-pipeline' } },
      },
    ]);
    expect(j.warnings).toEqual([
      {
        code: 'report-still-charted',
        address: 'report/revMrrTrnd01',
        message: expect.stringContaining('still charts it (widget mrr)'),
      },
    ]);
  });

  it('a saved plan keeps the warning and the values by slug (read back as written)', () => {
    const text = serializeSavedPlan({
      wscVersion: 'test',
      createdAt: '2026-01-01T00:00:00Z',
      environment: { name: 'prod', deploymentId: 1, embedded: false, publicIds: 'as-is' },
      plan: moved(),
    });
    const back = parseSavedPlan(text, 'plan.json').plan;
    expect(back.warnings?.[0]?.code).toBe('report-still-charted');
    expect(renderPlanHuman(back, plainStyle)).toBe(renderPlanHuman(moved(), plainStyle));
  });

  it('no warning when the dashboard no longer charts it (the bundle manages the workbook without the widget)', () => {
    const p = plan(
      desired({
        workbooks: [dWorkbook('revenue-overview', { meta: { dashboardDraft: { widgets: [] } } })],
        reports: [dReport('revMrrTrnd01', { workbookId: { $workbook: 'sales-pipeline' } })],
      }),
      live({
        workbooks: [
          lWorkbook(101, 'revenue-overview', {
            meta: { dashboardDraft: { widgets: [{ id: 'mrr', config: { reportId: 41 } }] } },
          }),
          lWorkbook(102, 'sales-pipeline'),
        ],
        reports: [lReport(41, 'revMrrTrnd01', { workbookId: 101 })],
      }),
      ctx(),
    );
    expect(p.warnings).toBeUndefined();
  });

  it("warns from the file's draft when the bundle manages the old workbook and still charts the report there", () => {
    const p = plan(
      desired({
        workbooks: [
          dWorkbook('revenue-overview', {
            meta: { dashboardDraft: { widgets: [{ id: 'kpi', config: { reportId: { $report: 'revMrrTrnd01' } } }] } },
          }),
        ],
        reports: [dReport('revMrrTrnd01', { workbookId: { $workbook: 'sales-pipeline' } })],
      }),
      live({
        workbooks: [lWorkbook(101, 'revenue-overview'), lWorkbook(102, 'sales-pipeline')],
        reports: [lReport(41, 'revMrrTrnd01', { workbookId: 101 })],
      }),
      ctx(),
    );
    expect(p.warnings?.map((w) => w.message)).toEqual([
      'report/revMrrTrnd01 moves out of workbook/revenue-overview, whose dashboard still charts it (widget kpi): ' +
        'move or remove the chart, or keep the report in that workbook.',
    ]);
  });

  it('markdown: a moved report, its change at column 0', () => {
    const md = renderPlanMarkdown(moved());
    expect(md).toContain(
      '```diff\n- workbookId: { $workbook: revenue-overview }\n+ workbookId: { $workbook: sales-pipeline }\n```\n',
    );
    expect(md).toContain('> warning: report/revMrrTrnd01 moves out of workbook/revenue-overview');
  });
});

describe('markdown diffs GitHub colours', () => {
  it('every line of a diff fence starts with +, -, a space or @@ at column 0; hunk headers name the field', () => {
    const md = renderPlanMarkdown(samplePlan());
    // The first diff fence is the address list (its symbols: ~ update, → adopt); the details follow.
    const fences = [...md.matchAll(/(`{3,})diff\n([\s\S]*?)\1\n/g)].map((m) => m[2]!).slice(1);
    expect(fences.length).toBeGreaterThan(2);
    for (const body of fences) for (const line of body.slice(0, -1).split('\n')) expect(line).toMatch(/^([+\- ]|@@ )/);
    expect(md).toContain('@@ sqlQuery line 4 @@\n  select\n');
    expect(md).toContain('@@ jsonQuery: measures @@\n  measures:\n    - a\n+   - b\n');
    expect(md).not.toMatch(/@@ -\d/);
  });

  it('a new long value is its name then the value, YAML as the file writes it', () => {
    const p = plan(
      desired({
        reports: [dReport('newRep000001', { sqlQuery: 'select 1\nfrom t', jsonQuery: '{"measures":["a"],"limit":5}' })],
      }),
      live({}),
      ctx(),
    );
    expect(renderPlanMarkdown(p, { compact: false })).toContain(
      '```diff\n+ sqlQuery:\n+   select 1\n+   from t\n+ jsonQuery:\n+   measures:\n+     - a\n+   limit: 5\n```\n',
    );
  });
});

describe('unmanaged resources (--show-unmanaged)', () => {
  const withUnmanaged = () =>
    plan(
      desired({ reports: [dReport('revMrrTrnd01', { name: 'MRR' })] }),
      live({
        workbooks: [lWorkbook(3, 'other', { name: 'Other' }), lWorkbook(4, null, { name: 'Scratch' })],
        reports: [
          lReport(41, 'revMrrTrnd01', { name: 'MRR' }),
          lReport(90, 'uiMade00001x', { name: 'UI <b>report</b>' }),
        ],
      }),
      ctx({ environment: 'prod', listUnmanaged: true }),
    );

  it('human: kind, id, name (and slug or publicId) under the summary', () => {
    expect(renderPlanHuman(withUnmanaged(), plainStyle)).toBe(`\
No changes. The deployment matches the bundle.
1 unchanged, 3 unmanaged resources left alone.
Unmanaged resources (left alone):
  workbook 3  "Other"  (slug other)
  workbook 4  "Scratch"
  report 90  "UI <b>report</b>"  (publicId uiMade00001x)
`);
  });

  it('JSON: an `unmanaged` array; absent unless asked for', () => {
    expect(planJson(withUnmanaged()).unmanaged).toEqual([
      { kind: 'workbook', id: 3, name: 'Other', identity: 'other' },
      { kind: 'workbook', id: 4, name: 'Scratch' },
      { kind: 'report', id: 90, name: 'UI <b>report</b>', identity: 'uiMade00001x' },
    ]);
    expect('unmanaged' in planJson(samplePlan())).toBe(false);
  });

  it('markdown: a table, names escaped', () => {
    expect(renderPlanMarkdown(withUnmanaged())).toContain(`\
<details><summary>3 unmanaged resources (left alone)</summary>

| kind | id | name | slug or publicId |
|---|---:|---|---|
| workbook | 3 | <code>Other</code> | <code>other</code> |
| workbook | 4 | <code>Scratch</code> |  |
| report | 90 | <code>UI &lt;b&gt;report&lt;/b&gt;</code> | <code>uiMade00001x</code> |

</details>
`);
  });
});
