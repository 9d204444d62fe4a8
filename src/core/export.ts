// `wsc export`: a deployment -> bundle documents, streamed. Workbooks (few)
// and user attributes are read whole; reports are taken page by page and each
// one is handed to the sink as soon as its page arrives, so memory holds only
// the small indexes that references and file names need (report id ->
// publicId, publicId -> file name), never the reports themselves.
//
// Files are identical whatever order the server lists things in: minted
// publicIds depend on (deployment, report id), every report of a shared
// publicId is re-keyed (an earlier one is patched when a later one shows the
// same id), and names that collide are all suffixed (an earlier file is
// renamed). No I/O here: the source and the sink are ports.
import type { Folder, Report, UserAttribute, Workbook } from '../api/wire.js';
import { isPlaceholderPublicId, normalizeSlug } from '../api/wire.js';
import { SCHEMA_OF_KIND, type Kind } from '../bundle/schema/index.js';
import { ApiError, WscError, EXIT } from '../errors.js';
import type { PublicIdMode } from './model.js';
import {
  referencedReportIds,
  reportDoc,
  userAttributeDoc,
  workbookDoc,
  type Built,
  type Dangling,
  type Doc,
  type RefLookup,
} from './export/docs.js';
import { deriveSlugs, mintPublicId } from './export/mint.js';
import { metaWithDraft } from './live-draft.js';
import { FolderPaths } from './export/folders.js';
import { assignNames, NameRegistry } from './export/names.js';

export type { Doc } from './export/docs.js';

export type DocKind = 'workbook' | 'report' | 'user-attribute';

export interface ExportSource {
  workbooks(): AsyncIterable<Workbook[]>;
  reports(): AsyncIterable<Report[]>;
  userAttributes(): AsyncIterable<UserAttribute[]>;
  /** The folder tree, read when an item's own `folderPath` does not name its folder. */
  folders?(): Promise<Folder[]>;
}

/** Where documents go. Paths are relative to the bundle root, `/`-separated, made of safe names only. */
export interface ExportSink {
  writeDoc(kind: DocKind, rel: string, doc: Doc): Promise<void>;
  readDoc(rel: string): Promise<Doc>;
  rename(fromRel: string, toRel: string): Promise<void>;
}

export interface ExportOptions {
  deploymentId: number;
  /** `--workbook` slugs; empty = everything. */
  workbooks: readonly string[];
  /** How the environment read maps publicIds (per-deployment ids cannot be inverted). */
  publicIds: PublicIdMode;
}

export interface ExportWarning {
  code:
    | 'dangling-workbook'
    | 'dangling-report'
    | 'dangling-folder'
    | 'field-dropped'
    | 'per-deployment-ids'
    | 'user-attributes-unreadable'
    | 'report-id-kept'
    | 'resource-skipped';
  /** The file concerned, relative to the bundle root. */
  file?: string;
  message: string;
}

export interface Adoption {
  file: string;
  publicId: string;
  reportId: number;
  /** Why the live publicId was not kept. */
  reason: 'placeholder' | 'shared';
  livePublicId: string;
}

export interface DerivedSlug {
  file: string;
  slug: string;
  workbookId: number;
  name: string;
  /** Exported reports that reference this workbook (and would move to the new one on apply). */
  reports: number;
}

export interface ExportSummary {
  deploymentId: number;
  files: { workbooks: number; reports: number; userAttributes: number };
  adoptions: Adoption[];
  derivedSlugs: DerivedSlug[];
  warnings: ExportWarning[];
  /** Every file written (relative paths, sorted). */
  written: string[];
}

export const DIRS: Record<DocKind, string> = {
  workbook: 'workbooks',
  report: 'reports',
  'user-attribute': 'user-attributes',
};

const KIND_OF: Record<DocKind, Kind> = { workbook: 'Workbook', report: 'Report', 'user-attribute': 'UserAttribute' };

/** Top-level keys that make up a document's identity: never dropped. */
const IDENTITY = new Set(['kind', 'publicId', 'slug', 'adopt']);

/**
 * Leaves out what the bundle schema would refuse (a value the API accepts
 * but the bundle's stricter schema does not), field by field (a top-level key
 * of `meta` at a time), so that the rest of the document stays managed.
 */
export function finalizeDoc(kind: DocKind, built: Built): Built {
  const schema = SCHEMA_OF_KIND[KIND_OF[kind]];
  let doc = built.doc;
  const dropped = [...built.dropped];
  for (let round = 0; round < 32; round++) {
    const r = schema.safeParse(doc);
    if (r.success) return { doc, dangling: built.dangling, dropped };
    const issue = r.error.issues[0]!;
    const [top, sub] = issue.path;
    if (typeof top !== 'string' || IDENTITY.has(top)) break;
    doc = { ...doc };
    if (top === 'meta' && typeof sub === 'string' && doc['meta'] && typeof doc['meta'] === 'object') {
      const meta = { ...(doc['meta'] as Doc) };
      delete meta[sub];
      if (Object.keys(meta).length === 0) delete doc['meta'];
      else doc['meta'] = meta;
      dropped.push({ path: `meta.${sub}`, reason: issueText(issue) });
    } else {
      delete doc[top];
      dropped.push({ path: top, reason: issueText(issue) });
    }
  }
  throw new WscError('export_unwritable', `cannot write a valid ${KIND_OF[kind]} document for ${JSON.stringify(built.doc['name'] ?? '')}`, EXIT.failure);
}

function issueText(issue: { path: PropertyKey[]; message: string }): string {
  const at = issue.path.length > 1 ? ` (at ${issue.path.map(String).join('.')})` : '';
  return `the bundle schema refuses it: ${issue.message}${at}`;
}

function liveSlug(wb: Workbook): string | undefined {
  if (typeof wb.slug !== 'string') return undefined;
  const s = normalizeSlug(wb.slug);
  return s === '' ? undefined : s;
}

/** Files written at once: enough to hide file-system latency, few enough to bound memory. */
export const WRITES_IN_FLIGHT = 16;

/**
 * Writes handed to the sink concurrently, at most `limit` at a time: `add`
 * waits for a free slot (back-pressure), `flush` for every write, and throws
 * the first failure.
 */
class WriteQueue {
  private readonly inFlight = new Set<Promise<void>>();
  private failure: unknown;
  constructor(
    private readonly sink: ExportSink,
    private readonly limit: number,
  ) {}

  async add(kind: DocKind, rel: string, doc: Doc): Promise<void> {
    while (this.inFlight.size >= this.limit) await Promise.race(this.inFlight);
    this.check();
    const p: Promise<void> = this.sink.writeDoc(kind, rel, doc).then(
      () => void this.inFlight.delete(p),
      (e: unknown) => {
        this.inFlight.delete(p);
        this.failure ??= e;
      },
    );
    this.inFlight.add(p);
  }

  async flush(): Promise<void> {
    await Promise.all(this.inFlight);
    this.check();
  }

  private check(): void {
    // eslint-disable-next-line @typescript-eslint/only-throw-error -- the first write's error, as it was thrown
    if (this.failure !== undefined) throw this.failure;
  }
}

/**
 * Pages of `source`, one page fetched ahead: the next page travels while this
 * one is written. At most two pages are held at a time. `return()` stops it.
 */
export function readAhead<T>(source: AsyncIterable<T>): AsyncGenerator<T, void, undefined> & { return(): Promise<IteratorResult<T, void>> } {
  const it = source[Symbol.asyncIterator]();
  let pending: Promise<IteratorResult<T>> | undefined = it.next();
  // A failure is reported when the page is consumed, not as an unhandled rejection.
  pending.catch(() => undefined);
  let done = false;
  const gen = (async function* () {
    try {
      while (pending !== undefined) {
        const r = await pending;
        if (r.done) return;
        pending = it.next();
        pending.catch(() => undefined);
        yield r.value;
      }
    } finally {
      if (!done) {
        done = true;
        pending = undefined;
        await it.return?.();
      }
    }
  })();
  const origReturn = gen.return.bind(gen);
  gen.return = async (v?: unknown) => {
    if (!done) {
      done = true;
      pending = undefined;
      await Promise.resolve(it.return?.()).catch(() => undefined);
    }
    return origReturn(v as void);
  };
  return gen;
}

async function collect<T>(pages: AsyncIterable<T[]>): Promise<T[]> {
  const all: T[] = [];
  for await (const page of pages) for (const item of page) all.push(item);
  return all;
}

interface ReportEntry {
  /** The bundle publicId (live, or minted). */
  publicId: string;
  /** Live publicId kept: may still need re-keying if another report shows it. */
  keptLive: boolean;
  file: string;
}

export async function exportDeployment(source: ExportSource, sink: ExportSink, opts: ExportOptions): Promise<ExportSummary> {
  const dep = opts.deploymentId;
  const filtered = opts.workbooks.length > 0;
  const warnings: ExportWarning[] = [];
  const written = new Set<string>();

  // 1. Workbooks (and user attributes, independent) in full. The first page
  // of reports is already on its way meanwhile.
  const reportPages = readAhead(source.reports());
  let allWorkbooks: Workbook[];
  let userAttributes: UserAttribute[];
  try {
    [allWorkbooks, userAttributes] = await Promise.all([
      collect(source.workbooks()),
      filtered ? Promise.resolve([] as UserAttribute[]) : collect(source.userAttributes()).catch((e: unknown) => {
        // The token may not read the account's user attributes (they need an admin):
        // the rest is still worth exporting.
        if (!(e instanceof ApiError) || e.status !== 403) throw e;
        warnings.push({
          code: 'user-attributes-unreadable',
          message: `user attributes not exported: the token may not read them (${e.message}).`,
        });
        return [] as UserAttribute[];
      }),
    ]);
  } catch (e) {
    await reportPages.return();
    throw e;
  }
  allWorkbooks.sort((a, b) => a.id - b.id);
  const liveSlugs = allWorkbooks.map(liveSlug).filter((s): s is string => s !== undefined);
  const derived = deriveSlugs(
    allWorkbooks.filter((wb) => liveSlug(wb) === undefined).map((wb) => ({ id: wb.id, name: wb.name })),
    liveSlugs,
  );
  const slugOf = (wb: Workbook): string => liveSlug(wb) ?? derived.get(wb.id)!;

  let selected = allWorkbooks;
  const wantedReportIds = new Set<number>();
  if (filtered) {
    const bySlug = new Map(allWorkbooks.map((wb) => [slugOf(wb), wb]));
    const missing: string[] = [];
    const picked = new Map<number, Workbook>();
    for (const raw of opts.workbooks) {
      const wb = bySlug.get(normalizeSlug(raw));
      if (wb) picked.set(wb.id, wb);
      else missing.push(raw);
    }
    if (missing.length > 0) {
      await reportPages.return();
      throw new WscError(
        'export_unknown_workbook',
        `deployment ${dep} has no workbook with slug ${missing.map((s) => `"${s}"`).join(', ')}.`,
        EXIT.failure,
        { hint: 'Check the slug (as shown in the workbook settings); run `wsc export` without --workbook to export everything.' },
      );
    }
    selected = [...picked.values()].sort((a, b) => a.id - b.id);
    for (const wb of selected) for (const id of referencedReportIds(metaWithDraft(wb))) wantedReportIds.add(id);
  }
  const selectedIds = new Set(selected.map((wb) => wb.id));
  const exportedSlug = new Map(selected.map((wb) => [wb.id, slugOf(wb)]));

  // 2. Reports, streamed.
  const reportPid = new Map<number, string>(); // exported report id -> bundle publicId
  const byLivePid = new Map<string, { reportId: number; exported: boolean }>(); // first report seen per live publicId
  const shared = new Set<string>(); // live publicIds seen on several reports
  const entries = new Map<number, ReportEntry>();
  const minted = new Set<string>();
  const adoptions = new Map<number, Adoption>();
  const reportsPerWorkbook = new Map<number, number>();
  const registry = new NameRegistry();
  const reportOfFile = new Map<string, number>();
  const reportIds = new Set<number>(); // every report id seen in the deployment
  const folderPaths = new FolderPaths(source.folders?.bind(source));
  const refs: RefLookup = {
    workbookSlug: (id) => exportedSlug.get(id),
    reportPublicId: (id) => reportPid.get(id),
    isReportId: (id) => reportIds.has(id),
    folderPath: (id, folderPath) => folderPaths.pathOf(id, folderPath),
  };
  const mint = (reportId: number): string => {
    const id = mintPublicId(dep, reportId, (c) => minted.has(c) || byLivePid.has(c));
    minted.add(id);
    return id;
  };
  const writes = new WriteQueue(sink, WRITES_IN_FLIGHT);
  const applyRenames = async (renames: { from: string; to: string }[]) => {
    if (renames.length > 0) await writes.flush();
    for (const r of renames) {
      const from = `${DIRS.report}/${r.from}.yaml`;
      const to = `${DIRS.report}/${r.to}.yaml`;
      await sink.rename(from, to);
      written.delete(from);
      written.add(to);
      const id = reportOfFile.get(from);
      if (id === undefined) continue;
      reportOfFile.delete(from);
      reportOfFile.set(to, id);
      entries.get(id)!.file = to;
      const a = adoptions.get(id);
      if (a) a.file = to;
    }
  };
  const noteDangling = (file: string, dangling: Dangling[]) => {
    for (const d of dangling) {
      if (d.note !== undefined) {
        warnings.push({ code: 'report-id-kept', file, message: `${d.path}: ${d.note}.` });
        continue;
      }
      warnings.push({
        code: d.kind === 'workbook' ? 'dangling-workbook' : d.kind === 'folder' ? 'dangling-folder' : 'dangling-report',
        file,
        message:
          d.kind === 'folder'
            ? `${d.path}: folder ${d.id} cannot be named by its path (it is not visible to this token); the number is kept and means folder ${d.id} of whichever deployment the bundle is applied to.`
            : `${d.path}: ${d.kind} ${d.id} is not part of this export; the number is kept and means ${d.kind} ${d.id} of whichever deployment the bundle is applied to.`,
      });
    }
  };
  const noteDropped = (file: string, built: Built) => {
    for (const d of built.dropped) {
      warnings.push({ code: 'field-dropped', file, message: `${d.path} not exported (left unmanaged): ${d.reason}.` });
    }
  };

  // Re-keys a report written earlier under a live publicId that turned out to be shared.
  const rekey = async (reportId: number, livePid: string) => {
    const e = entries.get(reportId)!;
    await writes.flush();
    const pid = mint(reportId);
    const { renames } = registry.reidentify(e.publicId, pid);
    await applyRenames(renames);
    const doc = await sink.readDoc(e.file);
    const { adopt: _old, ...rest } = doc;
    const patched: Doc = { ...rest, publicId: pid, adopt: { deploymentId: dep, id: reportId } };
    await sink.writeDoc('report', e.file, patched);
    e.publicId = pid;
    e.keptLive = false;
    reportPid.set(reportId, pid);
    adoptions.set(reportId, { file: e.file, publicId: pid, reportId, reason: 'shared', livePublicId: livePid });
  };

  for await (const page of reportPages) {
    for (const r of page) {
      reportIds.add(r.id);
      const exported = filtered ? (r.workbookId != null && selectedIds.has(r.workbookId)) || wantedReportIds.has(r.id) : true;
      const first = byLivePid.get(r.publicId);
      if (first === undefined) byLivePid.set(r.publicId, { reportId: r.id, exported });
      else if (!shared.has(r.publicId)) {
        shared.add(r.publicId);
        if (first.exported && entries.get(first.reportId)?.keptLive) await rekey(first.reportId, r.publicId);
      }
      if (!exported) continue;

      const unstable = isPlaceholderPublicId(r.publicId) ? 'placeholder' : first !== undefined ? 'shared' : undefined;
      const publicId = unstable ? mint(r.id) : r.publicId;
      const adopt = unstable ? { deploymentId: dep, id: r.id } : undefined;
      reportPid.set(r.id, publicId);
      if (r.workbookId != null && derived.has(r.workbookId) && selectedIds.has(r.workbookId)) {
        reportsPerWorkbook.set(r.workbookId, (reportsPerWorkbook.get(r.workbookId) ?? 0) + 1);
      }

      await folderPaths.prepare(r.folderId, r.folderPath);
      const built = finalizeDoc('report', reportDoc(r, { publicId, ...(adopt ? { adopt } : {}) }, refs));
      const { name, renames } = registry.claim(r.name, publicId);
      await applyRenames(renames);
      const file = `${DIRS.report}/${name}.yaml`;
      await writes.add('report', file, built.doc);
      written.add(file);
      reportOfFile.set(file, r.id);
      entries.set(r.id, { publicId, keptLive: !unstable, file });
      if (unstable) adoptions.set(r.id, { file, publicId, reportId: r.id, reason: unstable, livePublicId: r.publicId });
      noteDangling(file, built.dangling);
      noteDropped(file, built);
    }
  }
  for (const pid of minted) {
    // Minting avoided every id seen before it; one seen after it is astronomically unlikely, but checked.
    if (byLivePid.has(pid)) throw new WscError('export_id_clash', `a minted publicId (${pid}) is already in use; export again.`, EXIT.failure);
  }

  // 3. Workbooks, now that every exported report's publicId is known.
  const wbNames = assignNames(selected.map((wb) => ({ raw: slugOf(wb), identity: slugOf(wb) })));
  const derivedSlugs: DerivedSlug[] = [];
  for (const wb of selected) {
    const slug = slugOf(wb);
    const file = `${DIRS.workbook}/${wbNames.get(slug)!}.yaml`;
    // A workbook without a slug (made in the UI) is adopted in this deployment: apply gives it the slug.
    const adopt = derived.has(wb.id) ? { deploymentId: dep, id: wb.id } : undefined;
    await folderPaths.prepare(wb.folderId, wb.folderPath);
    const built = finalizeDoc('workbook', workbookDoc(wb, slug, refs, adopt));
    await writes.add('workbook', file, built.doc);
    written.add(file);
    noteDangling(file, built.dangling);
    noteDropped(file, built);
    if (derived.has(wb.id)) {
      derivedSlugs.push({ file, slug, workbookId: wb.id, name: wb.name, reports: reportsPerWorkbook.get(wb.id) ?? 0 });
    }
  }

  // 4. User attributes (account-level; not part of a --workbook export).
  const uaNames = assignNames(userAttributes.map((ua) => ({ raw: ua.name, identity: ua.name })));
  for (const ua of [...userAttributes].sort((a, b) => cmp(a.name, b.name))) {
    const file = `${DIRS['user-attribute']}/${uaNames.get(ua.name)!}.yaml`;
    const built = finalizeDoc('user-attribute', userAttributeDoc(ua));
    await writes.add('user-attribute', file, built.doc);
    written.add(file);
    noteDropped(file, built);
  }

  await writes.flush();

  if (opts.publicIds === 'per-deployment') {
    warnings.push({
      code: 'per-deployment-ids',
      message:
        'this environment derives publicIds per deployment; a derived id cannot be turned back into the logical one, so the ids written are the ones this deployment shows. Plan this export with `publicIds: as-is` for this deployment.',
    });
  }

  const files = { workbooks: 0, reports: 0, userAttributes: 0 };
  for (const f of written) {
    if (f.startsWith(`${DIRS.workbook}/`)) files.workbooks++;
    else if (f.startsWith(`${DIRS.report}/`)) files.reports++;
    else files.userAttributes++;
  }
  return {
    deploymentId: dep,
    files,
    adoptions: [...adoptions.values()].sort((a, b) => cmp(a.file, b.file)),
    derivedSlugs: derivedSlugs.sort((a, b) => cmp(a.file, b.file)),
    warnings: warnings.sort((a, b) => cmp(a.file ?? '', b.file ?? '') || cmp(a.message, b.message)),
    written: [...written].sort(cmp),
  };
}

function cmp(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
