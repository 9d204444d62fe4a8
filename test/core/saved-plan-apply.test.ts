import { isAbsolute } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  planDirOutside,
  refuseOtherDeployment,
  refuseOtherUiEdits,
  refusePlanDirName,
  refuseTargetWithPlan,
  savedPlanOwnership,
} from '../../src/core/saved-plan-apply.js';
import type { SavedPlanEnvironment } from '../../src/core/saved-plan.js';
import { errorOf } from './builders.js';

describe('the flags a saved plan refuses', () => {
  it('--target: none passes; any is refused (the plan already says what to change)', () => {
    expect(() => refuseTargetWithPlan([])).not.toThrow();
    const e = errorOf(() => refuseTargetWithPlan(['workbook/sales']));
    expect(e.code).toBe('target_with_plan');
    expect(e.exitCode).toBe(3);
    expect(e.hint).toBe('Make a new saved plan with `wsc plan --target ADDR --out FILE`.');
  });

  it('--ui-edits: absent, or the policy the plan was made with (keep when it names none), passes', () => {
    expect(() => refuseOtherUiEdits(undefined, undefined)).not.toThrow();
    expect(() => refuseOtherUiEdits(undefined, 'keep')).not.toThrow();
    expect(() => refuseOtherUiEdits('block', 'block')).not.toThrow();
  });

  it('--ui-edits: another policy is refused, naming both', () => {
    const e = errorOf(() => refuseOtherUiEdits(undefined, 'revert'));
    expect(e.code).toBe('ui_edits_with_plan');
    expect(e.message).toBe('--ui-edits revert cannot change a saved plan made with uiEdits keep.');
    expect(e.hint).toBe('Make a new saved plan with `wsc plan --ui-edits revert --out FILE`.');
    expect(errorOf(() => refuseOtherUiEdits('block', 'keep')).message).toContain('made with uiEdits block');
  });
});

describe('the bundle directory a saved plan names', () => {
  it.each(['bundle', 'a/b', './bundle', 'a..b', '.'])('%j stays inside', (rel) => {
    expect(() => refusePlanDirName(rel, isAbsolute)).not.toThrow();
  });

  it.each(['/etc', '..', '../x', 'a/../../x', 'a\\..\\x', 'a\u001bb', 'x\u0085'])('%j leads out or hides', (rel) => {
    const e = errorOf(() => refusePlanDirName(rel, isAbsolute));
    expect(e.code).toBe('plan_dir_outside');
    expect(e.message).toBe(
      `The saved plan names the bundle directory ${JSON.stringify(rel)}, outside the directory wsc runs in.`,
    );
    expect(e.hint).toBe('Give the bundle directory with --dir.');
  });

  it("absolute by the system's rule it is given", () => {
    expect(() => refusePlanDirName('C:x', () => false)).not.toThrow();
    expect(errorOf(() => refusePlanDirName('C:x', () => true)).code).toBe('plan_dir_outside');
  });

  it('a name that resolves outside (a link on the way) names where it leads', () => {
    expect(planDirOutside('b', '/elsewhere').message).toBe(
      'The saved plan names the bundle directory "b", which resolves to /elsewhere, outside the directory wsc ' +
        'runs in (a symbolic link on the way).',
    );
  });
});

describe('the deployment a saved plan was made for', () => {
  const saved: SavedPlanEnvironment = {
    name: 'staging',
    baseUrl: 'https://a.example',
    deploymentId: 12,
    embedded: false,
    publicIds: 'as-is',
  };

  it('the same host, deployment and publicId mode passes, whatever the environment is called now', () => {
    expect(() => refuseOtherDeployment(saved, { ...saved, name: 'renamed' })).not.toThrow();
  });

  it.each([
    [{ deploymentId: 13 }, 'but this run targets deployment 13 at https://a.example (environment prod).'],
    [{ baseUrl: 'https://b.example' }, 'but this run targets deployment 12 at https://b.example (environment prod).'],
    [{ embedded: true }, 'but this run targets deployment 12 of the embedded emulator (environment prod).'],
    [{ publicIds: 'per-deployment' as const }, 'with publicIds as-is (this run: per-deployment), but this run'],
  ])('%j differs: refused, naming both', (diff, says) => {
    const e = errorOf(() => refuseOtherDeployment(saved, { ...saved, name: 'prod', ...diff }));
    expect(e.code).toBe('plan_target_mismatch');
    expect(e.message).toMatch(
      /^The saved plan was made for deployment 12 at https:\/\/a\.example \(environment staging\)/,
    );
    expect(e.message).toContain(says);
  });
});

describe('the ownership a saved plan is derived again with', () => {
  it('no cap on deletes, the overrides of the flags, and the policy it was made with', () => {
    expect(savedPlanOwnership('b', true, { takeOver: ['report/x'], overwriteUiEdits: true }, 'block')).toEqual({
      bundle: 'b',
      prune: true,
      maxDeletes: Number.MAX_SAFE_INTEGER,
      overwrite: true,
      takeOver: ['report/x'],
      uiEdits: 'block',
    });
    expect(savedPlanOwnership('b', false, {}, undefined)).toEqual({
      bundle: 'b',
      prune: false,
      maxDeletes: Number.MAX_SAFE_INTEGER,
    });
  });
});
