// A workbook's changes and requests: phase 1 upsert without pending
// references, phase 3 draft upsert once the reports it charts exist, phase 4
// publish (the phases: Operation.phase in model.ts).
import type { Workbook } from '../../domain/wire.js';
import { sameContent, setMember } from '../canonical.js';
import { fingerprintOf } from '../fingerprint.js';
import { liveDraft } from '../live-draft.js';
import type { DesiredWorkbook } from '../model.js';
import type { FieldChange, PlannedRequest, ResourceChange } from '../plan-model.js';
import type { JsonValue, Obj } from '../json.js';
import { resolveRefs, type RefTargets } from '../refs.js';
import { change, liveField, request, sameDraft, writeActions, type Planned } from './compare.js';
import { diffDashboard } from './dashboard-diff.js';
import { dependencyOf, type Matches } from './match.js';
import { reportNames } from './report-names.js';

/** The draft's change by widget, in the bundle's terms (references as written). */
function withDashboardDiff(c: FieldChange, live: JsonValue | undefined, desired: JsonValue, m: Matches): void {
  const d = diffDashboard(live ?? undefined, desired, reportNames(m));
  if (d) c.dashboard = d;
}

export function planWorkbook(
  w: DesiredWorkbook,
  lw: Workbook | undefined,
  m: Matches,
  targets: RefTargets,
  adopting = false,
): Planned {
  const exists = lw !== undefined;
  const changes: FieldChange[] = [];
  if (adopting) changes.push(change('slug', lw!.slug ?? null, w.slug, true));
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
      const r = resolveRefs(meta[k]!, targets, { address: w.address, path, pos: w.pos, refPos: w.refPos });
      const before = k === 'dashboardDraft' ? liveDraft(lw) : liveField(lw?.meta, k);
      if (k === 'dashboardDraft') draft = r.value;
      const same = k === 'dashboardDraft' ? sameDraft(r.value, before) : sameContent(r.value, before);
      if (exists && r.pending.length === 0 && same) continue;
      if (k === 'dashboardDraft') draftChanges = true;
      const c = change(path, before, r.value, exists);
      if (k === 'dashboardDraft') withDashboardDiff(c, before, meta[k]!, m);
      changes.push(c);
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
  const adoptId = `${w.address}#adopt`;
  // The slug first: every by-slug upsert after it then finds the adopted workbook.
  if (adopting) {
    requests.push(request(w.address, 'adopt', 1, { op: 'adoptWorkbook', workbookId: lw!.id, slug: w.slug }));
  }
  if (!exists || Object.keys(body1).length > 0) {
    const operation = { op: 'upsertWorkbook' as const, slug: w.slug, body: body1 };
    requests.push(request(w.address, 'upsert', 1, operation, adopting ? [adoptId] : []));
  }
  if (Object.keys(meta3).length > 0) {
    const before3 = requests.length > 0 ? [requests[requests.length - 1]!.id] : [];
    const dependsOn = [...before3, ...[...deps3].filter((d) => d !== upsertId && d !== adoptId).sort()];
    const operation = { op: 'upsertWorkbook' as const, slug: w.slug, body: { meta: meta3 } };
    requests.push(request(w.address, 'draft', 3, operation, dependsOn));
  }

  const actions = writeActions(exists, adopting, changes.length);
  if (w.publish) {
    const wanted = draft ?? liveDraft(lw) ?? null;
    const published = liveField(lw, 'dashboardPublished') ?? null;
    if (!exists || draftChanges || !sameDraft(wanted, published)) {
      actions.push('publish');
      if (exists && !draftChanges) {
        const c = change('dashboardPublished', published, wanted, exists);
        withDashboardDiff(c, published, meta?.['dashboardDraft'] ?? wanted, m);
        changes.push(c);
      }
      const operation = { op: 'publishWorkbook' as const, workbook: lw?.id ?? { $workbook: w.slug }, body: {} };
      const dependsOn = requests.map((r) => r.id);
      requests.push(request(w.address, 'publish', 4, operation, dependsOn));
    }
  }
  if (actions.length === 0) actions.push('noop');

  const rc: ResourceChange = { address: w.address, kind: 'workbook', actions, changes, requests, pos: w.pos };
  if (lw) rc.liveId = lw.id;
  const fingerprints = () =>
    adopting
      ? [fingerprintOf(w.address, undefined), fingerprintOf(w.address, lw, 'id')]
      : [fingerprintOf(w.address, lw)];
  return { change: rc, fingerprints };
}
