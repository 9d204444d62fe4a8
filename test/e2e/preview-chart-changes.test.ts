// `wsc preview --out --with-data --against git:main` end to end: a change of a report alone (its query; the
// dashboards' files untouched) draws every dashboard that charts it, its card badged with the members added
// and removed, before and after side by side with their data; a visualization change (table → bar) is badged
// `visualization table → bar` and drawn both ways; a query Cube refuses shows Cube's error on its card.
// Without --with-data the same change is badged and drawn as boxes. The data is the embedded environment's.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, test } from 'vitest';
import { cleanupTemp, runCli, tempDir } from './helpers/index.js';
import { exampleRepo, svgsIn } from './helpers/git.js';
import { editFile } from '../helpers/edit-file.js';

afterAll(cleanupTemp);

/** fixtures/example committed in a new repository; `edit` then changes the working tree. */
function repo(edit: (dir: string) => void): string {
  const { repo: dir } = exampleRepo();
  edit(dir);
  return dir;
}

/** The example with the measures of reports/arr-by-region.yaml (`subscriptions.arr`) changed to `measures`. */
const measuresOfArrByRegion = (measures: string) =>
  repo((d) =>
    editFile(
      join(d, 'reports/arr-by-region.yaml'),
      'measures: [subscriptions.arr]\n  dimensions',
      `measures: [${measures}]\n  dimensions`,
    ),
  );

/** The `<g data-id=…>` of a card, whole. */
function cardOf(svg: string, id: string): string {
  const at = svg.indexOf(`<g data-id="${id}"`);
  expect(at, `card ${id}`).toBeGreaterThan(-1);
  let depth = 0;
  const re = /<g\b|<\/g>/g;
  re.lastIndex = at;
  for (let m = re.exec(svg); m; m = re.exec(svg)) {
    depth += m[0] === '</g>' ? -1 : 1;
    if (depth === 0) return svg.slice(at, m.index + 4);
  }
  throw new Error('unclosed card');
}

async function preview(dir: string, ...flags: string[]): Promise<{ out: string; stdout: string }> {
  const out = tempDir('wsc-pictures-');
  const r = await runCli(['preview', '--dir', dir, '--out', out, '--against', 'git:main', ...flags], { env: {} });
  expect(r.stderr).toBe('');
  expect(r.code).toBe(0);
  return { out, stdout: r.stdout };
}

// Each test has a repository of its own: they run at once.
describe.concurrent('preview --against: what a chart draws changed', () => {
  test("a report's query alone: the dashboard that charts it drawn, badged with the members, before and after with data", async ({
    expect,
  }) => {
    const dir = measuresOfArrByRegion('subscriptions.arr, subscriptions.mrr');
    const { out } = await preview(dir, '--with-data');
    // Only revenue-overview charts the report: only its pictures.
    expect(svgsIn(out)).toEqual(['revenue-overview.lg.svg', 'revenue-overview.sm.svg']);
    const svg = readFileSync(join(out, 'revenue-overview.lg.svg'), 'utf8');
    const card = cardOf(svg, 'arr-by-region');
    expect(card).toContain('data-change="config"');
    expect(card).toContain('>query: + subscriptions.mrr<');
    expect(card.match(/<svg x=/g)).toHaveLength(2);
    expect(card).toContain('>before<');
    expect(card).toContain('>after<');
    // Before: one measure, no legend of measures; after: both measures, named in the legend.
    const [before, after] = card.split('>after<');
    expect(before).not.toContain('>MRR<');
    expect(after).toContain('>MRR<');
    // Cards whose picture did not change: one picture, unbadged.
    expect(cardOf(svg, 'mrr-trend')).not.toContain('data-change');
    expect(cardOf(svg, 'mrr-trend').match(/<svg x=/g)).toHaveLength(1);
  });

  test('a visualization table → bar: badged so, drawn both ways; without --with-data badged and drawn as boxes', async ({
    expect,
  }) => {
    const dir = repo((d) =>
      editFile(join(d, 'workbooks/revenue-overview.yaml'), /visualization: table/, 'visualization: bar'),
    );
    const { out } = await preview(dir, '--with-data');
    const card = cardOf(readFileSync(join(out, 'revenue-overview.lg.svg'), 'utf8'), 'top-accounts');
    expect(card).toContain('>visualization table → bar<');
    const [before, after] = card.split('>after<');
    // The table's header cells before, the bars' marks after.
    expect(before).toContain('>arr<');
    expect(before).not.toContain('mark-rect');
    expect(after).toContain('mark-rect');
    const boxes = await preview(dir);
    const plain = cardOf(readFileSync(join(boxes.out, 'revenue-overview.lg.svg'), 'utf8'), 'top-accounts');
    expect(plain).toContain('>visualization table → bar<');
    expect(plain).not.toContain('<svg x=');
  });

  test("a query Cube refuses: Cube's error on the card, the rest drawn", async ({ expect }) => {
    const dir = measuresOfArrByRegion('subscriptions.arrr');
    const { out } = await preview(dir, '--with-data');
    const card = cardOf(readFileSync(join(out, 'revenue-overview.lg.svg'), 'utf8'), 'arr-by-region');
    // The badge cut to half the card; the whole change in the card's title (its tooltip).
    expect(card).toMatch(/>query: \+ subscriptions\.arrr, −[^<]*…</);
    expect(card).toContain('[config: query: + subscriptions.arrr, − subscriptions.arr]</title>');
    const after = card.split('>after<')[1]!;
    expect(after).toMatch(/class="e"[^>]*>Cube refused the query:/);
    expect(after.replace(/<[^>]+>/g, ' ')).toContain("'arrr' not found for path");
  });
});
