// Drift: the managed fields of a resource whose live value differs from the
// bundle's. Two questions, two functions:
//   - `editedOutside`: against this bundle's ownership record, the fields (and
//     dashboard draft parts) someone changed outside wsc since the last apply
//     that now differ from the bundle: what the three-way decision keeps,
//     blocks or reverts, and what plan and apply list (never "matches");
//   - `partsDiffering`: with no record to ask, every part where live and
//     bundle differ (`wsc drift`, whoever changed it).
// A draft is split as the record splits it (per widget id, `layout` entry,
// member, and the widgets' order), so a widget moved in the UI is one line.
import { isObj, type JsonValue } from '../json.js';
import { decisionHash, DRAFT_PATH, fieldHash, recordedHash, type OwnershipRecord } from '../ownership.js';
import { draftPartChanges, draftParts, widgetIdOrder, type DraftParts } from '../ownership-draft.js';
import { usableWidgetId, widgetIdList } from '../widget-identity.js';

/** One field or draft part that differs (the address, file, line and what apply does are added by the caller). */
export interface DriftPart {
  field: string;
  live?: JsonValue;
  bundle?: JsonValue;
  changed: 'outside' | 'both';
}

/** A draft part's label, as the plan's `kept` and `uiEdits` name it (after `meta.dashboardDraft `). */
function labels(c: ReturnType<typeof draftPartChanges>): string[] {
  return [
    ...c.members,
    ...c.layout.map((k) => `layout.${k}`),
    ...c.widgets.map((id) => `widget ${id}`),
    ...(c.order ? ['order'] : []),
  ];
}

/** The hash of one part of a split draft, by its label. */
function partHash(parts: DraftParts, label: string): string | undefined {
  if (label === 'order') return parts.order;
  const own = (o: { [k: string]: string }, k: string) => (Object.hasOwn(o, k) ? o[k] : undefined);
  if (label.startsWith('widget ')) return own(parts.widgets, label.slice(7));
  if (label.startsWith('layout.')) return own(parts.layout, label.slice(7));
  return own(parts.members, label);
}

/** The value of one part of a draft, by its label (undefined when the draft lacks it). */
function partValue(draft: unknown, label: string): JsonValue | undefined {
  if (!isObj(draft)) return undefined;
  const widgets = Array.isArray(draft['widgets']) ? draft['widgets'] : [];
  if (label === 'order') return widgetIdList(draft);
  if (label.startsWith('widget ')) {
    const id = label.slice(7);
    return widgets.find((w) => usableWidgetId(w) === id);
  }
  if (label.startsWith('layout.')) {
    const layout = draft['layout'];
    const v = isObj(layout) ? layout[label.slice(7)] : undefined;
    return v === null ? undefined : v;
  }
  const v = Object.hasOwn(draft, label) ? draft[label] : undefined;
  return v === null ? undefined : v;
}

const present = (k: 'live' | 'bundle', v: JsonValue | undefined) => (v === undefined ? {} : { [k]: v });

/** A whole field as one part. */
function whole(
  field: string,
  live: JsonValue | undefined,
  bundle: JsonValue | undefined,
  changed: DriftPart['changed'],
) {
  return { field, ...present('live', live), ...present('bundle', bundle), changed };
}

/**
 * The parts of one managed field changed outside wsc since the record was
 * written that differ from the bundle's value (`file`: resolved; undefined
 * while it holds a reference created by this apply). `changed` says whether
 * the bundle changed the part too (a conflict under `keep`).
 */
export function editedOutside(
  path: string,
  file: JsonValue | undefined,
  live: JsonValue | undefined,
  record: OwnershipRecord,
): DriftPart[] {
  const base = recordedHash(record, path);
  if (base === undefined) return []; // newly managed: no record of what wsc left there
  // With the widget ids in order for a draft recorded in parts: a renamed id is drift (widget-identity.ts).
  const hLive = decisionHash(record, path, live);
  const hFile = file === undefined ? undefined : decisionHash(record, path, file);
  if (hFile === hLive || hLive === base) return [];
  const changed = hFile === base ? 'outside' : 'both';
  const fileParts = path === DRAFT_PATH ? draftParts(file) : undefined;
  const liveParts = path === DRAFT_PATH ? draftParts(live) : undefined;
  const baseParts = record.draft;
  if (fileParts === undefined || liveParts === undefined || baseParts === undefined) {
    return [whole(path, live, file, changed)];
  }
  const out: DriftPart[] = [];
  for (const label of labels(draftPartChanges(fileParts, liveParts))) {
    const b = partHash(baseParts, label);
    if (partHash(liveParts, label) === b) continue; // only the bundle moved it: an update, not drift
    const c = partHash(fileParts, label) === b ? 'outside' : 'both';
    out.push(whole(`${path} ${label}`, partValue(live, label), partValue(file, label), c));
  }
  return out;
}

/** The plan's field for a publish alone: the live published dashboard against the draft the bundle publishes. */
export const PUBLISHED = 'dashboardPublished';

/**
 * Every part of one field where live and bundle differ, whoever changed it (`wsc drift`). A published
 * dashboard is a draft too: split as one, so a widget moved in what was published is one line.
 */
export function partsDiffering(
  path: string,
  file: JsonValue | undefined,
  live: JsonValue | undefined,
): { field: string; live?: JsonValue; bundle?: JsonValue }[] {
  const draftLike = path === DRAFT_PATH || path === PUBLISHED;
  const hashAs = draftLike ? DRAFT_PATH : path;
  const sameIds = !draftLike || widgetIdOrder(file) === widgetIdOrder(live);
  if (fieldHash(hashAs, file) === fieldHash(hashAs, live) && sameIds) return [];
  const fileParts = draftLike ? draftParts(file) : undefined;
  const liveParts = draftLike ? draftParts(live) : undefined;
  if (fileParts === undefined || liveParts === undefined) {
    return [{ field: path, ...present('live', live), ...present('bundle', file) }];
  }
  const parts = labels(draftPartChanges(fileParts, liveParts)).map((label) => ({
    field: `${path} ${label}`,
    ...present('live', partValue(live, label)),
    ...present('bundle', partValue(file, label)),
  }));
  return parts.length > 0 ? parts : [{ field: path, ...present('live', live), ...present('bundle', file) }];
}
