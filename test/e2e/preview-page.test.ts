// The preview page in a real browser: Debian's Chromium driven by playwright-core (no browser download),
// one launch and one page for the three suites below, each serving the `wsc preview` it looks at
// (helpers/preview.ts): the grid of fixtures/example and the page following its files
// (preview-page.grid.ts), the page at laptop sizes with a change marked (preview-page.laptop.ts), and the
// charts with data, before and after (preview-page.charts.ts). Screenshots go to test-artifacts/ (a CI
// artifact). Without Chromium the suites are skipped, and their names say why.
import { afterAll } from 'vitest';
import { closeBrowser } from './helpers/preview.js';
import './preview-page.grid.js';
import './preview-page.laptop.js';
import './preview-page.charts.js';

afterAll(closeBrowser);
