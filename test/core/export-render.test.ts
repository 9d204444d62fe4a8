// The export summary as the user reads it (human) and as scripts read it (JSON).
import { describe, expect, test } from 'vitest';
import type { ExportSummary } from '../../src/core/export/index.js';
import { renderExportHuman, renderExportJson, renderExportWarnings } from '../../src/render/export.js';
import { plainStyle } from '../../src/render/style.js';

const summary: ExportSummary = {
  deploymentId: 1,
  files: { workbooks: 2, reports: 14, userAttributes: 1 },
  adoptions: Array.from({ length: 12 }, (_, i) => ({
    file: `reports/old-${String(i).padStart(2, '0')}.yaml`,
    publicId: `Minted${String(i).padStart(6, '0')}`,
    reportId: 200 + i,
    reason: i === 11 ? ('shared' as const) : ('placeholder' as const),
    livePublicId: i === 11 ? 'sharedAAAAA1' : '000000legacy',
  })),
  derivedSlugs: [
    { file: 'workbooks/ops-board.yaml', slug: 'ops-board', workbookId: 11, name: 'Ops Board', reports: 3 },
  ],
  warnings: [
    {
      code: 'dangling-report',
      file: 'workbooks/sales.yaml',
      message: 'meta.dashboardDraft.widgets[2].config.reportId: report 999 is not part of this export; …',
    },
    {
      code: 'dangling-workbook',
      file: 'reports/twin-a.yaml',
      message: 'workbookId: workbook 12 is not part of this export; …',
    },
  ],
  published: [],
  written: ['reports/a.yaml'],
};
const facts = {
  outDir: 'exported',
  environment: 'default',
  configWritten: true,
  stale: ['reports/gone.yaml'],
  changed: 17,
};

describe('export summary', () => {
  test('human', () => {
    expect(renderExportHuman(summary, facts, plainStyle)).toMatchInlineSnapshot(`
      "Exported deployment 1 to exported: 2 workbooks, 14 reports, 1 user attribute (17 files).
      Wrote wsc.yaml: environment default, token read from WSC_TOKEN (never stored).

      12 reports had no stable publicId and got a new one with an adopt block.
      On apply to deployment 1, each live report is given its publicId (PUT /reports/{id}); nothing is created.
        reports/old-00.yaml: report 200 → Minted000000 (placeholder 000000legacy)
        reports/old-01.yaml: report 201 → Minted000001 (placeholder 000000legacy)
        reports/old-02.yaml: report 202 → Minted000002 (placeholder 000000legacy)
        reports/old-03.yaml: report 203 → Minted000003 (placeholder 000000legacy)
        reports/old-04.yaml: report 204 → Minted000004 (placeholder 000000legacy)
        reports/old-05.yaml: report 205 → Minted000005 (placeholder 000000legacy)
        reports/old-06.yaml: report 206 → Minted000006 (placeholder 000000legacy)
        reports/old-07.yaml: report 207 → Minted000007 (placeholder 000000legacy)
        reports/old-08.yaml: report 208 → Minted000008 (placeholder 000000legacy)
        reports/old-09.yaml: report 209 → Minted000009 (placeholder 000000legacy)
        … and 2 more (--output json lists all)

      1 workbook had no slug; export derived one from the name, with an adopt block.
      On apply to deployment 1, each live workbook is given its slug (PUT /workbooks/{id}); nothing is created
      and its reports stay where they are. In any other deployment the slug is created as usual.
        workbooks/ops-board.yaml: "Ops Board" (workbook 11) → slug ops-board (3 reports in it)

      2 warnings (on stderr):
        1 report ids kept as numbers (the report is not exported)
        1 workbook ids kept as numbers (the workbook is not exported)

      1 file in exported was not written by this export and will be read as part of the bundle:
        reports/gone.yaml

      Next: delete those files unless they belong in the bundle, then: wsc plan --dir exported (the adoptions show as "adopt"). To update a bundle kept in Git in place, with its files, comments and names, export with \`--into exported\` instead of \`--out\`.
      "
    `);
  });

  test('warnings, one per line', () => {
    expect(renderExportWarnings(summary.warnings, plainStyle)).toMatchInlineSnapshot(`
      "warning workbooks/sales.yaml: meta.dashboardDraft.widgets[2].config.reportId: report 999 is not part of this export; …
      warning reports/twin-a.yaml: workbookId: workbook 12 is not part of this export; …
      "
    `);
  });

  test('json lists everything, with a format version', () => {
    const j = JSON.parse(renderExportJson(summary, facts));
    expect(Object.keys(j)).toEqual([
      'formatVersion',
      'deploymentId',
      'outDir',
      'environment',
      'configWritten',
      'files',
      'adoptions',
      'derivedSlugs',
      'published',
      'warnings',
      'stale',
      'written',
      'changed',
    ]);
    expect(j.adoptions).toHaveLength(12);
    expect(j.formatVersion).toBe(1);
    expect(j.changed).toBe(17);
  });

  test('exported again over the same bundle: how many files were new or changed', () => {
    const first = renderExportHuman(summary, { ...facts, changed: 3 }, plainStyle).split('\n')[0];
    expect(first).toBe(
      'Exported deployment 1 to exported: 2 workbooks, 14 reports, 1 user attribute (17 files; 3 new or changed, 14 already up to date).',
    );
    expect(renderExportHuman(summary, { ...facts, changed: 0 }, plainStyle).split('\n')[0]).toMatch(
      /\(17 files; 0 new or changed, 17 already up to date\)\.$/,
    );
  });
});
