// Valid bundle documents -> DesiredState. Only the keys present in a file
// become fields (partial ownership); jsonQuery written as a mapping becomes
// its JSON text, in the key order written.
import { normalizeSlug, REPORT_INPUT_FIELDS, type ReportSource } from '../api/wire.js';
import type { DesiredReport, DesiredState, DesiredUserAttribute, DesiredWorkbook, JsonValue } from '../core/model.js';
import type { SourcePos } from '../errors.js';
import type { DocItem } from './checks.js';

const IDENTITY_KEY = { Workbook: 'slug', Report: 'publicId', UserAttribute: 'name' } as const;

export function identityPos(item: DocItem): SourcePos {
  const p = item.positions.get([IDENTITY_KEY[item.kind]]);
  const lc = p?.key ?? p?.value ?? item.positions.start;
  return { file: item.file, line: lc.line, col: lc.col };
}

export function buildDesired(items: readonly DocItem[]): DesiredState {
  const desired: DesiredState = { workbooks: [], reports: [], userAttributes: [] };
  for (const item of items) {
    const v = item.value;
    const has = (k: string) => Object.hasOwn(v, k);
    const pos = identityPos(item);
    if (item.kind === 'Workbook') {
      const slug = normalizeSlug(v['slug'] as string);
      const fields: DesiredWorkbook['fields'] = {};
      if (has('name')) fields.name = v['name'] as string;
      if (has('folderId')) fields.folderId = v['folderId'] as number | null;
      if (has('meta')) fields.meta = v['meta'] as { [k: string]: JsonValue };
      desired.workbooks.push({ address: `workbook/${slug}`, slug, fields, publish: v['publish'] === true, pos });
    } else if (item.kind === 'Report') {
      const publicId = v['publicId'] as string;
      const fields: DesiredReport['fields'] = {};
      for (const f of REPORT_INPUT_FIELDS) {
        if (!has(f)) continue;
        const value = v[f] as JsonValue;
        fields[f] = f === 'jsonQuery' && value !== null && typeof value === 'object' ? JSON.stringify(value) : value;
      }
      const report: DesiredReport = { address: `report/${publicId}`, publicId, fields, pos };
      if (has('source')) report.source = v['source'] as ReportSource;
      if (has('adopt')) report.adopt = v['adopt'] as { deploymentId: number; id: number };
      desired.reports.push(report);
    } else {
      const name = v['name'] as string;
      const fields: DesiredUserAttribute['fields'] = {};
      for (const f of ['displayName', 'description', 'defaultValue'] as const) if (has(f)) fields[f] = v[f] as string;
      const attr: DesiredUserAttribute = { address: `user-attribute/${name}`, name, fields, pos };
      if (has('id')) attr.id = v['id'] as number;
      if (has('type')) attr.type = v['type'] as DesiredUserAttribute['type'];
      desired.userAttributes.push(attr);
    }
  }
  return desired;
}
