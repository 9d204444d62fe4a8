// Export's small edges: file names of reports named only in CJK, the
// .gitignore an exported bundle gets, and how `--into` places an export in an
// existing bundle (matches by the bundle's identities, new files never over
// an existing one, references renamed to the bundle's ids).
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { tempDir } from '../helpers/temp-dir.js';
import { describe, expect, test } from 'vitest';
import { DirSink, GITIGNORE } from '../../src/bundle/write-files.js';
import { exportDeployment, type ExportSource } from '../../src/core/export/index.js';
import { freePath, MemorySink, placeExport, renameRefs } from '../../src/core/export/into.js';
import { reportFileRaw } from '../../src/core/export/names.js';
import { lReport, lWorkbook } from './builders.js';

const tmp = (): string => tempDir('wsc-export-edges-');

function source(reports: ReturnType<typeof lReport>[], workbooks: ReturnType<typeof lWorkbook>[] = []): ExportSource {
  return {
    workbooks: async function* () {
      yield workbooks;
    },
    reports: async function* () {
      yield reports;
    },
    userAttributes: async function* () {
      yield [];
    },
  };
}

const OPTS = { deploymentId: 1, workbooks: [], publicIds: 'as-is' as const };

describe('a report named only in CJK', () => {
  test.each([
    ['売上推移', 'revMrrTrnd01', 'revMrrTrnd01'],
    ['売上 2024', 'revMrrTrnd01', '売上 2024'],
    ['Umsätze', 'revMrrTrnd01', 'Umsätze'],
    ['---', 'revMrrTrnd01', '---'],
  ])('%s (publicId %s): named from %s', (name, pid, expected) => {
    expect(reportFileRaw(name, pid)).toBe(expected);
  });

  test('exports to reports/<publicId, lower-cased>.yaml; two such reports to two such files', async () => {
    const sink = new MemorySink();
    const summary = await exportDeployment(
      source([lReport(1, 'revMrrTrnd01', { name: '売上推移' }), lReport(2, 'revChurn0001', { name: '解約率' })]),
      sink,
      OPTS,
    );
    expect(summary.written).toEqual(['reports/revchurn0001.yaml', 'reports/revmrrtrnd01.yaml']);
    expect(sink.docs.get('reports/revmrrtrnd01.yaml')!.doc['name']).toBe('売上推移');
  });
});

describe('the .gitignore of an exported bundle', () => {
  test('holds .wsc/ when written; an existing one is left as it is', async () => {
    const dir = tmp();
    const sink = await DirSink.open(dir);
    expect(await sink.writeIfAbsent('.gitignore', GITIGNORE)).toBe(true);
    expect(readFileSync(join(dir, '.gitignore'), 'utf8')).toBe(GITIGNORE);
    expect(GITIGNORE.split('\n')).toContain('.wsc/');
    writeFileSync(join(dir, '.gitignore'), 'node_modules/\n');
    expect(await sink.writeIfAbsent('.gitignore', GITIGNORE)).toBe(false);
    expect(readFileSync(join(dir, '.gitignore'), 'utf8')).toBe('node_modules/\n');
  });

  test('a sink opened for --into makes no directory until a file goes into it', async () => {
    const dir = tmp();
    const sink = await DirSink.open(dir, { createDirs: false });
    expect(readdirSync(dir)).toEqual([]);
    await sink.writeDoc('report', 'reports/x.yaml', { kind: 'Report', publicId: 'revMrrTrnd01', name: 'x' });
    expect(readdirSync(dir)).toEqual(['reports']);
  });
});

describe('placing an export into a bundle (--into)', () => {
  test('managed resources are matched by live id and keep the bundle ids; new ones get free paths', async () => {
    const sink = new MemorySink();
    // Live ids the export shows: the bundle calls report 1 `bundleOwn01` (derived ids per deployment).
    await exportDeployment(
      source(
        [
          lReport(1, 'derived00001', { name: 'mrr', workbookId: 10 }),
          lReport(2, 'uiNewRep0001', { name: 'mrr', workbookId: 10 }),
        ],
        [
          lWorkbook(10, 'sales', {
            meta: {
              dashboardDraft: {
                kind: 'CLASSIC',
                title: 'Sales',
                widgets: [{ id: 'w', type: 'CHART', position: { x: 0, y: 0, w: 6, h: 4 }, config: { reportId: 1 } }],
              },
            },
          }),
        ],
      ),
      sink,
      OPTS,
    );
    const taken = new Set(['reports/mrr.yaml', 'reports/mrr-2.yaml']);
    const placed = placeExport(
      sink.docs,
      { reports: new Map([[1, 'bundleOwn01']]), workbooks: new Map([[10, 'sales']]), userAttributes: new Set() },
      {
        reportIdOfPublicId: new Map([
          ['derived00001', 1],
          ['uiNewRep0001', 2],
        ]),
        workbookIdOfSlug: new Map([['sales', 10]]),
      },
      taken,
    );
    expect([...placed.managed.keys()].sort()).toEqual(['report/bundleOwn01', 'workbook/sales']);
    expect(JSON.stringify(placed.managed.get('workbook/sales'))).toContain('{"$report":"bundleOwn01"}');
    expect(placed.created.map((c) => [c.address, c.rel])).toHaveLength(1);
    const created = placed.created[0]!;
    expect(created.address).toBe('report/uiNewRep0001');
    // The export named it reports/mrr.<hash>.yaml (two reports named mrr); that path is free in the bundle.
    expect(created.rel).toMatch(/^reports\/mrr\.[0-9a-f]{8}\.yaml$/);
    expect(created.doc['workbookId']).toEqual({ $workbook: 'sales' });
  });

  test('a path the bundle has is never reused: -2, -3, ... compared without case', () => {
    const taken = new Set(['reports/a.yaml', 'reports/a-2.yaml']);
    expect(freePath('reports/A.yaml', new Set(['reports/a.yaml']))).toBe('reports/A-2.yaml');
    expect(freePath('reports/a.yaml', taken)).toBe('reports/a-3.yaml');
    expect(taken.has('reports/a-3.yaml')).toBe(true);
  });

  test('per-deployment ids: a new report keeps the id it shows, with an adopt block saying so', () => {
    const doc = { kind: 'Report', publicId: 'uiNewRep0001', name: 'n' };
    const exported = new Map([['reports/n.yaml', { kind: 'report' as const, doc }]]);
    const placed = placeExport(
      exported,
      { reports: new Map(), workbooks: new Map(), userAttributes: new Set() },
      { reportIdOfPublicId: new Map([['uiNewRep0001', 7]]), workbookIdOfSlug: new Map(), perDeployment: 12 },
      new Set(),
    );
    expect(placed.created[0]!.doc['adopt']).toEqual({ deploymentId: 12, id: 7, publicId: 'uiNewRep0001' });
  });

  test('renameRefs renames only reference objects', () => {
    const v = { a: { $report: 'x' }, b: [{ $workbook: 'w' }], c: { $report: 'x', other: 1 }, d: 'x' };
    expect(renameRefs(v, new Map([['x', 'y']]), new Map([['w', 'v']]))).toEqual({
      a: { $report: 'y' },
      b: [{ $workbook: 'v' }],
      c: { $report: 'x', other: 1 },
      d: 'x',
    });
  });
});
