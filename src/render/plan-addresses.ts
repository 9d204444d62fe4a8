// The list every plan starts with, in every format: one line per resource
// that changes, its action's symbol, its address and its file (deletes,
// records, folders, UI-edited and create-only differences included), so that
// a plan of any size names all it would touch before any detail. A compact
// plan adds the names of the changed fields and leaves the values out.
import type { FieldChange, Plan, ResourceChange, UnmanagedResource } from '../core/plan-model.js';
import type { WidgetChange } from '../core/diff-model.js';
import { hasCreateOnly, isShown } from '../core/plan/create-only.js';
import { actionSymbol } from './plan-wording.js';
import { deletesResource } from '../core/deletes.js';
import { wasLine } from './plan-ownership.js';
import { plural } from './diagnostics.js';
import { visible } from '../visible.js';

/**
 * Plans of more resources than this that change are compact unless `--no-compact`:
 * past a screenful, the list of what changes is what a reader can take in.
 */
export const COMPACT_OVER = 20;

/** `compact` as given (`--compact`/`--no-compact`), or by the size of the plan. */
export function isCompact(plan: Plan, compact: boolean | undefined): boolean {
  return compact ?? plan.changes.filter(isShown).length > COMPACT_OVER;
}

export interface AddressEntry {
  symbol: string;
  address: string;
  /** The bundle file; absent for what is not in the bundle (a delete) or has no file (a folder). */
  file?: string;
  /** `! edited outside wsc`, `cannot be changed by update`. */
  marks: string[];
  /** The changed field paths (`name`, `meta.dashboardDraft`). */
  fields: string[];
}

/** What a widget change is called in a compact plan: `moved`, `config` (a member, by its first key). */
function widgetWord(w: WidgetChange): string {
  return w.change === 'member' ? w.path.split('.')[0]! : w.change;
}

/**
 * The names a compact plan gives a field: its path; for a dashboard draft that was there before, the
 * changed members by their first key and `widgets: nrr-kpi moved, header config` (each widget once,
 * its changes joined by `+`). A new draft is all new: its path says it.
 */
function changedNames(c: FieldChange): string[] {
  const d = c.dashboard;
  if (d === undefined || c.before === undefined) return [visible(c.path)];
  const prefix = c.path === 'meta.dashboardDraft' ? '' : `${visible(c.path)} `;
  const words = new Map<string, string[]>();
  for (const w of d.widgets) {
    const list = words.get(w.widget) ?? [];
    const word = widgetWord(w);
    if (!list.includes(word)) list.push(word);
    words.set(w.widget, list);
  }
  const out = [...new Set(d.members.map((m) => `${visible(c.path)}.${visible(m.path.split('.')[0]!)}`))];
  if (words.size > 0)
    out.push(`${prefix}widgets: ${[...words].map(([id, ws]) => `${visible(id)} ${ws.join('+')}`).join(', ')}`);
  return out.length > 0 ? out : [visible(c.path)];
}

export function addressEntries(plan: Plan): AddressEntry[] {
  return plan.changes.filter(isShown).map((rc: ResourceChange) => {
    const marks: string[] = [];
    const b = rc.blocked;
    if (b !== undefined) marks.push(`! ${b.reason === 'ui-edit' ? 'edited outside wsc' : b.message}`);
    else if (rc.uiEdits !== undefined) marks.push('! edited outside wsc');
    if (hasCreateOnly(rc)) marks.push('cannot be changed by update');
    const deleting = deletesResource(rc);
    if (deleting && rc.pos === undefined) marks.push('not in the bundle');
    const was = deleting ? wasLine(rc) : undefined;
    return {
      symbol: actionSymbol(rc),
      address: visible(rc.address),
      ...(rc.pos ? { file: visible(rc.pos.file) } : was !== undefined ? { file: `(${was})` } : {}),
      marks,
      fields: rc.changes.flatMap(changedNames),
    };
  });
}

/** The list as aligned lines: `+ report/revMrrTrnd01  reports/mrr-trend.yaml`; with `fields`, their names after. */
export function addressListLines(entries: readonly AddressEntry[], opts: { fields: boolean }): string[] {
  const aw = Math.max(0, ...entries.map((e) => e.address.length));
  const fw = Math.max(0, ...entries.map((e) => (e.file ?? '').length));
  return entries.map((e) => {
    const tail = [...e.marks];
    if (opts.fields && e.fields.length > 0) tail.unshift(`(${e.fields.join(', ')})`);
    const file = tail.length > 0 ? (e.file ?? '').padEnd(fw) : (e.file ?? '');
    const parts = [`${e.symbol} ${e.address.padEnd(aw)}`, file, ...tail].filter((p, i) => i === 0 || p !== '');
    return parts.join('  ').trimEnd();
  });
}

/** How to see the values a compact plan leaves out. */
export function compactNote(count: number): string {
  return `Compact plan (${plural(count, 'resource')} change): values left out; \`--no-compact\` shows them.`;
}

/** `report 90  "UI report"  (publicId 000000abcdef)` */
export function unmanagedLine(u: UnmanagedResource): string {
  const label = u.kind === 'workbook' ? 'slug' : 'publicId';
  const identity = u.identity !== undefined ? `  (${label} ${visible(u.identity)})` : '';
  return `${u.kind} ${u.id}  ${visible(JSON.stringify(u.name))}${identity}`;
}
