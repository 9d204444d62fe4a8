// The loader's DesiredState: identities, partial ownership, references,
// variables, and the cross-file warnings.
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadBundle, loadValidBundle } from '../../src/bundle/load.js';
import { resolveConfig } from '../../src/config/resolve.js';
import { readSettings } from '../../src/env.js';
import { BundleError } from '../../src/errors.js';
import { bundle } from './tmp.js';

const example = resolve(import.meta.dirname, '../../fixtures/example');
const opts = { vars: {}, env: {}, mayHoldUnknownRefs: false };

describe('the example bundle', () => {
  it("loads clean in every environment, with that environment's vars", async () => {
    for (const name of ['local', 'staging', 'production']) {
      const config = { dir: example, flags: { env: name }, settings: readSettings({}), connects: false };
      const env = (await resolveConfig(config)).environment;
      const { desired, diagnostics } = await loadBundle(example, {
        vars: env.vars,
        env: {},
        mayHoldUnknownRefs: env.mayHoldUnknownRefs,
      });
      expect(diagnostics).toEqual([]);
      // Named by path: the same in every environment, no per-environment id.
      expect(desired.workbooks.map((w) => w.folder)).toEqual([0, 1, 2].map(() => ['Finance', 'Revenue analytics']));
    }
  });

  it('yields addresses in file order, partial fields, refs kept, jsonQuery as JSON text', async () => {
    const { desired } = await loadValidBundle(example, {
      ...opts,
      vars: { financeFolderId: null, currency: 'USD', fiscalYearStartMonth: 2 },
    });
    expect(desired.workbooks.map((w) => [w.address, w.publish])).toEqual([
      ['workbook/customer-health', false],
      ['workbook/revenue-overview', true],
      ['workbook/sales-pipeline', true],
    ]);
    expect(desired.reports.map((r) => r.address)).toEqual([
      'report/revArrRgn001',
      'report/chrnRate0001',
      'report/chrnCohort01',
      'report/hlthScore001',
      'report/revMrrTrnd01',
      'report/revNrrKpi001',
      'report/pipeStage001',
      'report/pipeWinRt001',
      'report/pipeCycle001',
      'report/revTopAcct01',
    ]);
    expect(desired.userAttributes).toEqual([
      {
        address: 'user-attribute/sales_region',
        name: 'sales_region',
        type: 'string',
        fields: {
          displayName: 'Sales region',
          description: 'Region a user may see in revenue dashboards (row-level security); ALL for leadership.',
          defaultValue: 'ALL',
        },
        pos: { file: 'user-attributes/region.yaml', line: 3, col: 1 },
      },
    ]);
    const arr = desired.reports[0]!;
    expect(Object.keys(arr.fields)).toEqual(['name', 'title', 'workbookId', 'jsonQuery', 'pivotItems']);
    expect(arr.source).toBe('PLAYGROUND');
    expect(arr.fields.workbookId).toEqual({ $workbook: 'revenue-overview' });
    expect(arr.fields.jsonQuery).toBe(
      '{"measures":["subscriptions.arr"],"dimensions":["accounts.region"],"timeDimensions":[{"dimension":"subscriptions.billing_date","dateRange":"This fiscal year"}],"order":{"subscriptions.arr":"desc"}}',
    );
    expect(arr.pos).toEqual({ file: 'reports/arr-by-region.yaml', line: 3, col: 1 });
    const overview = desired.workbooks[1]!;
    const widgets = (overview.fields.meta!['dashboardDraft'] as { widgets: { id: string; config?: unknown }[] })
      .widgets;
    expect(widgets.find((w) => w.id === 'mrr-trend')!.config).toEqual({
      reportId: { $report: 'revMrrTrnd01' },
      visualization: 'line',
    });
    expect((widgets[0]!.config as { content: string }).content).toBe(
      '## Revenue overview\nAll amounts in USD; fiscal year starts in month 2.',
    );
  });
});

describe('loader rules', () => {
  it('normalises slugs, defaults publish to false, keeps only written fields', async () => {
    const dir = bundle({
      'w.yaml': 'kind: Workbook\nslug: "  Revenue-Overview "\nname: R\n---\nkind: Workbook\nslug: b\nfolderId: null\n',
    });
    const { desired } = await loadValidBundle(dir, opts);
    // A key's line; a path the file does not write has none.
    expect([desired.workbooks[0]!.locate!(['name'])?.line, desired.workbooks[1]!.locate!(['name'])]).toEqual([
      3,
      undefined,
    ]);
    expect(desired.workbooks).toEqual([
      {
        address: 'workbook/revenue-overview',
        slug: 'revenue-overview',
        fields: { name: 'R' },
        publish: false,
        pos: { file: 'w.yaml', line: 2, col: 1 },
      },
      {
        address: 'workbook/b',
        slug: 'b',
        fields: { folderId: null },
        publish: false,
        pos: { file: 'w.yaml', line: 6, col: 1 },
      },
    ]);
  });

  it.each([
    ['${vars.n}', { n: 7 }, {}, 7],
    ['${vars.flag}', { flag: true }, {}, true],
    ['${vars.none}', { none: null }, {}, null],
    ['"id ${vars.n}!"', { n: 7 }, {}, 'id 7!'],
    ['${env.HOME_DIR}', {}, { HOME_DIR: '/home/a' }, '/home/a'],
    ['"a $${vars.n} b"', { n: 7 }, {}, 'a ${vars.n} b'],
    ['"${ vars.n }"', { n: 7 }, {}, 7],
  ])('interpolates %s', async (written, vars, env, expected) => {
    const dir = bundle({ 'w.yaml': `kind: Workbook\nslug: a\nmeta:\n  v: ${written}\n` });
    const { desired, diagnostics } = await loadBundle(dir, { vars, env, mayHoldUnknownRefs: false });
    expect(diagnostics).toEqual([]);
    expect(desired.workbooks[0]!.fields.meta).toEqual({ v: expected });
  });

  it('reports undefined and malformed variables at their column', async () => {
    const dir = bundle({ 'w.yaml': 'kind: Workbook\nslug: a\nname: "x ${env.NOPE} ${oops}"\n' });
    const { diagnostics } = await loadBundle(dir, opts);
    expect(diagnostics.map((d) => [d.rule, d.message, d.pos.line, d.pos.col])).toEqual([
      ['undefined-variable', 'undefined variable `${env.NOPE}`: the environment variable NOPE is not set', 3, 10],
      ['bad-variable', '`${oops}` is not a variable reference', 3, 22],
    ]);
  });

  it.each(['WSC_TOKEN', 'WSC_STAGING_TOKEN', 'DB_PASSWORD', 'github_secret', 'OPENAI_API_KEY'])(
    'refuses ${env.%s}: a secret would reach dashboards and printed plans',
    async (name) => {
      const dir = bundle({ 'w.yaml': `kind: Workbook\nslug: a\nname: \${env.${name}}\n` });
      const { diagnostics, desired } = await loadBundle(dir, {
        vars: {},
        env: { [name]: 'sekrit-value' },
        mayHoldUnknownRefs: false,
      });
      expect(diagnostics.map((d) => [d.rule, d.message, d.pos.line, d.pos.col])).toEqual([
        ['secret-variable', `\`\${env.${name}}\` cannot be used in a bundle: it looks like a secret`, 3, 7],
      ]);
      expect(JSON.stringify(desired)).not.toContain('sekrit-value');
    },
  );

  it('warns about overlapping widgets and widgets wider than the columns; containers may overlap', async () => {
    const dir = bundle({
      'w.yaml': [
        'kind: Workbook',
        'slug: a',
        'meta:',
        '  dashboardDraft:',
        '    layout: { cols: { lg: 10 } }',
        '    widgets:',
        '      - { id: box, type: CONTAINER, position: { x: 0, y: 0, w: 10, h: 10 } }',
        '      - { id: a, type: TEXT, position: { x: 0, y: 0, w: 6, h: 2 } }',
        '      - { id: b, type: TEXT, position: { x: 5, y: 1, w: 6, h: 2 } }',
        '',
      ].join('\n'),
      'v.yaml':
        'kind: Workbook\nslug: v\nmeta:\n  dashboardDraft:\n    widgets:\n      - { id: wide, type: CHART, position: { x: 8, y: 0, w: 6, h: 2 } }\n',
    });
    const { diagnostics } = await loadBundle(dir, opts);
    expect(
      diagnostics.map((d) => `${d.severity} ${d.rule} ${d.pos.file}:${d.pos.line}:${d.pos.col} ${d.message}`),
    ).toEqual([
      "warning widget-out-of-bounds v.yaml:6:34 widget `wide` ends at column 14 (x 8 + w 6), beyond the dashboard's 12 columns (the default when layout.cols.lg is not set)",
      "warning widget-out-of-bounds w.yaml:9:30 widget `b` ends at column 11 (x 5 + w 6), beyond the dashboard's 10 columns (layout.cols.lg)",
      'warning widget-overlap w.yaml:9:30 widget `b` overlaps widget `a` (w.yaml:8:30)',
    ]);
  });

  it('a reference outside the bundle is a warning when the target may hold it', async () => {
    const files = { 'r.yaml': 'kind: Report\npublicId: abcdefabcdef\nworkbookId: { $workbook: Elsewhere }\n' };
    const strict = await loadBundle(bundle(files), opts);
    expect(strict.diagnostics.map((d) => [d.severity, d.message])).toEqual([
      ['error', 'workbook `elsewhere` is not in the bundle'],
    ]);
    const lenient = await loadBundle(bundle(files), { ...opts, mayHoldUnknownRefs: true });
    expect(lenient.diagnostics.map((d) => [d.severity, d.message])).toEqual([
      ['warning', 'workbook `elsewhere` is not in the bundle; plan will check the target'],
    ]);
  });

  it('rejects malformed references anywhere in meta', async () => {
    const dir = bundle({
      'r.yaml':
        'kind: Report\npublicId: abcdefabcdef\nmeta:\n  a: { $report: abcdefabcdef, x: 1 }\n  b: [{ $reprot: abcdefabcdef }]\n  c: { $workbook: "" }\n  d: { $report: short }\n',
    });
    const { diagnostics } = await loadBundle(dir, opts);
    expect(diagnostics.map((d) => `${d.pos.line}:${d.pos.col} ${d.message}`)).toEqual([
      '4:31 a reference holds only `$report`; unexpected key `x`',
      '5:9 unknown reference key `$reprot` (did you mean `$report`?)',
      '6:19 `$workbook` must name a slug, got an empty string',
      '7:17 `$report` must be a publicId of exactly 12 characters of [0-9A-Za-z], got "short"',
    ]);
  });

  it('loadValidBundle throws a BundleError (exit 3) carrying every diagnostic', async () => {
    const dir = bundle({ 'a.yaml': 'kind: Workbook\nslug: a\nnmae: x\n', 'b.yaml': 'kind: Report\npublicId: bad\n' });
    const e = await loadValidBundle(dir, opts).catch((x: unknown) => x);
    expect(e).toBeInstanceOf(BundleError);
    expect((e as BundleError).exitCode).toBe(3);
    expect((e as BundleError).diagnostics).toHaveLength(2);
  });

  it('user attributes: duplicates by name are errors', async () => {
    const dir = bundle({
      'u.yaml': 'kind: UserAttribute\nname: region\n---\nkind: UserAttribute\nname: region\nid: 4\n',
    });
    const { diagnostics } = await loadBundle(dir, opts);
    expect(diagnostics.map((d) => `${d.rule} ${d.pos.line}:${d.pos.col} ${d.message}`)).toEqual([
      'duplicate-user-attribute 5:1 duplicate user attribute `region`, also defined at u.yaml:2:1',
    ]);
  });
});
