// Matching desired resources to live ones (workbooks by slug, reports by
// their live publicId or an adopt block, user attributes by id or name), and
// what references point at.
import { normalizeSlug, type Report, type UserAttribute, type Workbook } from '../../domain/wire.js';
import type {
  DesiredReport,
  DesiredState,
  DesiredUserAttribute,
  DesiredWorkbook,
  LiveState,
  PlanContext,
  Ref,
} from '../model.js';
import { livePublicId } from '../publicid.js';
import { KnownNames } from '../../domain/suggest.js';
import type { RefTargets } from '../refs.js';
import { slugProblem } from '../../domain/slug.js';
import { adoptAliasElsewhere, adoptPublicIdSet, canTakePublicId } from './adopt.js';
import { at } from '../where.js';
import { planError } from './compare.js';

export interface ReportMatch {
  desired: DesiredReport;
  livePid: string;
  live?: Report;
  /** The live report is the adopt target (it gets the publicId now). */
  adopting: boolean;
  /** The live publicId is the adopt block's, not the one derived from the file: found again by id. */
  aliased?: true;
}

export interface Matches {
  workbooks: Map<DesiredWorkbook, Workbook | undefined>;
  /** Workbooks matched through their `adopt` block: the live one gets the slug now. */
  adoptedWorkbooks: Set<DesiredWorkbook>;
  reports: ReportMatch[];
  reportsByBundleId: Map<string, ReportMatch>;
  liveWorkbookBySlug: Map<string, Workbook>;
  /** Every live workbook by id: plans name a live workbook id by the workbook's slug. */
  liveWorkbookById: Map<number, Workbook>;
  liveReportsByPid: Map<string, Report[]>;
  userAttributes: Map<DesiredUserAttribute, UserAttribute | undefined>;
}

function groupBy<T, K>(items: readonly T[], key: (t: T) => K | undefined): Map<K, T[]> {
  const m = new Map<K, T[]>();
  for (const t of items) {
    const k = key(t);
    if (k === undefined) continue;
    const list = m.get(k);
    if (list) list.push(t);
    else m.set(k, [t]);
  }
  return m;
}

export function match(desired: DesiredState, live: LiveState, ctx: PlanContext): Matches {
  return {
    ...matchWorkbooks(desired, live, ctx),
    ...matchReports(desired, live, ctx),
    userAttributes: matchUserAttributes(desired, live),
  };
}

type WorkbookMatches = Pick<Matches, 'liveWorkbookById' | 'workbooks' | 'adoptedWorkbooks' | 'liveWorkbookBySlug'>;

/** Each desired workbook's live one, by slug or by its adopt block; two live workbooks of one slug refused. */
function matchWorkbooks(desired: DesiredState, live: LiveState, ctx: PlanContext): WorkbookMatches {
  const liveWorkbookBySlug = new Map<string, Workbook>();
  const sameSlug = new Map<string, Workbook[]>();
  for (const w of [...live.workbooks].sort((a, b) => a.id - b.id)) {
    if (typeof w.slug !== 'string') continue;
    const s = normalizeSlug(w.slug);
    if (!liveWorkbookBySlug.has(s)) liveWorkbookBySlug.set(s, w);
    else sameSlug.set(s, [...(sameSlug.get(s) ?? [liveWorkbookBySlug.get(s)!]), w]);
  }
  const workbooks = new Map<DesiredWorkbook, Workbook | undefined>();
  const adoptedWorkbooks = new Set<DesiredWorkbook>();
  const liveWorkbookById = new Map(live.workbooks.map((w) => [w.id, w]));
  for (const w of desired.workbooks) {
    const several = sameSlug.get(w.slug);
    if (several !== undefined) {
      const ids = several.map((x) => x.id).join(', ');
      throw planError(
        'ambiguous_slug',
        `${at(w.pos)}${w.address}: ${several.length} workbooks in deployment ${ctx.deploymentId} hold the slug ` +
          `"${w.slug}" (ids ${ids}), so wsc cannot tell which one the file means.`,
        'Give all but one of them another slug in the deployment (or delete the extra ones), then plan again.',
      );
    }
    const bySlug = liveWorkbookBySlug.get(w.slug);
    const target = bySlug === undefined ? adoptTarget(w, liveWorkbookById, ctx) : undefined;
    if (target !== undefined) adoptedWorkbooks.add(w);
    workbooks.set(w, bySlug ?? target);
  }
  return { liveWorkbookById, workbooks, adoptedWorkbooks, liveWorkbookBySlug };
}

/** Each desired report's live one, by its publicId in this deployment or by its adopt block. */
function matchReports(
  desired: DesiredState,
  live: LiveState,
  ctx: PlanContext,
): Pick<Matches, 'reports' | 'reportsByBundleId' | 'liveReportsByPid'> {
  const liveReportsByPid = groupBy(live.reports, (r) => r.publicId ?? undefined);
  const liveReportById = new Map(live.reports.map((r) => [r.id, r]));
  const reports: ReportMatch[] = [];
  const reportsByBundleId = new Map<string, ReportMatch>();
  for (const d of desired.reports) {
    const adopt = d.adopt !== undefined && d.adopt.deploymentId === ctx.deploymentId ? d.adopt : undefined;
    const livePid = adopt?.publicId ?? livePublicId(d.publicId, ctx.publicIds, ctx.deploymentId);
    const found = liveReportsByPid.get(livePid) ?? [];
    if (found.length > 1) {
      const ids = found.map((r) => r.id).sort((a, b) => a - b);
      throw planError(
        'ambiguous_public_id',
        `${at(d.pos)}${d.address}: ${found.length} reports in deployment ${ctx.deploymentId} share the publicId ` +
          `"${livePid}" (ids ${ids.join(', ')}), so wsc cannot tell which one the file means.`,
        'Such a publicId is a legacy placeholder. Give the report a publicId ' +
          'of its own with an `adopt: { deploymentId, id }` block naming the one ' +
          'to manage (`wsc export` writes one).',
      );
    }
    let m: ReportMatch = {
      desired: d,
      livePid,
      live: found[0],
      adopting: false,
      ...(adopt?.publicId ? { aliased: true } : {}),
    };
    if (m.live !== undefined && adopt?.publicId !== undefined && m.live.id !== adopt.id)
      throw adoptAliasElsewhere(d, m.live, ctx);
    if (m.live === undefined && adopt !== undefined) {
      const target = liveReportById.get(adopt.id);
      if (target === undefined) {
        throw planError(
          'adopt_target_missing',
          `${at(d.pos)}${d.address}: adopt names report id ${adopt.id} in ` +
            `deployment ${ctx.deploymentId}, which does not exist there.`,
          'Fix the id in the `adopt` block, or remove the block to create the report instead.',
        );
      }
      if (!canTakePublicId(target, liveReportsByPid)) throw adoptPublicIdSet(d, target, livePid, ctx);
      m = { ...m, live: target, adopting: true };
    }
    reports.push(m);
    reportsByBundleId.set(d.publicId, m);
  }
  return { reports, reportsByBundleId, liveReportsByPid };
}

/** Each desired user attribute's live one: by id when the file gives one, else by name (the lowest id). */
function matchUserAttributes(desired: DesiredState, live: LiveState): Matches['userAttributes'] {
  const byId = new Map(live.userAttributes.map((a) => [a.id, a]));
  const byName = new Map<string, UserAttribute>();
  for (const a of [...live.userAttributes].sort((x, y) => x.id - y.id)) if (!byName.has(a.name)) byName.set(a.name, a);
  const userAttributes = new Map<DesiredUserAttribute, UserAttribute | undefined>();
  for (const a of desired.userAttributes) {
    if (a.id !== undefined) {
      const la = byId.get(a.id);
      if (la === undefined) {
        throw planError(
          'user_attribute_missing',
          `${at(a.pos)}${a.address}: user attribute id ${a.id} does not exist.`,
          'Remove `id` to find (or create) the attribute by name, or fix the id.',
        );
      }
      userAttributes.set(a, la);
    } else {
      userAttributes.set(a, byName.get(a.name));
    }
  }
  return userAttributes;
}

/** The live workbook a desired one adopts in this deployment, if its `adopt` block names one here. */
function adoptTarget(w: DesiredWorkbook, byId: Map<number, Workbook>, ctx: PlanContext): Workbook | undefined {
  if (w.adopt === undefined || w.adopt.deploymentId !== ctx.deploymentId) return undefined;
  const target = byId.get(w.adopt.id);
  if (target === undefined) {
    throw planError(
      'adopt_target_missing',
      `${at(w.pos)}${w.address}: adopt names workbook id ${w.adopt.id} in deployment ${ctx.deploymentId}, ` +
        'which does not exist there.',
      'Fix the id in the `adopt` block, or remove the block to create the workbook instead.',
    );
  }
  const held = typeof target.slug === 'string' ? normalizeSlug(target.slug) : '';
  // A slug no bundle can hold (validate refuses it) is replaced: that is what the adopt block is for.
  if (held !== '' && held !== w.slug && slugProblem(held) === undefined) {
    throw planError(
      'adopt_target_has_slug',
      `${at(w.pos)}${w.address}: adopt names workbook id ${w.adopt.id}, which already has the slug "${held}"; ` +
        'adopting it would take that slug away.',
      `Use \`slug: ${held}\` in this file, or remove the \`adopt\` block to create a workbook instead.`,
    );
  }
  return target;
}

export function refTargets(m: Matches, desired: DesiredState, ctx: PlanContext): RefTargets {
  const workbookBySlug = new Map(desired.workbooks.map((w) => [w.slug, w]));
  const near: { report?: KnownNames; workbook?: KnownNames } = {};
  return {
    report(bundleId) {
      const rm = m.reportsByBundleId.get(bundleId);
      if (rm) return rm.live?.id ?? 'pending';
      const found = m.liveReportsByPid.get(livePublicId(bundleId, ctx.publicIds, ctx.deploymentId)) ?? [];
      return found.length === 1 ? found[0]!.id : undefined;
    },
    workbook(slug) {
      const dw = workbookBySlug.get(slug);
      if (dw) return m.workbooks.get(dw)?.id ?? 'pending';
      return m.liveWorkbookBySlug.get(slug)?.id;
    },
    nearMisses(ref) {
      if ('$workbook' in ref) {
        near.workbook ??= new KnownNames(new Set([...workbookBySlug.keys(), ...m.liveWorkbookBySlug.keys()]));
        return near.workbook.nearMisses(normalizeSlug(ref.$workbook));
      }
      // Per deployment, a live publicId is derived from the bundle's: only as-is ones are names a file can write.
      const live = ctx.publicIds === 'as-is' ? m.liveReportsByPid.keys() : [];
      near.report ??= new KnownNames(new Set([...m.reportsByBundleId.keys(), ...live]));
      return near.report.nearMisses(ref.$report);
    },
  };
}

/** The request a pending reference waits for. */
export function dependencyOf(ref: Ref, m: Matches): string {
  if ('$report' in ref) {
    const rm = m.reportsByBundleId.get(ref.$report);
    return `${rm?.desired.address ?? `report/${ref.$report}`}#create`;
  }
  return `workbook/${normalizeSlug(ref.$workbook)}#upsert`;
}
