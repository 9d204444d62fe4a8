// The baselines a preview marks its change against (`--against REF`): a
// bundle as committed at a git ref (each workbook's draft there, diffed with
// the draft now), or a live deployment (the plan of the bundle against it:
// the draft's change, a create, the parts kept as edited outside wsc), and a
// model marked against one. Pure: the command reads the ref
// (bundle/at-ref.ts) or the deployment, and plans.
import type { JsonValue } from '../core/json.js';
import { liveDraft } from '../core/live-draft.js';
import { isRef, type DesiredState, type LiveState, type PublicIdMode } from '../core/model.js';
import { diffDashboard, type ReportNames } from '../core/plan/dashboard-diff.js';
import type { DriftEntry, Plan } from '../core/plan-model.js';
import { livePublicId } from '../core/publicid.js';
import { UsageError } from '../errors.js';
import type { Baseline } from './changes.js';
import { markChanges, type PreviewModel } from './model.js';
import { markChartChanges, reportAt, type ReportLookup } from './report-changes.js';

export type AgainstRef = { kind: 'git'; ref: string } | { kind: 'env'; name: string };

/** `--against`'s value: `git:<ref>` or `env:<environment>`. */
export function parseAgainst(raw: string): AgainstRef {
  const m = /^(git|env):(.+)$/.exec(raw);
  // A ref that starts with `-` would read as an option of git.
  if (!m || m[2]!.startsWith('-')) {
    throw new UsageError(`--against takes git:<ref> or env:<environment>, got "${raw}".`, {
      code: 'preview_against',
      hint: 'For example --against git:main (the bundle as committed there) or --against env:production (live).',
    });
  }
  return m[1] === 'git' ? { kind: 'git', ref: m[2]! } : { kind: 'env', name: m[2]! };
}

/** Each workbook's baseline by slug, for a bundle as loaded now. */
type Baselines = (desired: DesiredState) => Map<string, Baseline>;

/** A baseline: its dashboards, and its reports (what each chart was drawn from there). */
export interface Against {
  baselines: Baselines;
  reports: ReportLookup;
}

function draftOf(w: DesiredState['workbooks'][number]): JsonValue | undefined {
  return w.fields.meta?.['dashboardDraft'];
}

/** Report titles of both bundles (now first), for the drafts' diffs; no live ids in a git baseline. */
function names(now: DesiredState, then: DesiredState): ReportNames {
  const titles = new Map<string, string>();
  for (const r of [...then.reports, ...now.reports]) {
    const t = r.fields['title'] ?? r.fields['name'];
    if (typeof t === 'string' && t !== '') titles.set(r.publicId, t);
  }
  return { byId: () => undefined, title: (pid) => titles.get(pid) };
}

export function gitBaselines(then: DesiredState): Against {
  const before = new Map(then.workbooks.map((w) => [w.slug, draftOf(w)]));
  const reports = new Map(then.reports.map((r) => [r.publicId, reportAt(r.fields, r.publicId)]));
  const lookup: ReportLookup = (ref) => (isRef(ref) && '$report' in ref ? reports.get(ref.$report) : undefined);
  return {
    reports: lookup,
    baselines: (now) => {
      const n = names(now, then);
      return new Map(
        now.workbooks.map((w) => {
          const b = before.has(w.slug) ? before.get(w.slug) : undefined;
          const exists = before.has(w.slug);
          return [w.slug, { before: exists ? (b ?? {}) : undefined, diff: diffDashboard(b, draftOf(w), n) }];
        }),
      );
    },
  };
}

/**
 * The live reports by id and by publicId, as the baseline's charts read them; each named by the bundle's
 * publicId (`bundleId`: a per-deployment publicId is the bundle's own), so that a chart is not seen to change
 * report when only the deployment's name of it differs.
 */
function liveReports(live: LiveState, bundleId: (livePid: string) => string = (pid) => pid): ReportLookup {
  const byId = new Map(live.reports.map((r) => [r.id, r]));
  const byPublicId = new Map(live.reports.flatMap((r) => (r.publicId ? [[r.publicId, r] as const] : [])));
  return (ref) => {
    const r =
      typeof ref === 'number'
        ? byId.get(ref)
        : isRef(ref) && '$report' in ref
          ? byPublicId.get(ref.$report)
          : undefined;
    if (r === undefined) return undefined;
    const fields = {
      jsonQuery: r.jsonQuery ?? undefined,
      sqlQuery: r.sqlQuery ?? undefined,
      meta: r.meta ?? undefined,
    };
    const pid = r.publicId != null ? bundleId(r.publicId) : undefined;
    return reportAt(fields as Record<string, JsonValue | undefined>, pid);
  };
}

/** Each workbook's baseline from the plan of the bundle now against the live deployment. */
function planBaselines(now: DesiredState, p: Plan, live: LiveState): Map<string, Baseline> {
  const out = new Map<string, Baseline>();
  for (const w of now.workbooks) out.set(w.slug, { before: draftOf(w) ?? {}, diff: undefined });
  for (const c of p.changes) {
    if (c.kind !== 'workbook') continue;
    const slug = c.address.slice('workbook/'.length);
    if (c.actions.includes('create')) out.set(slug, { before: undefined, diff: undefined });
    const kept = keptParts(c.drift);
    const f = c.changes.find((x) => x.path === 'meta.dashboardDraft');
    const liveDraftOf = () => liveDraft(live.workbooks.find((w) => w.id === c.liveId)) ?? {};
    if (f !== undefined && !c.actions.includes('create'))
      out.set(slug, { before: f.before ?? {}, diff: f.dashboard, ...(kept.length > 0 ? { kept } : {}) });
    else if (kept.length > 0) out.set(slug, { before: liveDraftOf(), diff: undefined, kept });
  }
  return out;
}

/** The draft parts a workbook's plan keeps as edited outside wsc (`widget w1`, `title`). */
function keptParts(drift: readonly DriftEntry[] | undefined): string[] {
  const prefix = 'meta.dashboardDraft ';
  return (drift ?? [])
    .filter((d) => d.apply === 'keep' && d.field.startsWith(prefix))
    .map((d) => d.field.slice(prefix.length));
}

/**
 * The live deployment as a baseline: read once (`live`), each reload of the bundle planned against it by
 * `planNow`; its reports named by the bundle's publicIds (`ids`: how the environment derives them).
 */
export function liveBaselines(
  desired: DesiredState,
  live: LiveState,
  ids: { publicIds: PublicIdMode; deploymentId: number },
  planNow: (now: DesiredState) => Plan,
): Against {
  const toBundle = new Map(
    desired.reports.map((r) => [livePublicId(r.publicId, ids.publicIds, ids.deploymentId), r.publicId]),
  );
  return {
    reports: liveReports(live, (pid) => toBundle.get(pid) ?? pid),
    baselines: (now) => planBaselines(now, planNow(now), live),
  };
}

/**
 * `against` for a plan limited by --target (`plan --pictures`): a chart's report counts as changed only when
 * the plan changes it (`planned`: its report addresses); the others chart as the bundle has them, as apply
 * would leave them. The dashboards' own baselines come from that plan already.
 */
export function plannedReportsOnly(against: Against, desired: DesiredState, planned: ReadonlySet<string>): Against {
  const bundled = new Map(desired.reports.map((r) => [r.publicId, reportAt(r.fields, r.publicId)]));
  return {
    ...against,
    reports: (ref) => {
      const was = against.reports(ref);
      const pid = was?.publicId;
      return pid === undefined || planned.has(`report/${pid}`) ? was : (bundled.get(pid) ?? was);
    },
  };
}

/** The model of the bundle now, marked against the baseline `against` (named `label`): dashboards and charts. */
export function markedAgainst(
  model: PreviewModel,
  desired: DesiredState,
  against: Against,
  label: string,
): PreviewModel {
  const base = against.baselines(desired);
  const marked = markChanges(model, desired, base, label);
  return markChartChanges(marked, (slug) => base.get(slug)?.before, against.reports);
}
