// `node scripts/readme-images.mjs`: the pictures of docs/ (plan-apply.md and
// commands.md), made with the built CLI and Debian's Chromium
// (playwright-core): a markdown plan of "move one widget" on fixtures/example
// as GitHub shows a comment, the preview page at a laptop's size with a
// card's details open, and the picture of a change
// (`preview --out --against git:main` in a repository holding the example,
// edited as a pull request would: a widget added, removed, moved, resized,
// reconfigured). Written to docs/images/; run after `npm run build`.
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
// The page on a laptop (1366×768) with a chart's details open, drawn at 70% so the picture stays small.
const preview = await browser.newPage({ viewport: { width: 1366, height: 768 }, deviceScaleFactor: 0.7 });
await preview.goto(`${url}#/revenue-overview/lg`);
await preview.waitForSelector('.card');
await preview.click('.card[data-id="nrr-kpi"] > div');
await preview.waitForSelector('#details .section');
await preview.screenshot({ path: join(root, 'docs/images/preview.png') });
server.kill('SIGINT');

// The picture of a change, against the bundle as committed on main.
const repo = mkdtempSync(join(tmpdir(), 'wsc-readme-git-'));
const git = (...args) =>
  execFileSync('git', ['-c', 'user.email=readme@example.com', '-c', 'user.name=readme', ...args], { cwd: repo });
cpSync(join(root, 'fixtures/example'), repo, { recursive: true });
git('init', '-q', '-b', 'main');
git('add', '.');
git('commit', '-qm', 'dashboards');
const edited = join(repo, 'workbooks/revenue-overview.yaml');
writeFileSync(
  edited,
  `${readFileSync(edited, 'utf8')
    .replace('position: { x: 4, y: 2, w: 3, h: 2 }', 'position: { x: 8, y: 2, w: 4, h: 2 }')
    .replace('position: { x: 8, y: 4, w: 4, h: 4 }', 'position: { x: 8, y: 4, w: 4, h: 3 }')
    .replace('visualization: bar', 'visualization: area')
    .replace(/ {6}- id: divider-accounts\n.*\n.*\n/, '')}      - id: churn-kpi
        type: CHART
        position: { x: 0, y: 21, w: 4, h: 4 }
        config:
          reportId: { $report: chrnRate0001 }
          visualization: kpi
`,
);
const pictures = join(repo, '.pictures');
wsc(['preview', '--out', pictures, '--against', 'git:main'], repo);
const svg = readFileSync(join(pictures, 'revenue-overview.lg.svg'), 'utf8');
writeFileSync(join(root, 'docs/images/preview-against.svg'), svg);
const change = await browser.newPage({ viewport: { width: 1200, height: 600 }, deviceScaleFactor: 0.8 });
await change.setContent(`<body style="margin:0">${svg}</body>`);
await change.screenshot({ path: join(root, 'docs/images/preview-against.png'), fullPage: true });
await browser.close();
rmSync(dir, { recursive: true, force: true });
rmSync(repo, { recursive: true, force: true });
console.log('wrote docs/images/plan-markdown.png, preview.png, preview-against.svg, preview-against.png');
