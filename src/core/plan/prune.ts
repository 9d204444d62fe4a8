// Prune: the live reports and workbooks whose ownership record names this
// bundle and that the bundle no longer holds. Only a record of this bundle
// makes a resource a candidate; a read short of its count plans no delete
// (what is missing could be what keeps a workbook in use); a workbook that
// still holds a report this plan neither deletes nor moves out is kept, so
// that nothing depends on what the API does with a deleted workbook's reports.
import { normalizeSlug, type Report, type Workbook } from '../../domain/wire.js';
import { WscError, EXIT } from '../../errors.js';
import { defaultMaxDeletes } from '../../defaults.js';
import { DELETE_PHASE } from '../deletes.js';
import { fingerprintOf } from '../fingerprint.js';
import type { LiveState, OwnershipContext } from '../model.js';
import type { PlanPrune, ResourceChange } from '../plan-model.js';
import { changedOutside, claimedBundle, noPartChanges, readRecord } from '../ownership.js';
import { stillChartedError, type Dashboard, whereCharted } from './charted.js';
import { request, type Planned } from './compare.js';
import type { Claims } from './record-claims.js';

/** This bundle's ownership context, and which records of it are this bundle's where they are (record-claims.ts). */
type PruneContext = OwnershipContext & { claims: Claims };

/**
 * Whether a live resource's record names this bundle: a well-formed record
 * written for it (a copy's is not this bundle's), or one that only claims to be.
 */
function namesBundle(o: Report | Workbook, own: PruneContext): boolean {
  return claimedBundle(o) === own.bundle && own.claims.of(o).state !== 'copy';
}

function reportAddress(r: Report): string {
  return `report/${r.publicId}`;
}

function workbookAddress(w: Workbook): string {
  return typeof w.slug === 'string' && w.slug !== '' ? `workbook/${normalizeSlug(w.slug)}` : `workbook/#${w.id}`;
}

/** Where a planned report change moves its report: a workbook id, a reference, or undefined (stays). */
function movesTo(change: ResourceChange | undefined): unknown {
  return change?.changes.find((c) => c.path === 'workbookId')?.after;
}

export interface PruneResult {
  planned: Planned[];
  prune: PlanPrune;
  /** The ids of the candidates (recorded for this bundle, no longer in it), planned as deletes or not. */
  gone: { reports: Set<number>; workbooks: Set<number> };
}

export function planPrune(
  live: LiveState,
  kept: { reports: Set<number>; workbooks: Set<number> },
  reportChanges: Map<number, ResourceChange>,
  own: PruneContext,
  dashboards: readonly Dashboard[] = [],
): PruneResult {
  const mine = (o: Report | Workbook) => namesBundle(o, own);
  const recordedReports = live.reports.filter(mine);
  const recordedWorkbooks = live.workbooks.filter(mine);
  const goneReports = recordedReports.filter((r) => !kept.reports.has(r.id)).sort((a, b) => a.id - b.id);
  const goneWorkbooks = recordedWorkbooks.filter((w) => !kept.workbooks.has(w.id)).sort((a, b) => a.id - b.id);
  const candidates = goneReports.length + goneWorkbooks.length;
  const prune: PlanPrune = { candidates, enabled: own.prune };
  const gone = { reports: new Set(goneReports.map((r) => r.id)), workbooks: new Set(goneWorkbooks.map((w) => w.id)) };
  if (!own.prune || candidates === 0) return { planned: [], prune, gone };
  if (live.shortReads !== undefined && live.shortReads.length > 0) {
    prune.withheld = `the deployment's lists were read short of their count (${live.shortReads.join(', ')})`;
    return { planned: [], prune, gone };
  }
  checkDeleteCap(candidates, recordedReports.length + recordedWorkbooks.length, own);

  // Never a report a dashboard still charts after this apply (the dashboards of workbooks this plan deletes
  // excepted): its chart would point at nothing.
  const staysIn = (w: Workbook) => (r: Report) => {
    if (r.workbookId !== w.id || gone.reports.has(r.id)) return false;
    const to = movesTo(reportChanges.get(r.id));
    return to === undefined || to === w.id;
  };
  const deletedWorkbooks = new Set(goneWorkbooks.filter((w) => !live.reports.some(staysIn(w))).map((w) => w.id));
  const after = dashboards.filter((d) => d.workbookId === undefined || !deletedWorkbooks.has(d.workbookId));
  const charted = goneReports.flatMap((r) => whereCharted(r, after).map((where) => ({ report: r, where })));
  if (charted.length > 0) throw stillChartedError(charted);

  const planned: Planned[] = goneReports.map((r) => reportDeletion(r, own));
  // A report moving to a workbook known only after apply: one is being created (a renamed slug, perhaps).
  const creatingWorkbook = [...reportChanges.values()].some((c) => typeof movesTo(c) === 'object');
  for (const w of goneWorkbooks) {
    const address = workbookAddress(w);
    const inside = live.reports.filter((r) => r.workbookId === w.id);
    const staying = inside.filter(staysIn(w));
    if (staying.length > 0) {
      const ids =
        staying
          .map((r) => r.id)
          .slice(0, 5)
          .join(', ') + (staying.length > 5 ? ', …' : '');
      (prune.held ??= []).push({
        address,
        reason:
          `it still holds ${staying.length} report${staying.length === 1 ? '' : 's'} ` +
          `this bundle neither deletes nor moves out (ids ${ids})`,
      });
      continue;
    }
    // A workbook goes after the reports this plan deletes from it or moves out of it.
    const dependsOn = new Set<string>();
    for (const r of inside) {
      const id = gone.reports.has(r.id) ? `${reportAddress(r)}#delete` : reportChanges.get(r.id)?.requests[0]?.id;
      if (id !== undefined) dependsOn.add(id);
    }
    const operation = { op: 'deleteWorkbook' as const, workbookId: w.id };
    const rc: ResourceChange = {
      address,
      kind: 'workbook',
      actions: ['delete'],
      liveId: w.id,
      changes: [],
      requests: [request(address, 'delete', DELETE_PHASE, operation, [...dependsOn].sort())],
    };
    if (creatingWorkbook || inside.length > 0) {
      rc.note =
        'a slug cannot be changed: when this is a rename, the workbook of the new slug is created ' +
        'and the reports move to it first';
    }
    planned.push(deletion(rc, w, own));
  }
  return { planned, prune, gone };
}

/** --max-deletes (or its default, from the resources recorded for the bundle) against the deletes a plan would make. */
function checkDeleteCap(candidates: number, recorded: number, own: PruneContext): void {
  const max = own.maxDeletes ?? defaultMaxDeletes(recorded);
  if (candidates <= max) return;
  throw new WscError(
    'too_many_deletes',
    `The plan would delete ${candidates} resources recorded for bundle "${own.bundle}", ` +
      `more than --max-deletes ${max}. Nothing was planned.`,
    EXIT.failure,
    {
      hint:
        'Check that the bundle directory and environment are the right ones; ' +
        `if these deletes are intended, pass --max-deletes ${candidates}.`,
    },
  );
}

function reportDeletion(r: Report, own: PruneContext): Planned {
  const address = reportAddress(r);
  const rc: ResourceChange = {
    address,
    kind: 'report',
    actions: ['delete'],
    liveId: r.id,
    ...(typeof r.publicId === 'string' ? { livePublicId: r.publicId } : {}),
    changes: [],
    requests: [request(address, 'delete', DELETE_PHASE, { op: 'deleteReport', reportId: r.id })],
  };
  return deletion(rc, r, own);
}

/**
 * A planned delete: its live object found again by id, what it was (name and
 * file, from the record), and blocked unless its live content is what the
 * record says wsc left there: a resource edited since, or whose record is not
 * one wsc wrote (a forged or damaged one), is deleted only with
 * --overwrite-ui-edits (naming it, for a record that is not wsc's).
 */
function deletion(rc: ResourceChange, live: Report | Workbook, own: PruneContext): Planned {
  const read = readRecord(live);
  const liveName = 'title' in live && typeof live.title === 'string' && live.title !== '' ? live.title : live.name;
  const rec = read.state === 'record' ? read.record : undefined;
  const name = rec?.name ?? liveName;
  // A file the bundle holds for another address is not where this one came from (a copy's, or a file reused).
  const file = rec?.file !== undefined && own.claims.heldIn(rec.file) === undefined ? rec.file : undefined;
  rc.was = { ...(name !== undefined ? { name } : {}), ...(file !== undefined ? { file } : {}) };
  const flag = `--overwrite-ui-edits ${rc.address}`;
  const claim = rec === undefined ? undefined : own.claims.of(live);
  if (claim?.state === 'doubtful') {
    rc.blocked = { reason: 'other-resource', message: `not surely this bundle's: ${claim.why}`, flag, explicit: true };
  } else if (rec === undefined || Object.keys(rec.fields).length === 0) {
    const why = read.state === 'malformed' ? read.why : 'it records no field';
    rc.blocked = {
      reason: 'record-malformed',
      message: `its record names this bundle but is not one wsc wrote (${why})`,
      flag,
      explicit: true,
    };
    rc.uiEdits = ['the ownership record'];
  } else {
    const outside = changedOutside(rec, live);
    const edited = [
      ...outside.fields.filter((f) => f !== 'meta.dashboardDraft' || outside.draft === undefined),
      ...(outside.draft !== undefined && !noPartChanges(outside.draft) ? ['meta.dashboardDraft'] : []),
    ];
    if (edited.length > 0) {
      rc.uiEdits = edited;
      rc.blocked = {
        reason: 'ui-edit',
        message: `edited outside wsc since the last apply: ${edited.join(', ')}`,
        flag,
      };
    }
  }
  const b = rc.blocked;
  const allowed = own.overwrite === true ? b?.explicit !== true : (own.overwrite ?? []).includes(rc.address);
  if (b !== undefined && !allowed) rc.actions = ['blocked'];
  return { change: rc, fingerprints: () => [fingerprintOf(rc.address, live, 'id')] };
}
