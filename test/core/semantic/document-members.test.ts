// Plan and apply start reading the data model when the first document naming
// a member is loaded (commands/prepare.ts): documentNamesMembers must say of
// one document what bundleMembers says of the bundle's resources. A document
// it misses would only start the read later; one it names falsely would mint
// a token for nothing: each case is held to bundleMembers itself.
import { cpSync } from 'node:fs';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { findBundleFiles, loadFoundInTurns } from '../../../src/bundle/load.js';
import type { DocItem } from '../../../src/bundle/checks.js';
import { bundleMembers, documentNamesMembers } from '../../../src/core/semantic/check.js';
import { root } from '../../e2e/helpers/index.js';
import { tempDir, writeTree } from '../../helpers/temp-dir.js';

const report = (id: string, rest: string) => `kind: Report\npublicId: ${id}\nname: ${id}\n${rest}`;
const CASES: Record<string, string> = {
  'reports/mapping.yaml': report('qMapping0001', 'jsonQuery:\n  measures: [orders.count]\n'),
  'reports/text.yaml': report('qText0000001', `jsonQuery: '{"dimensions":["orders.status"]}'\n`),
  'reports/empty-query.yaml': report('qEmpty000001', 'jsonQuery: {}\n'),
  'reports/bad-text.yaml': report('qBadText0001', "jsonQuery: '{not json'\n"),
  'reports/sql-member.yaml': report('qSqlMember01', 'sqlQuery: SELECT MEASURE(orders.count) FROM orders\n'),
  'reports/sql-plain.yaml': report('qSqlPlain001', 'sqlQuery: select 1\n'),
  'reports/pivot.yaml': report(
    'qPivot000001',
    'sqlQuery: select 1\npivotItems:\n  rows: [orders.status]\n  columns: []\n  filters: []\n  measures: []\n',
  ),
  'reports/nothing.yaml': report('qNothing0001', ''),
  'workbooks/plain.yaml': 'kind: Workbook\nslug: plain\nname: Plain\n',
  'workbooks/no-members.yaml':
    'kind: Workbook\nslug: no-members\nname: N\nmeta:\n  dashboardDraft:\n    kind: CLASSIC\n    widgets: []\n',
  'user-attributes/region.yaml': 'kind: UserAttribute\nname: region\ntype: string\ndisplayName: Region\n',
};

it('names members exactly where bundleMembers finds a resource to check, document by document', async () => {
  const dir = tempDir();
  cpSync(join(root, 'fixtures/example'), dir, { recursive: true });
  writeTree(dir, CASES);
  const told: DocItem[] = [];
  const { desired, diagnostics } = await loadFoundInTurns(
    await findBundleFiles(dir),
    { vars: { currency: 'EUR', fiscalYearStartMonth: 4 }, env: {}, mayHoldUnknownRefs: true },
    (item) => told.push(item),
  );
  expect(diagnostics.filter((d) => d.severity === 'error')).toEqual([]);
  const checked = new Set(bundleMembers(desired).map((r) => r.address));
  // Each document's resource, by its identity in the bundle.
  const address = new Map<unknown, string>([
    ...desired.reports.map((r) => [r.publicId, r.address] as const),
    ...desired.workbooks.map((w) => [w.slug, w.address] as const),
    ...desired.userAttributes.map((a) => [a.name, a.address] as const),
  ]);
  const addressOf = (i: DocItem) => address.get(i.value['publicId'] ?? i.value['slug'] ?? i.value['name'])!;
  const said = told.map((i) => [addressOf(i), documentNamesMembers(i.kind, i.value)] as const);
  expect(said.map(([a, named]) => [a, named])).toEqual(said.map(([a]) => [a, checked.has(a)]));
  // Both ways are met: the fixture's dashboards and queries name members, the plain cases do not.
  expect(said.filter(([, named]) => named).length).toBeGreaterThan(3);
  expect(said.filter(([, named]) => !named).length).toBeGreaterThan(3);
});
