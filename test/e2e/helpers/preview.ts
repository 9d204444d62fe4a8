/// <reference lib="dom" />
// `wsc preview` serving its page (helpers/serve-preview.ts) for a browser test, and Chromium.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { chromium, type Browser, type Page } from 'playwright-core';
import { parse } from 'yaml';
import { afterAll, beforeAll, expect } from 'vitest';
import { cleanupTemp } from './index.js';
import { servePreview, type ServedPreview } from './serve-preview.js';

/** Debian's Chromium, if installed; browser suites skip without it and say why in their name. */
export const chromiumExecutable = ['/usr/lib/chromium/chromium', '/usr/bin/chromium'].find((p) => existsSync(p));
export const noChromiumReason = chromiumExecutable
  ? ''
  : ' (SKIPPED: no Chromium here; `apt-get install -y chromium`, as .ci/run does)';

/** A workbook's widgets, its columns per breakpoint and its row height, as its file says. */
type Box = { x: number; y: number; w: number; h: number };
type Widget = { id: string; type: string; position: Box; responsiveLayouts?: Record<string, Box> };
export function widgetsOf(
  dir: string,
  slug: string,
): { widgets: Widget[]; cols: Record<string, number>; rowHeight: number } {
  const doc = parse(readFileSync(join(dir, `workbooks/${slug}.yaml`), 'utf8'));
  const d = doc.meta.dashboardDraft;
  return {
    widgets: d.widgets,
    cols: d.layout?.cols ?? { lg: 12, md: 10, sm: 6, xs: 4, xxs: 2 },
    rowHeight: d.layout?.rowHeight ?? 30,
  };
}

/** Each card's box relative to the grid: x and w in columns of the breakpoint, y and h in pixels. */
export async function cardBoxes(page: Page): Promise<Record<string, Box>> {
  return page.evaluate(() => {
    const grid = document.getElementById('grid')!;
    const g = grid.getBoundingClientRect();
    const colW = g.width / Number(grid.dataset['cols']);
    const out: Record<string, Box> = {};
    for (const card of grid.querySelectorAll<HTMLElement>('.card')) {
      const r = card.getBoundingClientRect();
      out[card.dataset['id']!] = {
        x: Math.round((r.left - g.left) / colW),
        y: r.top - g.top,
        w: Math.round(r.width / colW),
        h: r.height,
      };
    }
    return out;
  });
}

/** Every card of the dashboard `slug` of the bundle at `dir` at its grid position (columns, rows of rowHeight). */
export async function expectCardsAtGrid(page: Page, dir: string, slug: string): Promise<void> {
  const { widgets, rowHeight } = widgetsOf(dir, slug);
  const boxes = await cardBoxes(page);
  expect(Object.keys(boxes).sort()).toEqual(widgets.map((w) => w.id).sort());
  for (const w of widgets) {
    const b = boxes[w.id]!;
    expect({ id: w.id, x: b.x, y: Math.round(b.y / rowHeight), w: b.w, h: Math.round(b.h / rowHeight) }).toEqual({
      id: w.id,
      ...w.position,
    });
  }
}

export interface PreviewInBrowser {
  browser: Browser;
  url: string;
  /** The address of each preview served, in the order of the setups (url is the first). */
  urls: string[];
  /**
   * The one page, blank, at `viewport`: the tests that take it run one after the other, each loading what it
   * looks at afresh (goto). A page of its own would start a renderer process for each test, about half a
   * second of CPU; a load in the renderer already running costs a tenth of that.
   */
  page(viewport: { width: number; height: number }): Promise<Page>;
}

/**
 * Chromium, launched at its first use and kept for the suites of the test file (about a second of CPU a
 * launch): the file that uses previewInBrowser closes it after all (closeBrowser), whichever suites ran.
 */
let launched: Promise<Browser> | undefined;
let shared: Page | undefined;
const browser = () => (launched ??= chromium.launch({ executablePath: chromiumExecutable!, args: ['--no-sandbox'] }));

export async function closeBrowser(): Promise<void> {
  const b = launched;
  launched = undefined;
  shared = undefined;
  await (await b)?.close();
}

/**
 * Inside a describe: before all, `wsc preview` with the arguments each `setup` returns is served and
 * Chromium launched (or the one launched already taken), all at once (fields filled in then); after all,
 * the previews are stopped (each must end with 0 when interrupted) and temp dirs removed.
 */
export function previewInBrowser(...setups: (() => string[] | Promise<string[]>)[]): PreviewInBrowser {
  const ctx = { url: '', urls: [] as string[] } as PreviewInBrowser;
  const served: ServedPreview[] = [];
  ctx.page = async (viewport) => {
    if (shared === undefined || shared.isClosed()) shared = await ctx.browser.newPage();
    // A new document whatever the last test left (a goto that changes only the hash would keep it).
    await shared.goto('about:blank');
    await shared.setViewportSize(viewport);
    return shared;
  };
  beforeAll(async () => {
    const previews = Promise.all(
      setups.map(async (setup) => {
        const s = await servePreview(await setup());
        served.push(s);
        return s.url;
      }),
    );
    const [urls, b] = await Promise.all([previews, browser()]);
    Object.assign(ctx, { browser: b, urls, url: urls[0] });
  }, 60_000);
  afterAll(async () => {
    for (const s of served) {
      const r = await s.stop();
      expect(r.code, r.stderr).toBe(0);
    }
    cleanupTemp();
  });
  return ctx;
}
