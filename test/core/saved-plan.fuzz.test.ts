// Saved plans that were edited or damaged: one to three members anywhere in a
// saved plan's JSON set to random values or deleted. `wsc apply FILE` trusts
// a saved plan only as far as parseSavedPlan vouches for it, so parseSavedPlan
// must either refuse the file as a usage error (exit 3, `saved_plan_invalid`,
// naming the file) or return a plan the executor can run: its request graph
// builds (unique request ids, known dependencies, no cycle). Never a throw of
// another kind, which `wsc apply` would report as an internal error.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { buildGraph } from '../../src/core/plan/graph.js';
import { parseSavedPlan, serializeSavedPlan } from '../../src/core/saved-plan.js';
import { UsageError } from '../../src/errors.js';
import { damageJson, jsonDamage } from '../helpers/json-damage.js';
import { samplePlan } from '../render/plan-fixture.js';
import { runs } from '../helpers/property.js';

// Creates, updates, an adoption, a publish and a user attribute: requests of every kind, depending on each other.
const p = samplePlan();
const TEXT = serializeSavedPlan({
  wscVersion: '0.1.0',
  createdAt: '2026-11-23T08:00:00.000Z',
  environment: {
    name: 'staging',
    baseUrl: 'https://acme.example.com',
    deploymentId: p.deploymentId,
    embedded: false,
    publicIds: 'as-is',
  },
  plan: p,
});

describe('parseSavedPlan on edited or damaged files', () => {
  it('the undamaged plan has requests that depend on each other (the property starts from a runnable plan)', () => {
    const g = buildGraph(parseSavedPlan(TEXT, 'plan.json').plan);
    expect(g.requests.length).toBeGreaterThanOrEqual(5);
    expect([...g.deps.values()].some((d) => d.length > 0)).toBe(true);
  });

  it('refuses the file as a usage error naming it, or returns a plan whose request graph builds', () => {
    fc.assert(
      fc.property(fc.array(jsonDamage, { minLength: 1, maxLength: 3 }), (damages) => {
        const v: unknown = JSON.parse(TEXT);
        for (const d of damages) damageJson(v, d);
        const text = JSON.stringify(v);
        let saved;
        try {
          saved = parseSavedPlan(text, 'plan.json');
        } catch (e) {
          const where = `${String(e)}\n${JSON.stringify(damages)}`;
          expect(e, where).toBeInstanceOf(UsageError);
          expect((e as UsageError).code, where).toBe('saved_plan_invalid');
          expect((e as UsageError).exitCode, where).toBe(3);
          expect((e as UsageError).message, where).toMatch(/^plan\.json is not a saved plan of wsc: /);
          return;
        }
        expect(() => buildGraph(saved.plan), JSON.stringify(damages)).not.toThrow();
      }),
      { numRuns: runs(1000) },
    );
  });
});
