// The one widget-identity rule (src/core/widget-identity.ts), each case
// decided once and followed through all four that match widgets: the plan's
// diff, the ownership record (its parts, and what changed outside wsc), the
// three-way decision of a plan, and export's merge. Empty, missing and
// repeated ids make the draft one value in all four; a renamed id is one
// widget removed and one added in all four (and a change outside wsc the
// record sees); `__proto__` and `constructor` are ids like any other.
import { describe, expect, test } from 'vitest';
import type { JsonValue } from '../../src/core/json.js';
import type { OwnershipContext } from '../../src/core/model.js';
import type { Plan, ResourceChange } from '../../src/core/plan-model.js';
import { changedOutside, draftParts, fieldHash, makeRecord, type OwnershipRecord } from '../../src/core/ownership.js';
import { diffDashboard } from '../../src/core/plan/dashboard-diff.js';
import { plan } from '../../src/core/plan/index.js';
import { mergeResource } from '../../src/core/export/merge.js';
import {
  isWidgetList,
  namedWidgets,
  usableWidgetId,
  widgetLabel,
  widgetsById,
} from '../../src/core/widget-identity.js';
import { dashboardMembers } from '../../src/core/semantic/members.js';
import { ctx, desired, dWorkbook, live, lWorkbook } from './builders.js';

type Obj = { [k: string]: JsonValue };
const DRAFT = 'meta.dashboardDraft';
const names = { byId: () => undefined, title: () => undefined };
const widget = (id: string | undefined, x: number, extra: Obj = {}): Obj => ({
  ...(id === undefined ? {} : { id }),
  type: 'TEXT',
  position: { x, y: 0, w: 2, h: 2 },
  ...extra,
});
const draftOf = (...widgets: Obj[]): Obj => ({ title: 'Sales', widgets });

function recordOf(draft: Obj): OwnershipRecord {
  return makeRecord({ bundle: 'team', fields: { [DRAFT]: fieldHash(DRAFT, draft) }, draft: draftParts(draft)! });
}

/** The plan of a file's draft against a live one that carries the record of `base`. */
function planOf(file: Obj, liveDraft: Obj, base: Obj): Plan {
  const own: OwnershipContext = { bundle: 'team', prune: false };
  const d = desired({ workbooks: [dWorkbook('sales', { meta: { dashboardDraft: file } })] });
  const meta = { dashboardDraft: liveDraft, wsc: recordOf(base) as never };
  return plan(d, live({ workbooks: [lWorkbook(1, 'sales', { meta })] }), ctx({ ownership: own }));
}

function sent(p: Plan): Obj | undefined {
  const op = p.changes[0]!.requests[0]?.operation as { body?: { meta?: { dashboardDraft?: Obj } } } | undefined;
  return op?.body?.meta?.dashboardDraft;
}

/** export --into of the workbook: the file's draft, the live one (as export writes it), the record of `base`. */
function exportMerge(file: Obj, liveDraft: Obj, base: Obj) {
  const change: ResourceChange = {
    address: 'workbook/sales',
    kind: 'workbook',
    actions: ['update'],
    changes: [{ path: DRAFT, before: liveDraft, after: file }],
    requests: [],
  };
  const exported = { meta: { dashboardDraft: { ...liveDraft, widgets: namedWidgets(liveDraft['widgets'] as Obj[]) } } };
  return mergeResource({
    change,
    record: recordOf(base),
    live: { meta: { dashboardDraft: liveDraft } },
    exported,
    raw: { meta: { dashboardDraft: file } },
    rendered: { meta: { dashboardDraft: file } },
  });
}

const base = draftOf(widget('a', 0), widget('b', 2), widget('c', 4));

describe('widgets that cannot be told apart by id: the draft is one value in all four', () => {
  test.each([
    ['an empty id', widget('', 6)],
    ['a white-space id', widget('  ', 6)],
    ['a repeated id', widget('b', 6)],
    ['no id', widget(undefined, 6)],
  ])('%s added in the UI', (_, odd) => {
    const uiDraft = draftOf(widget('a', 0), widget('b', 2), widget('c', 4), odd);
    // the rule
    expect(widgetsById(uiDraft)).toBeUndefined();
    expect(isWidgetList(uiDraft['widgets'])).toBe(false);
    // plan: no widget-by-widget diff (the plan shows lines)
    expect(diffDashboard(uiDraft, base, names)).toBeUndefined();
    // ownership: no parts; every recorded part counts as changed outside
    expect(draftParts(uiDraft)).toBeUndefined();
    const outside = changedOutside(recordOf(base), { meta: { dashboardDraft: uiDraft } });
    expect(outside.fields).toEqual([DRAFT]);
    expect(outside.draft).toMatchObject({ widgets: ['a', 'b', 'c'], order: true });
    // three-way: only the UI changed it: kept whole, nothing sent
    const kept = planOf(base, uiDraft, base);
    expect(kept.changes[0]!.kept).toEqual([DRAFT]);
    expect(kept.changes[0]!.actions).toEqual(['noop']);
    // both changed it: one conflict over the whole draft
    const both = planOf(draftOf(widget('a', 1), widget('b', 2), widget('c', 4)), uiDraft, base);
    expect(both.changes[0]!.uiEdits).toEqual([DRAFT]);
    expect(both.changes[0]!.actions).toEqual(['blocked']);
  });

  test('export names a widget whose id is empty or repeated, so the file can hold it; a file that names them wins', () => {
    expect(namedWidgets([widget('a', 0), widget('', 2), widget('a', 4), widget(undefined, 6)])).toEqual([
      widget('a', 0),
      widget('widget-2', 2),
      widget('widget-3', 4),
      widget(undefined, 6),
    ]);
    const uiDraft = draftOf(widget('a', 0), widget('b', 2), widget('c', 4), widget('', 6));
    const m = exportMerge(base, uiDraft, base);
    expect(m.taken).toContain('meta.dashboardDraft.widgets[widget-4]');
    expect(m.conflicts).toEqual([]);
    // The file now names it: the plan writes the name (nothing else differs), not a conflict.
    const named = draftOf(widget('a', 0), widget('b', 2), widget('c', 4), widget('widget-4', 6));
    const p = planOf(named, uiDraft, base);
    expect(p.changes[0]!.uiEdits).toBeUndefined();
    expect(sent(p)?.['widgets']).toEqual(named['widgets']);
  });
});

describe('a renamed id is one widget removed and one added, a change like any other', () => {
  const renamed = draftOf(widget('a', 0), widget('b2', 2), widget('c', 4));

  test('in the UI: seen by the record, kept and said by the plan, taken by export', () => {
    expect(diffDashboard(base, renamed, names)!.widgets.map((w) => [w.widget, w.change])).toEqual([
      ['b2', 'added'],
      ['b', 'removed'],
    ]);
    const outside = changedOutside(recordOf(base), { meta: { dashboardDraft: renamed } });
    expect(outside.fields).toEqual([DRAFT]);
    expect(outside.draft?.widgets).toEqual(['b', 'b2']);
    const p = planOf(base, renamed, base);
    expect(p.changes[0]!.actions).toEqual(['noop']);
    expect(p.changes[0]!.kept).toEqual([`${DRAFT} widget b`, `${DRAFT} widget b2`]);
    // the bundle changes another widget meanwhile: both stand
    const file = draftOf(widget('a', 0, { config: { content: 'new' } }), widget('b', 2), widget('c', 4));
    const merged = sent(planOf(file, renamed, base))!;
    expect((merged['widgets'] as Obj[]).map((w) => w['id'])).toEqual(['a', 'b2', 'c']);
    expect((merged['widgets'] as Obj[])[0]!['config']).toEqual({ content: 'new' });
    const m = exportMerge(base, renamed, base);
    expect(m.taken).toEqual(expect.arrayContaining([`${DRAFT}.widgets[b]`, `${DRAFT}.widgets[b2]`]));
  });

  test('in the bundle: written, also when the UI changed another widget', () => {
    const ui = draftOf(widget('a', 1), widget('b', 2), widget('c', 4));
    const merged = sent(planOf(renamed, ui, base))!;
    expect((merged['widgets'] as Obj[]).map((w) => [w['id'], (w['position'] as Obj)['x']])).toEqual([
      ['a', 1],
      ['b2', 2],
      ['c', 4],
    ]);
  });
});

describe.each(['__proto__', 'constructor', 'hasOwnProperty'])('the id `%s` is an id like any other', (id) => {
  const withId = draftOf(widget('a', 0), widget(id, 2), widget('c', 4));

  test('plan, record, three-way and export all keep it', () => {
    expect(usableWidgetId(widget(id, 0))).toBe(id);
    expect([...widgetsById(withId)!.keys()]).toEqual(['a', id, 'c']);
    const moved = draftOf(widget('a', 0), widget(id, 3), widget('c', 4));
    expect(diffDashboard(withId, moved, names)!.widgets.map((w) => [w.widget, w.change])).toEqual([[id, 'moved']]);
    const parts = draftParts(withId)!;
    expect(Object.keys(parts.widgets)).toEqual(['a', id, 'c']);
    // a record read back from JSON keeps it
    const record = recordOf(withId);
    expect(
      changedOutside(JSON.parse(JSON.stringify(record)) as OwnershipRecord, { meta: { dashboardDraft: moved } }),
    ).toMatchObject({ fields: [DRAFT], draft: { widgets: [id] } });
    // UI moves widget a, the bundle changes c: the merged draft still has the widget
    const ui = draftOf(widget('a', 1), widget(id, 2), widget('c', 4));
    const file = draftOf(widget('a', 0), widget(id, 2), widget('c', 4, { config: { content: 'new' } }));
    const merged = sent(planOf(file, ui, withId))!;
    expect((merged['widgets'] as Obj[]).map((w) => w['id'])).toEqual(['a', id, 'c']);
    // UI moves that widget: kept by the plan, taken by export
    expect(planOf(withId, moved, withId).changes[0]!.kept).toEqual([`${DRAFT} widget ${id}`]);
    expect(exportMerge(withId, moved, withId).taken).toEqual([`${DRAFT}.widgets[${id}]`]);
  });
});

describe('a widget as messages name it: one rule (widgetLabel)', () => {
  test('its usable id, else its place counted from 1', () => {
    expect(widgetLabel({ id: 'w1' }, 0)).toBe('w1');
    expect([widgetLabel({ id: '  ' }, 0), widgetLabel({}, 2), widgetLabel('x', 4)]).toEqual(['#1', '#3', '#5']);
  });

  test('the semantic check names a widget without a usable id by the same label', () => {
    const draft = {
      widgets: [
        { type: 'FILTER', config: { member: 'orders.status' } },
        { id: ' ', type: 'FILTER', config: { member: 'orders.city' } },
        { id: 'f', type: 'FILTER', config: { member: 'orders.id' } },
      ],
    };
    const wheres = dashboardMembers({ dashboardDraft: draft as JsonValue }).uses.map((u) => u.where);
    expect(wheres).toEqual(['widget #1 config.member', 'widget #2 config.member', 'widget f config.member']);
  });
});
