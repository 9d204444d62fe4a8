// Bad input, the bundle half: malformed bundles, each given to the
// BUILT CLI as `wsc plan --base-url <emulator> --deployment 1`. Every one must
// exit 3 with a `file:line:col` diagnostic on stderr, finish (no hang), and
// send nothing: the emulator's request log stays empty through the whole file
// (a bundle of some hundreds of files and more is loaded while the deployment
// is read: test/e2e/early-reads.test.ts).
// Bundles are generated here from a table: a valid base plus one defect each.
import pLimit from 'p-limit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createEmulator, type Emulator } from '../../src/emulator/index.js';
import { runCli, type CliResult } from './helpers/index.js';
import { tempDir, writeTree } from '../helpers/temp-dir.js';

const WB = 'kind: Workbook\nslug: sales\nname: Sales\n';
const REP = 'kind: Report\npublicId: abcdefABCDEF\nname: Revenue\nworkbookId: { $workbook: sales }\n';
const UA = 'kind: UserAttribute\nname: region\ntype: string\n';
const BASE: Record<string, string> = {
  'workbooks/sales.yaml': WB,
  'reports/revenue.yaml': REP,
  'user-attributes/region.yaml': UA,
};

/** A report whose line 3 onwards is `rest`. */
const rep = (rest: string) => `kind: Report\npublicId: abcdefABCDEF\n${rest}`;
/** A workbook whose line 3 onwards is `rest`. */
const wb = (rest: string) => `kind: Workbook\nslug: sales\n${rest}`;
/** A workbook with one widget; `widget` lines start at line 6 (indented for the list item). */
const dash = (widget: string, draftExtra = '') => wb(`meta:\n  dashboardDraft:\n    widgets:\n${widget}${draftExtra}`);
const CHART =
  '      - id: w1\n        type: CHART\n        position: { x: 0, y: 0, w: 6, h: 4 }\n        config: { reportId: { $report: abcdefABCDEF } }\n';
const wscYaml = (text: string) => ({ 'wsc.yaml': text });
const ENV_OK = 'defaultEnvironment: dev\nenvironments:\n  dev:\n    baseUrl: http://127.0.0.1:1\n    deploymentId: 1\n';

interface Case {
  name: string;
  /** Files added to (or replacing) the valid base; `null` removes a base file. */
  files: Record<string, string | Buffer | null>;
  /** Where the diagnostic must point: `file:line` (the column is any). */
  at: string;
  env?: Record<string, string>;
}

const cases: Case[] = [
  // --- broken YAML --------------------------------------------------------
  {
    name: 'unclosed flow sequence',
    files: { 'workbooks/sales.yaml': wb('meta:\n  tags: [finance, weekly\nname: x\n') },
    at: 'workbooks/sales.yaml:5',
  },
  {
    name: 'unclosed flow mapping',
    files: { 'reports/revenue.yaml': rep('meta: { a: 1, b: 2\nname: x\n') },
    at: 'reports/revenue.yaml:4',
  },
  {
    name: 'mapping value where none is allowed',
    files: { 'workbooks/sales.yaml': wb('name: a: b\n') },
    at: 'workbooks/sales.yaml:3',
  },
  {
    name: 'tab indentation',
    files: { 'workbooks/sales.yaml': wb('meta:\n\towner: me\n') },
    at: 'workbooks/sales.yaml:4',
  },
  // An unterminated quote is found where the file ends.
  {
    name: 'unterminated double-quoted string',
    files: { 'reports/revenue.yaml': rep('name: "Revenue\ntitle: x\n') },
    at: 'reports/revenue.yaml:5',
  },
  {
    name: 'unterminated single-quoted string',
    files: { 'reports/revenue.yaml': rep("name: 'Revenue\n") },
    at: 'reports/revenue.yaml:4',
  },
  { name: 'duplicate key', files: { 'workbooks/sales.yaml': wb('name: A\nname: B\n') }, at: 'workbooks/sales.yaml:4' },
  { name: 'undefined alias', files: { 'workbooks/sales.yaml': wb('name: *nope\n') }, at: 'workbooks/sales.yaml:3' },
  {
    name: 'bad indentation of a mapping',
    files: { 'reports/revenue.yaml': rep('pivotItems:\n  columns: [a]\n rows: [b]\n') },
    at: 'reports/revenue.yaml:5',
  },
  {
    name: 'a mapping nested in a plain scalar',
    files: { 'workbooks/sales.yaml': wb('meta:\n  a: 1\n   b: 2\n') },
    // At the over-indented `b: 2`, where js-yaml finds a mapping entry it cannot place.
    at: 'workbooks/sales.yaml:5',
  },
  {
    name: 'document is a plain string',
    files: { 'workbooks/extra.yaml': 'just some text\n' },
    at: 'workbooks/extra.yaml:1',
  },
  {
    name: 'document is a list',
    files: { 'workbooks/extra.yaml': '- kind: Workbook\n- slug: x\n' },
    at: 'workbooks/extra.yaml:1',
  },
  {
    name: 'missing kind',
    files: { 'workbooks/extra.yaml': 'slug: other\nname: Other\n' },
    at: 'workbooks/extra.yaml:1',
  },
  {
    name: 'unknown kind',
    files: { 'workbooks/extra.yaml': 'kind: Dashboard\nslug: other\n' },
    at: 'workbooks/extra.yaml:1',
  },
  {
    name: 'kind in the wrong case',
    files: { 'workbooks/extra.yaml': 'kind: workbook\nslug: other\n' },
    at: 'workbooks/extra.yaml:1',
  },
  {
    name: 'kind is a number',
    files: { 'workbooks/extra.yaml': 'kind: 3\nslug: other\n' },
    at: 'workbooks/extra.yaml:1',
  },
  {
    name: 'second document of a file is bad',
    files: { 'reports/two.yaml': 'kind: Report\npublicId: twoTWOtwo222\n---\nkind: Report\npublicId: bad\n' },
    at: 'reports/two.yaml:5',
  },
  {
    name: 'invalid UTF-8',
    files: {
      'workbooks/sales.yaml': Buffer.concat([
        Buffer.from('kind: Workbook\nslug: sales\nname: caf'),
        Buffer.from([0xc3, 0x28]),
        Buffer.from('\n'),
      ]),
    },
    at: 'workbooks/sales.yaml:3',
  },
  {
    name: 'a NUL control character in a scalar',
    files: { 'workbooks/sales.yaml': wb('name: a\u0000b\n') },
    at: 'workbooks/sales.yaml:3',
  },
  {
    name: 'bad block scalar indentation indicator',
    files: { 'reports/revenue.yaml': rep('sqlQuery: |0\n  select 1\n') },
    at: 'reports/revenue.yaml:3',
  },

  // --- wrong types, workbook ------------------------------------------------
  {
    name: 'slug is a number',
    files: { 'workbooks/sales.yaml': 'kind: Workbook\nslug: 123\n' },
    at: 'workbooks/sales.yaml:2',
  },
  {
    name: 'slug is empty',
    files: { 'workbooks/sales.yaml': 'kind: Workbook\nslug: "  "\n' },
    at: 'workbooks/sales.yaml:2',
  },
  {
    name: 'slug is a list',
    files: { 'workbooks/sales.yaml': 'kind: Workbook\nslug: [sales]\n' },
    at: 'workbooks/sales.yaml:2',
  },
  {
    name: 'workbook name is a mapping',
    files: { 'workbooks/sales.yaml': wb('name: { a: 1 }\n') },
    at: 'workbooks/sales.yaml:3',
  },
  {
    name: 'workbook folderId is a string',
    files: { 'workbooks/sales.yaml': wb('folderId: finance\n') },
    at: 'workbooks/sales.yaml:3',
  },
  {
    name: 'workbook folderId is a fraction',
    files: { 'workbooks/sales.yaml': wb('folderId: 1.5\n') },
    at: 'workbooks/sales.yaml:3',
  },
  {
    name: 'workbook meta is a string',
    files: { 'workbooks/sales.yaml': wb('meta: hello\n') },
    at: 'workbooks/sales.yaml:3',
  },
  {
    name: 'publish is a string',
    files: { 'workbooks/sales.yaml': wb('publish: "yes"\n') },
    at: 'workbooks/sales.yaml:3',
  },
  {
    name: 'dashboardDraft is a string',
    files: { 'workbooks/sales.yaml': wb('meta:\n  dashboardDraft: draft\n') },
    at: 'workbooks/sales.yaml:4',
  },
  {
    name: 'widgets is a mapping',
    files: { 'workbooks/sales.yaml': wb('meta:\n  dashboardDraft:\n    widgets: { a: 1 }\n') },
    at: 'workbooks/sales.yaml:5',
  },
  {
    name: 'unknown widget type',
    files: { 'workbooks/sales.yaml': dash(CHART.replace('type: CHART', 'type: PIE')) },
    at: 'workbooks/sales.yaml:7',
  },
  {
    name: 'widget position without h',
    files: { 'workbooks/sales.yaml': dash(CHART.replace(', h: 4', '')) },
    at: 'workbooks/sales.yaml:8',
  },
  {
    name: 'widget position x is a string',
    files: { 'workbooks/sales.yaml': dash(CHART.replace('x: 0', 'x: "0"')) },
    at: 'workbooks/sales.yaml:8',
  },
  {
    name: 'widget id over 128 characters',
    files: { 'workbooks/sales.yaml': dash(CHART.replace('id: w1', `id: ${'w'.repeat(129)}`)) },
    at: 'workbooks/sales.yaml:6',
  },
  {
    name: 'duplicate widget id',
    files: { 'workbooks/sales.yaml': dash(CHART + CHART.replace('y: 0', 'y: 4')) },
    at: 'workbooks/sales.yaml:10',
  },
  {
    name: 'dashboard kind not CLASSIC/APP',
    files: { 'workbooks/sales.yaml': dash(CHART, '    kind: BOARD\n') },
    at: 'workbooks/sales.yaml:10',
  },
  {
    name: 'layout rowHeight is a string',
    files: { 'workbooks/sales.yaml': dash(CHART, '    layout: { rowHeight: tall }\n') },
    at: 'workbooks/sales.yaml:10',
  },
  {
    name: 'app entry over 255 characters',
    files: {
      'workbooks/sales.yaml': wb(`meta:\n  dashboardDraft:\n    kind: APP\n    app: { entry: ${'e'.repeat(256)} }\n`),
    },
    at: 'workbooks/sales.yaml:6',
  },
  {
    name: 'unknown workbook key',
    files: { 'workbooks/sales.yaml': wb('nmae: Sales\n') },
    at: 'workbooks/sales.yaml:3',
  },

  // --- wrong types, report ------------------------------------------------
  {
    name: 'publicId too short',
    files: { 'reports/revenue.yaml': 'kind: Report\npublicId: short\n' },
    at: 'reports/revenue.yaml:2',
  },
  {
    name: 'publicId with a dash',
    files: { 'reports/revenue.yaml': 'kind: Report\npublicId: abcdef-ABCDE\n' },
    at: 'reports/revenue.yaml:2',
  },
  {
    name: 'publicId is a number',
    files: { 'reports/revenue.yaml': 'kind: Report\npublicId: 123456789012\n' },
    at: 'reports/revenue.yaml:2',
  },
  {
    name: 'publicId of the placeholder shape',
    files: { 'reports/revenue.yaml': 'kind: Report\npublicId: 000000abcdef\n' },
    at: 'reports/revenue.yaml:2',
  },
  {
    name: 'report without publicId',
    files: { 'reports/revenue.yaml': 'kind: Report\nname: Revenue\n' },
    at: 'reports/revenue.yaml:1',
  },
  {
    name: 'report name over 255 characters',
    files: { 'reports/revenue.yaml': rep(`name: ${'n'.repeat(256)}\n`) },
    at: 'reports/revenue.yaml:3',
  },
  {
    name: 'report title is a list',
    files: { 'reports/revenue.yaml': rep('title: [a, b]\n') },
    at: 'reports/revenue.yaml:3',
  },
  {
    name: 'an integer beyond 2^53 in meta (it would be sent rounded)',
    files: { 'reports/revenue.yaml': rep('meta: { limit: 12345678901234567890 }\n') },
    at: 'reports/revenue.yaml:3',
  },
  {
    name: 'source in lower case',
    files: { 'reports/revenue.yaml': rep('source: playground\n') },
    at: 'reports/revenue.yaml:3',
  },
  {
    name: 'workbookId is a slug string',
    files: { 'reports/revenue.yaml': rep('workbookId: sales\n') },
    at: 'reports/revenue.yaml:3',
  },
  {
    name: 'report folderId is a boolean',
    files: { 'reports/revenue.yaml': rep('folderId: true\n') },
    at: 'reports/revenue.yaml:3',
  },
  {
    name: 'sqlQuery is a mapping',
    files: { 'reports/revenue.yaml': rep('sqlQuery: { select: 1 }\n') },
    at: 'reports/revenue.yaml:3',
  },
  {
    name: 'a widget position without h (beside a member wsc does not know, which alone is no error)',
    files: {
      'workbooks/sales.yaml':
        'kind: Workbook\nslug: sales\nmeta:\n  dashboardDraft:\n    widgets:\n' +
        '      - { id: a, type: TEXT, position: { x: 0, y: 0, w: 1, z: 2 } }\n',
    },
    at: 'workbooks/sales.yaml:6',
  },
  {
    name: 'jsonQuery is a number',
    files: { 'reports/revenue.yaml': rep('jsonQuery: 5\n') },
    at: 'reports/revenue.yaml:3',
  },
  {
    name: 'pivotItems without rows',
    files: { 'reports/revenue.yaml': rep('pivotItems: { columns: [], filters: [], measures: [] }\n') },
    at: 'reports/revenue.yaml:3',
  },
  {
    name: 'pivotItems columns is a string',
    files: { 'reports/revenue.yaml': rep('pivotItems: { columns: a, filters: [], measures: [], rows: [] }\n') },
    at: 'reports/revenue.yaml:3',
  },
  {
    name: 'report meta is a list',
    files: { 'reports/revenue.yaml': rep('meta: [1, 2]\n') },
    at: 'reports/revenue.yaml:3',
  },
  {
    name: 'adopt without deploymentId',
    files: { 'reports/revenue.yaml': rep('adopt: { id: 5 }\n') },
    at: 'reports/revenue.yaml:3',
  },
  {
    name: 'adopt deploymentId is a string',
    files: { 'reports/revenue.yaml': rep('adopt: { deploymentId: one, id: 5 }\n') },
    at: 'reports/revenue.yaml:3',
  },
  {
    name: 'report description (not a report input field)',
    files: { 'reports/revenue.yaml': rep('description: Monthly\n') },
    at: 'reports/revenue.yaml:3',
  },

  // --- wrong types, user attribute -----------------------------------------
  {
    name: 'user attribute without name',
    files: { 'user-attributes/region.yaml': 'kind: UserAttribute\ntype: string\n' },
    at: 'user-attributes/region.yaml:1',
  },
  {
    name: 'user attribute type unknown',
    files: { 'user-attributes/region.yaml': 'kind: UserAttribute\nname: region\ntype: text\n' },
    at: 'user-attributes/region.yaml:3',
  },
  {
    name: 'user attribute defaultValue is a list',
    files: { 'user-attributes/region.yaml': `${UA}defaultValue: [EMEA]\n` },
    at: 'user-attributes/region.yaml:4',
  },

  // --- references ------------------------------------------------------------
  {
    name: '$report is a number',
    files: { 'reports/revenue.yaml': rep('meta:\n  drillTo: { $report: 5 }\n') },
    at: 'reports/revenue.yaml:4',
  },
  {
    name: 'reference with two keys',
    files: {
      'workbooks/sales.yaml': dash(
        CHART.replace('{ $report: abcdefABCDEF }', '{ $report: abcdefABCDEF, $workbook: sales }'),
      ),
    },
    at: 'workbooks/sales.yaml:9',
  },
  {
    name: 'misspelt reference key',
    files: { 'workbooks/sales.yaml': dash(CHART.replace('$report:', '$reprot:')) },
    at: 'workbooks/sales.yaml:9',
  },
  {
    name: 'workbookId given a $report reference',
    files: { 'reports/revenue.yaml': rep('workbookId: { $report: abcdefABCDEF }\n') },
    at: 'reports/revenue.yaml:3',
  },
  {
    name: 'duplicate publicId across files',
    files: { 'reports/copy.yaml': 'kind: Report\npublicId: abcdefABCDEF\n' },
    at: 'reports/revenue.yaml:2',
  },
  {
    name: 'duplicate slug after normalisation',
    files: { 'workbooks/copy.yaml': 'kind: Workbook\nslug: " Sales "\n' },
    at: 'workbooks/sales.yaml:2',
  },
  {
    name: 'duplicate user attribute name',
    files: { 'user-attributes/copy.yaml': UA },
    at: 'user-attributes/region.yaml:2',
  },

  // --- variables -----------------------------------------------------------
  {
    name: 'undefined ${vars.NAME}',
    files: { 'workbooks/sales.yaml': wb('name: ${vars.title}\n') },
    at: 'workbooks/sales.yaml:3',
  },
  {
    name: 'unset ${env.NAME}',
    files: { 'workbooks/sales.yaml': wb('name: ${env.WSC_BAD_BUNDLE_UNSET}\n') },
    at: 'workbooks/sales.yaml:3',
  },
  {
    name: 'unterminated ${',
    files: { 'workbooks/sales.yaml': wb('name: ${vars.title\n') },
    at: 'workbooks/sales.yaml:3',
  },
  {
    name: 'unknown variable namespace',
    files: { 'workbooks/sales.yaml': wb('name: ${secrets.title}\n') },
    at: 'workbooks/sales.yaml:3',
  },
  {
    name: 'a secret-looking env var in a bundle',
    files: { 'workbooks/sales.yaml': wb('name: ${env.WSC_TOKEN}\n') },
    at: 'workbooks/sales.yaml:3',
  },
  {
    name: 'a variable of the wrong type for the field',
    files: {
      ...wscYaml(`${ENV_OK}    vars: { folder: finance }\n`),
      'workbooks/sales.yaml': wb('folderId: ${vars.folder}\n'),
    },
    at: 'workbooks/sales.yaml:3',
  },

  // --- wsc.yaml --------------------------------------------------------------
  { name: 'wsc.yaml syntax error', files: wscYaml('environments:\n  dev: { deploymentId: 1\n'), at: 'wsc.yaml:3' },
  { name: 'wsc.yaml unknown key', files: wscYaml(`${ENV_OK}    baseURL: http://127.0.0.1:2\n`), at: 'wsc.yaml:6' },
  { name: 'wsc.yaml environments is a list', files: wscYaml('environments:\n  - dev\n'), at: 'wsc.yaml:2' },
  {
    name: 'wsc.yaml deploymentId is a string',
    files: wscYaml('environments:\n  dev:\n    baseUrl: http://127.0.0.1:1\n    deploymentId: one\n'),
    at: 'wsc.yaml:4',
  },
  { name: 'wsc.yaml literal token', files: wscYaml(`${ENV_OK}    token: s3cr3t-literal\n`), at: 'wsc.yaml:6' },
  {
    name: 'wsc.yaml publicIds unknown mode',
    files: wscYaml(`${ENV_OK}    publicIds: per-account\n`),
    at: 'wsc.yaml:6',
  },
  {
    name: 'wsc.yaml embedded is a string',
    files: wscYaml('environments:\n  dev:\n    embedded: "yes"\n'),
    at: 'wsc.yaml:3',
  },
  {
    name: 'wsc.yaml defaultEnvironment names no environment',
    files: wscYaml(ENV_OK.replace('defaultEnvironment: dev', 'defaultEnvironment: prod')),
    at: 'wsc.yaml:1',
  },

  // --- hostile content -------------------------------------------------------
  {
    name: 'YAML alias bomb',
    files: {
      'workbooks/sales.yaml': wb(
        `meta:\n  a0: &a0 [x, x, x, x, x, x, x, x, x]\n${Array.from({ length: 9 }, (_, i) => `  a${i + 1}: &a${i + 1} [${Array(9).fill(`*a${i}`).join(', ')}]\n`).join('')}`,
      ),
    },
    at: 'workbooks/sales.yaml:',
  },
  {
    name: '!!js/function tag',
    files: { 'workbooks/sales.yaml': wb('name: !!js/function "function () { globalThis.pwned = 1 }"\n') },
    at: 'workbooks/sales.yaml:3',
  },
  {
    name: '!!python/object tag',
    files: { 'reports/revenue.yaml': rep('meta: !!python/object:os.system { cmd: "touch /tmp/pwned" }\n') },
    at: 'reports/revenue.yaml:3',
  },
  {
    name: '__proto__ key',
    files: { 'workbooks/sales.yaml': wb('meta:\n  __proto__: { polluted: yes }\n') },
    at: 'workbooks/sales.yaml:4',
  },
  {
    name: 'merge key into the top level',
    files: { 'workbooks/sales.yaml': wb('x: &base { name: Sales }\n<<: *base\n') },
    at: 'workbooks/sales.yaml:3',
  },
  {
    name: 'nesting 10000 deep',
    files: { 'workbooks/sales.yaml': wb(`meta:\n  deep: ${'['.repeat(10_000)}${']'.repeat(10_000)}\n`) },
    at: 'workbooks/sales.yaml:4',
  },
  {
    name: 'a file over the size limit',
    files: {
      'reports/huge.yaml': `kind: Report\npublicId: hugeHUGEhuge\nsqlQuery: "${'x'.repeat(6 * 1024 * 1024)}"\n`,
    },
    at: 'reports/huge.yaml:1',
  },
];

/**
 * References to something in neither the bundle nor the deployment: with a
 * target, offline validation can only warn (the deployment may hold it), so
 * plan reads the deployment and then refuses. Reads, no writes; the error
 * names the reference's file:line:col (where validate's warning points).
 * Exit 3, as for any invalid bundle (WscError `unknown_reference`).
 */
const liveRefs: Case[] = [
  {
    name: 'unknown $report',
    files: { 'workbooks/sales.yaml': dash(CHART.replace('$report: abcdefABCDEF', '$report: zzzzzzzzzzzz')) },
    at: 'workbooks/sales.yaml:9:40',
  },
  {
    name: 'unknown $workbook',
    files: { 'reports/revenue.yaml': rep('workbookId: { $workbook: nowhere }\n') },
    at: 'reports/revenue.yaml:3:26',
  },
];

let emu: Emulator;
/** For the cases that do read the deployment (liveRefs). */
let emuReads: Emulator;
const results = new Map<string, CliResult>();
function writeCase(c: Case): string {
  const files: Record<string, string | Buffer | null> = { ...BASE, ...c.files };
  const present = Object.entries(files).filter((e): e is [string, string | Buffer] => e[1] !== null);
  return writeTree(tempDir('wsc-bad-'), Object.fromEntries(present));
}

beforeAll(async () => {
  emu = await createEmulator({ port: 0 });
  emuReads = await createEmulator({ port: 0 });
  // A few CLI processes at a time: the whole table stays well under a minute on a 2-core CI.
  const limit = pLimit(3);
  const all = [...cases.map((c) => [c, emu] as const), ...liveRefs.map((c) => [c, emuReads] as const)];
  await Promise.all(
    all.map(([c, server]) =>
      limit(async () => {
        const dir = writeCase(c);
        const r = await runCli(['plan', '--dir', dir, '--base-url', server.url, '--deployment', '1'], {
          env: { WSC_TOKEN: 'dev-token', ...c.env },
          timeoutMs: 20_000,
        });
        results.set(c.name, r);
      }),
    ),
  );
}, 120_000);

afterAll(async () => {
  await emu?.close();
  await emuReads?.close();
});

describe('malformed bundles: wsc plan exits 3 with a file:line:col diagnostic and sends nothing', () => {
  it('the base every case damages plans cleanly: each refusal comes from its defect', async () => {
    // Names key the results: two cases of one name would hide one of them.
    expect(new Set(cases.map((c) => c.name)).size).toBe(cases.length);
    const control = await createEmulator({ port: 0 });
    try {
      const dir = writeCase({ name: 'base', files: {}, at: '' });
      const args = ['plan', '--dir', dir, '--base-url', control.url, '--deployment', '1'];
      const r = await runCli(args, { env: { WSC_TOKEN: 'dev-token' } });
      expect(r.code, show(r)).toBe(0);
      expect(r.stderr, show(r)).not.toMatch(/ error /);
    } finally {
      await control.close();
    }
  });

  it.each(cases.map((c) => [c.name, c] as const))('%s', (_name, c) => expectRefused(c));

  it('the emulator received no request at all (a bundle of a few files is checked before anything is sent)', () => {
    expect(emu.log).toEqual([]);
  });
});

describe('references found in neither the bundle nor the deployment: refused after reading, nothing written', () => {
  it.each(liveRefs.map((c) => [c.name, c] as const))('%s', (_name, c) => {
    const r = results.get(c.name)!;
    expect(r.code, show(r)).toBe(3);
    expect(r.stderr, show(r)).toMatch(new RegExp(`^${escape(c.at)} warning .* \\[unknown-reference\\]$`, 'm'));
    expect(r.stderr, show(r)).toMatch(
      new RegExp(`^Error: ${escape(c.at)}: .*neither in the bundle nor in the deployment`, 'm'),
    );
    expect(r.stdout).toBe('');
  });

  it('only reads reached the emulator', () => {
    // GETs, and the data model's token (minted beside the lists' reads: a POST that changes no content).
    expect(emuReads.log.filter((e) => e.method !== 'GET' && !e.path.endsWith('/token'))).toEqual([]);
  });
});

function show(r: CliResult): string {
  return `exit ${r.code}\nstderr:\n${r.stderr.slice(0, 3000)}\nstdout:\n${r.stdout.slice(0, 1000)}`;
}

function escape(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
}

/** Exit 3, a `file:line:col error` diagnostic at the expected place on stderr, no stack, nothing on stdout. */
function expectRefused(c: Case): void {
  const r = results.get(c.name)!;
  expect(r.code, show(r)).toBe(3);
  const [file, line] = c.at.split(':');
  expect(r.stderr, show(r)).toMatch(new RegExp(`^${escape(file!)}:${line ? line : '\\d+'}:\\d+ error `, 'm'));
  expect(r.stderr, 'no stack trace').not.toMatch(/\n\s+at .+:\d+:\d+\)?\n/);
  expect(r.stdout, 'nothing on stdout').toBe('');
}
