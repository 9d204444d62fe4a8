// Hostile input: each case gets a clear diagnostic, no crash, no stack, no
// prototype touched, and finishes (the test timeout bounds the time).
import { symlinkSync, truncateSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadBundle } from '../../src/bundle/load.js';
import { MAX_FILE_BYTES } from '../../src/yaml/read.js';
import { bundle } from './tmp.js';

const opts = { vars: {}, env: {}, mayHoldUnknownRefs: false };
const brief = (ds: { severity: string; rule: string; pos: { file: string; line: number; col: number } }[]) =>
  ds.map((d) => `${d.severity} ${d.rule} ${d.pos.file}:${d.pos.line}:${d.pos.col}`);

describe('hostile bundles', () => {
  it('a YAML alias bomb is stopped with a diagnostic', async () => {
    let text = 'a0: &a0 ["lol","lol","lol","lol","lol","lol","lol","lol","lol"]\n';
    for (let i = 1; i <= 9; i++)
      text += `a${i}: &a${i} [${Array(9)
        .fill(`*a${i - 1}`)
        .join(',')}]\n`;
    text = `kind: Workbook\nslug: bomb\nmeta:\n  ${text.trim().split('\n').join('\n  ')}\n`;
    const dir = bundle({ 'workbooks/bomb.yaml': text });
    const { diagnostics, desired } = await loadBundle(dir, opts);
    expect(brief(diagnostics)).toEqual(['error yaml-alias-limit workbooks/bomb.yaml:8:12']);
    expect(diagnostics[0]!.message).toBe('YAML aliases expand to more than 10000 values (an alias bomb?)');
    expect(desired.workbooks).toEqual([]);
  });

  it('a 10 MB file is refused before it is read', async () => {
    const dir = bundle({ 'reports/huge.yaml': '' });
    truncateSync(join(dir, 'reports/huge.yaml'), 10 * 1024 * 1024);
    const { diagnostics } = await loadBundle(dir, opts);
    expect(brief(diagnostics)).toEqual(['error file-too-large reports/huge.yaml:1:1']);
    expect(diagnostics[0]!.message).toBe('file is 10.0 MiB, over the 5.0 MiB limit for a bundle file');
    expect(MAX_FILE_BYTES).toBe(5 * 1024 * 1024);
  });

  it('files around the read buffer size, and small files after big ones, are read whole and only themselves', async () => {
    // One buffer serves every read (files.ts): a file that fills it, one just
    // over it, and a small file read after a big one must each come out exact.
    const sizes = [65_535, 65_536, 65_537, 300_000, 10];
    const files: Record<string, string> = {};
    const want: Record<string, string> = {};
    sizes.forEach((size, i) => {
      const publicId = `abcdefabcde${i}`;
      const head = `kind: Report\npublicId: ${publicId}\nsqlQuery: "`;
      const tail = '"\n';
      const sql =
        size > head.length + tail.length ? 'x'.repeat(size - head.length - tail.length - 1) + String(i) : String(i);
      files[`reports/${i}.yaml`] = head + sql + tail;
      want[publicId] = sql;
    });
    const dir = bundle(files);
    const { diagnostics, desired } = await loadBundle(dir, opts);
    expect(diagnostics.filter((d) => d.severity === 'error')).toEqual([]);
    expect(Buffer.byteLength(files['reports/1.yaml']!)).toBe(65_536);
    expect(Object.fromEntries(desired.reports.map((r) => [r.publicId, r.fields.sqlQuery]))).toEqual(want);
  });

  it('__proto__, constructor and prototype keys are refused and touch no prototype', async () => {
    const dir = bundle({
      'workbooks/a.yaml': [
        'kind: Workbook',
        'slug: a',
        '__proto__: { polluted: yes }',
        'meta:',
        '  constructor: { prototype: { polluted: yes } }',
        '  nested:',
        '    __proto__: { polluted: yes }',
        '    prototype: { polluted: yes }',
        '',
      ].join('\n'),
      'reports/r.yaml': 'kind: Report\npublicId: abcdefabcdef\n"__proto__":\n  polluted: yes\n',
    });
    const { diagnostics, desired } = await loadBundle(dir, opts);
    expect(brief(diagnostics)).toEqual([
      'error forbidden-key reports/r.yaml:3:1',
      'error forbidden-key workbooks/a.yaml:3:1',
      'error forbidden-key workbooks/a.yaml:5:3',
      'error forbidden-key workbooks/a.yaml:7:5',
      'error forbidden-key workbooks/a.yaml:8:5',
    ]);
    expect(diagnostics[1]!.message).toBe('key `__proto__` is not allowed');
    expect(({} as Record<string, unknown>)['polluted']).toBeUndefined();
    expect((Object.prototype as Record<string, unknown>)['polluted']).toBeUndefined();
    // The documents are otherwise valid: loaded without the refused keys.
    expect(desired.workbooks[0]!.fields.meta).toEqual({ nested: {} });
    expect(Object.getPrototypeOf(desired.workbooks[0]!.fields.meta)).toBe(Object.prototype);
  });

  it('a UTF-8 byte-order mark is dropped: the file reads as without it, columns included', async () => {
    const dir = bundle({
      'workbooks/a.yaml': Buffer.concat([
        Buffer.from([0xef, 0xbb, 0xbf]),
        Buffer.from('kind: Workbook\nslug: a\nwat: 1\n'),
      ]),
    });
    const { diagnostics, desired } = await loadBundle(dir, opts);
    expect(brief(diagnostics)).toEqual(['error unknown-key workbooks/a.yaml:3:1']);
    expect(desired.workbooks).toEqual([]);
    const clean = await loadBundle(bundle({ 'workbooks/a.yaml': '\uFEFFkind: Workbook\nslug: a\n' }), opts);
    expect(clean.diagnostics).toEqual([]);
    expect(clean.desired.workbooks[0]!.pos).toEqual({ file: 'workbooks/a.yaml', line: 2, col: 1 });
  });

  it('invalid UTF-8 is reported at the first bad byte', async () => {
    const bytes = Buffer.concat([
      Buffer.from('kind: Workbook\nslug: a\nname: caf'),
      Buffer.from([0xc3, 0x28]),
      Buffer.from('\n'),
    ]);
    const dir = bundle({ 'workbooks/a.yaml': bytes });
    const { diagnostics } = await loadBundle(dir, opts);
    expect(brief(diagnostics)).toEqual(['error encoding workbooks/a.yaml:3:10']);
    expect(diagnostics[0]!.message).toBe('file is not valid UTF-8');
  });

  it('a symlink loop is not followed; the files around it load once', async () => {
    const dir = bundle({ 'workbooks/a.yaml': 'kind: Workbook\nslug: a\n' });
    symlinkSync(dir, join(dir, 'loop'));
    symlinkSync(join(dir, 'workbooks'), join(dir, 'workbooks', 'again'));
    const { diagnostics, desired } = await loadBundle(dir, opts);
    expect(brief(diagnostics)).toEqual(['warning symlink-dir loop:1:1', 'warning symlink-dir workbooks/again:1:1']);
    expect(desired.workbooks.map((w) => w.slug)).toEqual(['a']);
  });

  it('an empty directory is a warning, not an error', async () => {
    const { diagnostics, desired } = await loadBundle(bundle(), opts);
    expect(diagnostics.map((d) => [d.severity, d.rule, d.message])).toEqual([
      ['warning', 'empty-bundle', 'no bundle files (*.yaml, *.yml) in this directory'],
    ]);
    expect(desired).toEqual({ workbooks: [], reports: [], userAttributes: [] });
  });

  it('custom YAML tags run nothing and are errors', async () => {
    const dir = bundle({
      'workbooks/a.yaml': 'kind: Workbook\nslug: a\nname: !!js/function "function () { globalThis.pwned = 1 }"\n',
      'workbooks/b.yaml': 'kind: Workbook\nslug: b\nname: !custom x\n',
      'workbooks/c.yaml': 'kind: Workbook\nslug: c\nname: !!binary aGVsbG8=\n',
    });
    const { diagnostics } = await loadBundle(dir, opts);
    // Each at its tag, whether YAML knows the tag (`!!binary`) or not.
    expect(brief(diagnostics)).toEqual([
      'error yaml-tag workbooks/a.yaml:3:7',
      'error yaml-tag workbooks/b.yaml:3:7',
      'error yaml-tag workbooks/c.yaml:3:7',
    ]);
    expect(diagnostics[2]!.message).toBe('unsupported YAML tag `!!binary`');
    expect(diagnostics[1]!.message).toBe('unsupported YAML tag `!custom`');
    expect((globalThis as Record<string, unknown>)['pwned']).toBeUndefined();
  });

  it('absurd nesting is refused before parsing, not a stack overflow', async () => {
    const depth = 2_000_000;
    const dir = bundle({
      'workbooks/deep.yaml': `kind: Workbook\nslug: deep\nmeta:\n  x: ${'['.repeat(depth)}${']'.repeat(depth)}\n`,
    });
    const { diagnostics } = await loadBundle(dir, opts);
    expect(
      diagnostics.map((d) => `${d.severity} ${d.rule} ${d.pos.file}:${d.pos.line}:${d.pos.col} ${d.message}`),
    ).toEqual(['error yaml-limit workbooks/deep.yaml:4:1006 values are nested more than 1000 levels deep']);
  });

  it('nesting deeper than the converter allows (but parseable) is refused too', async () => {
    const dir = bundle({
      'workbooks/deep.yaml': `kind: Workbook\nslug: deep\nmeta:\n  x: ${'['.repeat(100)}${']'.repeat(100)}\n`,
    });
    const { diagnostics } = await loadBundle(dir, opts);
    expect(diagnostics.map((d) => `${d.rule} ${d.message}`)).toEqual([
      'yaml-limit values are nested more than 64 levels deep',
    ]);
  });

  it.each([
    [
      'a mapping of 60k keys',
      `kind: Workbook\nslug: a\nmeta:\n${Array.from({ length: 60_000 }, (_, i) => `  k${i}: ${i}\n`).join('')}`,
      'file has more than 50000 lines and list items; split it into several files',
    ],
    [
      'a flow list of 60k items',
      `kind: Workbook\nslug: a\nmeta: { x: [${Array.from({ length: 60_000 }, (_, i) => i).join(',')}] }\n`,
      'file has more than 50000 lines and list items; split it into several files',
    ],
    [
      '2000 documents',
      'kind: Workbook\nslug: a\n---\n'.repeat(2000),
      'file has more than 1000 documents; split it into several files',
    ],
  ])('%s: refused before parsing (the parser is slow on such input)', async (_name, text, message) => {
    const { diagnostics } = await loadBundle(bundle({ 'big.yaml': text }), opts);
    expect(diagnostics.map((d) => `${d.rule} ${d.pos.line}:${d.pos.col} ${d.message}`)).toEqual([
      `yaml-limit 1:1 ${message}`,
    ]);
  });

  it('wsc.yaml, .wsc/, dot-directories and node_modules are not bundle files; .yml is', async () => {
    const bad = 'kind: Nope\n';
    const dir = bundle({
      'wsc.yaml': 'environments: {}\n',
      '.wsc/state/x.yaml': bad,
      '.github/workflows/ci.yml': bad,
      'node_modules/pkg/x.yaml': bad,
      'workbooks/a.yml': 'kind: Workbook\nslug: a\n',
      'notes.txt': bad,
    });
    const { diagnostics, desired } = await loadBundle(dir, opts);
    expect(diagnostics).toEqual([]);
    expect(desired.workbooks.map((w) => w.slug)).toEqual(['a']);
  });

  it('a file that is not a mapping, and a mapping without kind, are diagnosed', async () => {
    const dir = bundle({ 'a.yaml': '- just\n- a list\n', 'b.yaml': 'slug: x\n' });
    const { diagnostics } = await loadBundle(dir, opts);
    expect(diagnostics.map((d) => `${d.rule} ${d.pos.file} ${d.message}`)).toEqual([
      'document-shape a.yaml a bundle document must be a mapping with a `kind`',
      'missing-kind b.yaml missing `kind` (one of Workbook, Report, UserAttribute)',
    ]);
  });
});

describe('content YAML forbids or the API refuses', () => {
  it.each([
    ['NUL', 'name: a\u0000b\n', 'control character U+0000 is not allowed in YAML', 3, 8],
    ['escape', 'name: "x"\n# \u001b[31m\n', 'control character U+001B is not allowed in YAML', 4, 3],
    ['C1', 'name: \u0085ok\u0090\n', 'control character U+0090 is not allowed in YAML', 3, 10],
  ])('a raw %s control character is refused at its position', async (_n, rest, message, line, col) => {
    const { diagnostics } = await loadBundle(bundle({ 'w.yaml': `kind: Workbook\nslug: a\n${rest}` }), opts);
    expect(diagnostics.map((d) => [d.rule, d.message, d.pos.line, d.pos.col])).toEqual([
      ['encoding', message, line, col],
    ]);
  });

  it('an escaped control character in a double-quoted string is data, and allowed', async () => {
    const { diagnostics, desired } = await loadBundle(
      bundle({ 'w.yaml': 'kind: Workbook\nslug: a\nname: "tab\\there"\n' }),
      opts,
    );
    expect(diagnostics).toEqual([]);
    expect(desired.workbooks[0]!.fields.name).toBe('tab\there');
  });

  it('a publicId of the reserved placeholder shape is refused', async () => {
    const { diagnostics } = await loadBundle(bundle({ 'r.yaml': 'kind: Report\npublicId: 000000abcdef\n' }), opts);
    expect(diagnostics.map((d) => [d.rule, d.message, d.pos.line, d.pos.col])).toEqual([
      [
        'bad-value',
        '`publicId`: has the reserved placeholder shape (six leading zeros) that the API refuses; choose another publicId',
        2,
        11,
      ],
    ]);
  });

  it('an unterminated ${ is an error, not literal text', async () => {
    const { diagnostics } = await loadBundle(
      bundle({ 'w.yaml': 'kind: Workbook\nslug: a\nname: ${vars.title\n' }),
      opts,
    );
    expect(diagnostics.map((d) => [d.rule, d.message, d.pos.line, d.pos.col])).toEqual([
      ['bad-variable', '`${vars.title` is not a variable reference', 3, 7],
    ]);
  });
});
