// The ownership record's format: what it keeps (fields, a draft in parts,
// name and file), what reads as a record and what does not (missing,
// malformed, forged), the first format still read, and the questions
// `changedOutside` answers for the planner and `export --into`.
import { createHash } from 'node:crypto';
import { describe, expect, test } from 'vitest';
import { canonicalJson } from '../../src/core/canonical.js';
import {
  changedOutside,
  draftParts,
  fieldHash,
  makeRecord,
  readRecord,
  recordFor,
  withRecord,
} from '../../src/core/ownership.js';
import { plan } from '../../src/core/plan/index.js';
import type { JsonValue } from '../../src/core/json.js';
import type { RecordSpec } from '../../src/core/plan-model.js';
import { ctx, desired, dWorkbook, live, lWorkbook } from './builders.js';

const box = (x: number, y = 0) => ({ x, y, w: 4, h: 3 });
type Obj = { [k: string]: JsonValue };
const widgetA: Obj = { id: 'a', type: 'CHART', position: box(0), config: { reportId: 7 } };
const widgetB: Obj = { id: 'b', type: 'TEXT', position: box(4), config: { content: 'hi' } };
const draft = (over: Obj = {}): Obj & { widgets: Obj[] } => ({
  title: 'Sales',
  layout: { cols: { lg: 12 }, rowHeight: 40 },
  widgets: [widgetA, widgetB],
  ...over,
});
const withDraft = (d: unknown, record: unknown) => ({ meta: { dashboardDraft: d, wsc: record } });
const sha16 = (s: string) => createHash('sha256').update(s).digest('hex').slice(0, 16);

describe('reading a record', () => {
  const good = makeRecord({ bundle: 'team', fields: { name: fieldHash('name', 'N') }, name: 'N', file: 'w.yaml' });

  test('a record wsc wrote reads back whole', () => {
    expect(readRecord({ meta: { wsc: good } })).toEqual({
      state: 'record',
      record: { bundle: 'team', hash: good.hash, fields: good.fields, name: 'N', file: 'w.yaml' },
    });
  });

  test('the first format (bundle, hash of the fields, fields) is still read', () => {
    const fields = { name: fieldHash('name', 'N') };
    const old = { bundle: 'team', hash: sha16(canonicalJson(fields)), fields };
    expect(readRecord({ meta: { wsc: old } })).toEqual({ state: 'record', record: old });
  });

  test.each([
    ['a string', 'x', 'it is not an object'],
    ['a number as bundle', { bundle: 5 }, 'it names no bundle'],
    ['an array', [1, 2], 'it is not an object'],
    ['no hashes', { bundle: 'team', hash: '0' }, 'its hashes are missing or not strings'],
    ['a forged hash', { bundle: 'team', hash: '0', fields: {} }, 'its hash does not match its content'],
    ['an edited field hash', { ...good, fields: { name: fieldHash('name', 'M') } }, 'its hash does not match'],
    ['a changed bundle', { ...good, bundle: 'other' }, 'its hash does not match its content'],
    ['an unknown version', { ...good, v: 9 }, 'its format (v: 9) is unknown'],
  ])('%s is malformed, not a record', (_, value, why) => {
    const r = readRecord({ meta: { wsc: value } });
    expect(r.state).toBe('malformed');
    expect(r.state === 'malformed' && r.why).toContain(why);
  });

  test('no meta, or meta without the key, is a missing record', () => {
    expect(readRecord({})).toEqual({ state: 'missing' });
    expect(readRecord({ meta: { other: 1 } })).toEqual({ state: 'missing' });
  });
});

describe('a draft in parts', () => {
  test('one hash per widget (by id), layout entry and member, and one for the order', () => {
    const p = draftParts(draft())!;
    expect(Object.keys(p.widgets)).toEqual(['a', 'b']);
    expect(Object.keys(p.layout).sort()).toEqual(['cols', 'rowHeight']);
    expect(Object.keys(p.members)).toEqual(['title']);
    const moved = draftParts(draft({ widgets: [{ ...widgetA, position: box(8) }, widgetB] }))!;
    expect(moved.widgets['a']).not.toBe(p.widgets['a']);
    expect(moved.widgets['b']).toBe(p.widgets['b']);
    expect(moved.layout).toEqual(p.layout);
    const swapped = draftParts(draft({ widgets: [widgetB, widgetA] }))!;
    expect(swapped.widgets).toEqual(p.widgets);
    expect(swapped.order).not.toBe(p.order);
  });

  test('null members count as absent; a draft whose widgets lack ids or repeat one has no parts', () => {
    expect(draftParts(draft({ description: null }))).toEqual(draftParts(draft()));
    expect(draftParts({ widgets: [{ type: 'TEXT', position: box(0) }] })).toBeUndefined();
    const twice = { widgets: [widgetA, widgetA] };
    expect(draftParts(twice)).toBeUndefined();
    expect(draftParts('x')).toBeUndefined();
  });
});

describe('what changed outside wsc', () => {
  const spec: RecordSpec = {
    bundle: 'team',
    fields: { name: fieldHash('name', 'Sales'), 'meta.dashboardDraft': fieldHash('meta.dashboardDraft', draft()) },
    draft: draftParts(draft()),
  };
  const record = recordFor(spec, {});

  test('a widget moved in the UI: that widget, and the draft field', () => {
    const moved = draft({ widgets: [{ ...widgetA, position: box(8) }, widgetB] });
    expect(changedOutside(record, { name: 'Sales', ...withDraft(moved, record) })).toEqual({
      fields: ['meta.dashboardDraft'],
      draft: { widgets: ['a'], layout: [], members: [], order: false },
    });
  });

  test('a widget added and one removed, a layout entry and a member changed, a field renamed', () => {
    const edited = draft({
      title: 'Sales (UI)',
      layout: { cols: { lg: 12 }, rowHeight: 50 },
      widgets: [widgetA, { id: 'c', type: 'DIVIDER', position: box(0, 4) }],
    });
    expect(changedOutside(record, { name: 'Renamed', ...withDraft(edited, record) })).toEqual({
      fields: ['meta.dashboardDraft', 'name'],
      draft: { widgets: ['b', 'c'], layout: ['rowHeight'], members: ['title'], order: false },
    });
  });

  test('nothing changed: nothing; a live draft without ids: every recorded part', () => {
    expect(changedOutside(record, { name: 'Sales', ...withDraft(draft(), record) })).toEqual({
      fields: [],
      draft: { widgets: [], layout: [], members: [], order: false },
    });
    const noIds = { widgets: [{ type: 'TEXT', position: box(0) }] };
    expect(changedOutside(record, { name: 'Sales', ...withDraft(noIds, record) }).draft).toEqual({
      widgets: ['a', 'b'],
      layout: ['cols', 'rowHeight'],
      members: ['title'],
      order: true,
    });
  });

  test('a first-format record: fields only (the caller decides per field)', () => {
    const fields = { 'meta.dashboardDraft': fieldHash('meta.dashboardDraft', draft()) };
    const old = { bundle: 'team', hash: sha16(canonicalJson(fields)), fields };
    const moved = draft({ widgets: [{ ...widgetA, position: box(8) }, widgetB] });
    expect(changedOutside(old, withDraft(moved, old))).toEqual({ fields: ['meta.dashboardDraft'] });
  });
});

describe('the record a write carries', () => {
  test('values are hashed as given (the executor resolves them first), parts from a draft value', () => {
    const body = withRecord(
      { name: 'N' },
      { bundle: 'team', fields: { name: null }, values: { 'meta.dashboardDraft': draft(), folderId: 12 } },
    );
    const r = readRecord(body);
    expect(r.state).toBe('record');
    if (r.state !== 'record') return;
    expect(r.record.fields).toEqual({
      folderId: fieldHash('folderId', 12),
      'meta.dashboardDraft': fieldHash('meta.dashboardDraft', draft()),
      name: fieldHash('name', 'N'),
    });
    expect(r.record.draft).toEqual(draftParts(draft()));
  });

  test('a workbook whose folder and draft are written by two requests: the later one records both', () => {
    const d = desired({
      workbooks: [
        dWorkbook('sales', {
          name: 'Sales',
          folderId: { $folder: 'Finance' } as never,
          meta: { dashboardDraft: { widgets: [{ id: 'x', type: 'CHART', position: box(0), config: {} }] } },
        }),
      ],
    });
    const p = plan(d, live({}), ctx({ ownership: { bundle: 'team', prune: false } }));
    const writes = p.changes.find((c) => c.address === 'workbook/sales')!.requests;
    const records = writes.flatMap((r) => ('record' in r.operation && r.operation.record ? [r.operation.record] : []));
    expect(records.at(-1)!.values).toMatchObject({ folderId: { $folder: 'Finance' } });
    expect(records.at(-1)!.name).toBe('Sales');
    expect(records.at(-1)!.file).toBe('workbooks/sales.yaml');
  });

  test('an unchanged resource whose record says the same is left alone, also when the file moved', () => {
    const d = desired({ workbooks: [dWorkbook('sales', { name: 'Sales', meta: { dashboardDraft: draft() } })] });
    const rec = makeRecord({
      bundle: 'team',
      fields: { 'meta.dashboardDraft': fieldHash('meta.dashboardDraft', draft()), name: fieldHash('name', 'Sales') },
      draft: draftParts(draft())!,
      file: 'elsewhere.yaml',
    });
    const l = live({
      workbooks: [lWorkbook(1, 'sales', { name: 'Sales', meta: { dashboardDraft: draft(), wsc: rec } })],
    });
    const p = plan(d, l, ctx({ ownership: { bundle: 'team', prune: false } }));
    expect(p.changes[0]!.requests).toEqual([]);
  });
});
