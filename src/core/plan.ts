// The planner: (desired, live) → Plan. Pure and deterministic: no I/O, no
// clock; the same inputs give a deep-equal plan. DESIGN §4 (comparison,
// partial ownership, actions) and §5 (phases and dependencies of requests).
import {
  normalizeSlug,
  REPORT_INPUT_FIELDS,
  USER_ATTRIBUTE_INPUT_FIELDS,
  type Report,
  type UserAttribute,
  type Workbook,
} from '../api/wire.js';
import { closest } from '../bundle/suggest.js';
import { EXIT, UsageError, WscError, type SourcePos } from '../errors.js';
import { sameContent, sameJsonString, setMember } from './canonical.js';
import { fingerprintOf } from './fingerprint.js';
import type {
  ActionKind,
  DesiredReport,
  DesiredState,
  DesiredUserAttribute,
  DesiredWorkbook,
  FieldChange,
  Fingerprint,
  JsonValue,
  LiveState,
  Plan,
  PlanContext,
  PlannedRequest,
  PlanSummary,
  Ref,
  ResourceChange,
} from './model.js';
import { livePublicId } from './publicid.js';
import { resolveRefs, type RefTargets } from './refs.js';

type Obj = { [k: string]: JsonValue };

function at(pos: SourcePos | undefined): string {
  return pos ? `${pos.file}:${pos.line}:${pos.col}: ` : '';
}

function planError(code: string, message: string, hint: string): WscError {
  return new WscError(code, message, EXIT.failure, { hint });
}

// ---------------------------------------------------------------------------
// Matching desired resources to live ones.

interface ReportMatch {
  desired: DesiredReport;
  livePid: string;
  live?: Report;
  /** The live report is the adopt target (it gets the publicId now). */
  adopting: boolean;
}

interface Matches {
  workbooks: Map<DesiredWorkbook, Workbook | undefined>;
  reports: ReportMatch[];
  reportsByBundleId: Map<string, ReportMatch>;
  workbookSlugs: Set<string>;
  liveWorkbookBySlug: Map<string, Workbook>;
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

function match(desired: DesiredState, live: LiveState, ctx: PlanContext): Matches {
  const liveWorkbookBySlug = new Map<string, Workbook>();
  for (const w of [...live.workbooks].sort((a, b) => a.id - b.id)) {
    if (typeof w.slug !== 'string') continue;
    const s = normalizeSlug(w.slug);
    if (!liveWorkbookBySlug.has(s)) liveWorkbookBySlug.set(s, w);
  }
  const workbooks = new Map<DesiredWorkbook, Workbook | undefined>();
  for (const w of desired.workbooks) workbooks.set(w, liveWorkbookBySlug.get(w.slug));

  const liveReportsByPid = groupBy(live.reports, (r) => r.publicId);
  const liveReportById = new Map(live.reports.map((r) => [r.id, r]));
  const reports: ReportMatch[] = [];
  const reportsByBundleId = new Map<string, ReportMatch>();
  for (const d of desired.reports) {
    const livePid = livePublicId(d.publicId, ctx.publicIds, ctx.deploymentId);
    const found = liveReportsByPid.get(livePid) ?? [];
    if (found.length > 1) {
      throw planError(
        'ambiguous_public_id',
        `${at(d.pos)}${d.address}: ${found.length} reports in deployment ${ctx.deploymentId} share the publicId "${livePid}" (ids ${found
          .map((r) => r.id)
          .sort((a, b) => a - b)
          .join(', ')}), so wsc cannot tell which one the file means.`,
        'Such a publicId is a legacy placeholder. Give the report a publicId of its own with an `adopt: { deploymentId, id }` block naming the one to manage (`wsc export` writes one).',
      );
    }
    let m: ReportMatch = { desired: d, livePid, live: found[0], adopting: false };
    if (m.live === undefined && d.adopt !== undefined && d.adopt.deploymentId === ctx.deploymentId) {
      const target = liveReportById.get(d.adopt.id);
      if (target === undefined) {
        throw planError(
          'adopt_target_missing',
          `${at(d.pos)}${d.address}: adopt names report id ${d.adopt.id} in deployment ${ctx.deploymentId}, which does not exist there.`,
          'Fix the id in the `adopt` block, or remove the block to create the report instead.',
        );
      }
      m = { desired: d, livePid, live: target, adopting: true };
    }
    reports.push(m);
    reportsByBundleId.set(d.publicId, m);
  }

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

  return {
    workbooks,
    reports,
    reportsByBundleId,
    workbookSlugs: new Set(desired.workbooks.map((w) => w.slug)),
    liveWorkbookBySlug,
    liveReportsByPid,
    userAttributes,
  };
}

function refTargets(m: Matches, desired: DesiredState, ctx: PlanContext): RefTargets {
  const workbookBySlug = new Map(desired.workbooks.map((w) => [w.slug, w]));
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
  };
}

/** The request a pending reference waits for. */
function dependencyOf(ref: Ref, m: Matches): string {
  if ('$report' in ref) {
    const rm = m.reportsByBundleId.get(ref.$report);
    return `${rm?.desired.address ?? `report/${ref.$report}`}#create`;
  }
  return `workbook/${normalizeSlug(ref.$workbook)}#upsert`;
}

// ---------------------------------------------------------------------------
// Comparison helpers.

/**
 * The server assigns an id to a draft widget sent without one; a file that
 * leaves widget ids out must not differ from the live draft for that alone.
 * Returns the desired draft with each missing widget id taken from the live
 * widget at the same position, for comparison only.
 */
export function alignWidgetIds(desired: JsonValue, live: unknown): JsonValue {
  if (!isObj(desired) || !isObj(live)) return desired;
  const dw = desired['widgets'];
  const lw = (live as Record<string, unknown>)['widgets'];
  if (!Array.isArray(dw) || !Array.isArray(lw)) return desired;
  const widgets = dw.map((w, i) => {
    const l = lw[i] as unknown;
    if (!isObj(w) || (w['id'] !== undefined && w['id'] !== null) || !isObj(l)) return w;
    const id = (l as Record<string, unknown>)['id'];
    return typeof id === 'string' ? { ...w, id } : w;
  });
  return { ...desired, widgets };
}

function isObj(v: unknown): v is Obj {
  return v !== null && typeof v === 'object' && !Array.isArray(v);
}

function sameDraft(desired: JsonValue, live: unknown): boolean {
  return sameContent(alignWidgetIds(desired, live), live);
}

function liveField(obj: unknown, key: string): JsonValue | undefined {
  if (!isObj(obj)) return undefined;
  const v = (obj as Record<string, unknown>)[key];
  return v === undefined ? undefined : (v as JsonValue);
}

function change(path: string, before: JsonValue | undefined, after: JsonValue, exists: boolean): FieldChange {
  const c: FieldChange = { path };
  if (exists && before !== undefined) c.before = before;
  c.after = after;
  return c;
}

// ---------------------------------------------------------------------------
// Workbooks.

interface Planned {
  change: ResourceChange;
  fingerprints: Fingerprint[];
}

function planWorkbook(w: DesiredWorkbook, lw: Workbook | undefined, m: Matches, targets: RefTargets): Planned {
  const exists = lw !== undefined;
  const changes: FieldChange[] = [];
  const body1: Obj = {};
  const meta1: Obj = {};
  const meta3: Obj = {};
  const deps3 = new Set<string>();
  for (const k of ['name', 'folderId'] as const) {
    if (!(k in w.fields)) continue;
    const v = (w.fields[k] ?? null) as JsonValue;
    const before = liveField(lw, k);
    if (!exists || !sameContent(v, before)) {
      changes.push(change(k, before, v, exists));
      body1[k] = v;
    }
  }
  let draft: JsonValue | undefined;
  let draftChanges = false;
  const meta = w.fields.meta;
  if (meta !== undefined) {
    for (const k of Object.keys(meta).sort()) {
      const path = `meta.${k}`;
      const r = resolveRefs(meta[k]!, targets, { address: w.address, path, pos: w.pos });
      const before = liveField(lw?.meta, k);
      if (k === 'dashboardDraft') draft = r.value;
      const same = k === 'dashboardDraft' ? sameDraft(r.value, before) : sameContent(r.value, before);
      if (exists && r.pending.length === 0 && same) continue;
      if (k === 'dashboardDraft') draftChanges = true;
      changes.push(change(path, before, r.value, exists));
      if (r.pending.length > 0) {
        setMember(meta3, k, r.value);
        for (const ref of r.pending) deps3.add(dependencyOf(ref, m));
      } else {
        setMember(meta1, k, r.value);
      }
    }
  }
  if (Object.keys(meta1).length > 0) body1['meta'] = meta1;

  const requests: PlannedRequest[] = [];
  const upsertId = `${w.address}#upsert`;
  if (!exists || Object.keys(body1).length > 0) {
    requests.push({ id: upsertId, address: w.address, phase: 1, operation: { op: 'upsertWorkbook', slug: w.slug, body: body1 }, dependsOn: [] });
  }
  if (Object.keys(meta3).length > 0) {
    const dependsOn = [...(requests.length > 0 ? [upsertId] : []), ...[...deps3].filter((d) => d !== upsertId).sort()];
    requests.push({
      id: `${w.address}#draft`,
      address: w.address,
      phase: 3,
      operation: { op: 'upsertWorkbook', slug: w.slug, body: { meta: meta3 } },
      dependsOn,
    });
  }

  const actions: ActionKind[] = [];
  if (!exists) actions.push('create');
  else if (changes.length > 0) actions.push('update');

  if (w.publish) {
    const liveDraft = liveField(lw?.meta, 'dashboardDraft') ?? liveField(lw, 'dashboardDraft') ?? null;
    const wanted = draft ?? liveDraft;
    const published = liveField(lw, 'dashboardPublished') ?? null;
    if (!exists || draftChanges || !sameDraft(wanted, published)) {
      actions.push('publish');
      if (exists && !draftChanges) changes.push(change('dashboardPublished', published, wanted, exists));
      requests.push({
        id: `${w.address}#publish`,
        address: w.address,
        phase: 4,
        operation: { op: 'publishWorkbook', workbook: lw?.id ?? { $workbook: w.slug }, body: {} },
        dependsOn: requests.map((r) => r.id),
      });
    }
  }
  if (actions.length === 0) actions.push('noop');

  const rc: ResourceChange = { address: w.address, kind: 'workbook', actions, changes, requests, pos: w.pos };
  if (lw) rc.liveId = lw.id;
  return { change: rc, fingerprints: [fingerprintOf(w.address, lw)] };
}

// ---------------------------------------------------------------------------
// Reports.

function planReport(rm: ReportMatch, m: Matches, targets: RefTargets): Planned {
  const { desired: d, live: lr, livePid, adopting } = rm;
  const exists = lr !== undefined;
  const changes: FieldChange[] = [];
  const body: Obj = {};
  const deps = new Set<string>();
  const addPending = (refs: Ref[]) => {
    for (const ref of refs) deps.add(dependencyOf(ref, m));
  };

  if (adopting) changes.push(change('publicId', lr!.publicId, livePid, true));
  if (!exists && d.source !== undefined) changes.push(change('source', undefined, d.source, false));

  for (const f of REPORT_INPUT_FIELDS) {
    if (!(f in d.fields)) continue;
    const raw = (d.fields[f] ?? null) as JsonValue;
    const r = resolveRefs(raw, targets, { address: d.address, path: f, pos: d.pos });
    addPending(r.pending);
    const before = liveField(lr, f);
    if (f === 'meta' && isObj(r.value)) {
      let any = !exists;
      for (const k of Object.keys(r.value).sort()) {
        const v = r.value[k]!;
        const b = liveField(before, k);
        const pending = r.pending.length > 0 && resolveHasRef(v);
        if (exists && !pending && sameContent(v, b)) continue;
        changes.push(change(`meta.${k}`, b, v, exists));
        any = true;
      }
      // Sent whole: whether PUT /reports/{id} merges meta is not stated.
      if (any) body[f] = r.value;
      continue;
    }
    const same = f === 'jsonQuery' ? sameJsonString(r.value, before) : sameContent(r.value, before);
    if (exists && r.pending.length === 0 && same) continue;
    changes.push(change(f, before, r.value, exists));
    body[f] = r.value;
  }

  const requests: PlannedRequest[] = [];
  const actions: ActionKind[] = [];
  const dependsOn = [...deps].filter((x) => x !== `${d.address}#create`).sort();
  if (!exists) {
    actions.push('create');
    const createBody: Obj = { publicId: livePid };
    if (d.source !== undefined) createBody['source'] = d.source;
    Object.assign(createBody, body);
    requests.push({ id: `${d.address}#create`, address: d.address, phase: 2, operation: { op: 'createReport', body: createBody }, dependsOn });
  } else if (adopting) {
    actions.push('adopt');
    if (changes.length > 1) actions.push('update');
    requests.push({
      id: `${d.address}#adopt`,
      address: d.address,
      phase: 2,
      operation: { op: 'updateReport', reportId: lr.id, body: { publicId: livePid, ...body } },
      dependsOn,
    });
  } else if (changes.length > 0) {
    actions.push('update');
    requests.push({ id: `${d.address}#update`, address: d.address, phase: 2, operation: { op: 'updateReport', reportId: lr.id, body }, dependsOn });
  } else {
    actions.push('noop');
  }

  const rc: ResourceChange = { address: d.address, kind: 'report', actions, livePublicId: livePid, changes, requests, pos: d.pos };
  if (lr) rc.liveId = lr.id;
  const fingerprints: Fingerprint[] = adopting
    ? [fingerprintOf(d.address, undefined), fingerprintOf(d.address, lr, 'id')]
    : [fingerprintOf(d.address, lr)];
  return { change: rc, fingerprints };
}

function resolveHasRef(v: JsonValue): boolean {
  if (v === null || typeof v !== 'object') return false;
  if (!Array.isArray(v) && Object.keys(v).length === 1 && ('$report' in v || '$workbook' in v)) return true;
  return (Array.isArray(v) ? v : Object.values(v)).some(resolveHasRef);
}

// ---------------------------------------------------------------------------
// User attributes (account-level; independent of everything else: phase 0).

function planUserAttribute(a: DesiredUserAttribute, la: UserAttribute | undefined): Planned {
  const exists = la !== undefined;
  const changes: FieldChange[] = [];
  const body: Obj = {};
  if (!exists) changes.push(change('type', undefined, a.type ?? 'string', false));
  for (const f of USER_ATTRIBUTE_INPUT_FIELDS) {
    if (!(f in a.fields)) continue;
    const v = (a.fields[f] ?? null) as JsonValue;
    const before = liveField(la, f);
    if (exists && sameContent(v, before)) continue;
    changes.push(change(f, before, v, exists));
    body[f] = v;
  }
  const requests: PlannedRequest[] = [];
  const actions: ActionKind[] = [];
  if (!exists) {
    actions.push('create');
    requests.push({
      id: `${a.address}#create`,
      address: a.address,
      phase: 0,
      operation: { op: 'createUserAttribute', body: { name: a.name, type: a.type ?? 'string', ...(body as Record<string, string | null>) } },
      dependsOn: [],
    });
  } else if (changes.length > 0) {
    actions.push('update');
    requests.push({
      id: `${a.address}#update`,
      address: a.address,
      phase: 0,
      operation: { op: 'updateUserAttribute', id: la.id, body: body as Record<string, string | null> },
      dependsOn: [],
    });
  } else {
    actions.push('noop');
  }
  const rc: ResourceChange = { address: a.address, kind: 'user-attribute', actions, changes, requests, pos: a.pos };
  if (la) rc.liveId = la.id;
  return { change: rc, fingerprints: [fingerprintOf(a.address, la, a.id !== undefined ? 'id' : 'identity')] };
}

// ---------------------------------------------------------------------------

function byAddress(a: { address: string }, b: { address: string }): number {
  return a.address < b.address ? -1 : a.address > b.address ? 1 : 0;
}

/** The targeted resources and, transitively, those whose requests they depend on. */
function selectTargets(planned: Planned[], targets: readonly string[]): Planned[] {
  if (targets.length === 0) return planned;
  const byAddr = new Map(planned.map((p) => [p.change.address, p]));
  const known = [...byAddr.keys()];
  for (const t of targets) {
    if (!byAddr.has(t)) {
      const near = closest(t, known);
      throw new UsageError(`--target ${t}: no such resource in the bundle.`, {
        code: 'unknown_target',
        hint: near ? `Did you mean \`${near}\`?` : 'Addresses look like `workbook/<slug>`, `report/<publicId>`, `user-attribute/<name>`.',
      });
    }
  }
  const keep = new Set<string>();
  const visit = (addr: string) => {
    if (keep.has(addr)) return;
    const p = byAddr.get(addr);
    if (!p) return;
    keep.add(addr);
    for (const r of p.change.requests) for (const dep of r.dependsOn) visit(dep.slice(0, dep.lastIndexOf('#')));
  };
  for (const t of targets) visit(t);
  return planned.filter((p) => keep.has(p.change.address));
}

export function summarize(changes: readonly ResourceChange[], unmanaged: PlanSummary['unmanaged']): PlanSummary {
  const s: PlanSummary = { create: 0, update: 0, adopt: 0, publish: 0, noop: 0, unmanaged };
  for (const c of changes) for (const a of c.actions) s[a]++;
  return s;
}

export function plan(desired: DesiredState, live: LiveState, ctx: PlanContext): Plan {
  const m = match(desired, live, ctx);
  const targets = refTargets(m, desired, ctx);

  const workbooks = [...desired.workbooks].sort(byAddress).map((w) => planWorkbook(w, m.workbooks.get(w), m, targets));
  const reports = [...m.reports]
    .sort((a, b) => byAddress(a.desired, b.desired))
    .map((rm) => planReport(rm, m, targets));
  const attrs = [...desired.userAttributes].sort(byAddress).map((a) => planUserAttribute(a, m.userAttributes.get(a)));

  const matchedWorkbooks = new Set([...m.workbooks.values()].filter((w) => w !== undefined).map((w) => w.id));
  const matchedReports = new Set(m.reports.filter((r) => r.live !== undefined).map((r) => r.live!.id));
  const matchedAttrs = new Set([...m.userAttributes.values()].filter((a) => a !== undefined).map((a) => a.id));
  const unmanaged = {
    workbooks: live.workbooks.filter((w) => !matchedWorkbooks.has(w.id)).length,
    reports: live.reports.filter((r) => !matchedReports.has(r.id)).length,
    userAttributes: live.userAttributes.filter((a) => !matchedAttrs.has(a.id)).length,
  };

  const kept = selectTargets([...workbooks, ...reports, ...attrs], ctx.targets);
  const changes = kept.map((p) => p.change);
  return {
    formatVersion: 1,
    environment: ctx.environment,
    deploymentId: ctx.deploymentId,
    publicIds: ctx.publicIds,
    changes,
    summary: summarize(changes, unmanaged),
    fingerprints: kept.flatMap((p) => p.fingerprints),
  };
}
