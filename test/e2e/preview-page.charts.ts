/// <reference lib="dom" />
// The preview page with data, in Debian's Chromium through playwright-core: fixtures/example in a git
// repository, one report's query and one visualization changed as a pull request would, a widget removed
// and another moved onto its place, served with --against git:main; the data is the embedded environment's.
// At 1366×768 and 1280×800: it opens on the first changed dashboard; every CHART card shows its picture;
// a changed one shows before and after side by side, badged with what changed; every card, pictures and all, is
// at its grid position; the header says where the data comes from; the toolbar is one line; no two labels
// overlap; nothing scrolls sideways, with the details open too. Screenshots go to test-artifacts/. A second
// page, served with --no-data, says why its charts are boxes; a bundle with no change says "No changes".
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { describe, expect, test } from 'vitest';
import { root } from './helpers/index.js';
import { exampleRepo } from './helpers/git.js';
import { editFile } from '../helpers/edit-file.js';
import { chromiumExecutable, expectCardsAtGrid, noChromiumReason, previewInBrowser } from './helpers/preview.js';

const artifacts = join(root, 'test-artifacts');

function repo(edit: boolean): string {
  const { repo: dir } = exampleRepo();
  if (!edit) return dir;
  const wb = join(dir, 'workbooks/revenue-overview.yaml');
  writeFileSync(
    wb,
    readFileSync(wb, 'utf8')
      .replace('visualization: table', 'visualization: bar')
      // nrr-kpi removed, grain moved and grown onto its place.
      .replace(/ {6}- id: nrr-kpi\n(.*\n){4}.*\n/, '')
      .replace('position: { x: 4, y: 2, w: 3, h: 2 }', 'position: { x: 8, y: 4, w: 4, h: 4 }'),
  );
  const report = join(dir, 'reports/arr-by-region.yaml');
  editFile(
    report,
    'measures: [subscriptions.arr]\n  dimensions',
    'measures: [subscriptions.arr, subscriptions.mrr]\n  dimensions',
  );
  return dir;
}

/** Boxes of the visible text labels of the page's cards and lists (not inside a chart's picture). */
async function labelsOverlap(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const boxes: { t: string; r: DOMRect }[] = [];
    for (const e of document.querySelectorAll<HTMLElement>(
      '#grid .head span, #grid .title span, #grid .badge, #grid .gone span, #removed-list li',
    )) {
      const r = e.getBoundingClientRect();
      if (r.width > 0 && r.height > 0 && getComputedStyle(e).visibility !== 'hidden')
        boxes.push({ t: e.textContent ?? '', r });
    }
    const out: string[] = [];
    boxes.forEach((a, i) =>
      boxes.slice(i + 1).forEach((b) => {
        if (
          a.r.left < b.r.right - 1 &&
          b.r.left < a.r.right - 1 &&
          a.r.top < b.r.bottom - 1 &&
          b.r.top < a.r.bottom - 1
        )
          if (!a.r.toJSON || !(a.t.includes(b.t) || b.t.includes(a.t))) out.push(`${a.t} / ${b.t}`);
      }),
    );
    return out;
  });
}

async function noSidewaysScroll(page: Page): Promise<void> {
  const { scroll, client } = await page.evaluate(() => ({
    scroll: document.documentElement.scrollWidth,
    client: document.documentElement.clientWidth,
  }));
  expect(scroll).toBeLessThanOrEqual(client);
}

describe.skipIf(!chromiumExecutable)(`the preview page${noChromiumReason}`, () => {
  let changed = '';
  // Both pages served at once: with data and a change; without data and with no change.
  const preview = previewInBrowser(
    () => {
      mkdirSync(artifacts, { recursive: true });
      changed = repo(true);
      return ['--dir', changed, '--against', 'git:main'];
    },
    () => ['--dir', repo(false), '--against', 'git:main', '--no-data'],
  );

  // One after the other on the one page of preview-page.test.ts, each loading what it looks at.
  describe('with data', () => {
    test.each([
      [1366, 768],
      [1280, 800],
    ] as const)(
      '%i×%i: opens on the changed dashboard, charts with data, before and after, labels apart',
      async (width, height) => {
        const page = await preview.page({ width, height });
        await page.goto(preview.url);
        await page.waitForSelector('.card .chart img');
        // The first changed dashboard (customer-health comes first and did not change).
        expect(await page.locator('nav a.current').getAttribute('data-slug')).toBe('revenue-overview');
        expect(await page.locator('header #data').textContent()).toMatch(
          /^charts with data from local \(127\.0\.0\.1:\d+\)$/,
        );
        // Each drawn CHART card: one picture; the changed ones two, captioned, and badged in words.
        expect(await page.locator('.card[data-id="mrr-trend"] .chart img').count()).toBe(1);
        for (const [id, badge] of [
          ['top-accounts', 'visualization table → bar'],
          ['arr-by-region', 'query: + subscriptions.mrr'],
        ]) {
          const card = page.locator(`.card[data-id="${id}"]`);
          expect(await card.locator('.chart img').count()).toBe(2);
          expect(await card.locator('figcaption').allTextContents()).toEqual(['before', 'after']);
          expect(await card.locator('.badge.config').getAttribute('title')).toBe(badge);
        }
        // The pictures are drawn (decoded, not broken).
        const broken = await page
          .locator('.card .chart img')
          .evaluateAll(
            (imgs) =>
              imgs.filter((i) => !(i as HTMLImageElement).complete || (i as HTMLImageElement).naturalWidth === 0)
                .length,
          );
        expect(broken).toBe(0);
        // The removed KPI under the moved grain: its label in the list under the grid, none overlapping.
        expect(await page.locator('#removed-list li[data-removed-label="nrr-kpi"]').textContent()).toContain(
          'CHART nrr-kpi',
        );
        expect(await labelsOverlap(page)).toEqual([]);
        // With their pictures, the cards still at their grid positions (columns, and rows of rowHeight).
        await expectCardsAtGrid(page, changed, 'revenue-overview');
        // The toolbar is one line (no taller than its tallest item), nothing overflowing it.
        const bar = await page.evaluate(() => {
          const t = document.getElementById('toolbar')!;
          const tallest = Math.max(...[...t.children].map((c) => c.getBoundingClientRect().height));
          return { oneLine: t.getBoundingClientRect().height <= tallest + 1, overflow: t.scrollWidth - t.clientWidth };
        });
        expect(bar).toEqual({ oneLine: true, overflow: 0 });
        await noSidewaysScroll(page);
        await page.screenshot({ path: join(artifacts, `preview-charts-${width}x${height}.png`), fullPage: true });
        // Details open: still no sideways scroll.
        await page.click('.card[data-id="top-accounts"] > div');
        await page.waitForSelector('aside#details:not([hidden])');
        await noSidewaysScroll(page);
        expect(await labelsOverlap(page)).toEqual([]);
        await page.screenshot({
          path: join(artifacts, `preview-charts-${width}x${height}-details.png`),
          fullPage: true,
        });
      },
    );
  });

  test('--no-data: the header says why the charts are boxes; nothing changed: "No changes"', async () => {
    const page = await preview.page({ width: 1366, height: 768 });
    await page.goto(preview.urls[1]!);
    await page.waitForSelector('.card');
    expect(await page.locator('header #data').textContent()).toBe(
      'charts without data: --no-data: the charts are drawn as boxes',
    );
    expect(await page.locator('.card .chart img').count()).toBe(0);
    expect(await page.locator('#nochange').isVisible()).toBe(true);
    expect(await page.locator('#nochange').textContent()).toBe('No changes: no dashboard changed against git:main.');
    await page.screenshot({ path: join(artifacts, 'preview-no-data-no-change.png'), fullPage: true });
  });
});
