// What `wsc apply` prints on stdout once it is done (render/apply.ts): the result of the requests sent
// (renderApplyOutcome), or of none (renderApplyNothing).
import { describe, expect, test } from 'vitest';
import type { ApplyResult } from '../../src/core/execute/index.js';
import type { ResourceChange } from '../../src/core/plan-model.js';
import { renderApplyNothing, renderApplyOutcome, renderApplySummary } from '../../src/render/apply.js';
import { plainStyle } from '../../src/render/style.js';
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
    expect(renderApplyNothing(matching, { dir: 'bundle' }, false)).toBe(
      'No changes. The deployment matches the bundle.\n',
    );
  });

  test('never says it matches when a field kept as edited outside wsc differs, and names it', () => {
    const text = renderApplyNothing(kept, { dir: 'bundle' }, false);
    expect(text.split('\n')[0]).toBe(
      'No changes to make. 1 field differs from the bundle, kept as edited outside wsc.',
    );
    expect(text).not.toContain('matches');
    expect(text).toContain('workbook/sales');
    expect(text.endsWith('\n')).toBe(true);
  });

  test('--output json: the result of an apply that sent nothing, with the drift', () => {
    const json = JSON.parse(renderApplyNothing(kept, { dir: 'bundle' }, true)) as Record<string, unknown>;
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

const leftAlone: ResourceChange = {
  address: 'report/revAAAAAAAA1',
  kind: 'report',
  actions: ['blocked'],
  changes: [],
  requests: [],
  blocked: {
    reason: 'ui-edit',
    message: 'edited outside wsc since the last apply: name',
    flag: '--overwrite-ui-edits report/revAAAAAAAA1',
  },
};
const withBlocked = executablePlan([leftAlone]);
const result: ApplyResult = {
  applied: [],
  failed: [],
  skipped: [],
  resources: [],
  counts: { created: 0, updated: 0, adopted: 0, published: 0 },
};
const summary = renderApplySummary(result, plainStyle);

describe('apply done', () => {
  test('after the plan shown above: a blank line, then the summary (its ways forward were in the plan)', () => {
    const o = { run: { dir: 'bundle' }, json: false, shownPlan: true };
    expect(renderApplyOutcome(withBlocked, result, plainStyle, o)).toBe(`\n${summary}`);
  });

  test('no plan shown (a saved plan): each resource left alone with its way forward, then the summary', () => {
    const run = { dir: 'bundle', env: 'prod', baseUrl: 'https://acme.example', deployment: 3 };
    const text = renderApplyOutcome(withBlocked, result, plainStyle, { run, json: false, shownPlan: false });
    const target = '--env prod --base-url https://acme.example --deployment 3';
    expect(text).toBe(
      '\nreport/revAAAAAAAA1 is left alone: take the live values into the file with ' +
        `\`wsc export --only report/revAAAAAAAA1 --into bundle ${target}\`, or overwrite it with ` +
        `\`wsc apply --overwrite-ui-edits report/revAAAAAAAA1 --dir bundle ${target}\`.\n${summary}`,
    );
    expect(
      renderApplyOutcome(executablePlan([]), result, plainStyle, { run: { dir: 'b' }, json: false, shownPlan: false }),
    ).toBe(summary);
  });

  test('--output json: the JSON alone, whether a plan was shown or not', () => {
    for (const shownPlan of [true, false]) {
      const text = renderApplyOutcome(withBlocked, result, plainStyle, {
        run: { dir: 'bundle' },
        json: true,
        shownPlan,
      });
      expect(JSON.parse(text)).toMatchObject({ formatVersion: 1, status: 'applied' });
    }
  });
});
