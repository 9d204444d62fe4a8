/// <reference lib="dom" />
// The preview page on the screens people have, in Debian's Chromium through
// playwright-core: fixtures/example in a git repository, edited as a pull
// request would, served with --against git:main. At 1366×768 and up nothing
// scrolls sideways and every card is inside the pane; details open beside the
// grid and never over the card; the keyboard moves between cards and shows
// where it is; cards say what they are; details are YAML with file:line; the
// change is marked, and the toggle takes the marks away. Screenshots go to
// test-artifacts/ (a CI artifact). Without Chromium the suite is skipped.
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { describe, expect, test } from 'vitest';
import { root } from './helpers/index.js';
import { exampleRepo } from './helpers/git.js';
import { chromiumExecutable, noChromiumReason, previewInBrowser } from './helpers/preview.js';

const artifacts = join(root, 'test-artifacts');

type Rect = { left: number; top: number; right: number; bottom: number };
const rectOf = (page: Page, selector: string): Promise<Rect> =>
  page
    .locator(selector)
    .first()
    .evaluate((e) => {
      const r = e.getBoundingClientRect();
      return { left: r.left, top: r.top, right: r.right, bottom: r.bottom };
    });
const overlap = (a: Rect, b: Rect) => a.left < b.right && b.left < a.right && a.top < b.bottom && b.top < a.bottom;

// The tests only read what is served, one after the other on the one page of preview-page.test.ts, each loading
// it afresh.
describe.skipIf(!chromiumExecutable)(`the preview page at laptop sizes${noChromiumReason}`, () => {
  const preview = previewInBrowser(() => {
    mkdirSync(artifacts, { recursive: true });
    const { repo } = exampleRepo();
    const file = join(repo, 'workbooks/revenue-overview.yaml');
    writeFileSync(
      file,
      readFileSync(file, 'utf8')
        .replace('position: { x: 4, y: 2, w: 3, h: 2 }', 'position: { x: 8, y: 2, w: 3, h: 2 }')
        .replace('visualization: bar', 'visualization: area')
        .replace(/ {6}- id: divider-accounts\n.*\n.*\n/, ''),
    );
    // Layout, keyboard and details: the charts' data is not the point (boxes; pictures with data at these
    // sizes are preview-page.charts.ts's).
    return ['--dir', repo, '--against', 'git:main', '--no-data'];
  });

  async function open(width: number, height: number, hash = '#/revenue-overview/lg'): Promise<Page> {
    const page = await preview.page({ width, height });
    await page.goto(`${preview.url}${hash}`);
    await page.waitForSelector('.card');
    return page;
  }

  /** No sideways scroll, and every card inside the viewport's width. */
  async function fits(page: Page): Promise<void> {
    const { scroll, client, right } = await page.evaluate(() => ({
      scroll: document.documentElement.scrollWidth,
      client: document.documentElement.clientWidth,
      right: Math.max(...[...document.querySelectorAll('#grid .card')].map((c) => c.getBoundingClientRect().right)),
    }));
    expect(scroll).toBeLessThanOrEqual(client);
    expect(right).toBeLessThanOrEqual(client);
  }

  test('1366×768: no sideways scroll, every card inside the pane, columns in proportion; also at 1280 and 1440', async ({
    expect,
  }) => {
    const sizes = [
      [1366, 768],
      [1280, 800],
      [1440, 900],
    ] as const;
    for (const [w, h] of sizes) {
      const page = await open(w, h);
      await fits(page);
      // 12 columns share the grid's width: an 8-column card is twice a 4-column one.
      const mrr = await rectOf(page, '.card[data-id="mrr-trend"]');
      const kpi = await rectOf(page, '.card[data-id="nrr-kpi"]');
      expect((mrr.right - mrr.left) / (kpi.right - kpi.left)).toBeCloseTo(2, 1);
      if (w === 1366) await page.screenshot({ path: join(artifacts, 'preview-1366x768.png') });
    }
  });

  test('details open beside the grid, not over the card; the grid still fits; Esc closes and gives the focus back', async ({
    expect,
  }) => {
    const page = await open(1366, 768);
    for (const id of ['nrr-kpi', 'top-accounts', 'region-filter']) {
      await page.click(`.card[data-id="${id}"] > div`);
      await expect.poll(() => page.locator('#details').getAttribute('data-id')).toBe(id);
      const card = await rectOf(page, `.card[data-id="${id}"]`);
      const details = await rectOf(page, '#details');
      expect(overlap(card, details), id).toBe(false);
      await fits(page);
    }
    await page.screenshot({ path: join(artifacts, 'preview-details-1366x768.png') });
    await page.keyboard.press('Escape');
    await expect.poll(() => page.locator('#details').isHidden()).toBe(true);
    expect(await page.evaluate(() => document.activeElement?.closest('.card')?.getAttribute('data-id'))).toBe(
      'region-filter',
    );
  });

  test('keyboard: Tab reaches a card with a visible focus ring, arrows move between cards, Enter opens', async ({
    expect,
  }) => {
    const page = await open(1366, 768);
    await page.focus('.card[data-id="mrr-trend"] > div');
    const focused = () => page.evaluate(() => document.activeElement?.closest('.card')?.getAttribute('data-id'));
    const ring = await page.evaluate(() => {
      const s = getComputedStyle(document.activeElement!);
      return { style: s.outlineStyle, width: parseFloat(s.outlineWidth) };
    });
    expect(ring.style).not.toBe('none');
    expect(ring.width).toBeGreaterThanOrEqual(2);
    await page.keyboard.press('ArrowRight');
    expect(await focused()).toBe('nrr-kpi');
    await page.keyboard.press('ArrowDown');
    expect(await focused()).toBe('arr-by-region');
    await page.keyboard.press('ArrowUp');
    await page.keyboard.press('ArrowUp');
    expect(await focused()).toBe('grain');
    await page.keyboard.press('ArrowLeft');
    expect(await focused()).toBe('region-filter');
    await page.keyboard.press('Enter');
    await expect.poll(() => page.locator('#details').getAttribute('data-id')).toBe('region-filter');
  });

  test('cards say what they are: FILTER label and member, TIME_GRAIN default and options, TEXT cut with a cue, chart glyphs', async ({
    expect,
  }) => {
    const page = await open(1366, 768);
    const card = (id: string) => page.locator(`.card[data-id="${id}"]`);
    expect(await card('region-filter').locator('.filter').innerText()).toMatch(/Region\s+accounts\.region/);
    expect(await card('grain').locator('.opt').allInnerTexts()).toEqual(['week', 'month ✓', 'quarter']);
    expect(await card('grain').locator('.opt.default').innerText()).toBe('month ✓');
    // Every chip is inside the card.
    const g = await rectOf(page, '.card[data-id="grain"] > div');
    const last = await rectOf(page, '.card[data-id="grain"] .opt:last-child');
    expect(last.right).toBeLessThanOrEqual(g.right);
    expect(last.bottom).toBeLessThanOrEqual(g.bottom);
    expect(await card('header').locator('.md.cut').count()).toBe(1);
    const glyphs = await page.evaluate(() =>
      Object.fromEntries(
        [...document.querySelectorAll('.card[data-type="CHART"]')].map((c) => [
          c.getAttribute('data-id'),
          c.querySelector('svg.glyph')?.getAttribute('data-glyph'),
        ]),
      ),
    );
    expect(glyphs).toEqual({ 'mrr-trend': 'line', 'nrr-kpi': 'kpi', 'arr-by-region': 'area', 'top-accounts': 'table' });
  });

  test("details show query, pivot and config as YAML in the file's key order, each with file:line", async ({
    expect,
  }) => {
    const page = await open(1366, 768);
    await page.click('.card[data-id="nrr-kpi"] > div');
    await expect.poll(() => page.locator('#details').getAttribute('data-id')).toBe('nrr-kpi');
    const sections = await page
      .locator('#details .section')
      .evaluateAll((ss) =>
        ss.map((s) => ({ head: s.querySelector('h4')!.textContent, body: s.querySelector('pre')!.textContent })),
      );
    const kpiFile = readFileSync(join(root, 'fixtures/example/reports/nrr-kpi.yaml'), 'utf8').split('\n');
    const queryLine = kpiFile.findIndex((l) => l.startsWith('jsonQuery:')) + 1;
    expect(sections[0]).toEqual({
      head: `Query reports/nrr-kpi.yaml:${queryLine}`,
      body:
        'measures:\n  - retention.net_revenue_retention\ntimeDimensions:\n' +
        '  - dimension: retention.period_end\n    dateRange: Last 12 months',
    });
    expect(sections[1]!.head).toMatch(/^Config workbooks\/revenue-overview\.yaml:\d+$/);
    expect(sections[1]!.body).toBe('reportId:\n  $report: revNrrKpi001\nvisualization: kpi');
    expect(await page.locator('#details').innerText()).not.toContain('{"');

    await page.click('.card[data-id="mrr-trend"] > div');
    await expect.poll(() => page.locator('#details').getAttribute('data-id')).toBe('mrr-trend');
    const pivot = await page.locator('#details .section', { hasText: 'Pivot' }).locator('pre').innerText();
    expect(pivot).toBe(
      'columns:\n  - accounts.region\nfilters: []\nmeasures:\n  - subscriptions.mrr\nrows:\n  - month',
    );
  });

  test('--against: the change is marked on the page (badges, old box, removed outline, legend); the toggle clears it', async ({
    expect,
  }) => {
    const page = await open(1366, 768);
    const change = (id: string) => page.locator(`.card[data-id="${id}"]`).getAttribute('data-change');
    expect(await change('grain')).toBe('moved');
    expect(await change('arr-by-region')).toBe('config');
    expect(await change('mrr-trend')).toBeNull();
    expect(await page.locator('.was[data-was="grain"]').count()).toBe(1);
    expect(await page.locator('.gone[data-removed="divider-accounts"]').count()).toBe(1);
    expect(await page.locator('#legend').innerText()).toContain('removed (where it was)');
    expect(await page.locator('nav a.changed').evaluateAll((as) => as.map((a) => a.getAttribute('data-slug')))).toEqual(
      ['revenue-overview'],
    );
    await page.screenshot({ path: join(artifacts, 'preview-against-1366x768.png') });
    await page.uncheck('#show-changes');
    await expect.poll(() => page.locator('[data-change]').count()).toBe(0);
    expect(await page.locator('.was, .gone, #legend').count()).toBe(0);
    await page.check('#show-changes');
    await expect.poll(() => page.locator('[data-change]').count()).toBe(2);
  });
});
