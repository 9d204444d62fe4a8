// The planner's ownership step, run on a resource's planned change once it
// is made: each write gets the record it leaves in `meta.wsc`, a resource
// whose record is missing or out of date gets a request of its own, and
// managed fields changed outside wsc (and about to be overwritten) are marked.
import type { Report, Workbook } from '../../domain/wire.js';
import { isFolderRef, type JsonValue, type OwnershipContext, type PlannedRequest, type RecordSpec } from '../model.js';
import { editedFields, fieldHash, liveRecord, recordIsCurrent, RECORD_KEY, valueAtPath } from '../ownership.js';
import { collectRefs } from '../refs.js';
import { request, type Obj, type Planned } from './compare.js';

/** The managed field paths of a resource's file: its fields, `meta` per top-level key. */
export function managedPaths(fields: { [k: string]: unknown }): string[] {
  const out: string[] = [];
  for (const k of Object.keys(fields)) {
    const v = fields[k];
    if (k === 'meta' && v !== null && typeof v === 'object' && !Array.isArray(v)) {
      for (const m of Object.keys(v)) out.push(`meta.${m}`);
    } else out.push(k);
  }
  return out.sort();
}

type Write = PlannedRequest & { operation: { body: Obj; record?: RecordSpec } };

function isWrite(r: PlannedRequest): r is Write {
  return r.operation.op === 'upsertWorkbook' || r.operation.op === 'createReport' || r.operation.op === 'updateReport';
}

function sends(r: Write, path: string): boolean {
  const body = r.operation.body;
  if (path.startsWith('meta.')) {
    const meta = body['meta'];
    return meta !== null && typeof meta === 'object' && !Array.isArray(meta) && Object.hasOwn(meta, path.slice(5));
  }
  return Object.hasOwn(body, path);
}

/** Live `meta` without the record: what a report's PUT, which replaces `meta`, must send to keep it. */
function liveMetaWithoutRecord(live: Report | Workbook): Obj {
  const meta = live.meta;
  if (meta === null || meta === undefined || typeof meta !== 'object') return {};
  const out: Obj = {};
  for (const [k, v] of Object.entries(meta)) if (k !== RECORD_KEY) out[k] = v as JsonValue;
  return out;
}

/** Adds ownership to a planned resource (in place). */
export function addOwnership(
  p: Planned,
  paths: readonly string[],
  live: Report | Workbook | undefined,
  own: OwnershipContext,
): void {
  const rc = p.change;
  const record = live ? liveRecord(live) : undefined;
  if (record !== undefined && record.bundle === own.bundle) {
    const changed = new Set(rc.changes.map((c) => c.path));
    const edited = editedFields(record, live, paths).filter((f) => changed.has(f));
    if (edited.length > 0) rc.uiEdits = edited;
  } else if (record !== undefined) {
    rc.note = `recorded for bundle "${record.bundle}"; apply records it for "${own.bundle}"`;
  }

  const writes = rc.requests.filter(isWrite).sort((a, b) => a.phase - b.phase);
  if (writes.length === 0) {
    if (live === undefined) return;
    const current: { [path: string]: string } = {};
    for (const path of paths) current[path] = fieldHash(path, valueAtPath(live, path));
    if (recordIsCurrent(record, own.bundle, current)) return;
    const spec: RecordSpec = { bundle: own.bundle, fields: current };
    // A report's PUT replaces `meta`, so the live members go with the record.
    const operation: PlannedRequest['operation'] =
      rc.kind === 'report'
        ? { op: 'updateReport', reportId: live.id, body: { meta: liveMetaWithoutRecord(live) }, record: spec }
        : { op: 'upsertWorkbook', slug: (live as Workbook).slug ?? '', body: {}, record: spec };
    rc.requests.push(request(rc.address, 'record', rc.kind === 'report' ? 2 : 1, operation));
    if (rc.actions.length === 1 && rc.actions[0] === 'noop') rc.actions = ['record'];
    else rc.actions.push('record');
    return;
  }

  for (let i = 0; i < writes.length; i++) {
    const w = writes[i]!;
    const fields: { [path: string]: string | null } = {};
    for (const path of paths) {
      if (sends(w, path)) {
        const v = valueAtPath(w.operation.body, path);
        // A folder or reference created by this apply: hashed by the executor once its id is known.
        fields[path] = collectRefs(v).length > 0 || isFolderRef(v) ? null : fieldHash(path, v);
        continue;
      }
      const earlier = writes.slice(0, i).find((e) => sends(e, path));
      fields[path] = fieldHash(path, earlier ? valueAtPath(earlier.operation.body, path) : valueAtPath(live, path));
    }
    // A report's PUT replaces `meta`: one that sends none keeps the live members.
    if (w.operation.op === 'updateReport' && live !== undefined && !Object.hasOwn(w.operation.body, 'meta')) {
      w.operation.body = { ...w.operation.body, meta: liveMetaWithoutRecord(live) };
    }
    w.operation.record = { bundle: own.bundle, fields };
  }
}
