// `node scripts/readme-images.mjs`: the README's pictures, made with the built
// CLI and Debian's Chromium (playwright-core): a markdown plan of "move one
// widget" on fixtures/example as GitHub shows a comment, and the preview page.
// Written to docs/images/; run after `npm run build`.
import { execFileSync, spawn } from 'node:child_process';
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import MarkdownIt from 'markdown-it';
import { chromium } from 'playwright-core';

const root = fileURLToPath(new URL('..', import.meta.url));
const wsc = (args, cwd) => {
  try {
    return execFileSync(process.execPath, [join(root, 'bin/wsc.js'), ...args], {
      cwd,
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'ignore'],
      env: { ...process.env, NO_COLOR: '1' },
    });
  } catch (e) {
    if (e.status === 2) return e.stdout;
    throw e;
  }
};
const dir = mkdtempSync(join(tmpdir(), 'wsc-readme-'));
cpSync(join(root, 'fixtures/example'), dir, { recursive: true });
wsc(['apply', '--auto-approve'], dir);
const file = join(dir, 'workbooks/revenue-overview.yaml');
writeFileSync(
  file,
  readFileSync(file, 'utf8').replace('position: { x: 4, y: 2, w: 3, h: 2 }', 'position: { x: 7, y: 2, w: 3, h: 2 }'),
);
const markdown = wsc(['plan', '--output', 'markdown'], dir);

const css = `body{font:14px/1.5 -apple-system,"Segoe UI",Helvetica,Arial,sans-serif;color:#1f2328;margin:16px;
max-width:860px}
pre{background:#f6f8fa;padding:12px;border-radius:6px;font:12px/1.35 ui-monospace,"DejaVu Sans Mono",monospace;
overflow:auto}
table{border-collapse:collapse}td,th{border:1px solid #d0d7de;padding:3px 10px}code{font-size:12px}`;
const html = new MarkdownIt({ html: true }).render(markdown).replaceAll('<details>', '<details open>');
const executablePath = ['/usr/lib/chromium/chromium', '/usr/bin/chromium'].find((p) => {
  try {
    return readFileSync(p).length > 0;
  } catch {
    return false;
  }
});
const browser = await chromium.launch({ executablePath, args: ['--no-sandbox'] });
const page = await browser.newPage({ viewport: { width: 900, height: 600 } });
await page.setContent(`<style>${css}</style>${html}`);
await page.screenshot({ path: join(root, 'docs/images/plan-markdown.png'), fullPage: true });

const server = spawn(process.execPath, [join(root, 'bin/wsc.js'), 'preview', '--port', '0'], { cwd: dir });
const url = await new Promise((resolve) => {
  let out = '';
  server.stdout.on('data', (d) => {
    out += d;
    const m = /at (http:\/\/127\.0\.0\.1:\d+\/)/.exec(out);
    if (m) resolve(m[1]);
  });
});
// The page at its real size, drawn at 70% so the picture stays small.
const preview = await browser.newPage({ viewport: { width: 1440, height: 860 }, deviceScaleFactor: 0.7 });
await preview.goto(`${url}#/revenue-overview/lg`);
await preview.waitForSelector('.card');
await preview.screenshot({ path: join(root, 'docs/images/preview.png') });
await browser.close();
server.kill('SIGINT');
rmSync(dir, { recursive: true, force: true });
console.log('wrote docs/images/plan-markdown.png, docs/images/preview.png');
