// What `wsc apply` prints when the plan holds no request (render/apply.ts's renderApplyNothing).
import { describe, expect, test } from 'vitest';
import { renderApplyNothing } from '../../src/render/apply.js';
import { executablePlan } from '../core/builders.js';

const matching = executablePlan([]);
const kept = executablePlan([], {
  bundle: 'b',
  drift: [
    {
      address: 'workbook/sales',
      field: 'name',
      live: 'Sales (UI)',
      bundle: 'Sales',
      changed: 'outside',
      apply: 'keep',
    },
  ],
});

describe('apply with nothing to send', () => {
  test('says the deployment matches the bundle', () => {
    expect(renderApplyNothing(matching, 'bundle', false)).toBe('No changes. The deployment matches the bundle.\n');
  });

  test('never says it matches when a field kept as edited outside wsc differs, and names it', () => {
    const text = renderApplyNothing(kept, 'bundle', false);
    expect(text.split('\n')[0]).toBe(
      'No changes to make. 1 field differs from the bundle, kept as edited outside wsc.',
    );
    expect(text).not.toContain('matches');
    expect(text).toContain('workbook/sales');
    expect(text.endsWith('\n')).toBe(true);
  });

  test('--output json: the result of an apply that sent nothing, with the drift', () => {
    const json = JSON.parse(renderApplyNothing(kept, 'bundle', true)) as Record<string, unknown>;
    expect(json).toMatchObject({
      status: 'applied',
      counts: { created: 0, updated: 0, adopted: 0, published: 0 },
      resources: [],
      applied: [],
      failed: [],
      skipped: [],
    });
    expect(json.drift).toEqual([kept.drift![0]]);
  });
});
