// The planner: (desired, live) → Plan. Pure and deterministic: no I/O, no
// clock; the same inputs give a deep-equal plan: comparison, partial
// ownership and actions (README, `wsc plan`), and the phases and dependencies
// of the requests apply will send.
import type {
  DesiredState,
  LiveState,
  Plan,
  PlanContext,
  PlanSummary,
  ResourceChange,
  UnmanagedResource,
} from './model.js';
import { stillChartedWarnings } from './plan/charted.js';
import { planFolders } from './plan/folder.js';
import { match, refTargets } from './plan/match.js';
import { refuseManagedOdd, splitOdd } from './plan/odd.js';
import { addOwnership, managedPaths } from './plan/ownership.js';
import { planPrune } from './plan/prune.js';
import { planReport } from './plan/report.js';
import { planUserAttribute } from './plan/user-attribute.js';
import { planWorkbook } from './plan/workbook.js';
import { checkTargetsIn, selectTargets } from './targets.js';

export { alignWidgetIds } from './plan/compare.js';
export { splitOdd } from './plan/odd.js';

function byAddress(a: { address: string }, b: { address: string }): number {
  return a.address < b.address ? -1 : a.address > b.address ? 1 : 0;
}

/** The live resources left alone, by kind then id. */
function unmanagedList(left: Pick<LiveState, 'workbooks' | 'reports' | 'userAttributes'>): UnmanagedResource[] {
  const id = (a: { id: number }, b: { id: number }) => a.id - b.id;
  const named = (s: unknown, fallback: string) => (typeof s === 'string' && s !== '' ? s : fallback);
  return [
    ...[...left.workbooks].sort(id).map((w): UnmanagedResource => ({
      kind: 'workbook',
      id: w.id,
      name: named(w.name, ''),
      ...(typeof w.slug === 'string' && w.slug !== '' ? { identity: w.slug } : {}),
    })),
    ...[...left.reports].sort(id).map((r): UnmanagedResource => ({
      kind: 'report',
      id: r.id,
      name: named(r.name, ''),
      ...(typeof r.publicId === 'string' && r.publicId !== '' ? { identity: r.publicId } : {}),
    })),
    ...[...left.userAttributes]
      .sort(id)
      .map((a): UnmanagedResource => ({ kind: 'user-attribute', id: a.id, name: a.name })),
  ];
}

export function summarize(
  changes: readonly ResourceChange[],
  unmanaged: PlanSummary['unmanaged'],
  owned = false,
): PlanSummary {
  // record and delete are counted only with a bundle name, so that plans without one read as before.
  const s: PlanSummary = {
    create: 0,
    update: 0,
    adopt: 0,
    publish: 0,
    noop: 0,
    ...(owned ? { record: 0, delete: 0 } : {}),
    unmanaged,
  };
  for (const c of changes) for (const a of c.actions) s[a] = (s[a] ?? 0) + 1;
  return s;
}

export function plan(bundle: DesiredState, live: LiveState, ctx: PlanContext): Plan {
  checkTargetsIn(bundle, ctx.targets);
  refuseManagedOdd(splitOdd(bundle, live, ctx));
  // `folder:` paths become `folderId`s (live ids, or folders this plan creates).
  const folders = planFolders(bundle, live);
  const desired = folders.desired;
  const m = match(desired, live, ctx);
  const targets = refTargets(m, desired, ctx);

  const sortedWorkbooks = [...desired.workbooks].sort(byAddress);
  const workbooks = sortedWorkbooks.map((w) =>
    folders.finish(planWorkbook(w, m.workbooks.get(w), m, targets, m.adoptedWorkbooks.has(w)), w, m.workbooks.get(w)),
  );
  const reports = [...m.reports]
    .sort((a, b) => byAddress(a.desired, b.desired))
    .map((rm) => folders.finish(planReport(rm, m, targets), rm.desired, rm.live));
  const attrs = [...desired.userAttributes].sort(byAddress).map((a) => planUserAttribute(a, m.userAttributes.get(a)));

  const matchedWorkbooks = new Set([...m.workbooks.values()].filter((w) => w !== undefined).map((w) => w.id));
  const matchedReports = new Set(m.reports.filter((r) => r.live !== undefined).map((r) => r.live!.id));
  const matchedAttrs = new Set([...m.userAttributes.values()].filter((a) => a !== undefined).map((a) => a.id));
  const left = {
    workbooks: live.workbooks.filter((w) => !matchedWorkbooks.has(w.id)),
    reports: live.reports.filter((r) => !matchedReports.has(r.id)),
    userAttributes: live.userAttributes.filter((a) => !matchedAttrs.has(a.id)),
  };
  const unmanaged = {
    workbooks: left.workbooks.length,
    reports: left.reports.length,
    userAttributes: left.userAttributes.length,
  };

  const own = ctx.ownership;
  let pruned: ReturnType<typeof planPrune> | undefined;
  if (own !== undefined) {
    sortedWorkbooks.forEach((w, i) => addOwnership(workbooks[i]!, managedPaths(w.fields), m.workbooks.get(w), own));
    const sortedReports = [...m.reports].sort((a, b) => byAddress(a.desired, b.desired));
    sortedReports.forEach((rm, i) => addOwnership(reports[i]!, managedPaths(rm.desired.fields), rm.live, own));
    const reportChanges = new Map(
      reports.filter((p) => p.change.liveId !== undefined).map((p) => [p.change.liveId!, p.change]),
    );
    pruned = planPrune(live, { reports: matchedReports, workbooks: matchedWorkbooks }, reportChanges, own);
  }

  const kept = selectTargets(
    [...folders.planned, ...workbooks, ...reports, ...attrs, ...(pruned?.planned ?? [])],
    ctx.targets,
  );
  const changes = kept.map((p) => p.change);
  const out: Plan = {
    formatVersion: 1,
    environment: ctx.environment,
    deploymentId: ctx.deploymentId,
    publicIds: ctx.publicIds,
    changes,
    summary: summarize(changes, unmanaged, own !== undefined),
    fingerprints: ctx.fingerprints === false ? [] : kept.flatMap((p) => p.fingerprints()),
  };
  if (ctx.listUnmanaged === true) out.unmanaged = unmanagedList(left);
  if (own !== undefined) {
    out.bundle = own.bundle;
    out.prune = pruned!.prune;
  }
  const warnings = [
    ...folders.warnings,
    ...stillChartedWarnings(
      changes.filter((c) => c.kind === 'report'),
      m,
    ),
  ];
  if (warnings.length > 0) out.warnings = warnings;
  return out;
}
