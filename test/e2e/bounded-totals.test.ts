// Bounded everything: lists whose pages are each under the answer cap but
// hold large items without end stop at a budget of bytes per command
// (`--max-list-bytes`, WSC_MAX_LIST_BYTES); export does not write a file
// larger than wsc reads as a bundle file; a saved plan is checked for its
// size and for being a regular file before it is read (a FIFO would block
// forever); the bundle directory a saved plan names may not lead out of the
// working directory through a symbolic link.
import { execFileSync } from 'node:child_process';
import {
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  renameSync,
  symlinkSync,
  truncateSync,
  writeFileSync,
} from 'node:fs';
import type { ServerResponse } from 'node:http';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { json, report, serve, type Seen } from '../api/server.js';
import { writeBundle } from './helpers/bundles.js';
import { e2eSuite, emulatorEnv, runCli, target, tempDir, withEmulator } from './helpers/index.js';

e2eSuite();

const env = { WSC_TOKEN: 'token-for-totals-123' };
const R = '/api/v1/deployments/1/reports';
const empty = { items: [], pageInfo: { hasNextPage: false, hasPreviousPage: false } };
const connection = (url: string) => ['--base-url', url, '--deployment', '1'];
const MiB = 1024 * 1024;

/** Report pages without end, one report of `bytes` of SQL each: every page far under the 32 MiB answer cap. */
function largePagesForever(bytes: number) {
  let next = 1;
  const sql = `select '${'x'.repeat(bytes)}'`;
  return serve((req: Seen, res: ServerResponse) => {
    const u = new URL(req.url, 'http://x');
    if (u.pathname !== R) return json(res, 200, empty);
    const id = next++;
    json(res, 200, {
      items: [report(id, { sqlQuery: sql })],
      pageInfo: { hasNextPage: true, hasPreviousPage: true, endCursor: `c${id}` },
    });
  });
}

describe('a budget of list bytes per command', () => {
  test.each([
    ['--max-list-bytes 20M', ['--max-list-bytes', '20M'], {}],
    ['WSC_MAX_LIST_BYTES=20971520', [], { WSC_MAX_LIST_BYTES: '20971520' }],
  ])('plan, pages of 4 MiB without end, %s: exit 1 after about 5 pages, no plan file', async (_, flag, extra) => {
    const s = await largePagesForever(4 * MiB);
    const out = join(tempDir(), 'plan.json');
    const started = Date.now();
    const r = await runCli(
      ['plan', '--out', out, ...flag, ...connection(s.url), '--dir', writeBundle({ looseReports: 1 })],
      {
        env: { ...env, ...extra },
        timeoutMs: 90_000,
      },
    );
    expect(r.code, r.stderr).toBe(1);
    expect(Date.now() - started).toBeLessThan(60_000);
    expect(r.stderr).toMatch(
      /GET \/api\/v1\/deployments\/1\/reports: the lists read by this command went past 20 MiB in all \(--max-list-bytes\); stopped reading, nothing written\. \[lists_too_large\]/,
    );
    expect(r.stderr).toMatch(/raise --max-list-bytes \(WSC_MAX_LIST_BYTES\)/);
    const pages = s.seen.filter((q) => q.url.startsWith(R)).length;
    expect(pages).toBeGreaterThanOrEqual(5);
    expect(pages).toBeLessThanOrEqual(6);
    expect(existsSync(out)).toBe(false);
  });

  test('export: the same server, no file written', async () => {
    const s = await largePagesForever(3 * MiB);
    const out = tempDir();
    const r = await runCli(['export', '--out', out, '--max-list-bytes', '16M', ...connection(s.url)], {
      env,
      cwd: tempDir(),
      timeoutMs: 90_000,
    });
    expect(r.code, r.stderr).toBe(1);
    expect(r.stderr).toContain('[lists_too_large]');
    const files = readdirSync(out, { recursive: true, withFileTypes: true }).filter((e) => !e.isDirectory());
    expect(files.map((e) => e.name)).toEqual([]);
  });

  test('a bad WSC_MAX_LIST_BYTES or --max-list-bytes: exit 3, nothing sent', async () => {
    const s = await largePagesForever(10);
    const dir = writeBundle({ looseReports: 1 });
    const bad = await runCli(['plan', ...connection(s.url), '--dir', dir], {
      env: { ...env, WSC_MAX_LIST_BYTES: 'lots' },
    });
    expect(bad.code).toBe(3);
    expect(bad.stderr).toMatch(/WSC_MAX_LIST_BYTES must be a size above 0, got "lots"\. \[max_list_bytes_invalid\]/);
    const flag = await runCli(['plan', '--max-list-bytes', '0', ...connection(s.url), '--dir', dir], { env });
    expect(flag.code).toBe(3);
    expect(flag.stderr).toMatch(/expected a size such as 536870912, 512M or 2G, got "0"/);
    expect(s.seen).toEqual([]);
  });
});

describe('export writes only files wsc reads back', () => {
  test('a report whose SQL is 6 MiB (the answer under its cap): exit 1 naming the file, no file left', async () => {
    const sql = `select '${'y'.repeat(6 * MiB)}'`;
    const s = await serve((req, res) => {
      const u = new URL(req.url, 'http://x');
      if (u.pathname === R) return json(res, 200, { ...empty, items: [report(7, { name: 'Huge', sqlQuery: sql })] });
      json(res, 200, empty);
    });
    const out = tempDir();
    const r = await runCli(['export', '--out', out, ...connection(s.url)], { env, cwd: tempDir(), timeoutMs: 90_000 });
    expect(r.code, r.stderr).toBe(1);
    expect(r.stderr).toMatch(
      /refusing to write \S+reports\/huge\.yaml: it would be 6\.0 MiB, over the 5\.0 MiB wsc reads as a bundle file, so the export could not be read back\. \[export_file_too_large\]/,
    );
    const files = readdirSync(out, { recursive: true, withFileTypes: true }).filter((e) => !e.isDirectory());
    expect(files.map((e) => e.name)).toEqual([]);
  });
});

describe('a saved plan is checked before it is read', () => {
  test('a FIFO: exit 3 at once, "not a regular file"', async () => {
    const dir = tempDir();
    const fifo = join(dir, 'plan.json');
    execFileSync('mkfifo', [fifo]);
    const started = Date.now();
    const r = await runCli(['apply', fifo, '--dir', dir], { env: emulatorEnv, spawn: true, timeoutMs: 20_000 });
    expect(r.code, r.stderr).toBe(3);
    expect(Date.now() - started).toBeLessThan(15_000);
    expect(r.stderr).toContain(
      `Cannot read the saved plan ${fifo}: not a regular file (a pipe, a device or a directory).`,
    );
  });

  test('a 400 MB file: refused by its size, without reading it', async () => {
    const dir = tempDir();
    const big = join(dir, 'plan.json');
    writeFileSync(big, '{');
    truncateSync(big, 400 * 1000 * 1000); // sparse: no disk used
    const r = await runCli(['apply', big, '--dir', dir], { env: emulatorEnv, spawn: true, timeoutMs: 30_000 });
    expect(r.code, r.stderr).toBe(3);
    expect(r.stderr).toContain(`Cannot read the saved plan ${big}: it is 381 MiB, over the 256 MiB wsc reads.`);
    expect(r.stderr).toContain('[plan_file_unreadable]');
  });

  test('its bundle directory swapped for a link to another bundle: refused, nothing sent', async () => {
    await withEmulator({}, async (emu) => {
      const work = tempDir();
      mkdirSync(join(work, 'bundle'));
      writeBundle({ looseReports: 1 }, join(work, 'bundle'));
      const elsewhere = writeBundle({ looseReports: 3 });
      const planFile = join(work, 'plan.json');
      const planned = await runCli(['plan', '--out', planFile, '--dir', 'bundle', ...target(emu)], {
        env: emulatorEnv,
        cwd: work,
      });
      expect(planned.code, planned.stderr).toBe(0);
      expect(JSON.parse(readFileSync(planFile, 'utf8')).bundleDir).toBe('bundle');
      renameSync(join(work, 'bundle'), join(work, 'reviewed'));
      symlinkSync(elsewhere, join(work, 'bundle'));
      emu.clearLog();
      const r = await runCli(['apply', planFile, ...target(emu)], { env: emulatorEnv, cwd: work });
      expect(r.code, r.stderr).toBe(3);
      expect(r.stderr).toContain(
        `The saved plan names the bundle directory "bundle", which resolves to ${elsewhere}, outside the directory wsc runs in`,
      );
      expect(r.stderr).toContain('[plan_dir_outside]');
      expect(emu.log).toEqual([]);
    });
  });
});
