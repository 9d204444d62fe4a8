import { describe, expect, it } from 'vitest';
import { plan } from '../../src/core/plan/index.js';
import { parseSavedPlan, savedPlanFlags, serializeSavedPlan } from '../../src/core/saved-plan.js';
import { UsageError } from '../../src/errors.js';
import { ctx, desired, dReport, dSalesCharting, dWorkbook, errorOf, live, lWorkbook } from './builders.js';

const p = plan(
  desired({
    workbooks: [dSalesCharting('revqZ1x8Kp0a')],
    reports: [dReport('revqZ1x8Kp0a', { name: 'R', workbookId: { $workbook: 'sales' } })],
  }),
  live({ workbooks: [lWorkbook(3, 'other')] }),
  ctx({ environment: 'staging', deploymentId: 12 }),
);
const env = {
  name: 'staging',
  baseUrl: 'https://acme.example.com',
  deploymentId: 12,
  embedded: false,
  publicIds: 'as-is' as const,
  token: 'super-secret-token-1234',
  authScheme: 'bearer',
  vars: { password: 'hunter2' },
};

describe('saved plans', () => {
  const text = serializeSavedPlan({
    wscVersion: '0.1.0',
    createdAt: '2026-11-22T08:00:00.000Z',
    environment: env,
    plan: p,
  });

  it('round-trips', () => {
    const saved = parseSavedPlan(text, 'plan.json');
    expect(saved.plan).toEqual(p);
    expect(saved.environment).toEqual({
      name: 'staging',
      baseUrl: 'https://acme.example.com',
      deploymentId: 12,
      embedded: false,
      publicIds: 'as-is',
    });
    expect(saved.savedPlanFormat).toBe(1);
    expect(text.endsWith('}\n')).toBe(true);
  });

  it('says the flags it was made with (savedPlanFlags): a policy only where the environment has another', () => {
    const made = (over: object) => ({ ...parseSavedPlan(text, 'plan.json'), ...over });
    const base = parseSavedPlan(text, 'plan.json');
    const revert = { ...base, plan: { ...base.plan, uiEdits: 'revert' as const } };
    expect(savedPlanFlags(revert, undefined)).toMatchObject({ uiEdits: 'revert' });
    expect(savedPlanFlags(revert, 'revert')).not.toHaveProperty('uiEdits');
    const keep = { ...base, plan: { ...base.plan, uiEdits: 'keep' as const } };
    expect(savedPlanFlags(keep, undefined)).not.toHaveProperty('uiEdits');
    expect(savedPlanFlags(keep, 'block')).toMatchObject({ uiEdits: 'keep' });
    const off = made({ targets: ['report/a'], semanticCheck: { status: 'off' } });
    expect(savedPlanFlags(off, undefined)).toEqual({ target: ['report/a'], prune: false, skipSemanticCheck: true });
  });

  it('keeps the dashboard diff of a draft, so apply PLANFILE shows it as plan did', () => {
    const widget = { id: 'w1', type: 'CHART', position: { x: 0, y: 0, w: 1, h: 1 } };
    const withIds = plan(
      desired({ workbooks: [dWorkbook('sales', { meta: { dashboardDraft: { widgets: [widget] } } })] }),
      live({
        workbooks: [
          lWorkbook(3, 'sales', {
            meta: { dashboardDraft: { widgets: [{ ...widget, position: { x: 2, y: 0, w: 1, h: 1 } }] } },
          }),
        ],
      }),
      ctx({ environment: 'staging', deploymentId: 12 }),
    );
    const dashboard = withIds.changes[0]!.changes[0]!.dashboard;
    expect(dashboard?.widgets).toEqual([
      { widget: 'w1', change: 'moved', before: { x: 2, y: 0 }, after: { x: 0, y: 0 } },
    ]);
    const saved = parseSavedPlan(
      serializeSavedPlan({
        wscVersion: '0.1.0',
        createdAt: '2026-11-22T08:00:00.000Z',
        environment: env,
        plan: withIds,
      }),
      'plan.json',
    );
    expect(saved.plan.changes[0]!.changes[0]!.dashboard).toEqual(dashboard);
  });

  it('never holds the token (nor anything else of the environment but where it is)', () => {
    expect(text).not.toContain('super-secret-token-1234');
    expect(text).not.toContain('hunter2');
    expect(text).not.toContain('authScheme');
  });

  it.each([
    ['not JSON', '{nope', 'plan.json is not a saved plan of wsc: it is not JSON.'],
    [
      'another format',
      JSON.stringify({ savedPlanFormat: 2 }),
      'plan.json is not a saved plan of wsc: it has savedPlanFormat 2, and this wsc reads format 1.',
    ],
    [
      'wrong shape',
      JSON.stringify({ ...JSON.parse(text), plan: { ...p, changes: 'x' } }),
      /plan\.json is not a saved plan of wsc: .* at plan\.changes\./,
    ],
    ['a plan output, not a saved plan', JSON.stringify({ formatVersion: 1, changes: [] }), /not a saved plan of wsc/],
    [
      'a dependency edited away (the executor could not run it)',
      text.replace(/"report\/revqZ1x8Kp0a#create"(\s*\])/, '"report/nope#create"$1'),
      /^plan\.json is not a saved plan of wsc: Request workbook\/sales#\w+ depends on report\/nope#create, which is not in the plan\.$/,
    ],
  ])('%s → usage error, exit 3', (_n, t, msg) => {
    const err = errorOf(() => parseSavedPlan(t, 'plan.json'), UsageError);
    expect(err.exitCode).toBe(3);
    expect(err.code).toBe('saved_plan_invalid');
    if (typeof msg === 'string') expect(err.message).toBe(msg);
    else expect(err.message).toMatch(msg);
  });
});
