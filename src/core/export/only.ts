// `wsc export --only ADDR ...`: what the files of the named resources take
// from the deployment, decided from the plan of the bundle against it, the
// live resources, this bundle's ownership records on them and their documents
// as written (the three-way merge of merge.ts). Pure: the command reads and
// edits the files through src/bundle/documents.ts.
import { normalizeSlug, type Report, type Workbook } from '../../domain/wire.js';
import { EXIT, UsageError, WscError } from '../../errors.js';
import type { DesiredState, LiveState, PublicIdMode } from '../model.js';
import { liveRecord } from '../ownership.js';
import type { ResourceChange } from '../plan-model.js';
import { livePublicId } from '../publicid.js';
import { reportDoc, workbookDoc } from './docs.js';
import { matchOf, type IntoEdit, type IntoSides } from './into.js';
import { mergeResource } from './merge.js';

const ADDRESS_RE = /^(report|workbook)\/.+$/;

/** The addresses of --only, once each; one that names no report or workbook is a usage error. */
export function onlyAddresses(given: readonly string[]): string[] {
  const only = [...new Set(given)];
  for (const a of only) {
    if (!ADDRESS_RE.test(a)) {
      throw new UsageError(`--only ${a}: expected report/<publicId> or workbook/<slug>.`, { code: 'bad_only_address' });
    }
  }
  return only;
}

/** The live resource the plan matched to each address, and this bundle's ownership record on it. */
export function liveSides(
  live: LiveState,
  changes: readonly ResourceChange[],
  bundle: string | undefined,
): Pick<IntoSides, 'live' | 'record'> {
  const byAddress = new Map(changes.map((c) => [c.address, c]));
  const liveOf = (address: string): unknown => {
    const c = byAddress.get(address);
    if (c?.liveId === undefined) return undefined;
    if (c.kind === 'report') return live.reports.find((r) => r.id === c.liveId);
    if (c.kind === 'workbook') return live.workbooks.find((w) => w.id === c.liveId);
    return live.userAttributes.find((u) => u.id === c.liveId);
  };
  return {
    live: liveOf,
    record: (address) => {
      const r = bundle === undefined ? undefined : liveRecord(liveOf(address));
      // A record written for another resource (a UI copy's) says nothing of this one: the plan blocked it so.
      if (byAddress.get(address)?.blocked?.reason === 'other-resource') return undefined;
      return r?.bundle === bundle ? r : undefined;
    },
  };
}

/** One --only address: its file, and the edit of its document (none: the file already matches the deployment). */
export interface OnlyOutcome {
  address: string;
  file: string;
  edit?: IntoEdit;
}

/** What each --only address's file takes; an address the deployment does not hold is refused (`only_not_live`). */
export function onlyMerges(
  only: readonly string[],
  desired: DesiredState,
  live: LiveState,
  changes: readonly ResourceChange[],
  sides: IntoSides,
  env: { deploymentId: number; publicIds: PublicIdMode },
): OnlyOutcome[] {
  const bundleIdOf = new Map(
    desired.reports.map((r) => [livePublicId(r.publicId, env.publicIds, env.deploymentId), r.publicId]),
  );
  const slugOf = new Map<number, string>();
  for (const w of live.workbooks) if (typeof w.slug === 'string') slugOf.set(w.id, normalizeSlug(w.slug));
  const refs = {
    workbookSlug: (id: number) => slugOf.get(id),
    reportPublicId: (id: number) => {
      const r = live.reports.find((x) => x.id === id);
      return typeof r?.publicId !== 'string' ? undefined : (bundleIdOf.get(r.publicId) ?? r.publicId);
    },
  };
  return only.map((address) => {
    const change = changes.find((c) => c.address === address)!;
    if (change.liveId === undefined) {
      const why =
        `--only ${address}: it is not in deployment ${env.deploymentId}, ` + 'so there is nothing to take from it.';
      throw new WscError('only_not_live', why, EXIT.failure, {
        hint: 'Apply the bundle to create it, or drop it from --only.',
      });
    }
    const dr = desired.reports.find((r) => r.address === address);
    const dw = desired.workbooks.find((w) => w.address === address);
    const d = (dr ?? dw)!;
    const built = dr
      ? reportDoc(live.reports.find((r) => r.id === change.liveId) as Report, { publicId: dr.publicId }, refs)
      : workbookDoc(live.workbooks.find((w) => w.id === change.liveId) as Workbook, dw!.slug, refs);
    const merge = mergeResource({
      change,
      record: sides.record(address),
      live: sides.live(address),
      exported: built.doc,
      raw: sides.raw(address) ?? {},
      rendered: d.fields,
      // The way forward a blocked apply names: the deployment's value of a part changed on both sides too.
      takeConflicts: true,
    });
    const none = merge.edits.length + merge.kept.length + merge.conflicts.length + merge.byHand.length === 0;
    return {
      address,
      file: d.pos.file,
      ...(none ? {} : { edit: { address, file: d.pos.file, match: matchOf(d), merge } }),
    };
  });
}
