// `wsc apply` end to end: the built CLI against the emulator on a free
// loopback port. Each test asserts the exit code, the output and the
// emulator's request log.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { requests, writes } from '../../src/emulator/index.js';
import { pid, reportsIn, workbooksIn, writeBundle } from './helpers/bundles.js';
import {
  copyFixture,
  e2eSuite,
  emulatorEnv,
  expectRefusedUnsent,
  runCli,
  target,
  withEmulator,
} from './helpers/index.js';

// Spawning CLIs on a busy 2-core machine: generous limits; dist/ is built once up front.
e2eSuite();

describe('wsc apply', () => {
  test('applies to an empty deployment in dependency order; applying again sends no writes and the plan is empty', async () => {
    const dir = writeBundle({ workbook: true, dashboard: true, publish: true, reports: 3, looseReports: 2 });
    await withEmulator({}, async (emu) => {
      const args = ['--dir', dir, ...target(emu)];
      const first = await runCli(['apply', '--auto-approve', ...args], { env: emulatorEnv });
      expect(first.stderr).not.toMatch(/internal error/i);
      expect(first.code).toBe(0);
      expect(first.stdout.split('\n\n').at(-1)).toBe('Apply complete: 6 created, 0 updated, 0 adopted, 1 published.\n');
      // progress went to stderr, one line per request as it ended, and a line per kind after its last request
      const progress = first.stderr.split('\n');
      const kindLine = (title: string) => progress.findIndex((l) => l.startsWith(`${title}:`));
      const lastOf = (re: RegExp) => progress.findLastIndex((l) => re.test(l));
      expect(progress.filter((l) => /^ {2}done {4}report\//.test(l))).toHaveLength(5);
      expect(progress[kindLine('Reports')]).toBe('Reports: 5 of 5 applied');
      expect(kindLine('Reports')).toBeGreaterThan(lastOf(/^ {2}done {4}report\//));
      expect(kindLine('Dashboards')).toBeGreaterThan(lastOf(/dashboard draft\)$/));
      expect(kindLine('Publish')).toBeGreaterThan(lastOf(/publish dashboard\)$/));
      // A kind's line never precedes a line of its own requests: no header claims an order the graph does not keep.
      expect(first.stderr).not.toMatch(/Phase \d\/4/);

      const wb = workbooksIn(emu).filter((w) => w.slug === 'sales');
      expect(wb).toHaveLength(1);
      const reports = reportsIn(emu);
      expect(reports.map((r) => r.publicId).sort()).toEqual([pid(0), pid(1), pid(2), pid(1000), pid(1001)]);
      // references resolved: reports live in the workbook, widgets chart the reports by numeric id
      const byPid = new Map(reports.map((r) => [r.publicId, r]));
      for (let i = 0; i < 3; i++) expect(byPid.get(pid(i))?.workbookId).toBe(wb[0]!.id);
      const widgets = (wb[0]!.meta['dashboardDraft'] as { widgets: { config: { reportId: number } }[] }).widgets;
      expect(widgets.map((w) => w.config.reportId)).toEqual([0, 1, 2].map((i) => byPid.get(pid(i))!.id));
      expect(wb[0]!.dashboardPublished).toMatchObject({ title: 'Sales' });

      // order of the writes: workbook, then its reports, then the draft, then publish
      const w = writes(emu.log);
      const kind = (e: (typeof w)[number]) =>
        e.method === 'POST' && e.path.endsWith('/publish')
          ? 'publish'
          : e.method === 'POST'
            ? 'report'
            : (e.requestBody as { meta?: { dashboardDraft?: unknown } })?.meta?.dashboardDraft
              ? 'draft'
              : 'workbook';
      const kinds = w.map(kind);
      expect(kinds.filter((k) => k === 'workbook')).toHaveLength(1);
      const lastIndex = (k: (typeof kinds)[number]) => kinds.lastIndexOf(k);
      expect(kinds.indexOf('workbook')).toBeLessThan(kinds.indexOf('report'));
      // every report that the draft charts was created before the draft was written
      expect(w.findIndex((e) => kind(e) === 'draft')).toBeGreaterThan(
        Math.max(
          ...[0, 1, 2].map((i) => w.findIndex((e) => (e.requestBody as { publicId?: string })?.publicId === pid(i))),
        ),
      );
      expect(lastIndex('publish')).toBe(w.length - 1);
      expect(w).toHaveLength(1 + 5 + 1 + 1);
      // report creates carry their publicId
      for (const e of requests(emu.log, 'POST', /\/reports$/))
        expect((e.requestBody as { publicId?: string }).publicId).toMatch(/^rep\d{9}$/);

      emu.clearLog();
      const second = await runCli(['apply', '--auto-approve', ...args], { env: emulatorEnv });
      expect(second.code).toBe(0);
      expect(second.stdout).toBe('No changes. The deployment matches the bundle.\n');
      expect(emu.log.length).toBeGreaterThan(0);
      expect(writes(emu.log)).toEqual([]);

      const plan = await runCli(['plan', '--detailed-exitcode', ...args], { env: emulatorEnv });
      expect(plan.code).toBe(0);
    });
  });

  test('without a terminal and without --auto-approve: exit 3 with the hint, and no request of any kind', async () => {
    const dir = writeBundle({ reports: 1 });
    await expectRefusedUnsent(
      ['apply'],
      dir,
      'apply needs confirmation: pass --auto-approve when not on a terminal',
      (emu) => expect(reportsIn(emu)).toEqual([]),
    );
  });

  test('--output json prints the result as JSON on stdout', async () => {
    const dir = writeBundle({ looseReports: 2 });
    await withEmulator({}, async (emu) => {
      const r = await runCli(['apply', '--auto-approve', '--output', 'json', '--dir', dir, ...target(emu)], {
        env: emulatorEnv,
      });
      expect(r.code).toBe(0);
      const json = JSON.parse(r.stdout);
      expect(json).toMatchObject({
        formatVersion: 1,
        deploymentId: 1,
        status: 'applied',
        counts: { created: 2, updated: 0, adopted: 0, published: 0 },
      });
      expect(json.applied.map((a: { address: string }) => a.address).sort()).toEqual([
        `report/${pid(1000)}`,
        `report/${pid(1001)}`,
      ]);
    });
  });

  test('--target applies only the named resource (and what it needs)', async () => {
    const dir = writeBundle({ workbook: true, reports: 2, looseReports: 1 });
    await withEmulator({}, async (emu) => {
      const r = await runCli(
        ['apply', '--auto-approve', '--target', `report/${pid(1)}`, '--dir', dir, ...target(emu)],
        { env: emulatorEnv },
      );
      expect(r.code).toBe(0);
      expect(r.stdout.split('\n\n').at(-1)).toBe('Apply complete: 2 created, 0 updated, 0 adopted, 0 published.\n');
      expect(reportsIn(emu).map((x) => x.publicId)).toEqual([pid(1)]);
      expect(workbooksIn(emu).map((w) => w.slug)).toEqual(['sales']);
      expect(writes(emu.log)).toHaveLength(2);
    });
  });

  test('publish: after the upsert; not again when the published dashboard matches; again when the draft changes', async () => {
    const dir = writeBundle({ workbook: true, dashboard: true, publish: true, reports: 1 });
    await withEmulator({}, async (emu) => {
      const args = ['--dir', dir, ...target(emu)];
      expect((await runCli(['apply', '--auto-approve', ...args], { env: emulatorEnv })).code).toBe(0);
      const w = writes(emu.log);
      const publish = w.findIndex((e) => e.method === 'POST' && /\/workbooks\/\d+\/publish$/.test(e.path));
      const draft = w.findIndex(
        (e) => e.method === 'PUT' && (e.requestBody as { meta?: { dashboardDraft?: unknown } })?.meta?.dashboardDraft,
      );
      expect(publish).toBeGreaterThan(draft);
      expect(draft).toBeGreaterThanOrEqual(0);

      const again = await runCli(['plan', '--output', 'json', ...args], { env: emulatorEnv });
      expect(JSON.parse(again.stdout).summary).toMatchObject({ create: 0, update: 0, publish: 0 });

      writeBundle({ workbook: true, dashboard: true, publish: true, reports: 1, title: 'Sales, revised' }, dir);
      const changed = await runCli(['plan', '--output', 'json', ...args], { env: emulatorEnv });
      const wb = JSON.parse(changed.stdout).changes.find((c: { address: string }) => c.address === 'workbook/sales');
      expect(wb.actions).toEqual(['update', 'publish']);

      emu.clearLog();
      const applied = await runCli(['apply', '--auto-approve', ...args], { env: emulatorEnv });
      expect(applied.code).toBe(0);
      expect(applied.stdout.split('\n\n').at(-1)).toBe(
        'Apply complete: 0 created, 1 updated, 0 adopted, 1 published.\n',
      );
      expect(writes(emu.log).map((e) => `${e.method} ${e.path.replace(/\/\d+/g, '/N')}`)).toEqual([
        'PUT /api/v1/deployments/N/workbooks/by-slug/sales',
        'POST /api/v1/deployments/N/workbooks/N/publish',
      ]);
      expect(workbooksIn(emu)[0]!.dashboardPublished).toMatchObject({ title: 'Sales, revised' });
    });
  });

  test('the README "try it" flow runs on the embedded default with no server and no token', async () => {
    const dir = copyFixture('example');
    const env = { WSC_TOKEN: undefined };
    const validate = await runCli(['validate'], { cwd: dir, env });
    expect(validate.code).toBe(0);
    const plan = await runCli(['plan', '--detailed-exitcode'], { cwd: dir, env });
    expect(plan.code).toBe(2);
    const apply = await runCli(['apply', '--auto-approve'], { cwd: dir, env });
    expect(apply.stderr).not.toMatch(/internal error/i);
    expect(apply.code).toBe(0);
    expect(apply.stdout.split('\n\n').at(-1)).toMatch(
      /^Apply complete: [1-9]\d* created, 0 updated, 0 adopted, \d+ published\.\n$/,
    );
    const state = join(dir, '.wsc/state/local.json');
    expect(existsSync(state)).toBe(true);
    expect(readFileSync(state, 'utf8')).not.toContain('"reports":[]');
    const again = await runCli(['plan', '--detailed-exitcode'], { cwd: dir, env });
    expect(again.code).toBe(0);
  });
});
