// `wsc export`: a deployment -> bundle documents, streamed. Reports are taken
// page by page and each one is handed to the sink as soon as its page arrives;
// workbooks are read twice, page by page, first for the index that reports'
// references need (id -> slug), then, once every report's publicId is known,
// for their files. Memory holds only the small indexes that references and
// file names need (report id -> publicId, publicId -> file name), never the
// reports or the dashboards themselves. User attributes are read whole.
//
// Files are identical whatever order the server lists things in: minted
// publicIds depend on (deployment, report id), every report of a shared
// publicId is re-keyed (an earlier one is patched when a later one shows the
// same id), and names that collide are all suffixed (an earlier file is
// renamed). No I/O here: the source and the sink are ports.
import type { Report, UserAttribute, Workbook } from '../../domain/wire.js';
import { isPlaceholderPublicId } from '../../domain/wire.js';
import { SCHEMA_OF_KIND, type Kind } from '../../domain/bundle-schema/index.js';
import { ApiError, WscError, EXIT } from '../../errors.js';
import {
  reportDoc,
  userAttributeDoc,
  workbookDoc,
  type Built,
  type Dangling,
  type Doc,
  type RefLookup,
} from './docs.js';
import { mintPublicId } from './mint.js';
import { selectWorkbooks, workbookIndex, type Selection, type WorkbookEntry } from './select.js';
import {
  DIRS,
  type Adoption,
  type DerivedSlug,
  type DocKind,
  type ExportOptions,
  type ExportSink,
  type ExportSource,
  type ExportSummary,
  type ExportWarning,
} from './types.js';
import { FolderPaths } from './folders.js';
import { DOC_SHAPES, inExportOrder } from './order.js';
import { assignNames, NameRegistry, reportFileRaw } from './names.js';

export type { Doc } from './docs.js';
export * from './types.js';

const KIND_OF: Record<DocKind, Kind> = { workbook: 'Workbook', report: 'Report', 'user-attribute': 'UserAttribute' };

/** Top-level keys that make up a document's identity: never dropped. */
const IDENTITY = new Set(['kind', 'publicId', 'slug', 'adopt']);

/**
 * Leaves out what the bundle schema would refuse (a value the API accepts
 * but the bundle's stricter schema does not), field by field (a top-level key
 * of `meta` at a time), so that the rest of the document stays managed.
 */
function finalizeDoc(kind: DocKind, built: Built): Built {
  const schema = SCHEMA_OF_KIND[KIND_OF[kind]];
  let doc = built.doc;
  const dropped = [...built.dropped];
  for (let round = 0; round < 32; round++) {
    const r = schema.safeParse(doc);
    if (r.success) return { ...built, doc: inExportOrder(doc, DOC_SHAPES[kind]) as Doc, dropped };
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
  throw new WscError(
    'export_unwritable',
    `cannot write a valid ${KIND_OF[kind]} document for ${JSON.stringify(built.doc['name'] ?? '')}`,
    EXIT.failure,
  );
}

function issueText(issue: { path: PropertyKey[]; message: string }): string {
  const at = issue.path.length > 1 ? ` (at ${issue.path.map(String).join('.')})` : '';
  return `the bundle schema refuses it: ${issue.message}${at}`;
}

/**
 * Pages of `source`, one page fetched ahead: the next page travels while this
 * one is written. At most two pages are held at a time. `return()` stops it.
 */
function readAhead<T>(source: AsyncIterable<T>): AsyncIterableIterator<T> & { return(): Promise<IteratorResult<T>> } {
  const it = source[Symbol.asyncIterator]();
  const fetch = () => {
    const p = it.next();
    // A failure is reported when the page is consumed, not as an unhandled rejection.
    p.catch(() => undefined);
    return p;
  };
  let pending = fetch();
  return {
    [Symbol.asyncIterator]() {
      return this;
    },
    async next() {
      const r = await pending;
      if (!r.done) pending = fetch();
      return r;
    },
    async return() {
      await Promise.resolve(it.return?.()).catch(() => undefined);
      return { done: true, value: undefined };
    },
  };
}

async function collect<T>(pages: AsyncIterable<T[]>): Promise<T[]> {
  const all: T[] = [];
  for await (const page of pages) for (const item of page) all.push(item);
  return all;
}

export async function exportDeployment(
  source: ExportSource,
  sink: ExportSink,
  opts: ExportOptions,
): Promise<ExportSummary> {
  const filtered = opts.workbooks.length > 0;
  const warnings: ExportWarning[] = [];
  // 1. The workbooks' index and the user attributes. The first page of
  // reports is already on its way meanwhile.
  const reportPages = readAhead(source.reports());
  let lists: { workbooks: WorkbookEntry[]; userAttributes: UserAttribute[] };
  let selection: Selection;
  try {
    lists = await readLists(source, filtered, warnings);
    selection = selectWorkbooks(lists.workbooks, opts);
  } catch (e) {
    await reportPages.return();
    throw e;
  }
  const run = new ExportRun(source, sink, opts, selection, warnings);
  // 2. Reports, streamed.
  for await (const page of reportPages) for (const r of page) await run.addReport(r);
  run.checkMinted();
  // 3. Workbooks, read again, now that every exported report's publicId is known.
  await run.writeWorkbooks();
  // 4. User attributes (account-level; not part of a --workbook export).
  await run.writeUserAttributes(lists.userAttributes);
  return run.finish();
}

/** The workbooks' index and (unless filtered) the user attributes; a 403 on user attributes is a warning. */
async function readLists(
  source: ExportSource,
  filtered: boolean,
  warnings: ExportWarning[],
): Promise<{ workbooks: WorkbookEntry[]; userAttributes: UserAttribute[] }> {
  const [workbooks, userAttributes] = await Promise.all([
    workbookIndex(source, filtered),
    filtered
      ? Promise.resolve([] as UserAttribute[])
      : collect(source.userAttributes()).catch((e: unknown) => {
          // The token may not read the account's user attributes (they need an admin): the rest is
          // still worth exporting.
          if (!(e instanceof ApiError) || e.status !== 403) throw e;
          warnings.push({
            code: 'user-attributes-unreadable',
            message: `user attributes not exported: the token may not read them (${e.message}).`,
          });
          return [] as UserAttribute[];
        }),
  ]);
  return { workbooks, userAttributes };
}

/**
 * One export's state once the workbooks are known: the small indexes that
 * references and file names need, the write queue, and what is reported.
 */
class ExportRun {
  private readonly dep: number;
  private readonly written = new Set<string>();
  private readonly selectedIds: Set<number>;
  private readonly exportedSlug: Map<number, string>;
  private readonly reportPid = new Map<number, string>(); // exported report id -> bundle publicId
  /** The first report seen per live publicId (exported if reportPid has it). */
  private readonly byLivePid = new Map<string, number>();
  private readonly shared = new Set<string>(); // live publicIds seen on several reports
  private readonly minted = new Set<string>();
  private readonly adoptions = new Map<number, Adoption>();
  private readonly reportsPerWorkbook = new Map<number, number>();
  private readonly derivedSlugs: DerivedSlug[] = [];
  private readonly published: string[] = [];
  private readonly registry = new NameRegistry();
  private readonly unexported = new Set<number>(); // ids of the reports seen and not exported (--workbook)
  private readonly folderPaths: FolderPaths;
  private readonly refs: RefLookup;

  constructor(
    private readonly source: ExportSource,
    private readonly sink: ExportSink,
    private readonly opts: ExportOptions,
    private readonly sel: Selection,
    private readonly warnings: ExportWarning[],
  ) {
    this.dep = opts.deploymentId;
    this.selectedIds = new Set(sel.selected.map((wb) => wb.id));
    this.exportedSlug = new Map(sel.selected.map((wb) => [wb.id, sel.slugOf(wb)]));
    this.folderPaths = new FolderPaths(source.folders?.bind(source));
    this.refs = {
      workbookSlug: (id) => this.exportedSlug.get(id),
      reportPublicId: (id) => this.reportPid.get(id),
      isReportId: (id) => this.reportPid.has(id) || this.unexported.has(id),
      folderPath: (id, folderPath) => this.folderPaths.pathOf(id, folderPath),
    };
  }

  private mint(reportId: number): string {
    const id = mintPublicId(this.dep, reportId, (c) => this.minted.has(c) || this.byLivePid.has(c));
    this.minted.add(id);
    return id;
  }

  /** The file of a report as the registry names it now: a later report of the same name may rename it. */
  private reportFile(publicId: string): string {
    return `${DIRS.report}/${this.registry.nameOf(publicId)!}.yaml`;
  }

  private async applyRenames(renames: { from: string; to: string }[]): Promise<void> {
    for (const r of renames) await this.sink.rename(`${DIRS.report}/${r.from}.yaml`, `${DIRS.report}/${r.to}.yaml`);
  }

  private noteDangling(file: string, dangling: Dangling[]): void {
    for (const d of dangling) {
      if (d.note !== undefined) {
        this.warnings.push({ code: 'report-id-kept', file, message: `${d.path}: ${d.note}.` });
        continue;
      }
      this.warnings.push({
        code: d.kind === 'workbook' ? 'dangling-workbook' : d.kind === 'folder' ? 'dangling-folder' : 'dangling-report',
        file,
        message:
          d.kind === 'folder'
            ? `${d.path}: folder ${d.id} cannot be named by its path (it is not ` +
              `visible to this token); the number is kept and means folder ${d.id} of ` +
              `whichever deployment the bundle is applied to.`
            : `${d.path}: ${d.kind} ${d.id} is not part of this export; the number ` +
              `is kept and means ${d.kind} ${d.id} of whichever deployment the bundle ` +
              `is applied to.`,
      });
    }
  }

  private noteDropped(file: string, built: Built): void {
    for (const d of built.dropped) {
      const message = `${d.path} not exported (left unmanaged): ${d.reason}.`;
      this.warnings.push({ code: 'field-dropped', file, message });
    }
    for (const n of built.named ?? [])
      this.warnings.push({ code: 'widget-named', file, message: `${n.path}: ${n.reason}.` });
  }

  /** Re-keys a report written earlier under a live publicId that turned out to be shared. */
  private async rekey(reportId: number, livePid: string): Promise<void> {
    const pid = this.mint(reportId);
    const { renames } = this.registry.reidentify(this.reportPid.get(reportId)!, pid);
    await this.applyRenames(renames);
    const file = this.reportFile(pid);
    const doc = await this.sink.readDoc(file);
    const { adopt: _old, ...rest } = doc;
    const patched: Doc = { ...rest, publicId: pid, adopt: { deploymentId: this.dep, id: reportId } };
    await this.sink.writeDoc('report', file, patched);
    this.reportPid.set(reportId, pid);
    this.adoptions.set(reportId, { file, publicId: pid, reportId, reason: 'shared', livePublicId: livePid });
  }

  /** One report of the stream: noted (its id and publicId), and written when the export takes it. */
  async addReport(r: Report): Promise<void> {
    const { filtered, derived, wantedReportIds } = this.sel;
    const inSelected = r.workbookId != null && this.selectedIds.has(r.workbookId);
    const exported = filtered ? inSelected || wantedReportIds.has(r.id) : true;
    const live = typeof r.publicId === 'string' ? r.publicId : undefined;
    const first = live === undefined ? undefined : this.byLivePid.get(live);
    if (live !== undefined && first === undefined) this.byLivePid.set(live, r.id);
    else if (live !== undefined && !this.shared.has(live)) {
      this.shared.add(live);
      // A report exported under its live publicId (not a minted one) must now be re-keyed.
      const kept = this.reportPid.get(first!);
      if (kept !== undefined && !this.minted.has(kept)) await this.rekey(first!, live);
    }
    if (!exported) {
      this.unexported.add(r.id);
      return;
    }

    // A report with no publicId at all is one more kind of placeholder: it is given one the same way.
    const unstable: Adoption['reason'] | undefined =
      live === undefined
        ? 'none'
        : isPlaceholderPublicId(live)
          ? 'placeholder'
          : first !== undefined
            ? 'shared'
            : undefined;
    const publicId = unstable !== undefined || live === undefined ? this.mint(r.id) : live;
    const adopt = unstable ? { deploymentId: this.dep, id: r.id } : undefined;
    this.reportPid.set(r.id, publicId);
    if (r.workbookId != null && derived.has(r.workbookId) && this.selectedIds.has(r.workbookId)) {
      this.reportsPerWorkbook.set(r.workbookId, (this.reportsPerWorkbook.get(r.workbookId) ?? 0) + 1);
    }

    await this.folderPaths.prepare(r.folderId);
    const built = finalizeDoc('report', reportDoc(r, { publicId, ...(adopt ? { adopt } : {}) }, this.refs));
    const { name, renames } = this.registry.claim(reportFileRaw(r.name, publicId), publicId);
    await this.applyRenames(renames);
    const file = `${DIRS.report}/${name}.yaml`;
    await this.sink.writeDoc('report', file, built.doc);
    if (unstable) {
      const was = live !== undefined ? { livePublicId: live } : {};
      this.adoptions.set(r.id, { file, publicId, reportId: r.id, reason: unstable, ...was });
    }
    this.noteDangling(file, built.dangling);
    this.noteDropped(file, built);
  }

  checkMinted(): void {
    for (const pid of this.minted) {
      // Minting avoided every id seen before it; one seen after it is astronomically unlikely, but checked.
      if (!this.byLivePid.has(pid)) continue;
      throw new WscError(
        'export_id_clash',
        `a minted publicId (${pid}) is already in use; export again.`,
        EXIT.failure,
      );
    }
  }

  async writeWorkbooks(): Promise<void> {
    const { selected, slugOf } = this.sel;
    const wbNames = assignNames(selected.map((wb) => ({ raw: slugOf(wb), identity: slugOf(wb) })));
    const left = new Map(selected.map((e) => [e.id, e]));
    for await (const page of this.source.workbooks()) {
      for (const wb of page) {
        const entry = left.get(wb.id);
        if (entry === undefined) continue;
        left.delete(wb.id);
        await this.writeWorkbook(wb, entry, slugOf(entry), wbNames);
      }
    }
    if (left.size > 0) {
      // Its reports were written with a reference to it: the files would not hold together.
      const ids = [...left.keys()].join(', ');
      throw new WscError(
        'export_changed',
        `workbook ${ids} was deleted while the export ran: the files written do not hold together.`,
        EXIT.failure,
        { hint: 'Export again.' },
      );
    }
  }

  private async writeWorkbook(
    wb: Workbook,
    entry: WorkbookEntry,
    slug: string,
    wbNames: Map<string, string>,
  ): Promise<void> {
    const { derived } = this.sel;
    const file = `${DIRS.workbook}/${wbNames.get(slug)!}.yaml`;
    // A workbook without a slug (made in the UI) is adopted in this deployment: apply gives it the slug.
    const adopt = derived.has(wb.id) ? { deploymentId: this.dep, id: wb.id } : undefined;
    await this.folderPaths.prepare(wb.folderId);
    const built = finalizeDoc('workbook', workbookDoc(wb, slug, this.refs, adopt));
    await this.sink.writeDoc('workbook', file, built.doc);
    this.written.add(file);
    this.noteDangling(file, built.dangling);
    this.noteDropped(file, built);
    if (built.published === 'same') this.published.push(file);
    else if (built.published === 'differs') {
      this.warnings.push({
        code: 'publish-differs',
        file,
        message:
          'the dashboard is published, but what is published differs from the draft: written without ' +
          '`publish: true`, so apply leaves the published dashboard as it is ' +
          '(add `publish: true` to publish the draft)',
      });
    }
    if (derived.has(wb.id)) {
      const reports = this.reportsPerWorkbook.get(wb.id) ?? 0;
      const unsafe = entry.unsafeSlug !== undefined ? { unsafeSlug: entry.unsafeSlug } : {};
      this.derivedSlugs.push({ file, slug, workbookId: wb.id, name: wb.name, reports, ...unsafe });
    }
  }

  async writeUserAttributes(userAttributes: UserAttribute[]): Promise<void> {
    const uaNames = assignNames(userAttributes.map((ua) => ({ raw: ua.name, identity: ua.name })));
    for (const ua of [...userAttributes].sort((a, b) => cmp(a.name, b.name))) {
      const file = `${DIRS['user-attribute']}/${uaNames.get(ua.name)!}.yaml`;
      const built = finalizeDoc('user-attribute', userAttributeDoc(ua));
      await this.sink.writeDoc('user-attribute', file, built.doc);
      this.written.add(file);
      this.noteDropped(file, built);
    }
  }

  finish(): ExportSummary {
    if (this.opts.publicIds === 'per-deployment') {
      this.warnings.push({
        code: 'per-deployment-ids',
        message:
          'this environment derives publicIds per deployment; a derived id ' +
          'cannot be turned back into the logical one, so the ids written are the ' +
          'ones this deployment shows. Plan this export with `publicIds: as-is` ' +
          'for this deployment.',
      });
    }
    for (const pid of this.reportPid.values()) this.written.add(this.reportFile(pid));
    for (const a of this.adoptions.values()) a.file = this.reportFile(a.publicId);
    const files = { workbooks: 0, reports: 0, userAttributes: 0 };
    for (const f of this.written) {
      if (f.startsWith(`${DIRS.workbook}/`)) files.workbooks++;
      else if (f.startsWith(`${DIRS.report}/`)) files.reports++;
      else files.userAttributes++;
    }
    return {
      deploymentId: this.dep,
      files,
      adoptions: [...this.adoptions.values()].sort((a, b) => cmp(a.file, b.file)),
      derivedSlugs: this.derivedSlugs.sort((a, b) => cmp(a.file, b.file)),
      published: this.published.sort(cmp),
      warnings: this.warnings.sort((a, b) => cmp(a.file ?? '', b.file ?? '') || cmp(a.message, b.message)),
      written: [...this.written].sort(cmp),
    };
  }
}

function cmp(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
