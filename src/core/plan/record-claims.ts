// Which live resources that carry this bundle's ownership record are this
// bundle's. Duplicating a report or a workbook in the UI copies its `meta`,
// record included, so a record naming the bundle is not enough: it must have
// been written for the resource that carries it (its `of`: deployment and
// publicId or slug). A record written for another resource is a copy's:
// not this bundle's (blocked like another bundle's, never pruned).
//
// Records of earlier formats name no resource. So that an upgrade blocks
// nothing, such a record is accepted on the resource the bundle holds at its
// address; elsewhere it is a prune candidate only when nothing else claims
// it: none if another live resource carries the very same record (a copy,
// or the original of one), and its delete is blocked (deleted only when named
// with --overwrite-ui-edits) when the file it names holds another address of
// the bundle. The next write of a resource rebinds its record.
import { normalizeSlug, type Report, type Workbook } from '../../domain/wire.js';
import { addressOf, bindingOf, readRecord, type OwnershipRecord } from '../ownership.js';
import type { DesiredState, LiveState } from '../model.js';

/** What the record a live resource carries is to this bundle. */
type Claim =
  | { state: 'ours' }
  /** Not this bundle's there (a copy): on an address of the bundle, blocked as another bundle's; never pruned. */
  | { state: 'copy'; why: string }
  /** A prune candidate whose delete must be named (--overwrite-ui-edits ADDR). */
  | { state: 'doubtful'; why: string };

export interface Claims {
  /** The claim of a live resource that carries a well-formed record of this bundle. */
  of(o: Report | Workbook): Claim;
  /** The address of the bundle a file holds, when it holds one: a delete never says it came from that file. */
  heldIn(file: string): string | undefined;
}

type Kind = 'report' | 'workbook';

function identityOf(kind: Kind, o: Report | Workbook): unknown {
  if (kind === 'report') return (o as Report).publicId;
  const slug = (o as Workbook).slug;
  return typeof slug === 'string' ? normalizeSlug(slug) : slug;
}

function liveAddress(kind: Kind, o: Report | Workbook): string {
  const id = identityOf(kind, o);
  return typeof id === 'string' && id !== '' ? `${kind}/${id}` : `${kind}/#${o.id}`;
}

export function recordClaims(
  desired: DesiredState,
  live: LiveState,
  matched: { reports: ReadonlySet<number>; workbooks: ReadonlySet<number> },
  bundle: string,
  deployment: number,
): Claims {
  const files = new Map<string, string>();
  for (const d of [...desired.workbooks, ...desired.reports])
    if (!files.has(d.pos.file)) files.set(d.pos.file, d.address);
  const claims = new Map<Report | Workbook, Claim>();
  const decide = (kind: Kind, list: readonly (Report | Workbook)[], ids: ReadonlySet<number>) => {
    const records = new Map<Report | Workbook, OwnershipRecord>();
    const byHash = new Map<string, (Report | Workbook)[]>();
    for (const o of list) {
      const r = readRecord(o);
      if (r.state !== 'record' || r.record.bundle !== bundle) continue;
      records.set(o, r.record);
      if (r.record.of === undefined) byHash.set(r.record.hash, [...(byHash.get(r.record.hash) ?? []), o]);
    }
    for (const [o, rec] of records) {
      const binding = bindingOf(rec, { kind, identity: identityOf(kind, o), deployment });
      if (binding === 'here' || (binding === 'unbound' && ids.has(o.id))) {
        claims.set(o, { state: 'ours' });
      } else if (binding === 'elsewhere') {
        const where = rec.of!.deployment === deployment ? '' : ` in deployment ${rec.of!.deployment}`;
        claims.set(o, { state: 'copy', why: `its record was written for ${addressOf(rec.of!)}${where} (a copy?)` });
      } else {
        const twins = byHash.get(rec.hash)!.filter((t) => t !== o);
        const holder = rec.file === undefined ? undefined : files.get(rec.file);
        if (twins.length > 0) {
          const other = twins.find((t) => ids.has(t.id)) ?? twins[0]!;
          claims.set(o, {
            state: 'copy',
            why: `it carries the same record as ${liveAddress(kind, other)} (a copy?), written by an earlier wsc`,
          });
        } else if (holder !== undefined) {
          claims.set(o, {
            state: 'doubtful',
            why: `its record, written by an earlier wsc, names ${rec.file}, which holds ${holder} (a copy?)`,
          });
        } else claims.set(o, { state: 'ours' });
      }
    }
  };
  decide('report', live.reports, matched.reports);
  decide('workbook', live.workbooks, matched.workbooks);
  return {
    of: (o) => claims.get(o) ?? { state: 'ours' },
    heldIn: (file) => files.get(file),
  };
}
