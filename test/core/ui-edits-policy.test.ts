// The planner's UI-edits policy (issue 38), pure: under keep a part edited
// outside wsc is kept and listed as drift, under revert the file's draft is
// sent and the part listed as reverted, under block the resource is blocked;
// `--overwrite-ui-edits ADDR` is revert for that address only. Whatever the
// policy, drift lists exactly the parts edited outside wsc that differ from
// the file (a part the UI changed to the file's value is none).
import { describe, expect, test } from 'vitest';
import type { JsonValue } from '../../src/core/json.js';
import type { OwnershipContext } from '../../src/core/model.js';
import type { Plan } from '../../src/core/plan-model.js';
import { draftParts, fieldHash, makeRecord } from '../../src/core/ownership.js';
import { plan } from '../../src/core/plan/index.js';
import { ctx, desired, dWorkbook, live, lWorkbook } from './builders.js';

type Obj = { [k: string]: JsonValue };
const own: OwnershipContext = { bundle: 'team', prune: false };
const widget = (id: string, x: number, extra: Obj = {}): Obj => ({
  id,
  type: 'TEXT',
  position: { x, y: 0, w: 4, h: 3 },
  ...extra,
});
const base: Obj = { title: 'Sales', widgets: [widget('a', 0), widget('b', 4)] };
const record = makeRecord({
  bundle: 'team',
  fields: { 'meta.dashboardDraft': fieldHash('meta.dashboardDraft', base) },
  draft: draftParts(base)!,
});
// The UI moved widget a; the bundle changed widget b.
const uiDraft: Obj = { ...base, widgets: [widget('a', 8), widget('b', 4)] };
const newB = widget('b', 4, { config: { content: 'new' } });
const fileDraft: Obj = { ...base, widgets: [widget('a', 0), newB] };

function planWith(o: OwnershipContext, file = fileDraft, liveDraft = uiDraft): Plan {
  const d = desired({ workbooks: [dWorkbook('sales', { meta: { dashboardDraft: file } })] });
  const l = live({ workbooks: [lWorkbook(1, 'sales', { meta: { dashboardDraft: liveDraft, wsc: record } })] });
  return plan(d, l, ctx({ ownership: o }));
}

const sent = (p: Plan) =>
  (p.changes[0]!.requests[0]!.operation as unknown as { body: { meta: { dashboardDraft: Obj } } }).body.meta
    .dashboardDraft;

describe('the UI-edits policy', () => {
  test('keep: the moved widget is kept and listed as drift, the bundle change is sent', () => {
    const p = planWith(own);
    expect(p.uiEdits).toBe('keep');
    expect(p.drift).toEqual([
      {
        address: 'workbook/sales',
        field: 'meta.dashboardDraft widget a',
        live: widget('a', 8),
        bundle: widget('a', 0),
        changed: 'outside',
        apply: 'keep',
        file: 'workbooks/sales.yaml',
      },
    ]);
    expect(sent(p)['widgets']).toEqual([widget('a', 8), newB]);
  });

  test('revert: the file draft is sent whole; the moved widget is listed as reverted', () => {
    const p = planWith({ ...own, uiEdits: 'revert' });
    expect(p.changes[0]!.actions).toEqual(['update']);
    expect(p.changes[0]!.kept).toBeUndefined();
    expect(sent(p)).toEqual(fileDraft);
    expect(p.drift!.map((d) => [d.field, d.apply])).toEqual([['meta.dashboardDraft widget a', 'revert']]);
  });

  test('revert with only a UI edit: an update that writes the bundle back (it sent nothing before)', () => {
    const p = planWith({ ...own, uiEdits: 'revert' }, base);
    expect(p.changes[0]!.actions).toEqual(['update']);
    expect(sent(p)).toEqual(base);
    const kept = planWith(own, base);
    expect(kept.changes[0]!.requests).toEqual([]);
    expect(kept.drift!.map((d) => d.apply)).toEqual(['keep']);
  });

  test('block: any edit outside wsc blocks the resource, named, with the flag that reverts it', () => {
    const rc = planWith({ ...own, uiEdits: 'block' }).changes[0]!;
    expect(rc.actions).toEqual(['blocked']);
    expect(rc.uiEdits).toEqual(['meta.dashboardDraft widget a']);
    expect(rc.blocked).toEqual({
      reason: 'ui-edit',
      message: 'changed outside wsc since the last apply (uiEdits: block): meta.dashboardDraft widget a',
      flag: '--overwrite-ui-edits workbook/sales',
    });
    expect(rc.drift!.map((d) => d.apply)).toEqual(['blocked']);
    // nothing edited outside wsc: nothing blocks
    expect(planWith({ ...own, uiEdits: 'block' }, fileDraft, base).changes[0]!.actions).toEqual(['update']);
  });

  test('--overwrite-ui-edits ADDR is revert for that address, whatever the policy', () => {
    const named = planWith({ ...own, uiEdits: 'block', overwrite: ['workbook/sales'] });
    expect(sent(named)).toEqual(fileDraft);
    expect(named.drift!.map((d) => d.apply)).toEqual(['revert']);
    const other = planWith({ ...own, overwrite: ['workbook/other'] });
    expect(other.drift!.map((d) => d.apply)).toEqual(['keep']);
  });

  test('a conflict (both moved widget a) is drift changed by both; keep blocks it', () => {
    const both: Obj = { ...base, widgets: [widget('a', 2), widget('b', 4)] };
    const p = planWith(own, both);
    expect(p.changes[0]!.actions).toEqual(['blocked']);
    expect(p.drift!.map((d) => [d.field, d.changed, d.apply])).toEqual([
      ['meta.dashboardDraft widget a', 'both', 'blocked'],
    ]);
  });

  test('a part the UI changed to what the file now says is no drift', () => {
    const same: Obj = { ...base, widgets: [widget('a', 8), widget('b', 4)] };
    const p = planWith(own, same, same);
    expect(p.drift).toBeUndefined();
    // only the record catches up with the file
    expect(p.changes[0]!.actions).toEqual(['record']);
  });
});
