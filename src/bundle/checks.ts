// Checks across documents and files: duplicate identities, widget ids and
// layout, references. Documents that failed their schema take part with the
// keys that passed (identities, references), so that one run reports all.
import { normalizeSlug } from '../domain/wire.js';
import type { Diagnostic, SourcePos } from '../errors.js';
import { describe, isObject, valueAt } from '../yaml/issues.js';
import type { Path, PositionIndex } from '../yaml/positions.js';
import { scanRefs, type FoundRef, type RefProblem } from './refs.js';
import type { Kind } from '../domain/bundle-schema/index.js';
import { DEFAULT_COLS } from '../domain/grid.js';
import { KnownNames, oneOf } from '../domain/suggest.js';

export interface DocItem {
  kind: Kind;
  file: string;
  positions: PositionIndex;
  value: Record<string, unknown>;
  /** The file's text (shared by its documents): the semantic check finds members inside string values in it. */
  text?: string;
  /** Which document of its file it is (counting empty ones): a loader on another thread finds it again by it. */
  index?: number;
  /** The document failed its schema: `value` holds only the keys that passed (see partial.ts). */
  partial?: true;
  /**
   * Where the document refers to something not in the bundle (a warning
   * here; plan checks the target), by reference key (`report/<publicId>`,
   * `workbook/<slug>`), first occurrence: plan reports it at the same place.
   */
  unknownRefs?: Map<string, SourcePos>;
}

export interface CrossCheckOptions {
  /** A reference to something not in the bundle is a warning (the target may hold it) rather than an error. */
  mayHoldUnknownRefs: boolean;
  /** `validate --strict`: such a reference is an error because the run asked for it (its hint says so). */
  strict?: boolean;
  checkRefs: boolean;
}

/** Widgets per dashboard above which the pairwise overlap check is skipped. */
const MAX_OVERLAP_CHECK = 1000;

export function posOf(item: DocItem, path: Path, at: 'key' | 'value'): SourcePos {
  return { file: item.file, ...item.positions.find(path, at) };
}

const fmt = (p: SourcePos) => `${p.file}:${p.line}:${p.col}`;

/** Records diagnostics; one per run of crossChecks. */
interface Sink {
  err(rule: string, message: string, pos: SourcePos, hint?: string): void;
  warn(rule: string, message: string, pos: SourcePos, hint?: string): void;
}

/** Identities seen across the bundle, first occurrence kept. */
interface Seen {
  slugs: Map<string, DocItem>;
  publicIds: Map<string, DocItem>;
  attrNames: Map<string, DocItem>;
  attrIds: Map<number, DocItem>;
  /** The publicIds and slugs as names to guess among, made at the first unknown reference. */
  near: { report?: KnownNames; workbook?: KnownNames };
}

// One small function per document and per concern, rather than three loops
// in one function: V8 compiles a hot loop by compiling its whole function
// ("on-stack replacement"), so small functions keep that work small.
export function crossChecks(items: readonly DocItem[], opts: CrossCheckOptions): Diagnostic[] {
  const out: Diagnostic[] = [];
  const sink: Sink = {
    err: (rule, message, pos, hint) => out.push({ severity: 'error', rule, message, pos, ...(hint ? { hint } : {}) }),
    warn: (rule, message, pos, hint) =>
      out.push({ severity: 'warning', rule, message, pos, ...(hint ? { hint } : {}) }),
  };
  const seen: Seen = { slugs: new Map(), publicIds: new Map(), attrNames: new Map(), attrIds: new Map(), near: {} };
  for (let i = 0; i < items.length; i++) checkIdentity(items[i]!, seen, sink);
  for (let i = 0; i < items.length; i++)
    if (items[i]!.kind === 'Workbook' && items[i]!.partial !== true) checkDashboard(items[i]!, sink);
  for (let i = 0; i < items.length; i++) checkReferences(items[i]!, seen, opts, sink);
  for (let i = 0; i < items.length; i++) checkReservedMeta(items[i]!, sink);
  for (let i = 0; i < items.length; i++) checkFolderKeys(items[i]!, sink);
  return out;
}

/** `meta.wsc` is the ownership record wsc writes itself: a file cannot set or change it. */
function checkReservedMeta(item: DocItem, sink: Sink): void {
  const meta = item.value['meta'];
  if (!isObject(meta) || !Object.hasOwn(meta, 'wsc')) return;
  sink.err(
    'reserved-meta-key',
    "`meta.wsc` is reserved: wsc keeps its ownership record there (the bundle's name and a hash of what it wrote)",
    posOf(item, ['meta', 'wsc'], 'key'),
    'Remove `wsc:` from `meta`; wsc writes and reads it by itself.',
  );
}

/** `folder` (a path) and `folderId` (an id) say the same thing two ways: one only. */
function checkFolderKeys(item: DocItem, sink: Sink): void {
  if (item.kind === 'UserAttribute' || !Object.hasOwn(item.value, 'folder') || !Object.hasOwn(item.value, 'folderId'))
    return;
  sink.err(
    'folder-and-folder-id',
    `\`folder\` and \`folderId\` both name the folder; keep one (also ` +
      `\`folderId\` at ${fmt(posOf(item, ['folderId'], 'key'))})`,
    posOf(item, ['folder'], 'key'),
    "`folder: A/B` names the folder by path in every deployment; `folderId` is one deployment's number.",
  );
}

function checkIdentity(item: DocItem, seen: Seen, sink: Sink): void {
  const v = item.value;
  // An error at `key` when `first` (an earlier document) holds the same identity.
  const dup = (
    first: DocItem | undefined,
    rule: string,
    what: string,
    key: string,
    also = 'also defined',
    more = '',
  ) => {
    if (first === undefined) return;
    const message = `duplicate ${what}, ${also} at ${fmt(posOf(first, [key], 'key'))}${more}`;
    sink.err(rule, message, posOf(item, [key], 'key'));
  };
  if (item.kind === 'Workbook') {
    const raw = v['slug'] as string;
    const slug = normalizeSlug(raw);
    const first = firstOf(seen.slugs, slug, item);
    const firstRaw = first?.value['slug'];
    const same =
      first === undefined || firstRaw === raw
        ? ''
        : ` (${JSON.stringify(raw)} and ${JSON.stringify(firstRaw)} are the same slug once trimmed and lowercased)`;
    dup(first, 'duplicate-slug', `workbook slug \`${slug}\``, 'slug', undefined, same);
  } else if (item.kind === 'Report') {
    const id = v['publicId'] as string;
    dup(firstOf(seen.publicIds, id, item), 'duplicate-public-id', `report publicId \`${id}\``, 'publicId');
  } else {
    const name = v['name'] as string;
    dup(firstOf(seen.attrNames, name, item), 'duplicate-user-attribute', `user attribute \`${name}\``, 'name');
    const id = v['id'];
    if (typeof id === 'number')
      dup(firstOf(seen.attrIds, id, item), 'duplicate-user-attribute', `user attribute id ${id}`, 'id', 'also used');
  }
}

/** The document first seen with `key`; else none, and `item` is recorded as it. */
function firstOf<K>(map: Map<K, DocItem>, key: K, item: DocItem): DocItem | undefined {
  const first = map.get(key);
  if (first === undefined) map.set(key, item);
  return first;
}

/** Widget ids, bounds and overlaps of a workbook's dashboard. */
function checkDashboard(item: DocItem, sink: Sink): void {
  const draft = valueAt(item.value, ['meta', 'dashboardDraft']);
  if (!isObject(draft) || !Array.isArray(draft['widgets'])) return;
  const base: Path = ['meta', 'dashboardDraft', 'widgets'];
  const widgets = draft['widgets'] as Record<string, unknown>[];
  const ids = new Map<string, number>();
  widgets.forEach((w, i) => {
    const id = w['id'] as string;
    const first = ids.get(id);
    if (first !== undefined) {
      sink.err(
        'duplicate-widget-id',
        `duplicate widget id \`${id}\` in this dashboard, also used at ` +
          `${fmt(posOf(item, [...base, first, 'id'], 'key'))}`,
        posOf(item, [...base, i, 'id'], 'key'),
      );
    } else ids.set(id, i);
  });
  const colsGiven = valueAt(draft, ['layout', 'cols', 'lg']);
  const cols = typeof colsGiven === 'number' ? colsGiven : DEFAULT_COLS.lg;
  const colsWhy = typeof colsGiven === 'number' ? 'layout.cols.lg' : `the default when layout.cols.lg is not set`;
  widgets.forEach((w, i) => {
    const p = w['position'] as { x: number; w: number };
    if (p.x + p.w > cols) {
      sink.warn(
        'widget-out-of-bounds',
        `widget \`${String(w['id'])}\` ends at column ${p.x + p.w} (x ${p.x} + ` +
          `w ${p.w}), beyond the dashboard's ${cols} columns (${colsWhy})`,
        posOf(item, [...base, i, 'position'], 'key'),
      );
    }
  });
  if (widgets.length > MAX_OVERLAP_CHECK) return;
  type R = { x: number; y: number; w: number; h: number };
  for (let i = 0; i < widgets.length; i++) {
    const a = widgets[i]!;
    if (a['type'] === 'CONTAINER') continue;
    const ra = a['position'] as R;
    for (let j = 0; j < i; j++) {
      const b = widgets[j]!;
      if (b['type'] === 'CONTAINER') continue;
      const rb = b['position'] as R;
      if (ra.x < rb.x + rb.w && rb.x < ra.x + ra.w && ra.y < rb.y + rb.h && rb.y < ra.y + ra.h) {
        sink.warn(
          'widget-overlap',
          `widget \`${String(a['id'])}\` overlaps widget \`${String(b['id'])}\` ` +
            `(${fmt(posOf(item, [...base, j, 'position'], 'key'))})`,
          posOf(item, [...base, i, 'position'], 'key'),
        );
      }
    }
  }
}

/** A document's references: well-formed, and (checkRefs) to something the bundle or the deployment may hold. */
function checkReferences(item: DocItem, seen: Seen, opts: CrossCheckOptions, sink: Sink): void {
  if (item.kind !== 'Workbook' && item.kind !== 'Report') return;
  const refs: FoundRef[] = [];
  const problems: RefProblem[] = [];
  if (item.kind === 'Report' && isObject(item.value['workbookId']))
    scanRefs({ workbookId: item.value['workbookId'] }, [], refs, problems);
  if (item.value['meta'] !== undefined) scanRefs(item.value['meta'], ['meta'], refs, problems);
  for (const p of problems) sink.err('bad-reference', p.message, posOf(item, p.path, p.at));
  if (!opts.checkRefs) return;
  const names = {
    report: () => (seen.near.report ??= new KnownNames(seen.publicIds.keys())),
    workbook: () => (seen.near.workbook ??= new KnownNames(seen.slugs.keys())),
  };
  for (const r of refs) {
    const id = r.kind === 'report' ? r.target : normalizeSlug(r.target);
    const known = r.kind === 'report' ? seen.publicIds : seen.slugs;
    if (known.has(id)) continue;
    const what = `${r.kind} \`${id}\``;
    const pos = posOf(item, r.path, 'value');
    const near = nearMissesIn(id, known, names[r.kind], r.kind === 'report' ? 'publicId' : 'slug');
    const suggestion = near === undefined ? '' : ` (did you mean ${near.text}?)`;
    if (opts.mayHoldUnknownRefs) {
      sink.warn(
        'unknown-reference',
        `${what} is not in the bundle${suggestion}; plan will check the target`,
        pos,
        near === undefined ? undefined : near.hint,
      );
      const key = `${r.kind}/${id}`;
      const seenAt = (item.unknownRefs ??= new Map());
      if (!seenAt.has(key)) seenAt.set(key, pos);
    } else {
      const add =
        r.kind === 'report'
          ? `Add a Report with publicId ${r.target}, or fix the reference.`
          : `Add a Workbook with slug ${describe(r.target)}, or fix the reference.`;
      const strict = opts.strict === true ? ' (--strict: every reference must resolve within the bundle)' : '';
      sink.err('unknown-reference', `${what} is not in the bundle${suggestion}${strict}`, pos, near?.hint ?? add);
    }
  }
}

/** Names of the bundle close to an unknown one: the text of "did you mean …?" and a hint naming their files. */
function nearMissesIn(
  id: string,
  known: ReadonlyMap<string, DocItem>,
  names: () => KnownNames,
  key: 'publicId' | 'slug',
): { text: string; hint: string } | undefined {
  const near = names().nearMisses(id);
  if (near.length === 0) return undefined;
  const what = key === 'publicId' ? 'the report' : 'the workbook';
  const where = near.map((n) => `\`${n}\` is ${what} of ${fmt(posOf(known.get(n)!, [key], 'value'))}`);
  return { text: oneOf(near), hint: `${where.join('; ')}.` };
}
