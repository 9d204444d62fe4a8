import { describe, expect, it } from 'vitest';
import { plan } from '../../src/core/plan/index.js';
import { refuseDrift, refuseOtherRequests, requestDifferences } from '../../src/core/saved-plan-check.js';
import { StalePlanError, UsageError } from '../../src/errors.js';
import { ctx, desired, dReport, dWorkbook, errorOf, live, lReport, lWorkbook } from './builders.js';

/** The way forward the command gives (the plan's own `wsc plan … --out FILE`): carried as given. */
const AGAIN = 'Run `wsc plan --out p.json --dir d` again, review it, and apply the new plan: `wsc apply p.json`.';

const base = live({
  workbooks: [lWorkbook(7, 'sales', { name: 'Old' })],
  reports: [lReport(41, 'revqZ1x8Kp0a', { name: 'Revenue' })],
});
const bundle = (name: string) =>
  desired({
    workbooks: [dWorkbook('sales', { name })],
    reports: [dReport('revqZ1x8Kp0a', { name: 'Revenue' })],
  });
const saved = plan(bundle('Sales'), base, ctx());
const env = { deploymentId: 1, publicIds: 'as-is' as const };

describe('refuseDrift: what the saved plan read must be as it was', () => {
  it('passes when nothing the plan read changed', () => {
    expect(() => refuseDrift(saved, base, env, 'plan.json', AGAIN)).not.toThrow();
  });

  it('refuses a plan whose workbook changed since, naming the file, the count and each resource', () => {
    const now = live({
      ...base,
      workbooks: [lWorkbook(7, 'sales', { name: 'Edited', updatedAt: '2026-02-02T00:00:00.000Z' })],
    });
    const e = errorOf(() => refuseDrift(saved, now, env, 'plan.json', AGAIN));
    expect(e).toBeInstanceOf(StalePlanError);
    expect(e.code).toBe('plan_stale');
    expect(e.message).toBe(
      'The saved plan plan.json is stale: 1 resource changed since it was made. Nothing was applied.',
    );
    expect(e.details).toEqual(['workbook/sales: changed since it was planned (updated at 2026-02-02T00:00:00.000Z)']);
    expect(e.hint).toBe(AGAIN);
  });

  it('counts in the plural', () => {
    const now = live({ workbooks: [lWorkbook(9, 'sales', { name: 'Old' })] });
    expect(errorOf(() => refuseDrift(saved, now, env, 'p.json', AGAIN)).message).toContain('2 resources changed');
  });
});

describe('refuseOtherRequests: the file must hold the requests derived again', () => {
  it('passes when they are the same', () => {
    const again = plan(bundle('Sales'), base, ctx());
    expect(requestDifferences(saved, again)).toEqual([]);
    expect(() => refuseOtherRequests(saved, again, 'plan.json', '/w/bundle', AGAIN)).not.toThrow();
  });

  it('refuses a request changed since (a bundle edited after the plan was saved), naming the member', () => {
    const edited = plan(bundle('Sales, renamed'), base, ctx());
    const e = errorOf(() => refuseOtherRequests(saved, edited, 'plan.json', '/w/bundle', AGAIN));
    expect(e).toBeInstanceOf(UsageError);
    expect(e.code).toBe('saved_plan_differs');
    expect(e.message).toBe(
      'The saved plan plan.json does not hold the requests that the bundle in /w/bundle gives for this deployment. ' +
        'Nothing was applied.',
    );
    expect(e.details).toHaveLength(1);
    expect(e.details[0]).toMatch(
      /^.+: the file's upsert of workbook "sales" differs from the bundle's \(operation\.body\.name\)$/,
    );
  });

  it('refuses a request the file holds and the bundle does not give, and the reverse', () => {
    const none = plan(desired({}), base, ctx());
    expect(requestDifferences(saved, none)).toEqual([
      expect.stringMatching(/the file holds a upsert of workbook "sales" that the bundle does not give$/),
    ]);
    expect(requestDifferences(none, saved)).toEqual([
      expect.stringMatching(/the bundle gives a upsert of workbook "sales" that the file does not hold$/),
    ]);
  });
});
