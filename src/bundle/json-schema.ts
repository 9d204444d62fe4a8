// JSON Schemas (draft-07) of the file formats, generated from the zod
// schemas, for editors (`# yaml-language-server: $schema=...`) and other
// tools. Deterministic: the same code gives byte-identical files.
//
// Variables: wsc interpolates `${vars.NAME}` / `${env.NAME}` before it
// validates, so a number field may hold `folderId: ${vars.financeFolderId}`.
// The generated bundle schemas therefore also accept such a string wherever a
// number, integer or boolean goes, so an editor does not flag valid files.
import * as z from 'zod';
import { WscConfigSchema } from '../config/schema.js';
import { ReportSchema, UserAttributeSchema, WorkbookSchema } from '../domain/bundle-schema/index.js';

type JsonSchema = { [k: string]: unknown };

export interface SchemaFile {
  /** File name inside the schemas directory. */
  name: string;
  schema: JsonSchema;
}

const VARIABLE_DEF = {
  type: 'string',
  pattern: '^\\$\\{(vars|env)\\.[A-Za-z_][A-Za-z0-9_]*\\}$',
  description:
    'A variable, `${vars.NAME}` (from the environment in wsc.yaml) or ' +
    '`${env.NAME}`, replaced by its value before validation.',
};

const NON_STRING_SCALARS = new Set(['integer', 'number', 'boolean']);

function allowVariables(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(allowVariables);
  if (node === null || typeof node !== 'object') return node;
  const out: JsonSchema = {};
  for (const [k, v] of Object.entries(node)) out[k] = k === 'const' || k === 'enum' ? v : allowVariables(v);
  if (typeof out['type'] === 'string' && NON_STRING_SCALARS.has(out['type'])) {
    const { description, ...rest } = out;
    return { ...(description !== undefined ? { description } : {}), anyOf: [rest, { $ref: '#/definitions/variable' }] };
  }
  return out;
}

function finish(name: string, title: string, schema: JsonSchema, variables: boolean): SchemaFile {
  const { $schema, definitions: defs, ...rest } = schema;
  const body = variables ? (allowVariables(rest) as JsonSchema) : rest;
  const definitions = { ...((variables ? allowVariables(defs) : defs) as JsonSchema | undefined) };
  if (variables) definitions['variable'] = VARIABLE_DEF;
  const tail = Object.keys(definitions).length > 0 ? { definitions } : {};
  return {
    name,
    schema: { $schema, $id: `urn:wsc:schema:${name.replace(/\.schema\.json$/, '')}`, title, ...body, ...tail },
  };
}

export function generateSchemas(): SchemaFile[] {
  const gen = (s: z.ZodType) => z.toJSONSchema(s, { target: 'draft-07', io: 'input' }) as JsonSchema;
  return [
    finish('workbook.schema.json', 'wsc Workbook', gen(WorkbookSchema), true),
    finish('report.schema.json', 'wsc Report', gen(ReportSchema), true),
    finish('user-attribute.schema.json', 'wsc UserAttribute', gen(UserAttributeSchema), true),
    finish('wsc.schema.json', 'wsc.yaml', gen(WscConfigSchema), false),
  ];
}

export function schemaText(f: SchemaFile): string {
  return `${JSON.stringify(f.schema, null, 2)}\n`;
}
