// plan and apply load a bundle below the worker thread's size in turns of the
// event loop (bundle/load.ts loadFoundInTurns), so that the deployment's
// reads, under way meanwhile, are answered as their pages come. The result
// must be the one-turn loader's, and the event loop must get its turns.
import { describe, expect, it } from 'vitest';
import { findBundleFiles, loadBundle, loadFoundInTurns, type LoadOptions } from '../../src/bundle/load.js';
import type { DocItem } from '../../src/bundle/checks.js';
import { bundle } from './tmp.js';

const opts: LoadOptions = { vars: { currency: 'EUR' }, env: {}, mayHoldUnknownRefs: false };

/** `n` reports (every seventh broken in its own way) and a workbook per ten of them. */
function files(n: number): Record<string, string> {
  const out: Record<string, string> = {};
  for (let i = 0; i < n; i++) {
    const id = `rep${String(i).padStart(9, '0')}`;
    out[`reports/${id}.yaml`] =
      i % 7 === 3
        ? `kind: Report\npublicId: ${id}\nnmae: typo ${i}\n`
        : i % 7 === 5
          ? `kind: Report\npublicId: rep000000000\nname: twin ${i}\n`
          : `kind: Report\npublicId: ${id}\nname: "r${i} \${vars.currency}"\njsonQuery:\n  measures: [orders.count]\n`;
  }
  for (let w = 0; w < Math.ceil(n / 10); w++)
    out[`workbooks/wb-${w}.yaml`] =
      `kind: Workbook\nslug: wb-${w}\nname: W${w}\nmeta:\n  dashboardDraft:\n    kind: CLASSIC\n    widgets:\n` +
      `      - id: a\n        type: CHART\n        position: { x: 0, y: 0, w: 6, h: 4 }\n` +
      `        config: { reportId: { $report: rep${String(w * 10).padStart(9, '0')} } }\n` +
      `      - id: b\n        type: CHART\n        position: { x: 6, y: 0, w: 6, h: 4 }\n` +
      `        config: { reportId: { $report: nowhere } }\n`;
  return out;
}

describe('a bundle loaded in turns', () => {
  it("is the one-turn loader's bundle: state and every diagnostic, in order", async () => {
    const dir = bundle(files(150));
    const once = await loadBundle(dir, opts);
    const inTurns = await loadFoundInTurns(await findBundleFiles(dir), opts);
    expect(once.diagnostics.filter((d) => d.severity === 'error').length).toBeGreaterThan(40);
    expect(inTurns.diagnostics).toEqual(once.diagnostics);
    expect(JSON.stringify(inTurns.desired)).toBe(JSON.stringify(once.desired));
    expect(inTurns.desired.reports.map((r) => r.locate?.(['name']))).toEqual(
      once.desired.reports.map((r) => r.locate?.(['name'])),
    );
  });

  it('lets the event loop run while it loads, and tells of each valid document as it comes', async () => {
    const dir = bundle(files(300));
    const found = await findBundleFiles(dir);
    let turns = 0;
    let running = true;
    const tick = () => {
      if (!running) return;
      turns++;
      setImmediate(tick);
    };
    setImmediate(tick);
    const told: DocItem[] = [];
    const loading = loadFoundInTurns(found, opts, (item) => told.push(item));
    const result = await loading;
    running = false;
    // Some 300 files take tens of milliseconds: in turns of about a millisecond, the loop ran between them.
    expect(turns).toBeGreaterThan(1);
    // In the order of the files (reports/ before workbooks/), each valid document once.
    expect(told.map((i) => `${i.kind} ${String(i.value['publicId'] ?? i.value['slug'])}`)).toEqual([
      ...result.desired.reports.map((r) => `Report ${r.publicId}`),
      ...result.desired.workbooks.map((w) => `Workbook ${w.slug}`),
    ]);
  });
});
