// The one locator (bundle/locate.ts): every place a resource made from a file
// is pointed at, file:line:col, for the plan (where a changed value is
// written) and the semantic check (where to report a member), on files as
// users write them: several documents, CRLF line ends, a BOM, flow mappings.
import { describe, expect, it } from 'vitest';
import { loadValidBundle } from '../../src/bundle/load.js';
import { bundle } from './tmp.js';

const opts = { vars: {}, env: {}, mayHoldUnknownRefs: false };
const loaded = async (files: Record<string, string>) => (await loadValidBundle(bundle(files), opts)).desired;

const REPORT = [
  'kind: Report',
  'publicId: revArrRgn001',
  'name: arr',
  'meta: { owner: ops, chart: { type: bar } }',
  'jsonQuery: \'{"measures": ["orders.count"], "dimensions": ["orders.count"]}\'',
  '',
].join('\n');

describe('the one locator: file:line:col', () => {
  it('in the second document of a file, at the key; undefined where the file writes nothing', async () => {
    const d = await loaded({
      'w.yaml': 'kind: Workbook\nslug: a\nname: A\n---\nkind: Workbook\nslug: b\n  # note\nname:   B\n',
    });
    const b = d.workbooks.find((w) => w.slug === 'b')!;
    expect(b.locate!(['name'])).toEqual({ file: 'w.yaml', line: 8, col: 1 });
    expect(b.locate!(['folderId'])).toBeUndefined();
    // Reported: the value, or the nearest written ancestor, never undefined.
    expect(b.locate!(['name'], {})).toEqual({ file: 'w.yaml', line: 8, col: 9 });
    expect(b.locate!(['meta', 'x'], {})).toEqual({ file: 'w.yaml', line: 5, col: 1 });
  });

  it('inside a flow mapping: the key of the member, its value, and a nested one', async () => {
    const r = (await loaded({ 'reports/r.yaml': REPORT })).reports[0]!;
    expect(r.locate!(['meta', 'owner'])).toEqual({ file: 'reports/r.yaml', line: 4, col: 9 });
    expect(r.locate!(['meta', 'owner'], {})).toEqual({ file: 'reports/r.yaml', line: 4, col: 16 });
    expect(r.locate!(['meta', 'chart', 'type'], { atKey: true })).toEqual({ file: 'reports/r.yaml', line: 4, col: 30 });
  });

  it('a name inside a query written as text: its n-th appearance from the value on', async () => {
    const r = (await loaded({ 'reports/r.yaml': REPORT })).reports[0]!;
    const at = (occurrence: number) => r.locate!(['jsonQuery'], { text: { name: 'orders.count', occurrence } });
    expect(at(0)).toEqual({ file: 'reports/r.yaml', line: 5, col: 28 });
    expect(at(1)).toEqual({ file: 'reports/r.yaml', line: 5, col: 60 });
    // No such appearance: the value itself.
    expect(at(2)).toEqual({ file: 'reports/r.yaml', line: 5, col: 12 });
  });

  it('CRLF line ends count as one line end: the same places as with LF', async () => {
    const lf = (await loaded({ 'reports/r.yaml': REPORT })).reports[0]!;
    const crlf = (await loaded({ 'reports/r.yaml': REPORT.replaceAll('\n', '\r\n') })).reports[0]!;
    for (const path of [['name'], ['meta', 'owner'], ['meta', 'chart', 'type']])
      expect(crlf.locate!(path)).toEqual(lf.locate!(path));
    const text = { text: { name: 'orders.count', occurrence: 1 } };
    expect(crlf.locate!(['jsonQuery'], text)).toEqual(lf.locate!(['jsonQuery'], text));
  });

  it('a BOM before the first line takes no column', async () => {
    const plain = (await loaded({ 'reports/r.yaml': REPORT })).reports[0]!;
    const bom = (await loaded({ 'reports/r.yaml': `\uFEFF${REPORT}` })).reports[0]!;
    expect(bom.locate!(['kind'])).toEqual({ file: 'reports/r.yaml', line: 1, col: 1 });
    for (const path of [['kind'], ['publicId'], ['meta', 'owner']])
      expect(bom.locate!(path)).toEqual(plain.locate!(path));
    expect(bom.locate!(['kind'], {})).toEqual(plain.locate!(['kind'], {}));
  });

  it('the locator is no field of the resource: a copy or a walk does not see it', async () => {
    const r = (await loaded({ 'reports/r.yaml': REPORT })).reports[0]!;
    expect(Object.keys(r)).not.toContain('locate');
    expect(JSON.parse(JSON.stringify(r))).not.toHaveProperty('locate');
  });
});
