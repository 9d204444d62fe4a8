// The list every plan starts with, in every format: one line per resource
// that changes, its action's symbol, its address and its file (deletes,
// records, folders, UI-edited and create-only differences included), so that
// a plan of any size names all it would touch before any detail. A compact
// plan adds the names of the changed fields and leaves the values out.
import type { Plan, ResourceChange, UnmanagedResource } from '../core/model.js';
import { hasCreateOnly, isShown } from '../core/plan/create-only.js';
import { actionSymbol } from './plan-human.js';
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

export function addressEntries(plan: Plan): AddressEntry[] {
  return plan.changes.filter(isShown).map((rc: ResourceChange) => {
    const marks: string[] = [];
    if (rc.uiEdits !== undefined) marks.push('! edited outside wsc');
    if (hasCreateOnly(rc)) marks.push('cannot be changed by update');
    if (rc.actions.includes('delete') && rc.pos === undefined) marks.push('not in the bundle');
    return {
      symbol: actionSymbol(rc),
      address: visible(rc.address),
      ...(rc.pos ? { file: visible(rc.pos.file) } : {}),
      marks,
      fields: rc.changes.map((c) => visible(c.path)),
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
