// Writing bundle files: YAML that reads back as exactly the data written, the
// editor-schema line, the generated wsc.yaml (no token, ever), and a sink
// that never writes outside its root.
import fc from 'fast-check';
import { existsSync, mkdirSync, readdirSync, readFileSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { tempDir } from '../helpers/temp-dir.js';
import { describe, expect, test } from 'vitest';
import { parse } from 'yaml';
import { generatedConfig, schemaLine, serializeDoc, toYaml } from '../../src/bundle/write.js';
import { DirSink, TMP_SUFFIX } from '../../src/bundle/write-files.js';
import { generateSchemas, schemaText } from '../../src/bundle/json-schema.js';
import { parseYaml } from '../../src/yaml/parse.js';
import { lookalikes } from '../yaml/written.js';
import type { JsonValue } from '../../src/core/json.js';
import { jsonOf } from '../helpers/json-arbitrary.js';
import { anyString, runs } from '../helpers/property.js';

const tmp = (): string => tempDir('wsc-write-');

const nasty = fc.oneof(
  anyString({ maxLength: 40 }),
  fc.string({ unit: fc.integer({ min: 0, max: 0xa0 }).map((c) => String.fromCharCode(c)), maxLength: 12 }),
  // The strings the reader's tests write (test/yaml/written.ts), and a few more.
  fc.constantFrom(...lookalikes, '-', '%', '\n', '\r', '\uFEFFbom'),
);
// Keys the loader refuses anywhere (yaml/parse.ts FORBIDDEN_KEYS; export leaves such values out, core/export/docs.ts).
const key = nasty.filter((k) => !['__proto__', 'constructor', 'prototype'].includes(k));
const json = jsonOf<JsonValue>(
  [nasty, fc.double({ noNaN: true, noDefaultInfinity: true }), fc.integer(), fc.boolean(), fc.constant(null)],
  key,
) as fc.Arbitrary<JsonValue>;

describe('toYaml', () => {
  test('any JSON value reads back equal, with the loader and with yaml.parse', () => {
    fc.assert(
      fc.property(fc.dictionary(key, json, { maxKeys: 5 }), (doc) => {
        const text = toYaml(doc);
        expect(parse(text)).toEqual(doc);
        // The same key order too.
        expect(JSON.stringify(parse(text))).toBe(JSON.stringify(doc));
        // The loader refuses raw control characters (bundle/files.ts): every one is escaped.
        // eslint-disable-next-line no-control-regex
        expect(text).not.toMatch(/[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F\u0080-\u0084\u0086-\u009F]/);
        const loaded = parseYaml('x.yaml', text);
        expect(loaded.diagnostics.filter((d) => d.severity === 'error')).toEqual([]);
        expect(loaded.docs[0]?.value ?? {}).toEqual(doc);
      }),
      { numRuns: runs(1000) },
    );
  });

  test('a line of only spaces keeps its spaces (fast-check found {"": [" \\n"]})', () => {
    const docs: JsonValue[] = [{ '': [' \n'] }, { a: ' \n' }, { a: 'x\n \t\ny' }];
    for (const doc of docs) {
      expect(JSON.stringify(parse(toYaml(doc)))).toBe(JSON.stringify(doc));
    }
  });

  test('no anchors for repeated objects, no folding of long lines', () => {
    const shared = { a: 1 };
    const long = `${'x '.repeat(200)}y`;
    const text = toYaml({ one: shared, two: shared, long });
    expect(text).not.toMatch(/[&*]/);
    expect(text).toContain(`long: ${long}\n`);
  });
});

describe('schema line and generated wsc.yaml', () => {
  test.each([
    ['report', 'reports/x.yaml', '# yaml-language-server: $schema=../schemas/report.schema.json'],
    ['workbook', 'workbooks/x.yaml', '# yaml-language-server: $schema=../schemas/workbook.schema.json'],
    [
      'user-attribute',
      'user-attributes/x.yaml',
      '# yaml-language-server: $schema=../schemas/user-attribute.schema.json',
    ],
    ['wsc', 'wsc.yaml', '# yaml-language-server: $schema=./schemas/wsc.schema.json'],
  ] as const)('%s at %s', (kind, rel, line) => {
    expect(schemaLine(kind, rel)).toBe(line);
    expect(serializeDoc(kind as never, rel, { a: 1 }).split('\n')[0]).toBe(line);
  });

  test('an embedded environment has no token and says whose state it uses', () => {
    const text = generatedConfig({ environment: 'local', deploymentId: 1, embedded: true, sourcePerDeployment: false });
    expect(text).toContain('own state (.wsc/state)');
    expect(parse(text)).toEqual({
      defaultEnvironment: 'local',
      environments: { local: { embedded: true, deploymentId: 1, publicIds: 'as-is' } },
    });
    expect(text).toContain('  local:\n    embedded: true\n');
  });

  test('wsc.yaml names the token variable, never a token', () => {
    expect(
      generatedConfig({
        environment: 'prod',
        deploymentId: 12,
        baseUrl: 'https://acme.example.com',
        embedded: false,
        sourcePerDeployment: false,
      }),
    ).toMatchInlineSnapshot(`
        "# yaml-language-server: $schema=./schemas/wsc.schema.json
        # Written by \`wsc export\`. The token is read from the environment (WSC_TOKEN), never stored here.
        # The publicIds in reports/ are the ids the deployment shows (publicIds: as-is).
        # publicIds are unique per account: to apply this bundle to another deployment of the same account,
        # add an environment for it with \`publicIds: per-deployment\` (each report then gets an id derived
        # from its publicId and that deployment id).
        defaultEnvironment: prod
        environments:
          prod:
            baseUrl: https://acme.example.com
            deploymentId: 12
            token: \${env.WSC_TOKEN}
            publicIds: as-is
        "
      `);
  });
});

describe('DirSink', () => {
  test('writes only well-formed bundle paths inside the root', async () => {
    const dir = tmp();
    const sink = await DirSink.open(join(dir, 'out'));
    for (const rel of [
      '../x.yaml',
      'reports/../../x.yaml',
      'reports/a/b.yaml',
      '/etc/passwd',
      'reports/.hidden.yaml',
      'reports/A.yaml',
      'other/x.yaml',
      'reports/x.yml',
      'reports/x\0.yaml',
    ]) {
      await expect(sink.writeDoc('report', rel, { a: 1 })).rejects.toMatchObject({
        code: 'export_unsafe_path',
        exitCode: 3,
      });
    }
    await sink.writeDoc('report', 'reports/ok.yaml', { a: 1 });
    expect(readFileSync(join(dir, 'out/reports/ok.yaml'), 'utf8')).toBe(
      '# yaml-language-server: $schema=../schemas/report.schema.json\na: 1\n',
    );
    expect(existsSync(join(dir, 'x.yaml'))).toBe(false);
  });

  test('an output path that is a file is a usage error', async () => {
    const dir = tmp();
    writeFileSync(join(dir, 'file'), 'x');
    await expect(DirSink.open(join(dir, 'file'))).rejects.toMatchObject({ code: 'export_out_dir', exitCode: 3 });
    await expect(DirSink.open(join(dir, 'file', 'sub'))).rejects.toMatchObject({ code: 'export_out_dir', exitCode: 3 });
  });

  test('refuses a bundle directory that is a symbolic link, before writing anything', async () => {
    const dir = tmp();
    const outside = tmp();
    mkdirSync(join(dir, 'out'));
    symlinkSync(outside, join(dir, 'out/reports'));
    await expect(DirSink.open(join(dir, 'out'))).rejects.toMatchObject({ code: 'output_link', exitCode: 3 });
    expect(existsSync(join(dir, 'out/workbooks'))).toBe(false);
  });

  test('refuses a file in a bundle directory that is a symbolic link (and never writes through one)', async () => {
    const dir = tmp();
    const outside = tmp();
    writeFileSync(join(outside, 'target.yaml'), 'keep\n');
    mkdirSync(join(dir, 'reports'), { recursive: true });
    symlinkSync(join(outside, 'target.yaml'), join(dir, 'reports/x.yaml'));
    await expect(DirSink.open(dir)).rejects.toMatchObject({ code: 'output_link' });
    expect(readFileSync(join(outside, 'target.yaml'), 'utf8')).toBe('keep\n');
  });

  test('a link planted after opening is not followed (O_NOFOLLOW)', async () => {
    const dir = tmp();
    const outside = tmp();
    writeFileSync(join(outside, 'target.yaml'), 'keep\n');
    const sink = await DirSink.open(dir);
    symlinkSync(join(outside, 'target.yaml'), join(dir, 'reports/x.yaml'));
    await expect(sink.writeDoc('report', 'reports/x.yaml', { a: 1 })).rejects.toMatchObject({
      code: 'output_link',
    });
    expect(readFileSync(join(outside, 'target.yaml'), 'utf8')).toBe('keep\n');
  });

  test('a file is replaced by a rename, not rewritten in place, so an interrupted export never leaves it cut short; no temporary file stays', async () => {
    const dir = tmp();
    const sink = await DirSink.open(dir);
    await sink.writeDoc('report', 'reports/r.yaml', { a: 1 });
    const before = statSync(join(dir, 'reports/r.yaml')).ino;
    await sink.writeDoc('report', 'reports/r.yaml', { a: 2 });
    expect(statSync(join(dir, 'reports/r.yaml')).ino).not.toBe(before);
    expect(readFileSync(join(dir, 'reports/r.yaml'), 'utf8')).toMatch(/\na: 2\n$/);
    expect(readdirSync(join(dir, 'reports'))).toEqual(['r.yaml']);
  });

  test('a write that fails (here a directory stands where the file goes) leaves no temporary file', async () => {
    const dir = tmp();
    const sink = await DirSink.open(dir);
    mkdirSync(join(dir, 'reports/r.yaml'));
    await expect(sink.writeDoc('report', 'reports/r.yaml', { a: 1 })).rejects.toThrow();
    expect(readdirSync(join(dir, 'reports'))).toEqual(['r.yaml']);
  });

  test('discardNew removes what the sink made and keeps what was there before, under its name now', async () => {
    const dir = tmp();
    mkdirSync(join(dir, 'reports'), { recursive: true });
    writeFileSync(join(dir, 'reports/old.yaml'), 'a: 0\n');
    writeFileSync(join(dir, 'reports/moved.yaml'), 'a: 0\n');
    writeFileSync(join(dir, 'reports/notes.txt'), 'mine\n');
    const sink = await DirSink.open(dir, { createDirs: false });
    await sink.writeDoc('report', 'reports/old.yaml', { a: 1 }); // replaced: kept as written
    await sink.writeDoc('report', 'reports/new.yaml', { a: 1 });
    await sink.writeDoc('report', 'reports/new-then-renamed.yaml', { a: 1 });
    await sink.rename('reports/new-then-renamed.yaml', 'reports/renamed.yaml');
    await sink.rename('reports/moved.yaml', 'reports/moved.1234abcd.yaml');
    await sink.writeDoc('workbook', 'workbooks/w.yaml', { a: 1 }); // its directory made on this write
    sink.discardNew();
    expect(readdirSync(join(dir, 'reports')).sort()).toEqual(['moved.1234abcd.yaml', 'notes.txt', 'old.yaml']);
    expect(readFileSync(join(dir, 'reports/old.yaml'), 'utf8')).toMatch(/\na: 1\n$/);
    expect(readdirSync(join(dir, 'workbooks'))).toEqual([]);
    expect(existsSync(join(dir, 'user-attributes'))).toBe(false);
  });

  test('temporary files left by a killed export are removed when the next export opens the directory', async () => {
    const dir = tmp();
    mkdirSync(join(dir, 'reports'), { recursive: true });
    writeFileSync(join(dir, `reports/r.yaml.4242${TMP_SUFFIX}`), 'kind: Rep');
    writeFileSync(join(dir, 'reports/notes.txt'), 'mine\n');
    await DirSink.open(dir);
    expect(readdirSync(join(dir, 'reports'))).toEqual(['notes.txt']);
  });

  test('wsc.yaml is written only when absent; schemas are copied next to the files', async () => {
    const dir = tmp();
    const sink = await DirSink.open(dir);
    expect(await sink.writeIfAbsent('wsc.yaml', 'a: 1\n')).toBe(true);
    expect(await sink.writeIfAbsent('wsc.yaml', 'a: 2\n')).toBe(false);
    expect(readFileSync(join(dir, 'wsc.yaml'), 'utf8')).toBe('a: 1\n');
    expect(await sink.writeSchemas()).toEqual([
      'schemas/workbook.schema.json',
      'schemas/report.schema.json',
      'schemas/user-attribute.schema.json',
      'schemas/wsc.schema.json',
    ]);
    const report = generateSchemas().find((f) => f.name === 'report.schema.json')!;
    expect(readFileSync(join(dir, 'schemas/report.schema.json'), 'utf8')).toBe(schemaText(report));
  });

  test('lists bundle files this export did not write', async () => {
    const dir = tmp();
    const sink = await DirSink.open(dir);
    writeFileSync(join(dir, 'reports/old.yaml'), 'x: 1\n');
    await sink.writeDoc('report', 'reports/new.yaml', { a: 1 });
    expect(await sink.staleFiles(new Set(['reports/new.yaml']))).toEqual(['reports/old.yaml']);
  });
});
