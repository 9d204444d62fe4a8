// The committed schemas are the generated ones, and every file of the
// example bundle validates (with ajv, as an editor would) against the schema
// its first-line modeline names.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { Ajv } from 'ajv';
import { parseAllDocuments } from 'yaml';
import { describe, expect, it } from 'vitest';
import { generateSchemas, schemaText } from '../../src/bundle/json-schema.js';

const root = resolve(import.meta.dirname, '../..');

function yamlFiles(dir: string): string[] {
  return readdirSync(dir)
    .sort()
    .flatMap((n) => {
      const p = join(dir, n);
      if (statSync(p).isDirectory()) return yamlFiles(p);
      return /\.ya?ml$/.test(n) ? [p] : [];
    });
}

// One compile per schema file: compiling is the slow part. One Ajv instance per
// file, since the example bundle's own copy of schemas/ has the same $ids.
const cache = new Map<string, ReturnType<Ajv['compile']>>();
function compiled(path: string) {
  let v = cache.get(path);
  if (!v) {
    v = new Ajv({ allErrors: true, strict: false }).compile(JSON.parse(readFileSync(path, 'utf8')));
    cache.set(path, v);
  }
  return v;
}

describe('JSON Schemas', () => {
  it('committed schemas/ equal freshly generated ones (run `wsc schema` if this fails)', () => {
    for (const f of generateSchemas()) {
      expect(readFileSync(join(root, 'schemas', f.name), 'utf8'), f.name).toBe(schemaText(f));
    }
  });

  it('generation is deterministic', () => {
    expect(generateSchemas().map(schemaText)).toEqual(generateSchemas().map(schemaText));
  });

  const files = yamlFiles(join(root, 'fixtures/example'));
  it('the example bundle has files of every kind', () => {
    expect(files.length).toBeGreaterThanOrEqual(9);
  });

  it.each(files.map((f) => [f.slice(root.length + 1), f]))(
    '%s validates against the schema its modeline names',
    (_rel, file) => {
      const text = readFileSync(file, 'utf8');
      const m = /^# yaml-language-server: \$schema=(\S+)\n/.exec(text);
      expect(m, 'first line names the schema').not.toBeNull();
      const schemaPath = resolve(dirname(file), m![1]!);
      const validate = compiled(schemaPath);
      const docs = parseAllDocuments(text).map((d) => d.toJS());
      expect(docs.length).toBeGreaterThan(0);
      for (const doc of docs) {
        const ok = validate(doc);
        expect(validate.errors ?? [], JSON.stringify(validate.errors)).toEqual([]);
        expect(ok).toBe(true);
        if (doc && typeof doc === 'object' && 'kind' in doc) {
          const expected = { Workbook: 'workbook', Report: 'report', UserAttribute: 'user-attribute' }[
            doc.kind as string
          ];
          expect(schemaPath.endsWith(`schemas/${expected}.schema.json`)).toBe(true);
        }
      }
    },
  );

  it('a schema rejects what the loader rejects (unknown key, bad publicId) and accepts variables in number fields', () => {
    const report = compiled(join(root, 'schemas/report.schema.json'));
    expect(report({ kind: 'Report', publicId: 'abcdefabcdef', nmae: 'x' })).toBe(false);
    expect(report({ kind: 'Report', publicId: 'short' })).toBe(false);
    expect(report({ kind: 'Report', publicId: 'abcdefabcdef', folderId: '${vars.folder}' })).toBe(true);
    expect(report({ kind: 'Report', publicId: 'abcdefabcdef', folderId: 'seven' })).toBe(false);
    const workbook = compiled(join(root, 'schemas/workbook.schema.json'));
    const withWidget = (position: object, extra: object = {}) => ({
      kind: 'Workbook',
      slug: 's',
      meta: { dashboardDraft: { widgets: [{ id: 'a', type: 'TEXT', position, ...extra }] } },
    });
    expect(workbook(withWidget({ x: 0, y: 0, w: 1, h: 1 }))).toBe(true);
    expect(workbook(withWidget({ x: 0, y: 0, w: '${vars.width}', h: 1 }))).toBe(true);
    expect(workbook(withWidget({ x: 0, y: 0, w: 1 }))).toBe(false);
    // A member the API's description does not name is allowed, as the API allows it (validate warns).
    expect(workbook(withWidget({ x: 0, y: 0, w: 1, h: 1 }, { colour: 'red' }))).toBe(true);
    expect(workbook(withWidget({ x: 0, y: 0, w: 1, h: 1 }, { type: 'NOT_A_TYPE' }))).toBe(false);
    expect(workbook({ kind: 'Workbook', slug: 's', meta: { anything: { goes: [1] } } })).toBe(true);
  });
});
