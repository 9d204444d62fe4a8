// `--target`: which resources of a plan are kept. Exactly the named
// resources, plus the requests they cannot do without (a workbook or folder
// they are created in, a report a dashboard charts, when that does not exist
// yet), never more of those resources than that: the workbook a targeted
// report needs is created, but its dashboard and publish, which may chart the
// report's siblings, are left for another apply. Pure.
import { closest } from '../domain/suggest.js';
import { UsageError } from '../errors.js';
import { collectRefs } from './execute/resolve.js';
import type { DesiredState, FieldChange, PlannedRequest, ResourceChange } from './model.js';
import type { Planned } from './plan/compare.js';
import { folderAddress } from './plan/folder.js';

/** Every address `--target` may name, known from the bundle alone (before anything is read). */
export function targetableAddresses(desired: DesiredState): string[] {
  const out = new Set<string>();
  const folders = (path: readonly string[] | undefined) => {
    if (path === undefined) return;
    for (let i = 1; i <= path.length; i++) out.add(folderAddress(path.slice(0, i)));
  };
  for (const w of desired.workbooks) {
    out.add(w.address);
    folders(w.folder);
  }
  for (const r of desired.reports) {
    out.add(r.address);
    folders(r.folder);
  }
  for (const a of desired.userAttributes) out.add(a.address);
  return [...out];
}

/** Refuses (exit 3) a target the bundle does not hold, with the nearest address it does. */
export function checkTargets(targets: readonly string[], known: readonly string[]): void {
  const have = new Set(known);
  for (const t of targets) {
    if (have.has(t)) continue;
    const near = closest(t, known);
    throw new UsageError(`--target ${t}: no such resource in the bundle.`, {
      code: 'unknown_target',
      hint: near
        ? `Did you mean \`${near}\`?`
        : 'Addresses look like `workbook/<slug>`, `report/<publicId>`, `user-attribute/<name>`, `folder/<path>`.',
    });
  }
}

/** Every request a request waits for: as the executor's graph sees them (declared, earlier phases, producers). */
function requestDeps(
  r: PlannedRequest,
  sameAddress: ReadonlyMap<string, PlannedRequest[]>,
  producer: ReadonlyMap<string, PlannedRequest>,
): string[] {
  const deps = new Set(r.dependsOn);
  for (const other of sameAddress.get(r.address) ?? []) if (other.phase < r.phase) deps.add(other.id);
  for (const address of collectRefs(r)) {
    const p = producer.get(address);
    if (p !== undefined && p !== r) deps.add(p.id);
  }
  return [...deps];
}

/** The targeted resources whole, and of every other resource only the requests they wait for. */
export function selectTargets(planned: readonly Planned[], targets: readonly string[]): Planned[] {
  if (targets.length === 0) return [...planned];
  const byId = new Map<string, PlannedRequest>();
  const sameAddress = new Map<string, PlannedRequest[]>();
  const producer = new Map<string, PlannedRequest>();
  for (const p of planned) {
    for (const r of p.change.requests) {
      byId.set(r.id, r);
      const list = sameAddress.get(r.address);
      if (list) list.push(r);
      else sameAddress.set(r.address, [r]);
      const op = r.operation.op;
      if (op !== 'upsertWorkbook' && op !== 'createReport' && op !== 'createFolder') continue;
      const seen = producer.get(r.address);
      if (seen === undefined || r.phase < seen.phase) producer.set(r.address, r);
    }
  }
  const needed = new Set<string>();
  const visit = (id: string): void => {
    if (needed.has(id)) return;
    const r = byId.get(id);
    if (r === undefined) return;
    needed.add(id);
    for (const d of requestDeps(r, sameAddress, producer)) visit(d);
  };
  const named = new Set(targets);
  for (const p of planned) if (named.has(p.change.address)) for (const r of p.change.requests) visit(r.id);

  const out: Planned[] = [];
  for (const p of planned) {
    if (named.has(p.change.address)) {
      out.push(p);
      continue;
    }
    const kept = p.change.requests.filter((r) => needed.has(r.id));
    if (kept.length === 0) continue;
    out.push(kept.length === p.change.requests.length ? p : { ...p, change: narrowed(p.change, kept) });
  }
  return out;
}

/**
 * A resource kept only for some of its requests: the actions and field
 * changes of the others (a dashboard draft, a publish) are left out, so the
 * plan shows what apply will do.
 */
function narrowed(rc: ResourceChange, kept: PlannedRequest[]): ResourceChange {
  const dropped = rc.requests.filter((r) => !kept.includes(r));
  const droppedPaths = new Set<string>();
  let publishDropped = false;
  let recordDropped = false;
  for (const r of dropped) {
    const op = r.operation;
    if (op.op === 'publishWorkbook') publishDropped = true;
    if (r.id.endsWith('#record')) recordDropped = true;
    if (op.op !== 'upsertWorkbook' && op.op !== 'updateReport') continue;
    for (const [k, v] of Object.entries(op.body)) {
      if (k === 'meta' && v !== null && typeof v === 'object' && !Array.isArray(v)) {
        for (const m of Object.keys(v as object)) droppedPaths.add(`meta.${m}`);
      } else {
        droppedPaths.add(k);
      }
    }
  }
  // A path another kept request still writes stays.
  for (const r of kept) {
    const op = r.operation;
    if (op.op !== 'upsertWorkbook' && op.op !== 'updateReport') continue;
    for (const [k, v] of Object.entries(op.body)) {
      if (k === 'meta' && v !== null && typeof v === 'object' && !Array.isArray(v)) {
        for (const m of Object.keys(v as object)) droppedPaths.delete(`meta.${m}`);
      } else {
        droppedPaths.delete(k);
      }
    }
  }
  const writtenBy = (c: FieldChange): boolean => {
    if (c.path === 'dashboardPublished') return !publishDropped;
    for (const d of droppedPaths) if (c.path === d || c.path.startsWith(`${d}.`)) return false;
    return true;
  };
  const actions = rc.actions.filter((a) => !(a === 'publish' && publishDropped) && !(a === 'record' && recordDropped));
  const changes = rc.changes.filter(writtenBy);
  return { ...rc, actions: actions.length > 0 ? actions : ['noop'], changes, requests: kept };
}

/** `checkTargets` against the addresses of a bundle. */
export function checkTargetsIn(desired: DesiredState, targets: readonly string[]): void {
  if (targets.length > 0) checkTargets(targets, targetableAddresses(desired));
}
