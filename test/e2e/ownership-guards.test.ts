// Ownership cannot be switched off or forged from outside (issue 34, items
// 1-3): a record removed, damaged or naming another bundle never lets apply
// overwrite a UI edit, and a forged record never makes prune delete. The
// built CLI against the emulator; outside edits made through its API as a
// UI (or anyone with edit rights) would.
import { describe, expect, test } from 'vitest';
import { writes } from '../../src/emulator/index.js';
import { api, pid, reportsIn, workbooksIn, writeBundle } from './helpers/bundles.js';
import { e2eSuite, type Emulator, emulatorEnv, runCli, target, withEmulator } from './helpers/index.js';
import { editFile } from '../helpers/edit-file.js';

e2eSuite();

const named = (bundle: string) => `bundle: ${bundle}\nenvironments:\n  test:\n    deploymentId: 1\n`;
const cli = (args: string[], dir: string, emu: Emulator) =>
  runCli([...args, '--dir', dir, ...target(emu)], { env: emulatorEnv });
const reportPath = (id: number) => `/api/v1/deployments/1/reports/${id}`;

/** A bundle of one report with a title, applied; the live report. */
async function applied(emu: Emulator, bundle = 'team-a') {
  const dir = writeBundle({
    wscYaml: named(bundle),
    files: {
      'reports/r.yaml': `kind: Report\npublicId: ${pid(1)}\nname: R\ntitle: From the bundle\nsqlQuery: select 1\n`,
    },
  });
  expect((await cli(['apply', '--auto-approve'], dir, emu)).code).toBe(0);
  return { dir, report: reportsIn(emu).find((r) => r.publicId === pid(1))! };
}

describe('a UI save that replaces or damages the record does not switch the guard off', () => {
  test.each([
    ['removed', undefined, '! record missing — edited outside wsc?'],
    ['"x"', 'x', '! record malformed (it is not an object) — edited outside wsc?'],
    ['{bundle: 5}', { bundle: 5 }, '! record malformed (it names no bundle) — edited outside wsc?'],
    ['[1,2]', [1, 2], '! record malformed (it is not an object) — edited outside wsc?'],
  ])(
    'record %s with a UI title: shown, left alone (exit 5); --overwrite-ui-edits ADDR proceeds',
    async (_, wsc, mark) => {
      await withEmulator({}, async (emu) => {
        const { dir, report } = await applied(emu);
        const meta = wsc === undefined ? { note: 'saved by the UI' } : { note: 'saved by the UI', wsc };
        expect((await api(emu, 'PUT', reportPath(report.id), { title: 'From the UI', meta })).status).toBe(200);

        const p = await cli(['plan'], dir, emu);
        expect(p.stdout).toContain(mark);
        expect(p.stdout).toContain(`wsc apply --overwrite-ui-edits report/${pid(1)}`);
        emu.clearLog();
        const a = await cli(['apply', '--auto-approve'], dir, emu);
        expect(a.code).toBe(5);
        expect(writes(emu.log)).toEqual([]);
        expect(reportsIn(emu)[0]!.title).toBe('From the UI');

        const forced = await cli(['apply', '--auto-approve', '--overwrite-ui-edits', `report/${pid(1)}`], dir, emu);
        expect(forced.code).toBe(0);
        const now = reportsIn(emu)[0]!;
        expect(now.title).toBe('From the bundle');
        // the UI's other meta member is not lost, and the record is back
        expect(now.meta).toMatchObject({ note: 'saved by the UI', wsc: { bundle: 'team-a' } });
        expect((await cli(['plan', '--detailed-exitcode'], dir, emu)).code).toBe(0);
      });
    },
  );
});

describe("another bundle's resource", () => {
  test('is never taken over silently: shown, left alone; --overwrite-ui-edits is not enough; --take-over ADDR is', async () => {
    await withEmulator({}, async (emu) => {
      const { report } = await applied(emu, 'team-b');
      await api(emu, 'PUT', reportPath(report.id), { title: 'From the UI', meta: report.meta });
      const mine = writeBundle({
        wscYaml: named('team-a'),
        files: {
          'reports/r.yaml': `kind: Report\npublicId: ${pid(1)}\nname: R\ntitle: Team A's\nsqlQuery: select 1\n`,
        },
      });
      const p = await cli(['plan'], mine, emu);
      expect(p.stdout).toContain('! owned by bundle "team-b"');
      // The command names the run's bundle and deployment: followed from anywhere, it acts on the same.
      const run = `--dir ${mine} ${target(emu).join(' ')}`;
      expect(p.stdout).toContain(`take it over with \`wsc apply --take-over report/${pid(1)} ${run}\``);
      emu.clearLog();
      expect((await cli(['apply', '--auto-approve'], mine, emu)).code).toBe(5);
      expect((await cli(['apply', '--auto-approve', '--overwrite-ui-edits'], mine, emu)).code).toBe(5);
      const json = await cli(['apply', '--auto-approve', '--output', 'json'], mine, emu);
      expect(json.code).toBe(5);
      expect(JSON.parse(json.stdout)).toMatchObject({
        status: 'blocked',
        skipped: [{ address: `report/${pid(1)}`, blocked: true }],
      });
      expect(writes(emu.log)).toEqual([]);
      const typo = await cli(['apply', '--auto-approve', '--take-over', `report/${pid(1).slice(0, -1)}x`], mine, emu);
      expect(typo.code).toBe(3);
      expect(typo.stderr).toContain(`Did you mean \`report/${pid(1)}\`?`);
      const taken = await cli(['apply', '--auto-approve', '--take-over', `report/${pid(1)}`], mine, emu);
      expect(taken.code).toBe(0);
      expect(reportsIn(emu)[0]).toMatchObject({ title: "Team A's", meta: { wsc: { bundle: 'team-a' } } });
    });
  });
});

describe('a forged record never makes prune delete', () => {
  test('a report given {bundle: <ours>, hash: "0"} in the UI: listed, not deleted, not even with --overwrite-ui-edits alone', async () => {
    await withEmulator({}, async (emu) => {
      const { dir } = await applied(emu);
      const made = await api(emu, 'POST', '/api/v1/deployments/1/reports', { name: 'Not ours', publicId: pid(9) });
      expect(made.status).toBe(200);
      const id = (made.body as { id: number }).id;
      await api(emu, 'PUT', reportPath(id), { meta: { wsc: { bundle: 'team-a', hash: '0' } } });

      const p = await cli(['plan', '--prune'], dir, emu);
      expect(p.stdout).toContain(
        `report/${pid(9)} is left alone (its record names this bundle but is not one wsc wrote`,
      );
      emu.clearLog();
      expect((await cli(['apply', '--auto-approve', '--prune'], dir, emu)).code).toBe(5);
      expect((await cli(['apply', '--auto-approve', '--prune', '--overwrite-ui-edits'], dir, emu)).code).toBe(5);
      expect(writes(emu.log)).toEqual([]);
      expect(reportsIn(emu).some((r) => r.id === id)).toBe(true);
      // an address that is neither in the bundle nor a delete of the plan is refused, with prune too
      const unknown = await cli(
        ['apply', '--auto-approve', '--prune', '--overwrite-ui-edits', 'report/nothing000000'],
        dir,
        emu,
      );
      expect(unknown.code).toBe(3);
      expect(writes(emu.log)).toEqual([]);
      // named explicitly, it goes
      const named = await cli(
        ['apply', '--auto-approve', '--prune', '--overwrite-ui-edits', `report/${pid(9)}`],
        dir,
        emu,
      );
      expect(named.code).toBe(0);
      expect(reportsIn(emu).some((r) => r.id === id)).toBe(false);
    });
  });

  test('a report of ours edited in the UI after its last apply is not pruned without --overwrite-ui-edits', async () => {
    await withEmulator({}, async (emu) => {
      const { dir, report } = await applied(emu);
      await api(emu, 'PUT', reportPath(report.id), { title: 'From the UI', meta: report.meta });
      writeBundle({ wscYaml: named('team-a') }, dir);
      const { rmSync } = await import('node:fs');
      rmSync(`${dir}/reports/r.yaml`);
      const p = await cli(['plan', '--prune'], dir, emu);
      expect(p.stdout).toContain('edited outside wsc since the last apply: title');
      // The way forward is the run's (--prune kept: without it, apply deletes nothing).
      const del = `apply --prune --overwrite-ui-edits report/${pid(1)} --dir ${dir} ${target(emu).join(' ')}`;
      expect(p.stdout).toContain(`keep it by adding its file back, or delete it with \`wsc ${del}\``);
      emu.clearLog();
      expect((await cli(['apply', '--auto-approve', '--prune'], dir, emu)).code).toBe(5);
      expect(writes(emu.log)).toEqual([]);
      // Followed as printed (not on a terminal: confirmed by the flag).
      const followed = await runCli([...del.split(' '), '--auto-approve'], { env: emulatorEnv });
      expect(followed.code, followed.stdout + followed.stderr).toBe(0);
      expect(reportsIn(emu)).toEqual([]);
    });
  });
});

describe('the read-to-write window of a report write (issue 34, item 10)', () => {
  test("a meta member the UI added after the plan's read survives the write: the report is read again just before it", async () => {
    const { rewritingProxy } = await import('./helpers/rewriting-proxy.js');
    await withEmulator({}, async (emu) => {
      const { dir, report } = await applied(emu);
      // the UI adds a member of its own; the list the plan reads is served as it was before that
      await api(emu, 'PUT', reportPath(report.id), { meta: { ...report.meta, note: 'added in the UI' } });
      const hideNote = (v: unknown): unknown => {
        if (Array.isArray(v)) return v.map(hideNote);
        if (v === null || typeof v !== 'object') return v;
        const out: Record<string, unknown> = {};
        for (const [k, x] of Object.entries(v)) if (k !== 'note') out[k] = hideNote(x);
        return out;
      };
      const proxy = await rewritingProxy(emu.url, {
        answer: (path, body) => (path === '/api/v1/deployments/1/reports' ? hideNote(body) : body),
      });
      try {
        const { writeFileSync } = await import('node:fs');
        writeFileSync(
          `${dir}/reports/r.yaml`,
          `kind: Report\npublicId: ${pid(1)}\nname: R\ntitle: Changed in the bundle\nsqlQuery: select 1\n`,
        );
        const a = await runCli(['apply', '--auto-approve', '--dir', dir, ...target(proxy)], { env: emulatorEnv });
        expect(a.code).toBe(0);
        const seen = proxy.seen.map((s) => `${s.method} ${s.path}`);
        const put = seen.indexOf(`PUT ${reportPath(report.id)}`);
        expect(seen[put - 1]).toBe(`GET ${reportPath(report.id)}`);
      } finally {
        await proxy.close();
      }
      const now = reportsIn(emu)[0]!;
      expect(now.title).toBe('Changed in the bundle');
      expect(now.meta).toMatchObject({ note: 'added in the UI', wsc: { bundle: 'team-a' } });
    });
  });
});

describe("the read-to-write window of a workbook's draft (issue 43, item 10)", () => {
  const DEP = '/api/v1/deployments/1';

  /** The workbook `sales` charting two reports (widgets w0, w1), applied; the bundle then moves w0. */
  async function setUp(emu: Emulator) {
    const dir = writeBundle({ reports: 2, workbook: true, dashboard: true, wscYaml: named('team-a') });
    expect((await cli(['apply', '--auto-approve'], dir, emu)).code).toBe(0);
    const file = `${dir}/workbooks/sales.yaml`;
    editFile(file, '{ x: 0, y: 0, w: 6, h: 4 }', '{ x: 6, y: 0, w: 6, h: 4 }');
    const wb = (await api(emu, 'GET', `${DEP}/workbooks?first=100`)).body.items[0];
    return { dir, wb: wb as { id: number; meta: { dashboardDraft: { widgets: { id: string; position: object }[] } } } };
  }

  /** The UI's edit of one widget's position, made after the plan's read: the list still shows the old draft. */
  async function editedAfterRead(emu: Emulator, wb: Awaited<ReturnType<typeof setUp>>['wb'], id: string, h: number) {
    const { rewritingProxy } = await import('./helpers/rewriting-proxy.js');
    const draft = structuredClone(wb.meta.dashboardDraft);
    const w = draft.widgets.find((x) => x.id === id)!;
    w.position = { ...w.position, h };
    expect((await api(emu, 'PUT', `${DEP}/workbooks/by-slug/sales`, { meta: { dashboardDraft: draft } })).status).toBe(
      200,
    );
    const stale = (body: unknown) => {
      const b = body as { items?: { id: number; meta: unknown }[] };
      for (const item of b.items ?? []) if (item.id === wb.id) item.meta = wb.meta;
      return body;
    };
    return rewritingProxy(emu.url, { answer: (path, body) => (path === `${DEP}/workbooks` ? stale(body) : body) });
  }

  const positions = (emu: Emulator) => {
    const draft = (workbooksIn(emu)[0]!.meta as { dashboardDraft: { widgets: { id: string; position: object }[] } })
      .dashboardDraft;
    return Object.fromEntries(draft.widgets.map((w) => [w.id, w.position]));
  };

  test('a UI edit of another widget made after the plan read the draft is kept: the workbook is read again just before the write', async () => {
    await withEmulator({}, async (emu) => {
      const { dir, wb } = await setUp(emu);
      const proxy = await editedAfterRead(emu, wb, 'w1', 8);
      try {
        const a = await runCli(['apply', '--auto-approve', '--dir', dir, ...target(proxy)], { env: emulatorEnv });
        expect(a.code, a.stdout + a.stderr).toBe(0);
        const seen = proxy.seen.map((s) => `${s.method} ${s.path}`);
        const put = seen.indexOf(`PUT ${DEP}/workbooks/by-slug/sales`);
        expect(seen[put - 1]).toBe(`GET ${DEP}/workbooks/${wb.id}`);
      } finally {
        await proxy.close();
      }
      expect(positions(emu)).toEqual({ w0: { x: 6, y: 0, w: 6, h: 4 }, w1: { x: 0, y: 4, w: 6, h: 8 } });
      // the next plan keeps the UI's edit, as one made before the plan
      const p = await cli(['plan', '--detailed-exitcode'], dir, emu);
      expect(p.code, p.stdout).toBe(0);
    });
  });

  test('a UI edit of the very widget this apply changes, made after the read: the write fails (draft_changed), nothing is overwritten', async () => {
    await withEmulator({}, async (emu) => {
      const { dir, wb } = await setUp(emu);
      const proxy = await editedAfterRead(emu, wb, 'w0', 2);
      let a;
      try {
        a = await runCli(['apply', '--auto-approve', '--dir', dir, ...target(proxy)], { env: emulatorEnv });
      } finally {
        await proxy.close();
      }
      expect(a.code).toBe(1); // nothing applied
      expect(a.stderr + a.stdout).toContain(
        'workbook/sales: its dashboard draft was changed outside wsc after the plan read it (widget w0), and this apply changes the same; nothing was written.',
      );
      expect(positions(emu)['w0']).toEqual({ x: 0, y: 0, w: 6, h: 2 });
      const p = await cli(['plan'], dir, emu);
      expect(p.stdout).toContain(
        'changed outside wsc and in the bundle since the last apply: meta.dashboardDraft widget w0',
      );
      expect(a.stdout).toContain('Re-running apply plans again: it shows the draft edited outside wsc');
      // followed: the re-run leaves it alone (exit 5) and names the two ways forward
      const again = await cli(['apply', '--auto-approve'], dir, emu);
      expect(again.code).toBe(5);
      expect(again.stdout).toContain('--overwrite-ui-edits workbook/sales');
    });
  });
});
