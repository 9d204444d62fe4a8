// A large bundle loads on a worker thread (bundle/load-off-thread.ts): the
// result must be the loader's, to the diagnostic and the position. Each case
// loads the same directory both ways and compares: the state, every
// diagnostic, the line `locate` gives and the file:line:col the semantic
// locator gives, on files written the ways users write them (a byte-order
// mark, CRLF, several documents with an empty one, variables, flow mappings,
// a query as text).
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadBundle, type LoadOptions } from '../../src/bundle/load.js';
import { loadBundleOffThread } from '../../src/bundle/load-off-thread.js';
import { sourceOf } from '../../src/bundle/desired.js';
import { addSecret, clearSecrets } from '../../src/redact.js';
import type { DesiredState } from '../../src/core/model.js';
import { bundle } from './tmp.js';

const opts: LoadOptions = { vars: { currency: 'EUR' }, env: { REGION: 'emea' }, mayHoldUnknownRefs: false };

/** `n` reports and a workbook charting each tenth of them, in the shapes users write. */
function largeBundle(n: number, extra: Record<string, string> = {}): Record<string, string> {
  const files: Record<string, string> = {};
  for (let i = 0; i < n; i++) {
    const id = `rep${String(i).padStart(9, '0')}`;
    const body =
      i % 3 === 0
        ? `kind: Report\npublicId: ${id}\nname: r${i}\njsonQuery:\n  measures: [orders.count]\n  dimensions: [orders.status]\n`
        : i % 3 === 1
          ? `kind: Report\r\npublicId: ${id}\r\nname: "r${i} \${vars.currency}"\r\njsonQuery: '{"measures":["orders.count","orders.total"]}'\r\n`
          : `\ufeff# a comment\n---\n---\nkind: Report\npublicId: ${id}\nname: r${i} \${env.REGION}\nfolder: Finance/Revenue\nmeta: { chart: { type: bar } }\n`;
    files[`reports/${id}.yaml`] = body;
  }
  for (let w = 0; w < Math.ceil(n / 10); w++) {
    const widgets = Array.from({ length: Math.min(10, n - w * 10) }, (_, k) => {
      const id = `rep${String(w * 10 + k).padStart(9, '0')}`;
      return `      - id: w${k}\n        type: CHART\n        position: { x: 0, y: ${k * 4}, w: 6, h: 4 }\n        config: { reportId: { $report: ${id} } }\n`;
    }).join('');
    files[`workbooks/wb-${w}.yaml`] =
      `kind: Workbook\nslug: wb-${w}\nname: Workbook ${w}\nmeta:\n  dashboardDraft:\n    kind: CLASSIC\n    widgets:\n${widgets}`;
  }
  files['user-attributes/region.yaml'] = 'kind: UserAttribute\nname: region\ntype: string\ndisplayName: Region\n';
  return { ...files, ...extra };
}

/** What of a resource a plan or the semantic check reads: its data, its lines, its member positions. */
function seen(d: DesiredState) {
  const at = (
    r: DesiredState['reports'][number] | DesiredState['workbooks'][number],
    path: (string | number)[],
    text?: { name: string; occurrence: number },
  ) => r.locate?.(path, text ? { text } : {});
  return {
    state: JSON.parse(JSON.stringify(d)) as unknown,
    lines: [...d.workbooks, ...d.reports, ...d.userAttributes].map((r) => [r.locate?.(['name']), r.locate?.(['kind'])]),
    members: d.reports.map((r) => [
      at(r, ['jsonQuery'], { name: 'orders.count', occurrence: 0 }),
      at(r, ['name'], undefined),
    ]),
    widgets: d.workbooks.map((w) => at(w, ['meta', 'dashboardDraft', 'widgets', 1, 'config', 'reportId'])),
  };
}

/** The files from which these tests load a bundle on the thread (wsc's own OFF_THREAD_FROM_FILES is larger). */
const FROM = 40;

async function both(dir: string, o: LoadOptions = opts) {
  const here = await loadBundle(dir, o);
  const there = await loadBundleOffThread(dir, o, FROM);
  return { here, there };
}

describe('a bundle loaded on a worker thread', () => {
  it('is the bundle loaded here: state, diagnostics, lines and member positions', async () => {
    const dir = bundle(largeBundle(FROM + 20));
    const { here, there } = await both(dir);
    // It did run on the worker: the resources crossed as data, without the loader's record of their documents.
    expect(sourceOf(here.desired.reports[0]!)).toBeDefined();
    expect(sourceOf(there.desired.reports[0]!)).toBeUndefined();
    expect(there.diagnostics).toEqual(here.diagnostics);
    expect(there.desired.reports).toHaveLength(FROM + 20);
    const a = seen(here.desired);
    const b = seen(there.desired);
    expect(b).toEqual(a);
    // Positions that say something: the BOM file's report has its name on line 6, after the empty documents.
    expect(b.members[2]![1]).toEqual({ file: 'reports/rep000000002.yaml', line: 6, col: 7 });
    expect(b.members[0]![0]).toEqual({ file: 'reports/rep000000000.yaml', line: 5, col: 14 });
  });

  it('reports every problem as the loader does, at the same file:line:col', async () => {
    const dir = bundle(
      largeBundle(FROM, {
        'reports/broken.yaml': 'kind: Report\npublicId: broken000001\nname: [unclosed\n',
        'reports/typo.yaml': 'kind: Report\npublicId: typo00000001\nnmae: x\n',
        'reports/vars.yaml': 'kind: Report\npublicId: vars00000001\nname: ${vars.nope}\n',
        'workbooks/ref.yaml':
          'kind: Workbook\nslug: ref\nname: r\nmeta:\n  dashboardDraft:\n    widgets:\n      - id: a\n        type: CHART\n        position: { x: 0, y: 0, w: 1, h: 1 }\n        config: { reportId: { $report: missing00001 } }\n',
      }),
    );
    const { here, there } = await both(dir);
    const errors = here.diagnostics.filter((d) => d.severity === 'error');
    expect(errors.map((d) => `${d.pos.file} ${d.rule}`).sort()).toEqual([
      'reports/broken.yaml yaml-syntax',
      'reports/typo.yaml unknown-key',
      'reports/vars.yaml undefined-variable',
    ]);
    // With a file unread, references are not checked (the loader's rule); with it mended they are, both ways.
    for (const f of ['broken', 'typo', 'vars'])
      writeFileSync(join(dir, `reports/${f}.yaml`), `kind: Report\npublicId: ${f.padEnd(12, '0')}\nname: mended\n`);
    const mended = await both(dir);
    expect(mended.here.diagnostics.map((d) => d.rule)).toContain('unknown-reference');
    expect(mended.there.diagnostics).toEqual(mended.here.diagnostics);
    expect(there.diagnostics).toEqual(here.diagnostics);
    expect(seen(there.desired)).toEqual(seen(here.desired));
  });

  it('refuses a variable holding a registered secret, as the loader does (the thread has its own registry)', async () => {
    clearSecrets();
    addSecret('tok-0123456789abcdef');
    try {
      const dir = bundle(
        largeBundle(FROM, {
          'reports/leak.yaml': 'kind: Report\npublicId: leak00000001\nname: ${env.LEAK}\n',
        }),
      );
      const o = { ...opts, env: { ...opts.env, LEAK: 'x tok-0123456789abcdef' } };
      const { here, there } = await both(dir, o);
      expect(here.diagnostics.map((d) => d.rule)).toContain('secret-variable');
      expect(there.diagnostics).toEqual(here.diagnostics);
    } finally {
      clearSecrets();
    }
  });

  it('a missing directory and a small bundle load on this thread', async () => {
    const missing = await loadBundleOffThread('/nonexistent/wsc-bundle', opts, FROM);
    expect(missing.diagnostics.map((d) => d.rule)).toEqual(['bundle-dir']);
    const small = await loadBundleOffThread(bundle(largeBundle(5)), opts, FROM);
    expect(sourceOf(small.desired.reports[0]!)).toBeDefined();
  });
});
