// The planner: (desired, live) → Plan. Pure and deterministic: no I/O, no
// clock; the same inputs give a deep-equal plan: comparison, partial
// ownership and actions (docs/plan-apply.md), and the phases and dependencies
// of the requests apply will send.
import type { DesiredReport, DesiredState, DesiredWorkbook, LiveState, PlanContext } from '../model.js';
import type { Plan, PlanSummary, ResourceChange, UnmanagedResource } from '../plan-model.js';
import { dashboardsAfter, stillChartedWarnings } from './charted.js';
import { planFolders } from './folder.js';
import { locateChanges } from './locate.js';
import { match, refTargets } from './match.js';
import { refuseManagedUnreadable, splitUnreadable } from './unreadable.js';
import { planOwned } from './ownership.js';
import { planPrune } from './prune.js';
import { recordClaims } from './record-claims.js';
import { planReport } from './report.js';
import { planUserAttribute } from './user-attribute.js';
import { planWorkbook } from './workbook.js';
import { checkTargetsIn, selectTargets } from './targets.js';

function byAddress(a: { address: string }, b: { address: string }): number {
  return a.address < b.address ? -1 : a.address > b.address ? 1 : 0;
}

/** The live resources left alone, by kind then id. */
function unmanagedList(left: Pick<LiveState, 'workbooks' | 'reports' | 'userAttributes'>): UnmanagedResource[] {
  const byId = <T extends { id: number }>(list: T[]) => [...list].sort((a, b) => a.id - b.id);
  const entry = (kind: UnmanagedResource['kind'], o: { id: number; name: string }, identity?: unknown) => ({
    kind,
    id: o.id,
    name: o.name,
    ...(typeof identity === 'string' && identity !== '' ? { identity } : {}),
  });
  return [
    ...byId(left.workbooks).map((w) => entry('workbook', w, w.slug)),
    ...byId(left.reports).map((r) => entry('report', r, r.publicId)),
    ...byId(left.userAttributes).map((a) => entry('user-attribute', a)),
  ];
}

function summarize(
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

/** The ids of the live resources the bundle's are matched to. */
function matchedIds(m: ReturnType<typeof match>): Record<'reports' | 'workbooks' | 'userAttributes', Set<number>> {
  const ids = (found: Iterable<{ id: number } | undefined>) => new Set([...found].flatMap((o) => (o ? [o.id] : [])));
  return {
    reports: ids(m.reports.map((r) => r.live)),
    workbooks: ids(m.workbooks.values()),
    userAttributes: ids(m.userAttributes.values()),
  };
}

export function plan(bundle: DesiredState, live: LiveState, ctx: PlanContext): Plan {
  checkTargetsIn(bundle, ctx.targets);
  refuseManagedUnreadable(splitUnreadable(bundle, live, ctx));
  // `folder:` paths become `folderId`s (live ids, or folders this plan creates).
  const folders = planFolders(bundle, live, ctx.folderLookAlikes);
  const desired = folders.desired;
  const m = match(desired, live, ctx);
  const targets = refTargets(m, desired, ctx);

  const sortedWorkbooks = [...desired.workbooks].sort(byAddress);
  const located = <P extends { change: ResourceChange }>(p: P, d: Parameters<typeof locateChanges>[1]): P => ({
    ...p,
    change: locateChanges(p.change, d),
  });
  const own = ctx.ownership;
  const matched = matchedIds(m);
  const claims = own && recordClaims(desired, live, matched, own.bundle, ctx.deploymentId);
  const owning = (adopting: boolean) => ({
    own: own!,
    targets,
    adopting,
    claims: claims!,
    deployment: ctx.deploymentId,
  });
  const workbooks = sortedWorkbooks.map((w) => {
    const lw = m.workbooks.get(w);
    const adopting = m.adoptedWorkbooks.has(w);
    const planWith = (fields: DesiredWorkbook['fields']) => planWorkbook({ ...w, fields }, lw, m, targets, adopting);
    const site = { address: w.address, pos: w.pos, refPos: w.refPos };
    const p = own ? planOwned(w.fields, site, lw, owning(adopting), planWith) : planWith(w.fields);
    return located(folders.finish(p, w, lw), w);
  });
  const sortedReports = [...m.reports].sort((a, b) => byAddress(a.desired, b.desired));
  const reports = sortedReports.map((rm) => {
    const d = rm.desired;
    const planWith = (fields: DesiredReport['fields']) => planReport({ ...rm, desired: { ...d, fields } }, m, targets);
    const site = { address: d.address, pos: d.pos, refPos: d.refPos };
    const p = own ? planOwned(d.fields, site, rm.live, owning(rm.adopting), planWith) : planWith(d.fields);
    return located(folders.finish(p, d, rm.live), d);
  });
  const attrs = [...desired.userAttributes]
    .sort(byAddress)
    .map((a) => located(planUserAttribute(a, m.userAttributes.get(a)), a));

  const left = {
    workbooks: live.workbooks.filter((w) => !matched.workbooks.has(w.id)),
    reports: live.reports.filter((r) => !matched.reports.has(r.id)),
    userAttributes: live.userAttributes.filter((a) => !matched.userAttributes.has(a.id)),
  };

  let pruned: ReturnType<typeof planPrune> | undefined;
  if (own !== undefined) {
    const reportChanges = new Map(
      reports.filter((p) => p.change.liveId !== undefined).map((p) => [p.change.liveId!, p.change]),
    );
    const boards = dashboardsAfter(sortedWorkbooks, workbooks, m, live);
    pruned = planPrune(live, matched, reportChanges, { ...own, claims: claims! }, boards);
    // A resource of this bundle that it no longer holds is a delete (or a candidate), not an unmanaged one.
    const gone = pruned.gone;
    left.workbooks = left.workbooks.filter((w) => !gone.workbooks.has(w.id));
    left.reports = left.reports.filter((r) => !gone.reports.has(r.id));
  }
  const unmanaged = {
    workbooks: left.workbooks.length,
    reports: left.reports.length,
    userAttributes: left.userAttributes.length,
  };

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
    out.uiEdits = own.uiEdits ?? 'keep';
    const drift = changes.flatMap((c) => c.drift ?? []);
    if (drift.length > 0) out.drift = drift;
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
