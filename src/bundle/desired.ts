// Valid bundle documents -> DesiredState. Only the keys present in a file
// become fields (partial ownership); jsonQuery written as a mapping becomes
// its JSON text, in the key order written.
import { normalizeSlug, REPORT_INPUT_FIELDS, type ReportSource } from '../domain/wire.js';
import type { DesiredReport, DesiredState, DesiredUserAttribute, DesiredWorkbook, Locate } from '../core/model.js';
import type { JsonValue } from '../core/json.js';
import type { SourcePos } from '../errors.js';
import type { DocItem } from './checks.js';
import { parseFolderPath } from '../domain/folder-path.js';
import { withLocate } from './locate.js';

const IDENTITY_KEY = { Workbook: 'slug', Report: 'publicId', UserAttribute: 'name' } as const;

function identityPos(item: DocItem): SourcePos {
  return { file: item.file, ...item.positions.topKey(IDENTITY_KEY[item.kind]) };
}

/** Where in the bundle a desired resource was written: its file and which document of it. */
export interface DocSource {
  file: string;
  index: number;
}

const sources = new WeakMap<object, DocSource>();

/** The document a desired resource was made from (a loader on another thread sends it beside the state). */
export function sourceOf(resource: object): DocSource | undefined {
  return sources.get(resource);
}

/** withLocate, and the resource's document noted for sourceOf. */
function located<T extends { locate?: Locate }>(target: T, item: DocItem): T {
  if (item.index !== undefined) sources.set(target, { file: item.file, index: item.index });
  return withLocate(target, item);
}

export function buildDesired(items: readonly DocItem[]): DesiredState {
  const desired: DesiredState = { workbooks: [], reports: [], userAttributes: [] };
  // A function per kind rather than one loop body: each is compiled small, once.
  for (let i = 0; i < items.length; i++) {
    const item = items[i]!;
    if (item.kind === 'Workbook') desired.workbooks.push(desiredWorkbook(item));
    else if (item.kind === 'Report') desired.reports.push(desiredReport(item));
    else desired.userAttributes.push(desiredUserAttribute(item));
  }
  return desired;
}

function desiredWorkbook(item: DocItem): DesiredWorkbook {
  const v = item.value;
  const slug = normalizeSlug(v['slug'] as string);
  const fields: DesiredWorkbook['fields'] = {};
  if (Object.hasOwn(v, 'name')) fields.name = v['name'] as string;
  if (Object.hasOwn(v, 'folderId')) fields.folderId = v['folderId'] as number | null;
  if (Object.hasOwn(v, 'meta')) fields.meta = v['meta'] as { [k: string]: JsonValue };
  const publish = v['publish'] === true;
  const wb: DesiredWorkbook = { address: `workbook/${slug}`, slug, fields, publish, pos: identityPos(item) };
  located(wb, item);
  if (Object.hasOwn(v, 'adopt')) wb.adopt = v['adopt'] as { deploymentId: number; id: number };
  if (Object.hasOwn(v, 'folder')) wb.folder = parseFolderPath(v['folder'] as string);
  if (item.unknownRefs) wb.refPos = item.unknownRefs;
  return wb;
}

function desiredReport(item: DocItem): DesiredReport {
  const v = item.value;
  const publicId = v['publicId'] as string;
  const fields: DesiredReport['fields'] = {};
  for (const f of REPORT_INPUT_FIELDS) {
    if (!Object.hasOwn(v, f)) continue;
    const value = v[f] as JsonValue;
    fields[f] = f === 'jsonQuery' && value !== null && typeof value === 'object' ? JSON.stringify(value) : value;
  }
  const jq = v['jsonQuery'];
  const report: DesiredReport = { address: `report/${publicId}`, publicId, fields, pos: identityPos(item) };
  located(report, item);
  if (Object.hasOwn(v, 'source')) report.source = v['source'] as ReportSource;
  if (Object.hasOwn(v, 'folder')) report.folder = parseFolderPath(v['folder'] as string);
  if (Object.hasOwn(v, 'adopt')) report.adopt = v['adopt'] as NonNullable<DesiredReport['adopt']>;
  if (item.unknownRefs) report.refPos = item.unknownRefs;
  if (jq !== null && typeof jq === 'object' && !Array.isArray(jq))
    report.jsonQueryMapping = jq as { [k: string]: JsonValue };
  return report;
}

function desiredUserAttribute(item: DocItem): DesiredUserAttribute {
  const v = item.value;
  const name = v['name'] as string;
  const fields: DesiredUserAttribute['fields'] = {};
  for (const f of ['displayName', 'description', 'defaultValue'] as const)
    if (Object.hasOwn(v, f)) fields[f] = v[f] as string;
  const attr: DesiredUserAttribute = { address: `user-attribute/${name}`, name, fields, pos: identityPos(item) };
  located(attr, item);
  if (Object.hasOwn(v, 'id')) attr.id = v['id'] as number;
  if (Object.hasOwn(v, 'type')) attr.type = v['type'] as DesiredUserAttribute['type'];
  return attr;
}
