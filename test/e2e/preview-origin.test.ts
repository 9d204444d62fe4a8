// The preview page answers only its own origin, and `--out` names its files
// after the safe form of a slug: a page of another site whose name was pointed
// at 127.0.0.1 (DNS rebinding) gets 421 for the page, the model and the event
// stream; a slug with markup or a path in it names no file with either. The
// page is served in this process and without data (the Host check comes
// before any route); a served process's end on Ctrl-C is preview-out's.
import { readdirSync } from 'node:fs';
import { request } from 'node:http';
import { join } from 'node:path';
import { afterAll, describe, expect, test } from 'vitest';
import { cleanupTemp, root, runCli, tempDir, writeFiles } from './helpers/index.js';
import { servePreview } from './helpers/serve-preview.js';

/** A workbook file with one TEXT widget: something for --out to draw. */
const workbook = (slug: string) =>
  [
    'kind: Workbook',
    `slug: ${JSON.stringify(slug)}`,
    'meta:',
    '  dashboardDraft:',
    '    kind: CLASSIC',
    '    widgets:',
    '      - { id: t, type: TEXT, position: { x: 0, y: 0, w: 4, h: 2 }, config: { content: hi } }',
    '',
  ].join('\n');

afterAll(cleanupTemp);

/** One GET with the Host header given as is (fetch would set its own). */
function get(port: number, path: string, host: string): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port, path, headers: { host } }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (d: string) => {
        body += d;
        // The event stream never ends: its first event is enough.
        if (path === '/api/events') res.destroy();
      });
      res.on('close', () => resolve({ status: res.statusCode ?? 0, body }));
    });
    req.on('error', reject);
    req.end();
  });
}

describe('wsc preview: only its own origin', () => {
  test('Host evil.example, a rebinding name or another port: 421 and no model; the loopback names: 200', async () => {
    const served = await servePreview(['--dir', join(root, 'fixtures/example'), '--no-data']);
    const port = Number(new URL(served.url).port);
    try {
      for (const host of ['evil.example', `evil.example:${port}`, `127.0.0.1:${port + 1}`, '127.0.0.1']) {
        for (const path of ['/', '/api/model', '/api/events', '/app.js']) {
          const r = await get(port, path, host);
          expect({ host, path, status: r.status }).toEqual({ host, path, status: 421 });
          expect(r.body).not.toContain('SELECT');
          expect(r.body).not.toContain('event:');
        }
      }
      for (const host of [`127.0.0.1:${port}`, `localhost:${port}`, `[::1]:${port}`, `LOCALHOST:${port}`]) {
        const model = await get(port, '/api/model', host);
        expect({ host, status: model.status }).toEqual({ host, status: 200 });
        expect(model.body).toContain('revenue-overview');
        const events = await get(port, '/api/events', host);
        expect(events.body).toContain('event: hello');
      }
    } finally {
      const r = await served.stop();
      expect(r.code, r.stderr).toBe(0);
    }
  });
});

describe('wsc preview --out: file names are the safe form of the slug', () => {
  test('a slug holding markup: files named after its safe stem, inside --out, no markup in a name', async () => {
    // Beside a dashboard of a plain slug (the example's were four more pictures to draw, to the same end).
    const dir = writeFiles({
      'wsc.yaml': 'environments: { dev: { embedded: true } }\n',
      'workbooks/plain.yaml': workbook('revenue-overview'),
      'workbooks/pv.yaml': workbook('pv-<img src=x onerror=alert(1)>'),
    });
    const out = tempDir('wsc-svg-');
    const r = await runCli(['preview', '--dir', dir, '--out', out]);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    const names = readdirSync(out).sort();
    expect(names).toEqual(
      ['pv-img-src-x-onerror-alert-1.lg', 'revenue-overview.lg'].flatMap((n) => [`${n}.png`, `${n}.svg`]),
    );
    for (const n of names) expect(n).toMatch(/^[a-z0-9_-]+(\.[0-9a-f]+)?\.(lg|md|sm|xs)\.(svg|png)$/);
    expect(r.stdout).toContain(`wrote ${join(out, 'pv-img-src-x-onerror-alert-1.lg.svg')}`);
  });

  test('two slugs with one safe stem: two files, each with a hash of its slug, none overwritten', async () => {
    const dir = writeFiles({
      'wsc.yaml': 'environments: { dev: { embedded: true } }\n',
      'workbooks/a.yaml': workbook('Team Board!'),
      'workbooks/b.yaml': workbook('team_board'.replace('_', '-')),
    });
    const out = tempDir('wsc-svg-');
    const r = await runCli(['preview', '--dir', dir, '--out', out]);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    const names = readdirSync(out);
    // Two pictures, each as SVG and PNG.
    expect(names).toHaveLength(4);
    for (const n of names) expect(n).toMatch(/^team-board\.[0-9a-f]{8}\.lg\.(svg|png)$/);
    expect(new Set(names.map((n) => n.replace(/\.(svg|png)$/, ''))).size).toBe(2);
  });
});
