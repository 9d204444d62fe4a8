// Property: for any dependency graph, failures and timings, the executor
// starts a request only after all its dependencies succeeded, never runs
// more than `concurrency` at once, skips exactly the requests downstream of a
// failure, and accounts for every request exactly once.
import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import type { Workbook } from '../../src/domain/wire.js';
import { execute } from '../../src/core/execute/index.js';
import type { ApiPort } from '../../src/core/api-port.js';
import type { Plan, PlannedRequest } from '../../src/core/plan-model.js';
import { ApiError } from '../../src/errors.js';
import { runs } from '../helpers/property.js';
import { executablePlan } from './builders.js';

interface Case {
  n: number;
  deps: number[][];
  fail: boolean[];
  delays: number[];
  concurrency: number;
}

const caseArb: fc.Arbitrary<Case> = fc.integer({ min: 1, max: 14 }).chain((n) =>
  fc.record({
    n: fc.constant(n),
    // dependencies only on earlier requests: a DAG
    deps: fc.tuple(
      ...Array.from({ length: n }, (_, i) =>
        fc.uniqueArray(fc.integer({ min: 0, max: Math.max(0, i - 1) }), { maxLength: i === 0 ? 0 : 3 }),
      ),
    ),
    fail: fc.array(fc.boolean(), { minLength: n, maxLength: n }),
    delays: fc.array(fc.integer({ min: 0, max: 3 }), { minLength: n, maxLength: n }),
    concurrency: fc.integer({ min: 1, max: 4 }),
  }),
);

const slug = (i: number) => `wb${i}`;

function planOf(c: Case): Plan {
  const p = executablePlan(
    Array.from({ length: c.n }, (_, i) => {
      const req: PlannedRequest = {
        id: `r${i}`,
        address: `workbook/${slug(i)}`,
        phase: 1,
        operation: { op: 'upsertWorkbook', slug: slug(i), body: {} },
        dependsOn: c.deps[i]!.map((d) => `r${d}`),
      };
      return {
        address: req.address,
        kind: 'workbook' as const,
        actions: ['create' as const],
        changes: [],
        requests: [req],
      };
    }),
  );
  p.summary.create = c.n;
  return p;
}

async function ticks(k: number) {
  for (let i = 0; i < k; i++) await new Promise((r) => setImmediate(r));
}

describe('execute: scheduling invariants', () => {
  test('dependencies first, bounded concurrency, exact skips, every request once', async () => {
    await fc.assert(
      fc.asyncProperty(caseArb, async (c) => {
        const started: number[] = [];
        const succeeded = new Set<number>();
        let inFlight = 0;
        let maxInFlight = 0;
        const port = {
          upsertWorkbookBySlug: async (s: string) => {
            const i = Number(s.slice(2));
            for (const d of c.deps[i]!) expect(succeeded.has(d)).toBe(true);
            started.push(i);
            inFlight++;
            maxInFlight = Math.max(maxInFlight, inFlight);
            await ticks(c.delays[i]!);
            inFlight--;
            if (c.fail[i]) throw new ApiError({ method: 'PUT', path: `/x/${s}`, status: 422 }, 'no');
            succeeded.add(i);
            return { id: i + 1 } as Workbook;
          },
        } as unknown as ApiPort;

        const result = await execute(planOf(c), port, { concurrency: c.concurrency });

        // expected: a request runs iff all its dependencies succeeded
        const ran = new Set<number>();
        const ok = new Set<number>();
        for (let i = 0; i < c.n; i++) {
          if (c.deps[i]!.every((d) => ok.has(d))) {
            ran.add(i);
            if (!c.fail[i]) ok.add(i);
          }
        }
        const idx = (id: string) => Number(id.slice(1));
        expect(new Set(started)).toEqual(ran);
        expect(started).toHaveLength(ran.size);
        expect(new Set(result.applied.map((a) => idx(a.request.id)))).toEqual(ok);
        expect(new Set(result.failed.map((f) => idx(f.request.id)))).toEqual(
          new Set([...ran].filter((i) => !ok.has(i))),
        );
        expect(new Set(result.skipped.map((s) => idx(s.request.id)))).toEqual(
          new Set([...Array(c.n).keys()].filter((i) => !ran.has(i))),
        );
        expect(result.applied.length + result.failed.length + result.skipped.length).toBe(c.n);
        for (const s of result.skipped) expect(s.reason).toMatch(/^depends on r\d+ which failed$/);
        expect(maxInFlight).toBeLessThanOrEqual(c.concurrency);
      }),
      { numRuns: runs(200), seed: 20261122 },
    );
  });
});

describe('execute: large plans', () => {
  test('10,000 independent requests all run, each once', async () => {
    const n = 10_000;
    const c: Case = {
      n,
      deps: Array.from({ length: n }, () => []),
      fail: Array(n).fill(false),
      delays: Array(n).fill(0),
      concurrency: 16,
    };
    let calls = 0;
    const port = { upsertWorkbookBySlug: async () => ({ id: ++calls }) as Workbook } as unknown as ApiPort;
    const result = await execute(planOf(c), port, { concurrency: 16 });
    expect(result.applied).toHaveLength(n);
    expect(calls).toBe(n);
  });
});
