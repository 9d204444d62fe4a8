// Live objects -> bundle documents (plain data, keys in the order of the
// bundle schema). Only input fields are written; server-owned ones (id,
// createdAt, user, canEdit, version, folderPath, description of reports...)
// are left out, and so are null or absent fields: a field absent from a file
// is unmanaged, a field written equals the live value after loading, exactly.
import { type Report, type UserAttribute, UserAttributeType, type Workbook } from '../../domain/wire.js';
import { FORBIDDEN_KEYS } from '../../domain/forbidden-keys.js';
import { liveDraft, metaWithDraft } from '../live-draft.js';
import { sameContent } from '../canonical.js';
import { isRef } from '../model.js';
import type { JsonValue } from '../json.js';
import { RECORD_KEY } from '../ownership.js';
import { namedWidgets, usableWidgetId } from '../widget-identity.js';

export type Doc = { [k: string]: JsonValue };

/** A numeric id the export could not turn into a reference (its target is not exported). */
export interface Dangling {
  kind: 'workbook' | 'report' | 'folder';
  /** Where in the document, e.g. `workbookId`, `meta.dashboardDraft.widgets[2].config.reportId`. */
  path: string;
  id: number;
  /**
   * Set when the number stays for another reason than its target not being
   * exported: a report id written as a string, or a number that is the id
   * of a report under a key wsc does not read as a report reference.
   */
  note?: string;
}

export interface RefLookup {
  /** The bundle slug of an exported workbook. */
  workbookSlug(id: number): string | undefined;
  /** The bundle publicId of an exported report. */
  reportPublicId(id: number): string | undefined;
  /** Whether a report with this id was seen in the deployment (exported or not). */
  isReportId?(id: number): boolean;
  /** The `folder:` path of a folder id (the item's own `folderPath` may tell it), when known. */
  folderPath?(id: number, folderPath: unknown): string | undefined;
}

/** `folder: A/B` for a folder the export can name by path; its numeric id (a warning) otherwise. */
function putFolder(doc: Doc, folderId: number, folderPath: unknown, refs: RefLookup, dangling: Dangling[]): void {
  const path = refs.folderPath?.(folderId, folderPath);
  if (path !== undefined) {
    doc['folder'] = escapeVars(path);
    return;
  }
  doc['folderId'] = folderId;
  dangling.push({ kind: 'folder', path: 'folderId', id: folderId });
}

/**
 * `${` starts a variable in any scalar the loader reads; `$${` is a literal
 * `${`. Escaping every `${` makes the loaded text equal the live text.
 */
function escapeVars(text: string): string {
  return text.includes('${') ? text.replaceAll('${', () => '$${') : text;
}

/** Deep copy of a JSON value with every string escaped (`escapeVars`). */
function escapeDeep(v: unknown): JsonValue {
  if (typeof v === 'string') return escapeVars(v);
  if (v === null || typeof v !== 'object') return v as JsonValue;
  if (Array.isArray(v)) return v.map(escapeDeep);
  const entries = Object.entries(v).filter(([, x]) => x !== undefined);
  return Object.fromEntries(entries.map(([k, x]) => [k, escapeDeep(x)]));
}

/** Deepest nesting of mappings and sequences the export writes under one field (the loader stops at 64). */
const MAX_VALUE_DEPTH = 60;

function depthOf(v: unknown): number {
  if (v === null || typeof v !== 'object') return 0;
  let d = 0;
  for (const x of Array.isArray(v) ? v : Object.values(v)) d = Math.max(d, depthOf(x));
  return d + 1;
}

/**
 * Why a live value cannot be written so that it loads back equal, if so: a
 * key the loader refuses, a mapping the loader would read as a reference, or
 * nesting deeper than the loader reads.
 */
function unloadable(v: unknown, field = ''): string | undefined {
  const walk = (x: unknown, path: string): string | undefined => {
    if (typeof x === 'number' && Number.isInteger(x) && !Number.isSafeInteger(x)) {
      // JSON.parse has already rounded it, if it was not a power of two: writing it would make the rounding stick.
      return (
        `${path === '' ? 'it is' : `\`${path}\` is`} an integer beyond 2^53 (read as ${String(x)}), ` +
        'which a JSON number cannot carry exactly'
      );
    }
    if (x === null || typeof x !== 'object') return undefined;
    if (isRef(x)) return `it holds ${JSON.stringify(x)}, which a bundle reads as a reference`;
    // An array's keys are its indexes: never forbidden.
    const array = Array.isArray(x);
    for (const [k, y] of Object.entries(x)) {
      if (!array && FORBIDDEN_KEYS.has(k)) return `it holds the key \`${k}\`, which bundle files may not use`;
      const p = walk(y, array ? `${path}[${k}]` : path === '' ? k : `${path}.${k}`);
      if (p) return p;
    }
    return undefined;
  };
  if (depthOf(v) > MAX_VALUE_DEPTH) return `it is nested more than ${MAX_VALUE_DEPTH} levels deep`;
  return walk(v, field);
}

function hasRefShapeOrProto(v: unknown): boolean {
  if (unloadable(v) !== undefined) return true;
  const dollar = (x: unknown): boolean => {
    if (x === null || typeof x !== 'object') return false;
    return Object.entries(x).some(([k, y]) => k.startsWith('$') || dollar(y));
  };
  return dollar(v);
}

/**
 * `jsonQuery` as a YAML mapping when that is lossless: the live text is an
 * object in compact JSON exactly as JSON.stringify writes it (so the loader's
 * serialisation gives back the same text, not only the same parsed JSON), and
 * holds nothing the loader would read as a reference. Otherwise the string.
 */
export function jsonQueryValue(text: string): JsonValue {
  let v: unknown;
  try {
    v = JSON.parse(text);
  } catch {
    return text;
  }
  if (v === null || typeof v !== 'object' || Array.isArray(v)) return text;
  if (JSON.stringify(v) !== text) return text;
  if (hasRefShapeOrProto(v)) return text;
  return v as JsonValue;
}

function isEmptyObject(v: unknown): boolean {
  return v !== null && typeof v === 'object' && !Array.isArray(v) && Object.keys(v).length === 0;
}

function present(v: unknown): boolean {
  return v !== null && v !== undefined;
}

const REPORT_ID_KEY = /report_?id$/i;
const REPORT_IDS_KEY = /report_?ids$/i;
/** A member holding a report object, `{ report: { id } }`: its `id` is a report id. */
const REPORT_KEY = /^report$/i;

/**
 * Rewrites report ids in a widget: a whole number under a key named like
 * `reportId` (or in an array under `reportIds`, or the `id` of an object
 * under `report`) becomes `{ $report }` when the report is exported;
 * otherwise it stays and is reported dangling. A report id written as a
 * string stays too (a reference stands for a number), and is reported.
 */
function rewriteConfig(v: JsonValue, path: string, refs: RefLookup, dangling: Dangling[], key?: string): JsonValue {
  const idKey = key !== undefined && REPORT_ID_KEY.test(key);
  if (typeof v === 'number' && idKey && Number.isSafeInteger(v)) {
    const pid = refs.reportPublicId(v);
    if (pid !== undefined) return { $report: pid };
    dangling.push({ kind: 'report', path, id: v });
    return v;
  }
  if (typeof v === 'string' && idKey && /^\d{1,15}$/.test(v)) {
    const note =
      `the report id is written as a string ("${v}"); kept as it is, as a \`{ $report }\` reference stands for a ` +
      `number, so it means report ${v} of whichever deployment the bundle is applied to`;
    dangling.push({ kind: 'report', path, id: Number(v), note });
    return v;
  }
  if (Array.isArray(v)) {
    const idList = key !== undefined && REPORT_IDS_KEY.test(key);
    return v.map((x, i) => rewriteConfig(x, `${path}[${i}]`, refs, dangling, idList ? 'reportId' : undefined));
  }
  if (v !== null && typeof v === 'object') {
    const reportObject = key !== undefined && REPORT_KEY.test(key);
    const out: { [k: string]: JsonValue } = {};
    for (const [k, x] of Object.entries(v)) {
      out[k] = rewriteConfig(x, `${path}.${k}`, refs, dangling, reportObject && k === 'id' ? 'reportId' : k);
    }
    return out;
  }
  return v;
}

/** Members of a widget that hold its layout, never a report id. */
const LAYOUT_KEYS = new Set(['position', 'responsiveLayouts']);
/** Members of a widget read as they are (config is walked on its own). */
const OWN_KEYS = new Set(['config', 'style', 'id', 'type']);

/** Numbers left in a rewritten widget that are ids of reports of the deployment, under keys not read as references. */
function unrewrittenIds(v: JsonValue, path: string, refs: RefLookup, seen: Set<string>, out: Dangling[]): void {
  if (typeof v === 'number') {
    if (!seen.has(path) && Number.isSafeInteger(v) && refs.isReportId?.(v) === true) {
      const note =
        `${v} is the id of a report of this deployment, under a key wsc does ` +
        `not read as a report reference; kept as it is`;
      out.push({ kind: 'report', path, id: v, note });
    }
    return;
  }
  if (Array.isArray(v)) v.forEach((x, i) => unrewrittenIds(x, `${path}[${i}]`, refs, seen, out));
  else if (v !== null && typeof v === 'object' && !isRef(v)) {
    for (const [k, x] of Object.entries(v)) unrewrittenIds(x, `${path}.${k}`, refs, seen, out);
  }
}

/** A widget with its report references rewritten: in `config`, and a `reportId` on the widget itself. */
function rewriteWidget(w: JsonValue, path: string, refs: RefLookup, dangling: Dangling[]): JsonValue {
  if (w === null || typeof w !== 'object' || Array.isArray(w)) return w;
  const before = dangling.length;
  const out: { [k: string]: JsonValue } = {};
  for (const [k, x] of Object.entries(w)) {
    if (k === 'config' && x !== null && typeof x === 'object')
      out[k] = rewriteConfig(x, `${path}.config`, refs, dangling);
    else if (!LAYOUT_KEYS.has(k) && !OWN_KEYS.has(k)) out[k] = rewriteConfig(x, `${path}.${k}`, refs, dangling, k);
    else out[k] = x;
  }
  const seen = new Set(dangling.slice(before).map((d) => d.path));
  for (const [k, x] of Object.entries(out)) {
    if (!LAYOUT_KEYS.has(k)) unrewrittenIds(x, `${path}.${k}`, refs, seen, dangling);
  }
  const id = usableWidgetId(w);
  for (const d of dangling.slice(before)) {
    if (id !== undefined && d.note !== undefined) d.note = `widget "${escapeVars(id)}": ${d.note}`;
  }
  return out;
}

/** Report ids a workbook's dashboard draft points at (the same keys `rewriteWidget` rewrites). */
export function referencedReportIds(meta: unknown): number[] {
  const none: RefLookup = { workbookSlug: () => undefined, reportPublicId: () => undefined };
  const dangling: Dangling[] = [];
  const widgets = (meta as { dashboardDraft?: { widgets?: unknown } } | null | undefined)?.dashboardDraft?.widgets;
  if (Array.isArray(widgets)) widgets.forEach((w, i) => rewriteWidget(w as JsonValue, `w${i}`, none, dangling));
  return dangling.map((d) => d.id);
}

/** A field (or a top-level key of `meta`) left out because it cannot be written faithfully. */
interface Dropped {
  path: string;
  reason: string;
}

/** `meta` with the top-level keys that cannot load back equal left out (the server merges it per key). */
function loadableMeta(meta: Record<string, unknown>, dropped: Dropped[]): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(meta)) {
    // wsc's ownership record is the deployment's, never a file's.
    if (v === undefined || k === RECORD_KEY) continue;
    const why = FORBIDDEN_KEYS.has(k) ? `the key \`${k}\` may not be used in bundle files` : unloadable(v, `meta.${k}`);
    if (why) dropped.push({ path: `meta.${k}`, reason: why });
    else out[k] = v;
  }
  return out;
}

/** The `meta` of a workbook with every widget's report ids turned into references (and widgets `named`). */
function workbookMeta(meta: Record<string, unknown>, refs: RefLookup, dangling: Dangling[], named: Dropped[]): Doc {
  const out = escapeDeep(meta) as Doc;
  const draft = out['dashboardDraft'];
  if (draft === null || typeof draft !== 'object' || Array.isArray(draft)) return out;
  const widgets = draft['widgets'];
  if (!Array.isArray(widgets)) return out;
  // A widget the UI left without a usable id (empty, repeated) is named: the bundle needs ids.
  const withNames = namedWidgets(widgets);
  withNames.forEach((w, i) => {
    if (w === widgets[i]) return;
    const [was, is] = [(widgets[i] as Doc)['id'], (w as Doc)['id']];
    const reason =
      `its id ${JSON.stringify(was)} does not tell it apart; ` +
      `written as \`${String(is)}\`, which the next apply gives it`;
    named.push({ path: `meta.dashboardDraft.widgets[${i}]`, reason });
  });
  draft['widgets'] = withNames.map((w, i) => rewriteWidget(w, `meta.dashboardDraft.widgets[${i}]`, refs, dangling));
  return out;
}

export interface Built {
  doc: Doc;
  dangling: Dangling[];
  dropped: Dropped[];
  /** Widgets given an id (widget-identity.ts): where, and why. */
  named?: Dropped[];
  /** A workbook whose dashboard is published: `same` when the published one is the draft (`publish: true`). */
  published?: 'same' | 'differs';
}

export function workbookDoc(
  wb: Workbook,
  slug: string,
  refs: RefLookup,
  adopt?: { deploymentId: number; id: number },
): Built {
  const dangling: Dangling[] = [];
  const dropped: Dropped[] = [];
  const named: Dropped[] = [];
  const doc: Doc = { kind: 'Workbook', slug: escapeVars(slug), name: escapeVars(wb.name) };
  if (present(wb.folderId)) putFolder(doc, wb.folderId!, wb.folderPath, refs, dangling);
  if (present(wb.meta) || present(wb.dashboardDraft)) {
    const meta = loadableMeta(metaWithDraft(wb), dropped);
    if (!isEmptyObject(meta)) doc['meta'] = workbookMeta(meta, refs, dangling, named);
  }
  const published = publishedState(wb);
  if (published === 'same') doc['publish'] = true;
  if (adopt) doc['adopt'] = { deploymentId: adopt.deploymentId, id: adopt.id };
  return {
    doc,
    dangling,
    dropped,
    ...(named.length > 0 ? { named } : {}),
    ...(published !== undefined ? { published } : {}),
  };
}

/**
 * Whether a workbook's dashboard is published, and if so whether what is
 * published is its draft: only then does `publish: true` describe it (plan
 * compares the draft with the published dashboard the same way, so such an
 * export plans no publish). undefined: not published.
 */
function publishedState(wb: Workbook): 'same' | 'differs' | undefined {
  const published = wb.dashboardPublished;
  if (published === null || published === undefined) return undefined;
  if (wb.publishedDashboard != null && wb.publishedDashboard.status !== 'published') return undefined;
  return sameContent(liveDraft(wb) ?? null, published) ? 'same' : 'differs';
}

export function reportDoc(
  r: Report,
  identity: { publicId: string; adopt?: { deploymentId: number; id: number } },
  refs: RefLookup,
): Built {
  const dangling: Dangling[] = [];
  const dropped: Dropped[] = [];
  const doc: Doc = { kind: 'Report', publicId: identity.publicId };
  doc['name'] = escapeVars(r.name);
  if (present(r.title)) doc['title'] = escapeVars(r.title!);
  // As the server names it (GOOGLE_SHEETS or HOSTED_SHEETS): a bundle takes both and sends it as written.
  if (present(r.source)) doc['source'] = r.source!;
  if (present(r.workbookId)) {
    const slug = refs.workbookSlug(r.workbookId!);
    if (slug !== undefined) doc['workbookId'] = { $workbook: escapeVars(slug) };
    else {
      doc['workbookId'] = r.workbookId!;
      dangling.push({ kind: 'workbook', path: 'workbookId', id: r.workbookId! });
    }
  }
  if (present(r.folderId)) putFolder(doc, r.folderId!, r.folderPath, refs, dangling);
  if (present(r.sqlQuery)) doc['sqlQuery'] = escapeVars(r.sqlQuery!);
  if (present(r.jsonQuery)) doc['jsonQuery'] = escapeDeep(jsonQueryValue(r.jsonQuery!));
  if (present(r.pivotItems)) {
    const why = unloadable(r.pivotItems, 'pivotItems');
    if (why) dropped.push({ path: 'pivotItems', reason: why });
    else doc['pivotItems'] = escapeDeep(r.pivotItems);
  }
  if (present(r.meta)) {
    const meta = loadableMeta(r.meta!, dropped);
    if (!isEmptyObject(meta)) doc['meta'] = escapeDeep(meta);
  }
  if (present(r.endResultCell)) doc['endResultCell'] = escapeVars(r.endResultCell!);
  if (present(r.resultLocation)) doc['resultLocation'] = escapeVars(r.resultLocation!);
  if (present(r.externalWorkbookId)) doc['externalWorkbookId'] = escapeVars(r.externalWorkbookId!);
  if (identity.adopt) doc['adopt'] = { deploymentId: identity.adopt.deploymentId, id: identity.adopt.id };
  return { doc, dangling, dropped };
}

export function userAttributeDoc(ua: UserAttribute): Built {
  const dropped: Dropped[] = [];
  const doc: Doc = { kind: 'UserAttribute', name: escapeVars(ua.name) };
  if (UserAttributeType.safeParse(ua.type).success) doc['type'] = ua.type;
  else dropped.push({ path: 'type', reason: `the type \`${ua.type}\` is not one a bundle can name` });
  if (present(ua.displayName)) doc['displayName'] = escapeVars(ua.displayName!);
  if (present(ua.description)) doc['description'] = escapeVars(ua.description!);
  if (present(ua.defaultValue)) doc['defaultValue'] = escapeVars(ua.defaultValue!);
  return { doc, dangling: [], dropped };
}
