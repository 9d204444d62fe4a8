/// <reference lib="dom" />
// `wsc preview` in a real browser: Debian's Chromium driven by playwright-core
// (no browser download). wsc preview serves fixtures/example (boxes, no data) on a free
// loopback port; the tests check every widget's box against its grid position,
// switch breakpoints, edit files and watch the page follow, and keep
// screenshots in test-artifacts/ (a CI artifact). Without Chromium the suite
// is skipped, and its name says why.
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, test } from 'vitest';
import { copyFixture, root, runCli, tempDir } from './helpers/index.js';
import { svgsIn } from './helpers/git.js';
import {
  cardBoxes,
  chromiumExecutable,
  expectCardsAtGrid,
  noChromiumReason,
  previewInBrowser,
  widgetsOf,
} from './helpers/preview.js';

const artifacts = join(root, 'test-artifacts');

describe.skipIf(!chromiumExecutable)(`wsc preview in Chromium${noChromiumReason}`, () => {
  let dir = '';
  const preview = previewInBrowser(() => {
    mkdirSync(artifacts, { recursive: true });
    dir = copyFixture('example');
    // Boxes: the charts' data is not the point here (each reload would draw them all again); the page with data
    // at its grid positions is preview-page.charts.ts's.
    return ['--dir', dir, '--no-data'];
  });

  // One after the other on the one page of preview-page.test.ts, each loading what it looks at; the last edits
  // the bundle.
  test('lists the workbooks and draws every widget of fixtures/example at its grid position', async ({ expect }) => {
    const page = await preview.page({ width: 1500, height: 1000 });
    await page.goto(preview.url);
    await page.waitForSelector('.card');
    expect(await page.locator('nav a').evaluateAll((as) => as.map((a) => a.getAttribute('data-slug')))).toEqual([
      'customer-health',
      'revenue-overview',
      'sales-pipeline',
    ]);
    for (const slug of ['customer-health', 'revenue-overview', 'sales-pipeline']) {
      await page.click(`nav a[data-slug="${slug}"]`);
      // The hash changes first, the page draws on the hashchange event after: wait for the drawing (its link
      // marked current), not the hash alone.
      await page.waitForFunction(
        (s) =>
          location.hash === `#/${s}/lg` && document.querySelector('nav a.current')?.getAttribute('data-slug') === s,
        slug,
      );
      await expectCardsAtGrid(page, dir, slug);
    }
    await page.click('nav a[data-slug="revenue-overview"]');
    await page.click('.card[data-id="mrr-trend"] > div');
    await expect.poll(() => page.locator('#details pre').first().textContent()).toContain('MEASURE(subscriptions.mrr)');
    expect(await page.locator('#details').textContent()).toContain('Pivot');
    await page.screenshot({ path: join(artifacts, 'preview-revenue-overview.png') });
  });

  test('switches breakpoints: a layout of its own, else the nearest larger one fitted into the columns', async ({
    expect,
  }) => {
    const page = await preview.page({ width: 1500, height: 1000 });
    await page.goto(`${preview.url}#/revenue-overview/lg`);
    await page.waitForSelector('.card');
    const { widgets, cols } = widgetsOf(dir, 'revenue-overview');
    const mrr = widgets.find((w) => w.id === 'mrr-trend')!;
    await page.click('button[data-bp="sm"]');
    await page.waitForFunction(() => document.getElementById('grid')!.dataset['breakpoint'] === 'sm');
    expect(await page.evaluate(() => location.hash)).toBe('#/revenue-overview/sm');
    const sm = await cardBoxes(page);
    expect([sm['mrr-trend']!.x, sm['mrr-trend']!.w]).toEqual([
      mrr.responsiveLayouts!['sm']!.x,
      mrr.responsiveLayouts!['sm']!.w,
    ]);
    // xs has no layout of its own: sm's, fitted into xs's columns.
    await page.click('button[data-bp="xs"]');
    await page.waitForFunction(() => document.getElementById('grid')!.dataset['breakpoint'] === 'xs');
    const xs = await cardBoxes(page);
    expect(xs['mrr-trend']!.w).toBe(Math.min(mrr.responsiveLayouts!['sm']!.w, cols['xs']!));
    // A widget without responsive layouts falls back to its position, fitted: nrr-kpi at x 8 w 4 into 4 columns.
    expect([xs['nrr-kpi']!.x, xs['nrr-kpi']!.w]).toEqual([0, 4]);
    expect(await page.locator('button[data-bp="xs"]').getAttribute('class')).toContain('derived');
  });

  test('the SVGs of preview --out are well-formed and draw every widget', async ({ expect }) => {
    const out = tempDir('wsc-svg-');
    const r = await runCli(['preview', '--dir', join(root, 'fixtures/example'), '--out', out]);
    expect(r.code).toBe(0);
    const files = svgsIn(out);
    expect(files).toEqual([
      'customer-health.lg.svg',
      'revenue-overview.lg.svg',
      'revenue-overview.sm.svg',
      'sales-pipeline.lg.svg',
    ]);
    const page = await preview.page({ width: 1240, height: 900 });
    for (const f of files) {
      const text = readFileSync(join(out, f), 'utf8');
      const parsed = await page.evaluate((t) => {
        const doc = new DOMParser().parseFromString(t, 'image/svg+xml');
        return {
          error: doc.querySelector('parsererror')?.textContent ?? null,
          ids: [...doc.querySelectorAll('g[data-id]')].map((g) => g.getAttribute('data-id')),
        };
      }, text);
      expect(parsed.error, f).toBeNull();
      const slug = f.split('.')[0]!;
      expect(parsed.ids.sort()).toEqual(
        widgetsOf(join(root, 'fixtures/example'), slug)
          .widgets.map((w) => w.id)
          .sort(),
      );
    }
    await page.setContent(
      `<body style="margin:0">${readFileSync(join(out, 'revenue-overview.lg.svg'), 'utf8')}</body>`,
    );
    const header = await page.locator('g[data-id="header"] rect').boundingBox();
    expect(header!.width).toBeGreaterThan(1100);
    await page.screenshot({ path: join(artifacts, 'preview-revenue-overview.lg.svg.png'), fullPage: true });
  });

  test('follows file changes, keeping the dashboard and breakpoint; TEXT markdown is safe; diagnostics with file:line:col', async ({
    expect,
  }) => {
    const page = await preview.page({ width: 1500, height: 1000 });
    await page.goto(`${preview.url}#/revenue-overview/md`);
    await page.waitForSelector('.card');
    const v0 = Number(await page.evaluate(() => document.body.dataset['version']));
    const before = await cardBoxes(page);
    const file = join(dir, 'workbooks/revenue-overview.yaml');
    const hostile =
      "## Safe <script>window.pwned=1</script>\\n<img src=x onerror='window.pwned=2'>\\n[click](javascript:window.pwned=3)";
    writeFileSync(
      file,
      readFileSync(file, 'utf8')
        .replace('position: { x: 8, y: 4, w: 4, h: 4 }', 'position: { x: 8, y: 21, w: 4, h: 4 }')
        .replace(/content: ".*"/, `content: "${hostile}"`),
    );
    await page.waitForFunction((v) => Number(document.body.dataset['version']) > v, v0, { timeout: 15_000 });
    expect(await page.evaluate(() => location.hash)).toBe('#/revenue-overview/md');
    expect(await page.evaluate(() => document.getElementById('grid')!.dataset['breakpoint'])).toBe('md');
    const boxes = await cardBoxes(page);
    // md has no layout of its own: the grid packs it upwards, so the moved widget lands under the last one.
    expect(boxes['nrr-kpi']!.y).toBeGreaterThan(before['nrr-kpi']!.y);
    expect(boxes['nrr-kpi']!.y).toBe(boxes['top-accounts']!.y + boxes['top-accounts']!.h);
    const md = page.locator('.card[data-id="header"] .md');
    expect(await md.textContent()).toContain('<script>window.pwned=1</script>');
    expect(await md.locator('script, img').count()).toBe(0);
    expect(await md.locator('a[href^="javascript"]').count()).toBe(0);
    expect(await page.evaluate(() => (window as unknown as { pwned?: number }).pwned)).toBeUndefined();

    // A broken file: the page lists the problem where it is.
    const v1 = Number(await page.evaluate(() => document.body.dataset['version']));
    writeFileSync(join(dir, 'workbooks/broken.yaml'), 'kind: Workbook\nslug: broken\nname: Broken\ncolour: red\n');
    await page.waitForFunction((v) => Number(document.body.dataset['version']) > v, v1, { timeout: 15_000 });
    await expect.poll(() => page.locator('#diagnostics').textContent()).toMatch(/workbooks\/broken\.yaml:4:1 error/);
    await page.screenshot({ path: join(artifacts, 'preview-after-edit.png') });
  });
});
