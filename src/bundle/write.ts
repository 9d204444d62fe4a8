// Bundle documents -> YAML text, deterministically: keys in the order the
// document holds them (export builds them in the bundle schema's order), no
// anchors or aliases, no line folding, one editor-schema line on top. What is
// written here reads back (yaml parse) as exactly the same data.
import { stringify } from 'yaml';
import type { JsonValue } from '../core/model.js';

export type SchemaKind = 'workbook' | 'report' | 'user-attribute' | 'wsc';

/** Where export puts the JSON Schemas, relative to the bundle root. */
export const SCHEMA_DIR = 'schemas';

export function schemaFileName(kind: SchemaKind): string {
  return `${kind}.schema.json`;
}

/** The `# yaml-language-server: $schema=...` line for a file at `relFile` (posix, relative to the root). */
export function schemaLine(kind: SchemaKind, relFile: string): string {
  const depth = relFile.split('/').length - 1;
  const up = depth === 0 ? './' : '../'.repeat(depth);
  return `# yaml-language-server: $schema=${up}${SCHEMA_DIR}/${schemaFileName(kind)}`;
}

/** YAML of one value, exactly as export writes it (no schema line). */
export function toYaml(value: JsonValue): string {
  return stringify(value, {
    lineWidth: 0,
    minContentWidth: 0,
    aliasDuplicateObjects: false,
    indent: 2,
    indentSeq: true,
    version: '1.2',
  });
}

/** One bundle file: the schema line, then the document. */
export function serializeDoc(kind: SchemaKind, relFile: string, doc: JsonValue): string {
  return `${schemaLine(kind, relFile)}\n${toYaml(doc)}`;
}

export interface GeneratedConfig {
  environment: string;
  deploymentId: number;
  /** Absent for an embedded environment. */
  baseUrl?: string;
  embedded: boolean;
  /** The environment read derives publicIds per deployment (see the comment written). */
  sourcePerDeployment: boolean;
}

/** wsc.yaml for a fresh export: one environment, the token from WSC_TOKEN (never the token itself). */
export function generatedConfig(c: GeneratedConfig): string {
  const env: Record<string, JsonValue> = {};
  if (c.embedded) env['embedded'] = true;
  else env['baseUrl'] = c.baseUrl ?? null;
  env['deploymentId'] = c.deploymentId;
  if (!c.embedded) env['token'] = '${env.WSC_TOKEN}';
  env['publicIds'] = 'as-is';
  const header = [
    schemaLine('wsc', 'wsc.yaml'),
    '# Written by `wsc export`. The token is read from the environment (WSC_TOKEN), never stored here.',
    c.sourcePerDeployment
      ? '# The publicIds in reports/ are the ids the deployment shows. Its environment derives them per\n' +
        '# deployment and a derived id cannot be turned back into the logical one, so they are kept as\n' +
        '# they are and this environment uses them as-is.'
      : '# The publicIds in reports/ are the ids the deployment shows (publicIds: as-is).',
    '# publicIds are unique per account: to apply this bundle to another deployment of the same account,',
    '# add an environment for it with `publicIds: per-deployment` (each report then gets an id derived',
    '# from its publicId and that deployment id).',
  ];
  return `${header.join('\n')}\n${toYaml({ defaultEnvironment: c.environment, environments: { [c.environment]: env } })}`;
}
