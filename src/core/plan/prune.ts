// Prune: the live reports and workbooks whose ownership record names this
// bundle and that the bundle no longer holds. Only a record of this bundle
// makes a resource a candidate; a read short of its count plans no delete
// (what is missing could be what keeps a workbook in use); a workbook that
// still holds a report this plan neither deletes nor moves out is kept, so
// that nothing depends on what the API does with a deleted workbook's reports.
import { normalizeSlug, type Report, type Workbook } from '../../domain/wire.js';
import { WscError, EXIT } from '../../errors.js';
import { fingerprintOf } from '../fingerprint.js';
import type { LiveState, OwnershipContext, PlanPrune, ResourceChange } from '../model.js';
import { editedFields, liveRecord } from '../ownership.js';
import { request, type Planned } from './compare.js';

/** The default cap: a fifth of the resources recorded for the bundle, at least 25. */
export function defaultMaxDeletes(recorded: number): number {
  return Math.max(25, Math.ceil(recorded / 5));
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
}

export function planPrune(
  live: LiveState,
  kept: { reports: Set<number>; workbooks: Set<number> },
  reportChanges: Map<number, ResourceChange>,
  own: OwnershipContext,
): PruneResult {
  const mine = (o: Report | Workbook) => liveRecord(o)?.bundle === own.bundle;
  const recordedReports = live.reports.filter(mine);
  const recordedWorkbooks = live.workbooks.filter(mine);
  const goneReports = recordedReports.filter((r) => !kept.reports.has(r.id)).sort((a, b) => a.id - b.id);
  const goneWorkbooks = recordedWorkbooks.filter((w) => !kept.workbooks.has(w.id)).sort((a, b) => a.id - b.id);
  const candidates = goneReports.length + goneWorkbooks.length;
  const prune: PlanPrune = { candidates, enabled: own.prune };
  if (!own.prune || candidates === 0) return { planned: [], prune };
  if (live.shortReads !== undefined && live.shortReads.length > 0) {
    prune.withheld = `the deployment's lists were read short of their count (${live.shortReads.join(', ')})`;
    return { planned: [], prune };
  }
  const max = own.maxDeletes ?? defaultMaxDeletes(recordedReports.length + recordedWorkbooks.length);
  if (candidates > max) {
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

  const planned: Planned[] = [];
  const deleted = new Set<number>();
  for (const r of goneReports) {
    deleted.add(r.id);
    const address = reportAddress(r);
    const rc: ResourceChange = {
      address,
      kind: 'report',
      actions: ['delete'],
      liveId: r.id,
      ...(typeof r.publicId === 'string' ? { livePublicId: r.publicId } : {}),
      changes: [],
      requests: [request(address, 'delete', 5, { op: 'deleteReport', reportId: r.id })],
    };
    planned.push(deletion(rc, r, own.bundle));
  }
  // A report moving to a workbook known only after apply: one is being created (a renamed slug, perhaps).
  const creatingWorkbook = [...reportChanges.values()].some((c) => typeof movesTo(c) === 'object');
  for (const w of goneWorkbooks) {
    const address = workbookAddress(w);
    const inside = live.reports.filter((r) => r.workbookId === w.id);
    const staying = inside.filter((r) => {
      if (deleted.has(r.id)) return false;
      const to = movesTo(reportChanges.get(r.id));
      return to === undefined || to === w.id;
    });
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
      const id = deleted.has(r.id) ? `${reportAddress(r)}#delete` : reportChanges.get(r.id)?.requests[0]?.id;
      if (id !== undefined) dependsOn.add(id);
    }
    const operation = { op: 'deleteWorkbook' as const, workbookId: w.id };
    const rc: ResourceChange = {
      address,
      kind: 'workbook',
      actions: ['delete'],
      liveId: w.id,
      changes: [],
      requests: [request(address, 'delete', 5, operation, [...dependsOn].sort())],
    };
    if (creatingWorkbook || inside.length > 0) {
      rc.note =
        'a slug cannot be changed: when this is a rename, the workbook of the new slug is created ' +
        'and the reports move to it first';
    }
    planned.push(deletion(rc, w, own.bundle));
  }
  return { planned, prune };
}

/** A planned delete: its live object found again by id, managed fields edited outside wsc marked. */
function deletion(rc: ResourceChange, live: Report | Workbook, bundle: string): Planned {
  const rec = liveRecord(live);
  if (rec !== undefined && rec.bundle === bundle) {
    const edited = editedFields(rec, live, Object.keys(rec.fields).sort());
    if (edited.length > 0) rc.uiEdits = edited;
  }
  return { change: rc, fingerprints: () => [fingerprintOf(rc.address, live, 'id')] };
}
