// `wsc export --into DIR`: a fresh export of the deployment, fitted into an
// existing bundle. Resources the bundle already manages keep their files and
// the bundle's own identities (its publicIds, not the ones this deployment
// shows, which may be derived per deployment); their documents here only give
// the values that the planned field changes take. The rest are new, and get
// new files beside the bundle's, never over one of them. Pure: the export
// arrives as documents, the bundle as the plan's matches.
import type { DocKind, ExportSink } from '../export.js';
import type { Doc } from './docs.js';
import type { DesiredState, ResourceChange } from '../model.js';
import { editsFor, type FileEdit } from './only.js';

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
  const reportNames = new Map<string, string>();
  const workbookNames = new Map<string, string>();
  for (const [rel, { kind, doc }] of exported) {
    if (kind === 'report') {
      const pid = String(doc['publicId']);
      const id = adoptedId(doc) ?? live.reportIdOfPublicId.get(pid);
      liveIdOf.set(rel, id);
      const own = id === undefined ? undefined : matches.reports.get(id);
      if (own !== undefined && own !== pid) reportNames.set(pid, own);
    } else if (kind === 'workbook') {
      const slug = String(doc['slug']);
      const id = adoptedId(doc) ?? live.workbookIdOfSlug.get(slug);
      liveIdOf.set(rel, id);
      const own = id === undefined ? undefined : matches.workbooks.get(id);
      if (own !== undefined && own !== slug) workbookNames.set(slug, own);
    }
  }
  const placed: Placed = { managed: new Map(), created: [] };
  for (const [rel, { kind, doc }] of [...exported].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) {
    const renamed = renameRefs(doc, reportNames, workbookNames) as Doc;
    const id = liveIdOf.get(rel);
    if (kind === 'report') {
      const own = id === undefined ? undefined : matches.reports.get(id);
      if (own !== undefined) {
        placed.managed.set(`report/${own}`, renamed);
        continue;
      }
      const aliased = live.perDeployment !== undefined && id !== undefined && renamed['adopt'] === undefined;
      const withAdopt = aliased
        ? { ...renamed, adopt: { deploymentId: live.perDeployment!, id: id, publicId: String(doc['publicId']) } }
        : renamed;
      const address = `report/${String(doc['publicId'])}`;
      placed.created.push({ address, kind, rel: freePath(rel, taken), doc: withAdopt });
    } else if (kind === 'workbook') {
      const own = id === undefined ? undefined : matches.workbooks.get(id);
      if (own !== undefined) {
        placed.managed.set(`workbook/${own}`, renamed);
        continue;
      }
      const address = `workbook/${String(doc['slug'])}`;
      placed.created.push({ address, kind, rel: freePath(rel, taken), doc: renamed });
    } else {
      const name = String(doc['name']);
      if (matches.userAttributes.has(name)) {
        placed.managed.set(`user-attribute/${name}`, renamed);
        continue;
      }
      placed.created.push({ address: `user-attribute/${name}`, kind, rel: freePath(rel, taken), doc: renamed });
    }
  }
  return placed;
}

/** The bundle's resources by the live ids the plan matched them to. */
export function bundleMatches(desired: DesiredState, changes: readonly ResourceChange[]): BundleMatches {
  const liveIdOf = new Map(changes.map((c) => [c.address, c.liveId]));
  const matches = {
    reports: new Map<number, string>(),
    workbooks: new Map<number, string>(),
    userAttributes: new Set<string>(),
  };
  for (const r of desired.reports) {
    const id = liveIdOf.get(r.address);
    if (id !== undefined) matches.reports.set(id, r.publicId);
  }
  for (const w of desired.workbooks) {
    const id = liveIdOf.get(w.address);
    if (id !== undefined) matches.workbooks.set(id, w.slug);
  }
  for (const u of desired.userAttributes) {
    if (liveIdOf.get(u.address) !== undefined) matches.userAttributes.add(u.name);
  }
  return matches;
}

/** One existing file to edit: the resource, how its document is found in the file, and the keys to set. */
export interface IntoEdit {
  address: string;
  file: string;
  match: { publicId: string } | { slug: string } | { name: string };
  edits: FileEdit[];
}

/** What `export --into` does to the files of the resources the bundle already holds. */
export interface IntoDecisions {
  edits: IntoEdit[];
  /** Managed resources that already match the deployment. */
  unchanged: number;
  /** Resources of the bundle the deployment does not hold: their files are left as they are. */
  notLive: string[];
}

/** For each resource of the bundle: the keys its file takes from the deployment, or why it takes none. */
export function intoDecisions(
  desired: DesiredState,
  changes: readonly ResourceChange[],
  managed: ReadonlyMap<string, Doc>,
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
    const edits = editsFor(change, doc);
    if (edits.length === 0) {
      out.unchanged++;
      continue;
    }
    const match = 'publicId' in d ? { publicId: d.publicId } : 'slug' in d ? { slug: d.slug } : { name: d.name };
    out.edits.push({ address: d.address, file: d.pos.file, match, edits });
  }
  return out;
}
