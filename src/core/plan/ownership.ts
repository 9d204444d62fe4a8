// The planner's ownership step around a managed resource: the three-way
// decision against this bundle's record (three-way.ts) before it is planned;
// after, each write gets the record it leaves in `meta.wsc` (a resource whose
// record is missing or out of date gets a request of its own), and what
// blocks it is marked: a part changed on both sides, a record missing or
// malformed where the bundle would change content, another bundle's record.
//
// What a record holds per managed field is the bundle's value (references
// resolved), as kubectl's last-applied configuration: a write that comes
// before another write of the same field (a workbook's phase-1 upsert before
// its draft) records the field as it was, so a run that stops between the two
// leaves a record that still tells a pending change from a UI edit.
import type { Report, Workbook } from '../../domain/wire.js';
import {
  type Blocked,
  type DriftEntry,
  isFolderRef,
  type PlannedRequest,
  type RecordOf,
  type RecordSpec,
} from '../plan-model.js';
import type { JsonValue, Obj } from '../json.js';
import type { OwnershipContext, UiEditsPolicy } from '../model.js';
import type { DriftPart } from './drift.js';
import {
  DRAFT_PATH,
  draftParts,
  fieldHash,
  type OwnershipRecord,
  readRecord,
  RECORD_KEY,
  recordedHash,
  recordIsCurrent,
  type RecordState,
  valueAtPath,
} from '../ownership.js';
import { threeWay, type DesiredValues } from './three-way.js';
import { resolveRefs, type RefSite, type RefTargets } from '../refs.js';
import { request, type Planned } from './compare.js';
import type { Claims } from './record-claims.js';
import { guardDraftWindow } from './draft-window.js';

/** The bundle's value of each managed field, references resolved where their target exists. */
interface OwnedDesired {
  values: DesiredValues;
  /** The resource's name (a report's title, else its name) and file, kept in the record for deletes. */
  name?: string;
  file?: string;
}

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

/** The bundle's values of a resource's managed fields, as the record hashes them. */
function ownedDesired(
  fields: { [k: string]: unknown },
  targets: RefTargets,
  site: Omit<RefSite, 'path'>,
): OwnedDesired {
  const values: OwnedDesired['values'] = new Map();
  for (const path of managedPaths(fields)) {
    const raw = (valueAtPath(fields, path) ?? null) as JsonValue;
    const r = resolveRefs(raw, targets, { ...site, path });
    values.set(path, { value: r.value, pending: r.pending.length > 0 || isFolderRef(r.value) });
  }
  const label = [fields['title'], fields['name']].find((x) => typeof x === 'string' && x !== '') as string | undefined;
  return { values, ...(label !== undefined ? { name: label } : {}), ...(site.pos ? { file: site.pos.file } : {}) };
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

/**
 * The record left by a write after which `later` writes of the resource still
 * come: a field one of them sends keeps what the old record said (or, without
 * one, its live hash); any other field records the bundle's value.
 */
function specFor(
  { bundle, of }: { bundle: string; of: RecordOf },
  desired: OwnedDesired,
  old: OwnershipRecord | undefined,
  live: Report | Workbook | undefined,
  later: readonly Write[],
): RecordSpec {
  const fields: RecordSpec['fields'] = {};
  const values: NonNullable<RecordSpec['values']> = {};
  let draft: RecordSpec['draft'];
  for (const [path, d] of desired.values) {
    if (later.some((w) => sends(w, path))) {
      fields[path] = old?.fields[path] ?? fieldHash(path, valueAtPath(live, path));
      if (path === DRAFT_PATH) draft = old?.draft;
    } else if (d.pending) {
      values[path] = d.value;
    } else {
      fields[path] = fieldHash(path, d.value);
      if (path === DRAFT_PATH) draft = draftParts(d.value);
    }
  }
  const spec: RecordSpec = { bundle, fields, of };
  if (Object.keys(values).length > 0) spec.values = values;
  if (draft !== undefined) spec.draft = draft;
  if (desired.name !== undefined) spec.name = desired.name;
  if (desired.file !== undefined) spec.file = desired.file;
  return spec;
}

/**
 * Plans one managed resource with ownership: the three-way decision against
 * this bundle's record first (kept UI edits and the merged draft go into the
 * fields planned), then the record on each write, then what blocks it.
 */
export function planOwned(
  fields: Obj,
  site: Omit<RefSite, 'path'>,
  live: Report | Workbook | undefined,
  ctx: { own: OwnershipContext; targets: RefTargets; adopting: boolean; claims: Claims; deployment: number },
  planWith: (fields: Obj) => Planned,
): Planned {
  const { own } = ctx;
  const desired = ownedDesired(fields, ctx.targets, site);
  const read: RecordState | undefined = live ? readRecord(live) : undefined;
  // A record of this bundle written for another resource (a UI copy's) is not this bundle's here.
  const claim = read?.state === 'record' && read.record.bundle === own.bundle ? ctx.claims.of(live!) : undefined;
  const copy = claim?.state === 'copy' ? claim.why : undefined;
  const ours = claim !== undefined && copy === undefined && read?.state === 'record' ? read.record : undefined;
  const policy = policyFor(site.address, own);
  const tw = ours !== undefined ? threeWay(fields, desired, live, ours, policy) : undefined;
  const p = planWith(tw?.fields ?? fields);
  addOwnership(p, desired, live, { bundle: own.bundle, deployment: ctx.deployment }, ours);
  // A UI edit made after the plan's read is merged just before the write, unless the bundle's values win.
  if (ours !== undefined && policy === 'keep') guardDraftWindow(p, live as Workbook);
  if (tw !== undefined && tw.kept.length > 0) p.change.kept = tw.kept;
  if (tw !== undefined && tw.drift.length > 0) p.change.drift = driftEntries(site, tw.drift, policy);
  const unrecorded = p.change.changes
    .map((c) => c.path)
    .filter((path) => ours === undefined || recordedHash(ours, path) === undefined);
  if (live !== undefined && unrecorded.length > 0) p.change.unrecorded = unrecorded;
  if (read !== undefined) gate(p, read, tw?.conflicts ?? [], { ...ctx, copy }, policy);
  return p;
}

/** The policy for one address: `--overwrite-ui-edits` naming it (or naming none: all) is `revert`. */
function policyFor(address: string, own: OwnershipContext): UiEditsPolicy {
  return names(address, own.overwrite) ? 'revert' : (own.uiEdits ?? 'keep');
}

/** The drift of a resource as the plan lists it: what apply does with each part under the policy. */
function driftEntries(site: Omit<RefSite, 'path'>, parts: DriftPart[], policy: UiEditsPolicy): DriftEntry[] {
  return parts.map((d) => ({
    address: site.address,
    ...d,
    apply: policy === 'revert' ? 'revert' : policy === 'block' || d.changed === 'both' ? 'blocked' : 'keep',
    ...(site.pos ? { file: site.pos.file } : {}),
  }));
}

function names(address: string, list: true | string[] | undefined): boolean {
  return list === true || (Array.isArray(list) && list.includes(address));
}

/** Marks what blocks a resource (its actions become `blocked` unless a flag names it). */
function gate(
  p: Planned,
  read: RecordState,
  conflicts: string[],
  ctx: { own: OwnershipContext; adopting: boolean; copy: string | undefined },
  policy: UiEditsPolicy,
): void {
  const rc = p.change;
  const { own } = ctx;
  const address = rc.address;
  const overwrite = `--overwrite-ui-edits ${address}`;
  let blocked: Blocked | undefined;
  const contentChanges = rc.changes.length > 0;
  if (read.state === 'record' && (read.record.bundle !== own.bundle || ctx.copy !== undefined)) {
    const other = read.record.bundle !== own.bundle;
    if (names(address, own.takeOver)) {
      const was = other ? `recorded for bundle "${read.record.bundle}"` : `not this bundle's: ${ctx.copy!}`;
      rc.note = `${was}; taken over by "${own.bundle}" (--take-over)`;
    } else {
      blocked = {
        reason: other ? 'other-bundle' : 'other-resource',
        message: other ? `owned by bundle "${read.record.bundle}"` : `not this bundle's: ${ctx.copy!}`,
        flag: `--take-over ${address}`,
      };
    }
  } else if (read.state === 'record') {
    if (conflicts.length > 0) {
      rc.uiEdits = conflicts;
      const what =
        policy === 'block'
          ? 'changed outside wsc since the last apply (uiEdits: block)'
          : 'changed outside wsc and in the bundle since the last apply';
      blocked = { reason: 'ui-edit', message: `${what}: ${conflicts.join(', ')}`, flag: overwrite };
    }
  } else if (contentChanges && !ctx.adopting) {
    blocked =
      read.state === 'missing'
        ? { reason: 'record-missing', message: 'record missing — edited outside wsc?', flag: overwrite }
        : {
            reason: 'record-malformed',
            message: `record malformed (${read.why}) — edited outside wsc?`,
            flag: overwrite,
          };
  }
  if (blocked === undefined || rc.requests.length === 0) return;
  rc.blocked = blocked;
  if (blocked.reason !== 'other-bundle' && blocked.reason !== 'other-resource' && policy === 'revert') return;
  rc.actions = ['blocked'];
}

/** Adds the ownership record to a planned resource's writes, or a request of its own (in place). */
function addOwnership(
  p: Planned,
  desired: OwnedDesired,
  live: Report | Workbook | undefined,
  own: { bundle: string; deployment: number },
  ours: OwnershipRecord | undefined,
): void {
  const rc = p.change;
  const writes = rc.requests.filter(isWrite).sort((a, b) => a.phase - b.phase);
  const to = (w: Write | undefined) => ({ bundle: own.bundle, of: recordOf(rc.kind, w, live, own.deployment) });
  if (writes.length === 0) {
    if (live === undefined) return;
    const spec = specFor(to(undefined), desired, ours, live, []);
    if (spec.values === undefined && recordIsCurrent(ours, own.bundle, spec.fields as never, spec.draft)) return;
    // A report's PUT replaces `meta`, so the live members go with the record.
    const operation: PlannedRequest['operation'] =
      rc.kind === 'report'
        ? {
            op: 'updateReport',
            reportId: live.id,
            body: { meta: liveMetaWithoutRecord(live) },
            record: spec,
            metaKeys: [],
          }
        : { op: 'upsertWorkbook', slug: (live as Workbook).slug ?? '', body: {}, record: spec };
    rc.requests.push(request(rc.address, 'record', rc.kind === 'report' ? 2 : 1, operation));
    if (rc.actions.length === 1 && rc.actions[0] === 'noop') rc.actions = ['record'];
    else rc.actions.push('record');
    return;
  }

  for (let i = 0; i < writes.length; i++) {
    const w = writes[i]!;
    // A report's PUT replaces `meta`: one that sends none keeps the live members.
    if (w.operation.op === 'updateReport' && live !== undefined && !Object.hasOwn(w.operation.body, 'meta')) {
      w.operation.body = { ...w.operation.body, meta: liveMetaWithoutRecord(live) };
      w.operation.metaKeys = [];
    }
    w.operation.record = specFor(to(w), desired, ours, live, writes.slice(i + 1));
  }
}

/** The resource a write's record is for: a report's publicId after the write, a workbook's slug. */
function recordOf(
  kind: string,
  w: Write | undefined,
  live: Report | Workbook | undefined,
  deployment: number,
): RecordOf {
  const op = w?.operation;
  if (kind === 'workbook') {
    const slug = op?.op === 'upsertWorkbook' ? op.slug : (live as Workbook | undefined)?.slug;
    return { deployment, slug: slug ?? '' };
  }
  const sent = op?.body['publicId'];
  const had = live?.publicId;
  const publicId = typeof sent === 'string' ? sent : typeof had === 'string' ? had : '';
  return { deployment, publicId };
}
