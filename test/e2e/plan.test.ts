// `wsc plan` end to end: the built CLI against the emulator on a free
// loopback port. Content is seeded through the emulator's HTTP API, as any
// client would, never through wsc itself.
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, test } from 'vitest';
import { derivePublicId } from '../../src/core/publicid.js';
import { generateSeed, LEGACY_PLACEHOLDER, requests, writes, type Emulator } from '../../src/emulator/index.js';
import { api, pid, writeBundle } from './helpers/bundles.js';
import {
  cleanupTemp,
  emulatorEnv,
  expectRefusedUnsent,
  runCli,
  target,
  tempDir,
  withEmulator,
} from './helpers/index.js';
import { editFile } from '../helpers/edit-file.js';
import { parseTimings } from '../../src/timings.js';

afterAll(cleanupTemp);

const dep = 1;
const base = `/api/v1/deployments/${dep}`;

/** What `writeBundle({ workbook, dashboard, publish, reports: n })` describes, written with plain HTTP. */
async function seedSameContent(emu: Emulator, n: number): Promise<void> {
  const wb = await api(emu, 'PUT', `${base}/workbooks/by-slug/SALES`, { name: 'Sales' });
  expect(wb.status).toBeLessThan(300);
  const ids: number[] = [];
  for (let i = 0; i < n; i++) {
    // Same query, other key order and formatting than the bundle's YAML mapping.
    const jsonQuery = JSON.stringify(
      { limit: i + 1, dimensions: ['orders.status'], measures: ['orders.count'] },
      null,
      4,
    );
    const r = await api(emu, 'POST', `${base}/reports`, {
      publicId: pid(i),
      name: `Report ${i}`,
      workbookId: wb.body.id,
      jsonQuery,
    });
    expect(r.status).toBeLessThan(300);
    ids.push(r.body.id);
  }
  const draft = {
    widgets: ids.map((id, i) => ({
      config: { reportId: id },
      position: { h: 4, w: 6, x: 0, y: i * 4 },
      type: 'CHART',
      id: `w${i}`,
    })),
    title: 'Sales',
  };
  expect(
    (await api(emu, 'PUT', `${base}/workbooks/by-slug/sales`, { meta: { dashboardDraft: draft } })).status,
  ).toBeLessThan(300);
  expect(
    (await api(emu, 'POST', `${base}/workbooks/${wb.body.id}/publish`, { workbookId: wb.body.id })).status,
  ).toBeLessThan(300);
}

/** A bundle (a published dashboard charting 3 reports) whose content the deployment already holds, log cleared. */
async function withSameContentThere(fn: (emu: Emulator, dir: string) => Promise<void>): Promise<void> {
  const dir = writeBundle({ workbook: true, dashboard: true, publish: true, reports: 3 });
  await withEmulator({}, async (emu) => {
    await seedSameContent(emu, 3);
    emu.clearLog();
    await fn(emu, dir);
  });
}

describe('wsc plan', () => {
  test('empty deployment: everything is created; --detailed-exitcode exits 2; nothing is written', async () => {
    const dir = writeBundle({ workbook: true, dashboard: true, publish: true, reports: 2, looseReports: 1 });
    await withEmulator({}, async (emu) => {
      const r = await runCli(['plan', '--detailed-exitcode', '--dir', dir, ...target(emu)], { env: emulatorEnv });
      expect(r.stderr).not.toMatch(/internal error/i);
      expect(r.code).toBe(2);
      expect(r.stdout).toContain('+ workbook/sales will be created and published');
      expect(r.stdout).toContain(`+ report/${pid(0)} will be created`);
      expect(r.stdout).toContain('workbookId: { $workbook: sales }');
      expect(r.stdout).toContain('Plan: 4 to create, 0 to update, 0 to adopt, 1 to publish.\n');
      expect(writes(emu.log)).toEqual([]);

      const j = await runCli(['plan', '--output', 'json', '--dir', dir, ...target(emu)], { env: emulatorEnv });
      expect(j.code).toBe(0);
      const out = JSON.parse(j.stdout);
      expect(out).toMatchObject({
        formatVersion: 1,
        deploymentId: 1,
        hasChanges: true,
        summary: { create: 4, publish: 1, noop: 0 },
      });
      expect(out.changes.map((c: { address: string; actions: string[] }) => [c.address, c.actions])).toEqual([
        ['workbook/sales', ['create', 'publish']],
        [`report/${pid(0)}`, ['create']],
        [`report/${pid(1)}`, ['create']],
        [`report/${pid(1000)}`, ['create']],
      ]);
    });
  });

  test('the same content already there: empty plan, exit 0, whatever key order and formatting', async () => {
    await withSameContentThere(async (emu, dir) => {
      const r = await runCli(['plan', '--detailed-exitcode', '--dir', dir, ...target(emu)], { env: emulatorEnv });
      expect(r.stderr).not.toMatch(/internal error/i);
      expect(r.stdout).toBe(
        'No changes. The deployment matches the bundle.\n4 unchanged, 0 unmanaged resources left alone.\n',
      );
      expect(r.code).toBe(0);
      expect(writes(emu.log)).toEqual([]);
    });
  });

  test('WSC_TIMINGS=1: a phase table on stderr, stdout and requests as without it', async () => {
    await withSameContentThere(async (emu, dir) => {
      const plain = await runCli(['plan', '--detailed-exitcode', '--dir', dir, ...target(emu)], { env: emulatorEnv });
      const plainRequests = emu.log.map((e) => `${e.method} ${e.path}`);
      emu.clearLog();
      const timed = await runCli(['plan', '--detailed-exitcode', '--dir', dir, ...target(emu)], {
        env: { ...emulatorEnv, WSC_TIMINGS: '1' },
      });
      expect(timed.code).toBe(0);
      expect(timed.stdout).toBe(plain.stdout);
      expect(emu.log.map((e) => `${e.method} ${e.path}`)).toEqual(plainRequests);
      expect(plain.stderr).not.toContain('timings');
      const t = parseTimings(timed.stderr);
      expect(t?.map((p) => p.phase)).toEqual([
        'start-up',
        'bundle',
        'read deployment',
        'plan',
        'semantic check',
        'output',
      ]);
      for (const p of t!) expect(p.cpuMs).toBeGreaterThanOrEqual(0);
      // The first phase is the process's start-up: never free.
      expect(t![0]!.wallMs).toBeGreaterThan(0);

      // A failing run still prints where its time went, after its error.
      const bad = await runCli(['plan', '--dir', dir, ...target(emu, 99)], {
        env: { ...emulatorEnv, WSC_TIMINGS: '1' },
      });
      expect(bad.code).not.toBe(0);
      expect(parseTimings(bad.stderr)?.map((p) => p.phase)).toEqual(['start-up', 'bundle', 'output']);
    });
  });

  test('one changed field: exactly that field in the JSON plan, and only it would be sent', async () => {
    const dir = writeBundle({ workbook: true, dashboard: true, publish: true, reports: 2 });
    const file = join(dir, 'reports/report-1.yaml');
    editFile(file, 'name: Report 1', 'name: Report one');
    await withEmulator({}, async (emu) => {
      await seedSameContent(emu, 2);
      const r = await runCli(['plan', '--output', 'json', '--detailed-exitcode', '--dir', dir, ...target(emu)], {
        env: emulatorEnv,
      });
      expect(r.code).toBe(2);
      const out = JSON.parse(r.stdout);
      expect(out.changes).toHaveLength(1);
      expect(out.changes[0]).toMatchObject({
        address: `report/${pid(1)}`,
        actions: ['update'],
        file: 'reports/report-1.yaml',
        fields: [{ path: 'name', before: 'Report 1', after: 'Report one' }],
        requests: [{ id: `report/${pid(1)}#update`, op: 'updateReport', phase: 2, dependsOn: [] }],
      });
      expect(out.summary).toMatchObject({ update: 1, noop: 2, create: 0 });
    });
  });

  test('reads live state with list pages only: ceil(R/500) + ceil(W/500) GETs and 1 of the root folders (no user attributes: the bundle has none)', async () => {
    const R = 1203;
    const W = 7;
    const dir = writeBundle({ reports: 2 });
    await withEmulator({ seed: generateSeed({ reports: R, workbooks: W }) }, async (emu) => {
      const r = await runCli(['plan', '--dir', dir, ...target(emu)], { env: emulatorEnv });
      expect(r.stderr).not.toMatch(/internal error/i);
      expect(r.code).toBe(0);
      expect(r.stdout).toContain(`0 unchanged, ${R + W} unmanaged resources left alone.`);
      const gets = requests(emu.log, 'GET');
      // No listed workbook is in a folder: the root folder list (empty) tells that none can be.
      expect(requests(emu.log, 'GET', '/api/v1/deployments/1/folders')).toHaveLength(1);
      // Beside the lists, the semantic check: the environments and /v1/meta (GETs), and a deployment token (POST).
      expect(gets).toHaveLength(Math.ceil(R / 500) + Math.ceil(W / 500) + 1 + 2);
      expect(requests(emu.log, 'GET', '/api/v1/user-attributes')).toEqual([]);
      expect(requests(emu.log, 'POST', '/api/v1/deployments/1/token')).toHaveLength(1);
      expect(emu.log).toHaveLength(gets.length + 1);
    });
  });

  test('--out saves a plan without the token; GITHUB_STEP_SUMMARY gets the markdown', async () => {
    const dir = writeBundle({ reports: 1 });
    const out = join(tempDir(), 'plan.json');
    const summary = join(tempDir(), 'summary.md');
    writeFileSync(summary, 'previous step\n');
    await withEmulator({}, async (emu) => {
      const r = await runCli(['plan', '--out', out, '--dir', dir, ...target(emu)], {
        env: { ...emulatorEnv, GITHUB_STEP_SUMMARY: summary },
      });
      expect(r.code).toBe(0);
      expect(r.stderr).toContain(`Saved the plan to ${out}.`);
      const text = readFileSync(out, 'utf8');
      expect(text).not.toContain('dev-token');
      const saved = JSON.parse(text);
      expect(saved).toMatchObject({
        savedPlanFormat: 1,
        environment: { baseUrl: emu.url, deploymentId: 1, embedded: false, publicIds: 'as-is' },
        plan: { fingerprints: [{ address: `report/${pid(0)}`, absent: true }] },
      });
      const md = readFileSync(summary, 'utf8');
      expect(md.startsWith('previous step\n### wsc plan:')).toBe(true);
      expect(md).toContain('| create | 1 |');
    });
  });

  test('--target keeps the resource and what it depends on; an unknown address is exit 3', async () => {
    const dir = writeBundle({ workbook: true, reports: 2, looseReports: 1 });
    await withEmulator({}, async (emu) => {
      const r = await runCli(
        ['plan', '--output', 'json', '--target', `report/${pid(0)}`, '--dir', dir, ...target(emu)],
        { env: emulatorEnv },
      );
      expect(r.code).toBe(0);
      expect(JSON.parse(r.stdout).changes.map((c: { address: string }) => c.address)).toEqual([
        'workbook/sales',
        `report/${pid(0)}`,
      ]);
      const bad = await runCli(['plan', '--target', 'workbook/sale', '--dir', dir, ...target(emu)], {
        env: emulatorEnv,
      });
      expect(bad.code).toBe(3);
      expect(bad.stderr).toContain('--target workbook/sale: no such resource in the bundle.');
      expect(bad.stderr).toContain('workbook/sales');
    });
  });

  test('adopt: a UI-made report (placeholder publicId) is adopted by one PUT, not created', async () => {
    const dir = writeBundle({
      files: {
        'reports/adopted.yaml': `kind: Report\npublicId: ${pid(7)}\nname: Adopted\nadopt: { deploymentId: 1, id: 1001 }\n`,
      },
    });
    await withEmulator({ seed: generateSeed({ reports: 0, workbooks: 0, legacyReports: 2 }) }, async (emu) => {
      const r = await runCli(['plan', '--output', 'json', '--dir', dir, ...target(emu)], { env: emulatorEnv });
      expect(r.stderr).not.toMatch(/internal error/i);
      expect(r.code).toBe(0);
      const out = JSON.parse(r.stdout);
      expect(out.changes).toEqual([
        {
          address: `report/${pid(7)}`,
          kind: 'report',
          actions: ['adopt', 'update'],
          liveId: 1001,
          livePublicId: pid(7),
          file: 'reports/adopted.yaml',
          line: 2,
          col: 1,
          fields: [
            { path: 'publicId', before: LEGACY_PLACEHOLDER, after: pid(7), line: 2, col: 1 },
            { path: 'name', before: 'Report 00002', after: 'Adopted', line: 3, col: 1 },
          ],
          requests: [{ id: `report/${pid(7)}#adopt`, op: 'updateReport', phase: 2, dependsOn: [] }],
        },
      ]);
      expect(out.summary).toMatchObject({ adopt: 1, update: 1, create: 0, unmanaged: { reports: 1 } });
      const human = await runCli(['plan', '--dir', dir, ...target(emu)], { env: emulatorEnv });
      expect(human.stdout).toContain(`→ report/${pid(7)} will be adopted (report id 1001) and updated`);
    });
  });

  test('publicIds: per-deployment plans the derived live publicId, distinct per deployment', async () => {
    await withEmulator({}, async (emu) => {
      const yaml = (d: number) =>
        `environments:\n  d${d}:\n    baseUrl: ${emu.url}\n    deploymentId: ${d}\n    token: \${env.WSC_TOKEN}\n    publicIds: per-deployment\n`;
      const dir = writeBundle({ reports: 1, wscYaml: `${yaml(1)}${yaml(2).replace('environments:\n', '')}` });
      const ids: string[] = [];
      for (const d of [1, 2]) {
        const r = await runCli(['plan', '--output', 'json', '--env', `d${d}`, '--dir', dir], { env: emulatorEnv });
        expect(r.stderr).not.toMatch(/internal error/i);
        expect(r.code).toBe(0);
        const change = JSON.parse(r.stdout).changes[0];
        expect(change.address).toBe(`report/${pid(0)}`);
        expect(change.livePublicId).toBe(derivePublicId(pid(0), d));
        ids.push(change.livePublicId);
      }
      expect(ids[0]).not.toBe(ids[1]);
    });
  });

  test('--output markdown prints the PR comment body; a bad WSC_REQUEST_TIMEOUT is exit 3 before any request', async () => {
    const dir = writeBundle({ reports: 1 });
    await withEmulator({}, async (emu) => {
      const md = await runCli(['plan', '--output', 'markdown', '--dir', dir, ...target(emu)], { env: emulatorEnv });
      expect(md.code).toBe(0);
      expect(md.stdout).toMatch(
        /^### wsc plan: <code>default<\/code> \(deployment 1\)\n\n\*\*Plan: 1 to create, 0 to update, 0 to adopt, 0 to publish\.\*\*\n/,
      );
      expect(md.stdout).toContain(
        `<details><summary>+ <code>report/${pid(0)}</code> will be created in <code>reports/report-0.yaml</code></summary>`,
      );
      emu.clearLog();
      const bad = await runCli(['plan', '--dir', dir, ...target(emu)], {
        env: { ...emulatorEnv, WSC_REQUEST_TIMEOUT: 'soon' },
      });
      expect(bad.code).toBe(3);
      expect(bad.stderr).toContain('WSC_REQUEST_TIMEOUT must be a number of seconds above 0, got "soon".');
      expect(emu.log).toEqual([]);
    });
  });

  test('unknown deployment: exit 1 with a clear message', async () => {
    const dir = writeBundle({ reports: 1 });
    await withEmulator({}, async (emu) => {
      const r = await runCli(['plan', '--dir', dir, ...target(emu, 99)], { env: emulatorEnv });
      expect(r.code).toBe(1);
      expect(r.stderr).toMatch(/deployment 99/i);
      expect(r.stderr).not.toMatch(/internal error| {4}at /);
      expect(r.stdout).toBe('');
    });
  });

  test('bad token: exit 1 with a hint about the token, never printing it', async () => {
    const dir = writeBundle({ reports: 1 });
    await withEmulator({}, async (emu) => {
      const r = await runCli(['plan', '--dir', dir, ...target(emu)], { env: { WSC_TOKEN: 'not-the-token-123' } });
      expect(r.code).toBe(1);
      expect(r.stderr).toMatch(/token/i);
      expect(r.stderr).toContain('WSC_TOKEN');
      expect(r.stderr).not.toContain('not-the-token-123');
      expect(r.stdout).toBe('');
    });
  });

  test('invalid bundle: exit 3 and not one request', async () => {
    const dir = writeBundle({
      reports: 1,
      files: { 'reports/bad.yaml': 'kind: Report\npublicId: badbadbadbad\nnmae: typo\n' },
    });
    await expectRefusedUnsent(['plan'], dir, 'reports/bad.yaml:3:1');
  });

  test('no saved plan is written when planning fails', async () => {
    const dir = writeBundle({ reports: 1, files: { 'reports/bad.yaml': 'kind: Report\n' } });
    const out = join(tempDir(), 'plan.json');
    await withEmulator({}, async (emu) => {
      const r = await runCli(['plan', '--out', out, '--dir', dir, ...target(emu)], { env: emulatorEnv });
      expect(r.code).toBe(3);
      expect(existsSync(out)).toBe(false);
    });
  });
});
