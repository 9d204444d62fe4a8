// `wsc export --into DIR`: a fresh export of the deployment, fitted into an
// existing bundle. Resources the bundle already manages keep their files and
// the bundle's own identities (its publicIds, not the ones this deployment
// shows, which may be derived per deployment); their documents here only give
// the values that the planned field changes take. The rest are new, and get
// new files beside the bundle's, never over one of them. Pure: the export
// arrives as documents, the bundle as the plan's matches.
import type { DocKind, ExportSink } from './index.js';
import type { Doc } from './docs.js';
import type { DesiredState, LiveState } from '../model.js';
import type { ResourceChange } from '../plan-model.js';
import { mergeResource, type MergeResult } from './merge.js';
import type { OwnershipRecord } from '../ownership.js';
import { normalizeSlug } from '../../domain/wire.js';

/** An export held in memory (a bundle's worth of documents, read before anything is written). */
export class MemorySink implements ExportSink {
  readonly docs = new Map<string, { kind: DocKind; doc: Doc }>();

  async writeDoc(kind: DocKind, rel: string, doc: Doc): Promise<void> {
    this.docs.set(rel, { kind, doc });
  }

  async readDoc(rel: string): Promise<Doc> {
    const d = this.docs.get(rel);
    if (d === undefined) throw new Error(`no document ${rel} was exported`);
    return d.doc;
  }

  async rename(fromRel: string, toRel: string): Promise<void> {
    const d = this.docs.get(fromRel);
    if (d === undefined) throw new Error(`no document ${fromRel} was exported`);
    this.docs.delete(fromRel);
    this.docs.set(toRel, d);
  }
}

/** What the bundle already manages, by the live ids the plan matched them to. */
export interface BundleMatches {
  /** live report id -> the bundle's publicId */
  reports: ReadonlyMap<number, string>;
  /** live workbook id -> the bundle's slug */
  workbooks: ReadonlyMap<number, string>;
  /** names of the user attributes the bundle manages */
  userAttributes: ReadonlySet<string>;
}

/** Live ids of the exported documents, for matching them to the bundle's. */
export interface LiveIndex {
  reportIdOfPublicId: ReadonlyMap<string, number>;
  workbookIdOfSlug: ReadonlyMap<string, number>;
  /**
   * Set when the environment derives publicIds per deployment: a new report
   * keeps the id this deployment shows as its bundle id, and an
   * `adopt: { deploymentId, id, publicId }` block says that in this
   * deployment it is that id itself (not one derived from it).
   */
  perDeployment?: number;
}

export interface Placed {
  /** Managed resources: their address -> the exported document, references in the bundle's terms. */
  managed: Map<string, Doc>;
  /** New resources: a file each, at a path no file of the bundle has. */
  created: { address: string; kind: DocKind; rel: string; doc: Doc }[];
}

/** The key of a document that names its resource in the bundle. */
const IDENTITY_KEY: Record<DocKind, string> = { report: 'publicId', workbook: 'slug', 'user-attribute': 'name' };

function adoptedId(doc: Doc): number | undefined {
  const adopt = doc['adopt'];
  if (adopt === null || typeof adopt !== 'object' || Array.isArray(adopt)) return undefined;
  const id = (adopt as Record<string, unknown>)['id'];
  return typeof id === 'number' ? id : undefined;
}

/** `{ $report: X }` and `{ $workbook: X }` anywhere in `v`, renamed by the two maps. */
export function renameRefs(
  v: unknown,
  reports: ReadonlyMap<string, string>,
  workbooks: ReadonlyMap<string, string>,
): unknown {
  if (Array.isArray(v)) return v.map((x) => renameRefs(x, reports, workbooks));
  if (v === null || typeof v !== 'object') return v;
  const o = v as Record<string, unknown>;
  const keys = Object.keys(o);
  const ref = (key: string) => (keys.length === 1 && typeof o[key] === 'string' ? o[key] : undefined);
  const report = ref('$report');
  if (report !== undefined) return { $report: reports.get(report) ?? report };
  const workbook = ref('$workbook');
  if (workbook !== undefined) return { $workbook: workbooks.get(workbook) ?? workbook };
  const out: Record<string, unknown> = {};
  for (const k of keys) {
    const value = renameRefs(o[k], reports, workbooks);
    Object.defineProperty(out, k, { value, enumerable: true, writable: true, configurable: true });
  }
  return out;
}

/** `reports/x.yaml`, else `reports/x-2.yaml`, ...: the first path that is not taken (compared without case). */
export function freePath(rel: string, taken: Set<string>): string {
  const m = /^(.*)\.yaml$/.exec(rel)!;
  let candidate = rel;
  for (let n = 2; taken.has(candidate.toLowerCase()); n++) candidate = `${m[1]}-${n}.yaml`;
  taken.add(candidate.toLowerCase());
  return candidate;
}

/**
 * Splits an export into the documents of resources the bundle manages and
 * new files. `taken` holds the bundle's file paths (lower case); new paths
 * are added to it.
 */
export function placeExport(
  exported: ReadonlyMap<string, { kind: DocKind; doc: Doc }>,
  matches: BundleMatches,
  live: LiveIndex,
  taken: Set<string>,
): Placed {
  // First the identities the export gave each live resource, so that references can be renamed to the bundle's.
  const liveIdOf = new Map<string, number | undefined>();
  const names = { report: new Map<string, string>(), workbook: new Map<string, string>() };
  const ownOf = (kind: DocKind, identity: string, id: number | undefined): string | undefined => {
    if (kind === 'user-attribute') return matches.userAttributes.has(identity) ? identity : undefined;
    return id === undefined ? undefined : (kind === 'report' ? matches.reports : matches.workbooks).get(id);
  };
  for (const [rel, { kind, doc }] of exported) {
    if (kind === 'user-attribute') continue;
    const identity = String(doc[IDENTITY_KEY[kind]]);
    const id = adoptedId(doc) ?? (kind === 'report' ? live.reportIdOfPublicId : live.workbookIdOfSlug).get(identity);
    liveIdOf.set(rel, id);
    const own = ownOf(kind, identity, id);
    if (own !== undefined && own !== identity) names[kind].set(identity, own);
  }
  const placed: Placed = { managed: new Map(), created: [] };
  for (const [rel, { kind, doc }] of [...exported].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) {
    let renamed = renameRefs(doc, names.report, names.workbook) as Doc;
    const id = liveIdOf.get(rel);
    const identity = String(doc[IDENTITY_KEY[kind]]);
    const own = ownOf(kind, identity, id);
    if (own !== undefined) {
      placed.managed.set(`${kind}/${own}`, renamed);
      continue;
    }
    if (kind === 'report' && live.perDeployment !== undefined && id !== undefined && renamed['adopt'] === undefined) {
      renamed = { ...renamed, adopt: { deploymentId: live.perDeployment, id, publicId: identity } };
    }
    placed.created.push({ address: `${kind}/${identity}`, kind, rel: freePath(rel, taken), doc: renamed });
  }
  return placed;
}

/** The bundle's resources by the live ids the plan matched them to. */
export function bundleMatches(desired: DesiredState, changes: readonly ResourceChange[]): BundleMatches {
  const liveIdOf = new Map(changes.map((c) => [c.address, c.liveId]));
  const matched = <T extends { address: string }>(items: readonly T[]) =>
    items.filter((t) => liveIdOf.get(t.address) !== undefined);
  return {
    reports: new Map(matched(desired.reports).map((r) => [liveIdOf.get(r.address)!, r.publicId])),
    workbooks: new Map(matched(desired.workbooks).map((w) => [liveIdOf.get(w.address)!, w.slug])),
    userAttributes: new Set(matched(desired.userAttributes).map((u) => u.name)),
  };
}

/** One existing file to edit: the resource, how its document is found in the file, and what it takes. */
export interface IntoEdit {
  address: string;
  file: string;
  match: { publicId: string } | { slug: string } | { name: string };
  merge: MergeResult;
}

/** What `export --into` does to the files of the resources the bundle already holds. */
export interface IntoDecisions {
  /** Resources whose file takes something, keeps a change not applied yet, or has a conflict or a hand edit. */
  edits: IntoEdit[];
  /** Managed resources that already match the deployment. */
  unchanged: number;
  /** Resources of the bundle the deployment does not hold: their files are left as they are. */
  notLive: string[];
}

/** What the merge needs of each managed resource besides the plan. */
export interface IntoSides {
  /** The live resource the plan matched (by address). */
  live(address: string): unknown;
  /** This bundle's ownership record on it; undefined: none, or the bundle has no name. */
  record(address: string): OwnershipRecord | undefined;
  /** The resource's document in its file, as written (variables not rendered). */
  raw(address: string): Doc | undefined;
}

/** The identity that finds a resource's document in its file. */
export function matchOf(
  d: DesiredState['workbooks'][number] | DesiredState['reports'][number] | DesiredState['userAttributes'][number],
): IntoEdit['match'] {
  return 'publicId' in d ? { publicId: d.publicId } : 'slug' in d ? { slug: d.slug } : { name: d.name };
}

/** For each resource of the bundle: what its file takes from the deployment (a three-way merge), or why none. */
export function intoDecisions(
  desired: DesiredState,
  changes: readonly ResourceChange[],
  managed: ReadonlyMap<string, Doc>,
  sides: IntoSides,
): IntoDecisions {
  const byAddress = new Map(changes.map((c) => [c.address, c]));
  const out: IntoDecisions = { edits: [], unchanged: 0, notLive: [] };
  for (const d of [...desired.workbooks, ...desired.reports, ...desired.userAttributes]) {
    const change = byAddress.get(d.address);
    const doc = managed.get(d.address);
    if (change?.liveId === undefined || doc === undefined) {
      out.notLive.push(d.address);
      continue;
    }
    const raw = sides.raw(d.address);
    const merge =
      raw === undefined
        ? undefined
        : mergeResource({
            change,
            record: sides.record(d.address),
            live: sides.live(d.address),
            exported: doc,
            raw,
            rendered: d.fields,
          });
    if (merge === undefined || isEmpty(merge)) {
      out.unchanged++;
      continue;
    }
    out.edits.push({ address: d.address, file: d.pos.file, match: matchOf(d), merge });
  }
  return out;
}

function isEmpty(m: MergeResult): boolean {
  return m.edits.length === 0 && m.kept.length === 0 && m.conflicts.length === 0 && m.byHand.length === 0;
}

/** The live ids of `live`'s reports and workbooks; `perDeployment`: set when publicIds are per deployment. */
function liveIndexOf(live: LiveState, perDeployment: number | undefined): LiveIndex {
  return {
    ...(perDeployment !== undefined ? { perDeployment } : {}),
    reportIdOfPublicId: new Map(
      live.reports.flatMap((r) => (typeof r.publicId === 'string' ? [[r.publicId, r.id] as const] : [])),
    ),
    workbookIdOfSlug: new Map(
      live.workbooks.filter((w) => typeof w.slug === 'string').map((w) => [normalizeSlug(w.slug as string), w.id]),
    ),
  };
}

/** What `export --into` does with an export: the decisions on the bundle's files, and the new files. */
export interface IntoOutcome extends IntoDecisions {
  created: Placed['created'];
}

/**
 * `export --into`'s decisions, from the export held in memory: its documents placed beside the bundle's
 * files (`taken`: their paths in lower case), and what the file of each resource the bundle manages takes.
 * `perDeployment`: set when the environment derives publicIds per deployment.
 */
export function fitInto(
  exported: MemorySink['docs'],
  plan: { desired: DesiredState; changes: readonly ResourceChange[]; live: LiveState },
  o: { perDeployment: number | undefined; taken: Set<string>; sides: IntoSides },
): IntoOutcome {
  const matches = bundleMatches(plan.desired, plan.changes);
  const placed = placeExport(exported, matches, liveIndexOf(plan.live, o.perDeployment), o.taken);
  return { ...intoDecisions(plan.desired, plan.changes, placed.managed, o.sides), created: placed.created };
}
