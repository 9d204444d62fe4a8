// Bundle documents -> YAML text, deterministically: keys in the order the
// document holds them (export builds them in the bundle schema's order), no
// anchors or aliases, no line folding, one editor-schema line on top. What is
// written here reads back (yaml parse) as exactly the same data.
import { Document, isPair, isScalar, visit, type YAMLMap, type YAMLSeq } from 'yaml';
import type { JsonValue } from '../core/json.js';
import { everyOf, NEEDS_DOUBLE_QUOTES, RAW_IN_DOUBLE_QUOTES } from '../domain/unsafe-chars.js';

export type SchemaKind = 'workbook' | 'report' | 'user-attribute' | 'wsc';

/** Where export puts the JSON Schemas, relative to the bundle root. */
export const SCHEMA_DIR = 'schemas';

/** The `# yaml-language-server: $schema=...` line for a file at `relFile` (posix, relative to the root). */
export function schemaLine(kind: SchemaKind, relFile: string): string {
  const depth = relFile.split('/').length - 1;
  const up = depth === 0 ? './' : '../'.repeat(depth);
  return `# yaml-language-server: $schema=${up}${SCHEMA_DIR}/${kind}.schema.json`;
}

/**
 * A line of only spaces or tabs: the yaml library writes it in a block scalar
 * without its indentation (`" \n"` reads back as `"\n"`), so such strings are
 * double-quoted too.
 */
const BLANK_LINE = /(?:^|\n)[ \t]+(?:\n|$)/;

/** A scalar that reads the same in a flow collection without quotes. */
function flowSafe(node: unknown): number | undefined {
  if (!isScalar(node)) return undefined;
  const v = node.value;
  if (v === null || typeof v === 'boolean' || (typeof v === 'number' && Number.isFinite(v))) return String(v).length;
  if (typeof v === 'string' && /^[A-Za-z0-9_$][A-Za-z0-9_.$-]*$/.test(v) && !/^(true|false|null)$/i.test(v))
    return v.length;
  return undefined;
}

/** Small collections of plain scalars on one line: `{ x: 0, y: 4, w: 6, h: 4 }`, `{ $report: ... }`, `[a, b]`. */
function flowIfSmall(node: YAMLMap | YAMLSeq): void {
  if (node.items.length === 0 || node.items.length > 6) return;
  let chars = 0;
  for (const item of node.items) {
    // `k: v, ` in a mapping, `v, ` in a sequence.
    for (const part of isPair(item) ? [item.key, item.value] : [item]) {
      const n = flowSafe(part);
      if (n === undefined) return;
      chars += n + 2;
    }
  }
  if (chars <= 60) node.flow = true;
}

/**
 * YAML of one value, exactly as export writes it (no schema line). It reads
 * back as the same data (test/bundle/write.test.ts checks this for any JSON value).
 */
export function toYaml(value: JsonValue, opts: { flow?: boolean } = {}): string {
  const doc = new Document(value, { aliasDuplicateObjects: false, version: '1.2' });
  visit(doc, {
    Scalar(_key, node) {
      if (typeof node.value === 'string' && (NEEDS_DOUBLE_QUOTES.test(node.value) || BLANK_LINE.test(node.value))) {
        node.type = 'QUOTE_DOUBLE';
      }
    },
    Collection(_key, node) {
      if (opts.flow !== false && node !== doc.contents) flowIfSmall(node);
    },
  });
  // The yaml library leaves DEL and C1 controls raw inside double quotes, and the
  // loader refuses raw controls: escape them (they only occur in the
  // double-quoted scalars NEEDS_DOUBLE_QUOTES chose, where `\xHH` is an escape).
  return doc
    .toString({ lineWidth: 0, minContentWidth: 0, indent: 2, indentSeq: true })
    .replace(everyOf(RAW_IN_DOUBLE_QUOTES), (ch) => `\\x${ch.charCodeAt(0).toString(16).toUpperCase()}`);
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
    c.embedded
      ? '# Written by `wsc export`. `embedded: true` runs a local emulator ' +
        "with this directory's own state (.wsc/state)."
      : '# Written by `wsc export`. The token is read from the environment (WSC_TOKEN), never stored here.',
    c.sourcePerDeployment
      ? '# The publicIds in reports/ are the ids the deployment shows. Its environment derives them per\n' +
        '# deployment and a derived id cannot be turned back into the logical one, so they are kept as\n' +
        '# they are and this environment uses them as-is.'
      : '# The publicIds in reports/ are the ids the deployment shows (publicIds: as-is).',
    '# publicIds are unique per account: to apply this bundle to another deployment of the same account,',
    '# add an environment for it with `publicIds: per-deployment` (each report then gets an id derived',
    '# from its publicId and that deployment id).',
  ];
  const config = { defaultEnvironment: c.environment, environments: { [c.environment]: env } };
  return `${header.join('\n')}\n${toYaml(config, { flow: false })}`;
}
