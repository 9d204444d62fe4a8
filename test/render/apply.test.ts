// Apply's progress lines and result, as printed (plain style).
import { describe, expect, test } from 'vitest';
import { INTERRUPTED, type ApplyResult } from '../../src/core/execute/index.js';
import type { Plan, PlannedRequest } from '../../src/core/plan-model.js';
import {
  applyStatus,
  renderApplyEvent,
  renderApplyJson,
  renderApplySummary,
  renderInterrupted,
} from '../../src/render/apply.js';
import { decideStyle, plainStyle } from '../../src/render/style.js';
import { spinnerText } from '../../src/render/progress.js';
import { readSettings } from '../../src/env.js';
import { ApiError } from '../../src/errors.js';

const wb1: PlannedRequest = {
  id: 'workbook/sales#upsert',
  address: 'workbook/sales',
  phase: 1,
  operation: { op: 'upsertWorkbook', slug: 'sales', body: {} },
  dependsOn: [],
};
const wb3: PlannedRequest = { ...wb1, id: 'workbook/sales#draft', phase: 3, dependsOn: ['report/revAAAAAAAA1#create'] };
const rep: PlannedRequest = {
  id: 'report/revAAAAAAAA1#create',
  address: 'report/revAAAAAAAA1',
  phase: 2,
  operation: { op: 'createReport', body: { publicId: 'revAAAAAAAA1' } },
  dependsOn: [],
};
const adopt: PlannedRequest = {
  id: 'report/adoAAAAAAAA1#adopt',
  address: 'report/adoAAAAAAAA1',
  phase: 2,
  operation: { op: 'updateReport', reportId: 9, body: { publicId: 'adoAAAAAAAA1' } },
  dependsOn: [],
};

const plan = { formatVersion: 1, environment: 'staging', deploymentId: 12 } as Plan;
const pos = { file: 'reports/revenue.yaml', line: 2, col: 1 };
const conflict = new ApiError(
  {
    method: 'POST',
    path: '/api/v1/deployments/12/reports',
    status: 409,
    serverMessage: 'publicId already used',
    code: 'public_id_taken',
  },
  'publicId revAAAAAAAA1 (report/revAAAAAAAA1, reports/revenue.yaml) is already used by a report in deployment 11.',
  { hint: 'Set `publicIds: per-deployment` for the environment "staging" in wsc.yaml.' },
);

const pub: PlannedRequest = {
  id: 'workbook/sales#publish',
  address: 'workbook/sales',
  phase: 4,
  operation: { op: 'publishWorkbook', workbook: 3, body: {} },
  dependsOn: ['workbook/sales#draft'],
};

const ok: ApplyResult = {
  applied: [
    { request: wb1, id: 3 },
    { request: rep, id: 40, recovered: true },
    { request: adopt, id: 9 },
    { request: wb3, id: 3 },
  ],
  failed: [],
  skipped: [],
  resources: [
    { address: 'workbook/sales', kind: 'workbook', actions: ['create'], status: 'applied', done: ['create'], id: 3 },
    {
      address: 'report/revAAAAAAAA1',
      kind: 'report',
      actions: ['create'],
      status: 'applied',
      done: ['create'],
      recovered: true,
      id: 40,
    },
    { address: 'report/adoAAAAAAAA1', kind: 'report', actions: ['adopt'], status: 'applied', done: ['adopt'], id: 9 },
  ],
  counts: { created: 1, updated: 0, adopted: 1, published: 0, recovered: 1 },
};

// The workbook was created, its dashboard and publish were not: it is listed as created only.
const partial: ApplyResult = {
  applied: [
    { request: wb1, id: 3 },
    { request: adopt, id: 9 },
  ],
  failed: [{ request: rep, error: conflict, pos }],
  skipped: [
    { request: wb3, reason: 'depends on report/revAAAAAAAA1#create which failed' },
    { request: pub, reason: 'depends on report/revAAAAAAAA1#create which failed' },
  ],
  resources: [
    {
      address: 'workbook/sales',
      kind: 'workbook',
      actions: ['create', 'publish'],
      status: 'partial',
      done: ['create'],
      id: 3,
    },
    { address: 'report/revAAAAAAAA1', kind: 'report', actions: ['create'], status: 'failed', done: [], pos },
    { address: 'report/adoAAAAAAAA1', kind: 'report', actions: ['adopt'], status: 'applied', done: ['adopt'], id: 9 },
  ],
  counts: { created: 1, updated: 0, adopted: 1, published: 0 },
};

describe('apply output', () => {
  test('progress lines', () => {
    const lines = [
      renderApplyEvent({ type: 'phase-start', phase: 2, total: 2 }, plainStyle),
      renderApplyEvent({ type: 'phase-start', phase: 0, total: 1 }, plainStyle),
      renderApplyEvent({ type: 'request-start', request: rep }, plainStyle),
      renderApplyEvent({ type: 'request-done', request: rep, id: 40, recovered: true }, plainStyle),
      renderApplyEvent({ type: 'request-done', request: adopt, id: 9, recovered: false }, plainStyle),
      renderApplyEvent({ type: 'request-fail', request: rep, error: conflict, pos }, plainStyle),
      renderApplyEvent(
        { type: 'request-skip', request: wb3, reason: 'depends on report/revAAAAAAAA1#create which failed' },
        plainStyle,
      ),
      renderApplyEvent({ type: 'phase-end', phase: 2, applied: 1, failed: 1, skipped: 0 }, plainStyle),
    ];
    expect(lines.filter(Boolean).join('')).toMatchInlineSnapshot(`
      "  done    report/revAAAAAAAA1 (create report, id 40; already there with the same content: an earlier attempt whose answer was lost, or another run)
        done    report/adoAAAAAAAA1 (adopt report 9)
        failed  report/revAAAAAAAA1 (create report): publicId revAAAAAAAA1 (report/revAAAAAAAA1, reports/revenue.yaml) is already used by a report in deployment 11.
        skipped workbook/sales (upsert workbook with its dashboard draft): depends on report/revAAAAAAAA1#create which failed
      Reports: 1 of 2 applied, 1 failed
      "
    `);
  });

  test('summary when everything applied', () => {
    expect(applyStatus(ok)).toBe('applied');
    expect(renderApplySummary(ok, plainStyle)).toMatchInlineSnapshot(`
      "Apply complete: 1 created, 0 updated, 1 adopted, 0 published, 1 found already there. 1 report was found already there with the same content (an earlier attempt whose answer was lost, or another run): read back, not duplicated.
      "
    `);
  });

  test('creates found already there are counted once, as that, with one note per kind', () => {
    const ua: PlannedRequest = {
      id: 'user-attribute/region#create',
      address: 'user-attribute/region',
      phase: 0,
      operation: { op: 'createUserAttribute', body: { name: 'region', type: 'string' } },
      dependsOn: [],
    };
    const found: ApplyResult = {
      applied: [
        { request: rep, id: 40, recovered: true },
        { request: ua, id: 5, recovered: true },
        { request: wb1, id: 3 },
      ],
      failed: [],
      skipped: [],
      resources: [
        // the workbook created and the report found already there, as in `ok`
        ...ok.resources.slice(0, 2),
        {
          address: 'user-attribute/region',
          kind: 'user-attribute',
          actions: ['create'],
          status: 'applied',
          done: ['create'],
          recovered: true,
          id: 5,
        },
      ],
      counts: { created: 1, updated: 0, adopted: 0, published: 0, recovered: 2 },
    };
    expect(renderApplySummary(found, plainStyle)).toBe(
      'Apply complete: 1 created, 0 updated, 0 adopted, 0 published, 2 found already there. ' +
        '1 report was found already there with the same content (an earlier attempt whose answer was lost, or another run): ' +
        'read back, not duplicated. ' +
        "1 user attribute was already made by another run: read back and brought to the bundle's content, not duplicated.\n",
    );
  });

  test('summary of a partial apply lists applied, failed (file, request, status, server message, hint) and skipped', () => {
    expect(applyStatus(partial)).toBe('partial');
    expect(applyStatus({ ...partial, applied: [] })).toBe('failed');
    expect(renderApplySummary(partial, plainStyle)).toMatchInlineSnapshot(`
      "Apply partly failed: 2 requests applied, 1 failed, 2 skipped (1 created, 0 updated, 1 adopted, 0 published).

      Applied:
        workbook/sales (create, id 3) — partly, see below
        report/adoAAAAAAAA1 (adopt, id 9)

      Failed:
        report/revAAAAAAAA1  reports/revenue.yaml:2:1
          POST /api/v1/deployments/12/reports -> 409: publicId already used
          publicId revAAAAAAAA1 (report/revAAAAAAAA1, reports/revenue.yaml) is already used by a report in deployment 11.
          Hint: Set \`publicIds: per-deployment\` for the environment "staging" in wsc.yaml.

      Skipped:
        workbook/sales (upsert workbook with its dashboard draft): depends on report/revAAAAAAAA1#create which failed
        workbook/sales (publish dashboard): depends on report/revAAAAAAAA1#create which failed

      Re-running apply alone will fail the same way for 1 request: change what the messages above say first (what was applied is not repeated).
      "
    `);
  });

  test('summary of an interrupted apply: headed as interrupted, no Failed section; nothing applied yet is a failure (exit 1), some is partial (exit 4)', () => {
    const interrupted: ApplyResult = {
      applied: [],
      failed: [],
      skipped: [wb1, rep].map((request) => ({ request, reason: INTERRUPTED })),
      resources: [
        { address: 'workbook/sales', kind: 'workbook', actions: ['create'], status: 'skipped', done: [] },
        { address: 'report/revAAAAAAAA1', kind: 'report', actions: ['create'], status: 'skipped', done: [] },
      ],
      counts: { created: 0, updated: 0, adopted: 0, published: 0 },
    };
    expect(applyStatus(interrupted)).toBe('failed');
    expect(applyStatus({ ...interrupted, applied: [{ request: adopt, id: 9 }] })).toBe('partial');
    expect(renderApplySummary(interrupted, plainStyle)).toMatchInlineSnapshot(`
      "Apply interrupted: 0 requests applied, 0 failed, 2 skipped (0 created, 0 updated, 0 adopted, 0 published).

      Skipped:
        workbook/sales (upsert workbook): not started: apply was interrupted
        report/revAAAAAAAA1 (create report): not started: apply was interrupted

      Re-running apply converges (the apply was interrupted): what was applied is not repeated.
      "
    `);
    expect(renderInterrupted('SIGTERM', plainStyle)).toMatchInlineSnapshot(`
      "
      Interrupted (SIGTERM): no new request will start; waiting for those in flight to end, to report what was applied. Interrupt again to stop at once (the outcome of the requests in flight is then unknown; re-running apply converges).
      "
    `);
  });

  test('json result', () => {
    const json = JSON.parse(renderApplyJson(plan, partial));
    expect(json).toMatchObject({ formatVersion: 1, environment: 'staging', deploymentId: 12, status: 'partial' });
    expect(json.failed).toEqual([
      {
        request: 'report/revAAAAAAAA1#create',
        address: 'report/revAAAAAAAA1',
        file: 'reports/revenue.yaml',
        line: 2,
        col: 1,
        code: 'public_id_taken',
        message: conflict.message,
        method: 'POST',
        path: '/api/v1/deployments/12/reports',
        status: 409,
        serverMessage: 'publicId already used',
        hint: conflict.hint,
      },
    ]);
    const why = 'depends on report/revAAAAAAAA1#create which failed';
    expect(json.skipped).toEqual([
      { request: 'workbook/sales#draft', address: 'workbook/sales', reason: why },
      { request: 'workbook/sales#publish', address: 'workbook/sales', reason: why },
    ]);
    // What each resource carried out, as the result holds it (the workbook: created, not published), and the
    // counts as the summary says them.
    expect(json.resources[0]).toEqual(partial.resources[0]);
    expect(json.counts).toEqual({ created: 1, updated: 0, adopted: 1, published: 0 });
    expect(JSON.parse(renderApplyJson(plan, ok)).counts).toEqual({
      created: 1,
      updated: 0,
      adopted: 1,
      published: 0,
      recovered: 1,
    });
  });

  test('nothing applied and something failed: "Apply failed", and no Applied list', () => {
    const none: ApplyResult = {
      ...partial,
      applied: [],
      skipped: [...partial.skipped, { request: wb1, reason: 'not run' }, { request: adopt, reason: 'not run' }],
      resources: partial.resources.map((r) => ({
        ...r,
        status: r.status === 'failed' ? 'failed' : 'skipped',
        done: [],
      })),
      counts: { created: 0, updated: 0, adopted: 0, published: 0 },
    };
    expect(applyStatus(none)).toBe('failed');
    const out = renderApplySummary(none, plainStyle);
    expect(out.split('\n')[0]).toBe(
      'Apply failed: 0 requests applied, 1 failed, 4 skipped (0 created, 0 updated, 0 adopted, 0 published).',
    );
    expect(out).not.toContain('Applied:');
  });
});

describe('apply progress without a terminal', () => {
  test('plain lines, no spinner, whatever the stream', async () => {
    const { createProgress } = await import('../../src/commands/progress.js');
    let written = '';
    const p = createProgress({ style: plainStyle, write: (t) => (written += t), stream: process.stderr });
    p.onEvent({ type: 'phase-start', phase: 1, total: 1 });
    p.onEvent({ type: 'request-start', request: wb1 });
    p.onEvent({ type: 'request-done', request: wb1, id: 3, recovered: false });
    p.onEvent({ type: 'phase-end', phase: 1, applied: 1, failed: 0, skipped: 0 });
    p.stop();
    expect(written).toMatchInlineSnapshot(`
      "  done    workbook/sales (upsert workbook, id 3)
      Workbooks needed by reports: 1 of 1 applied
      "
    `);
  });
});

describe('apply progress: the strings render/ gives, the spinner decided once', () => {
  test("the spinner's text: the kinds under way in phase order, each settled/total", () => {
    const active = new Map([
      [3, { total: 5, settled: 2 }],
      [1, { total: 1, settled: 0 }],
    ] as const);
    expect(spinnerText(active)).toBe('Workbooks needed by reports 0/1 · Dashboards 2/5');
  });

  test('no spinner on a terminal of 0 columns (ora would spin forever), nor in CI', () => {
    const style = (columns: number | undefined, ci?: string) =>
      decideStyle({ isTTY: true, columns, settings: readSettings(ci ? { CI: ci } : {}), noColorFlag: false });
    expect(style(100).spinner).toBe(true);
    expect(style(0).spinner).toBe(false);
    expect(style(undefined).spinner).toBe(false);
    expect(style(100, 'true').spinner).toBe(false);
  });
});
