// `--target`: which resources of a plan are kept. Exactly the named
// resources, plus the requests they cannot do without (a workbook or folder
// they are created in, a report a dashboard charts, when that does not exist
// yet), never more of those resources than that: the workbook a targeted
// report needs is created, but its dashboard and publish, which may chart the
// report's siblings, are left for another apply. Pure.
import { closest } from '../../domain/suggest.js';
import { UsageError } from '../../errors.js';
import { buildGraph } from './graph.js';
import type { DesiredState } from '../model.js';
import type { FieldChange, PlannedRequest, ResourceChange } from '../plan-model.js';
import type { Planned } from './compare.js';
import { folderAddress } from './folder.js';
import { managedPaths } from './ownership.js';

/** Every address `--target` may name, known from the bundle alone (before anything is read). */
export function targetableAddresses(desired: DesiredState): string[] {
  const out = new Set<string>();
  const folders = (path: readonly string[] | undefined) => {
    if (path === undefined) return;
    for (let i = 1; i <= path.length; i++) out.add(folderAddress(path.slice(0, i)));
  };
  for (const r of [...desired.workbooks, ...desired.reports]) {
    out.add(r.address);
    folders(r.folder);
  }
  for (const a of desired.userAttributes) out.add(a.address);
  return [...out];
}

/** What `export --only` does not do: a resource made in the UI has no file to take its values into yet. */
const ONLY_HOLDS =
  '`--only` takes the live values of resources the bundle holds. To add one only the deployment has (made in the ' +
  'UI, say), export with `--into` and without `--only`: it writes a new file for each such resource, and takes ' +
  'the live values of the others too.';

/**
 * Refuses (exit 3) an address the bundle does not hold, with the nearest address it does. `flag` is the
 * flag that named it (`--target`, `--only`, `--overwrite-ui-edits`), as the message says.
 */
export function checkTargets(targets: readonly string[], known: readonly string[], flag = '--target'): void {
  const have = new Set(known);
  for (const t of targets) {
    if (have.has(t)) continue;
    const near = closest(t, known);
    const hint = near
      ? `Did you mean \`${near}\`?`
      : 'Addresses look like `workbook/<slug>`, `report/<publicId>`, `user-attribute/<name>`, `folder/<path>`.';
    throw new UsageError(`${flag} ${t}: no such resource in the bundle.`, {
      code: 'unknown_target',
      hint: flag === '--only' ? `${hint} ${ONLY_HOLDS}` : hint,
    });
  }
}

/** The targeted resources whole, and of every other resource only the requests they wait for. */
export function selectTargets(planned: readonly Planned[], targets: readonly string[]): Planned[] {
  if (targets.length === 0) return [...planned];
  // What a request waits for, as the executor's graph sees it (declared, earlier phases, producers).
  const { deps } = buildGraph({ changes: planned.map((p) => p.change) });
  const needed = new Set<string>();
  const visit = (id: string): void => {
    if (needed.has(id)) return;
    needed.add(id);
    for (const d of deps.get(id) ?? []) visit(d);
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

/** The field paths a write's body sets. */
function bodyPaths(r: PlannedRequest): string[] {
  const op = r.operation;
  return op.op === 'upsertWorkbook' || op.op === 'updateReport' ? managedPaths(op.body) : [];
}

/**
 * A resource kept only for some of its requests: the actions and field
 * changes of the others (a dashboard draft, a publish) are left out, so the
 * plan shows what apply will do.
 */
function narrowed(rc: ResourceChange, kept: PlannedRequest[]): ResourceChange {
  const dropped = rc.requests.filter((r) => !kept.includes(r));
  // A path another kept request still writes stays.
  const stillWritten = new Set(kept.flatMap(bodyPaths));
  const droppedPaths = new Set(dropped.flatMap(bodyPaths).filter((p) => !stillWritten.has(p)));
  const publishDropped = dropped.some((r) => r.operation.op === 'publishWorkbook');
  const recordDropped = dropped.some((r) => r.id.endsWith('#record'));
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
export function checkTargetsIn(desired: DesiredState, targets: readonly string[], flag = '--target'): void {
  if (targets.length > 0) checkTargets(targets, targetableAddresses(desired), flag);
}
