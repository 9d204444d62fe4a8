// The three-way decision of a dashboard draft, part by part: a widget moved
// in the UI and another changed in the bundle both survive one apply (the
// request carries the merged draft); only a part changed on both sides is a
// conflict; a record without parts decides on the whole draft.
import { describe, expect, test } from 'vitest';
import type { JsonValue } from '../../src/core/json.js';
import type { OwnershipContext } from '../../src/core/model.js';
import type { Plan, RecordSpec } from '../../src/core/plan-model.js';
import { draftParts, fieldHash, makeRecord, recordFor } from '../../src/core/ownership.js';
import { plan } from '../../src/core/plan/index.js';
import { ctx, desired, dWorkbook, live, lWorkbook } from './builders.js';

type Obj = { [k: string]: JsonValue };
const own: OwnershipContext = { bundle: 'team', prune: false };
const at = (x: number, y = 0): Obj => ({ x, y, w: 4, h: 3 });
const widget = (id: string, x: number, extra: Obj = {}): Obj => ({ id, type: 'TEXT', position: at(x), ...extra });
const base: Obj = {
  title: 'Sales',
  layout: { rowHeight: 40 },
  widgets: [widget('a', 0), widget('b', 4), widget('c', 8)],
};
const withWidgets = (d: Obj, widgets: Obj[], extra: Obj = {}): Obj => ({ ...d, widgets, ...extra });

/** The record an apply of `draft` leaves (this bundle, the draft in parts). */
function recordOf(draft: Obj, parts = true) {
  const fields = { 'meta.dashboardDraft': fieldHash('meta.dashboardDraft', draft) };
  return makeRecord({ bundle: 'team', fields, ...(parts ? { draft: draftParts(draft)! } : {}) });
}

function planDraft(file: Obj, liveDraft: Obj, record: unknown, o: OwnershipContext = own): Plan {
  const d = desired({ workbooks: [dWorkbook('sales', { meta: { dashboardDraft: file } })] });
  const l = live({ workbooks: [lWorkbook(1, 'sales', { meta: { dashboardDraft: liveDraft, wsc: record as never } })] });
  return plan(d, l, ctx({ ownership: o }));
}

function sentDraft(p: Plan): Obj {
  const op = p.changes[0]!.requests[0]!.operation as unknown as { body: { meta: { dashboardDraft: Obj } } };
  return op.body.meta.dashboardDraft;
}

describe('a draft merged part by part', () => {
  test('a widget moved in the UI and another changed in the bundle: one request carries both', () => {
    const uiDraft = withWidgets(base, [widget('a', 1), widget('b', 4), widget('c', 8)]);
    const fileDraft = withWidgets(base, [
      widget('a', 0),
      widget('b', 4, { config: { content: 'new' } }),
      widget('c', 8),
    ]);
    const p = planDraft(fileDraft, uiDraft, recordOf(base));
    const rc = p.changes[0]!;
    expect(rc.actions).toEqual(['update']);
    expect(rc.uiEdits).toBeUndefined();
    expect(rc.kept).toEqual(['meta.dashboardDraft widget a']);
    expect(sentDraft(p)['widgets']).toEqual([
      widget('a', 1),
      widget('b', 4, { config: { content: 'new' } }),
      widget('c', 8),
    ]);
    // the record keeps the file's parts: the UI's widget a is still told apart next time
    const spec = (rc.requests[0]!.operation as { record: RecordSpec }).record;
    expect(spec.draft).toEqual(draftParts(fileDraft));

    // after that apply: nothing to do, the UI edit still reported as kept
    const applied = recordFor(spec, {});
    const next = planDraft(fileDraft, sentDraft(p), applied);
    expect(next.changes[0]!.requests).toEqual([]);
    expect(next.changes[0]!.kept).toEqual(['meta.dashboardDraft widget a']);
  });

  test('the same widget changed on both sides is a conflict: blocked, named by widget', () => {
    const uiDraft = withWidgets(base, [widget('a', 1), widget('b', 4), widget('c', 8)]);
    const fileDraft = withWidgets(base, [widget('a', 2), widget('b', 4), widget('c', 8)]);
    const rc = planDraft(fileDraft, uiDraft, recordOf(base)).changes[0]!;
    expect(rc.actions).toEqual(['blocked']);
    expect(rc.uiEdits).toEqual(['meta.dashboardDraft widget a']);
    // with the flag, the file's widget wins
    const forced = planDraft(fileDraft, uiDraft, recordOf(base), { ...own, overwrite: ['workbook/sales'] });
    expect(sentDraft(forced)['widgets']).toEqual(fileDraft['widgets']);
  });

  test('a widget added in the UI stays where it was put; one removed in the bundle goes', () => {
    const uiDraft = withWidgets(base, [widget('a', 0), widget('ui', 2), widget('b', 4), widget('c', 8)]);
    const fileDraft = withWidgets(base, [widget('a', 0), widget('c', 8)]);
    const p = planDraft(fileDraft, uiDraft, recordOf(base));
    expect(p.changes[0]!.kept).toEqual(['meta.dashboardDraft widget ui']);
    expect((sentDraft(p)['widgets'] as Obj[]).map((w) => w['id'])).toEqual(['a', 'ui', 'c']);
  });

  test('a member changed in the UI and a layout entry in the bundle: both', () => {
    const uiDraft = { ...base, title: 'Sales (UI)' };
    const fileDraft = { ...base, layout: { rowHeight: 50 } };
    const p = planDraft(fileDraft, uiDraft, recordOf(base));
    expect(p.changes[0]!.kept).toEqual(['meta.dashboardDraft title']);
    expect(sentDraft(p)).toMatchObject({ title: 'Sales (UI)', layout: { rowHeight: 50 } });
  });

  test('widgets reordered in the UI, content changed in the bundle: the UI order, the bundle content', () => {
    const uiDraft = withWidgets(base, [widget('c', 8), widget('a', 0), widget('b', 4)]);
    const fileDraft = withWidgets(base, [widget('a', 0), widget('b', 5), widget('c', 8)]);
    const p = planDraft(fileDraft, uiDraft, recordOf(base));
    expect((sentDraft(p)['widgets'] as Obj[]).map((w) => [w['id'], (w['position'] as Obj)['x']])).toEqual([
      ['c', 8],
      ['a', 0],
      ['b', 5],
    ]);
  });

  test('a record of the first format (no parts): the whole draft is the unit, so both sides changing it conflict', () => {
    const uiDraft = withWidgets(base, [widget('a', 1), widget('b', 4), widget('c', 8)]);
    const fileDraft = withWidgets(base, [widget('a', 0), widget('b', 5), widget('c', 8)]);
    const rc = planDraft(fileDraft, uiDraft, recordOf(base, false)).changes[0]!;
    expect(rc.actions).toEqual(['blocked']);
    expect(rc.uiEdits).toEqual(['meta.dashboardDraft']);
  });
});
