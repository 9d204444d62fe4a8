// The data-model path is bounded whatever the answers (issue 43): a crafted
// or huge `/v1/meta`, a Core Data API that never answers, a content API that
// fails while the model is being read, a "minted" token that is not one, and
// a plan saved with the check off. The built CLI against the emulator, with a
// hostile Core Data API or platform of the test suite in front where needed.
// The runs that wait out the check's budget give it a short one
// (WSC_SEMANTIC_TIMEOUT=1): the same code paths, in a second instead of ten;
// the 10 s default is test/api/semantic-budget.test.ts's, on a fake clock.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import type { MetaAnswer } from '../../src/domain/data-model.js';
import { hostilePlatform } from '../helpers/hostile-platform.js';
import {
  e2eSuite,
  type Emulator,
  emulatorEnv,
  runCli,
  target,
  withCoreDataApi,
  withEmulator,
  writeFiles,
} from './helpers/index.js';

e2eSuite(60_000);

/** Members no one would name: a plan that compares each against the bundle's names in full hangs. */
const TYPO =
  'kind: Report\npublicId: semBound0001\nname: B\njsonQuery:\n  measures: [orders.cuont]\n  dimensions: [nowhere.x]\n';
const GOOD = 'kind: Report\npublicId: semBound0002\nname: G\njsonQuery:\n  measures: [subscriptions.arr]\n';

/** The semantic check's budget given to the runs that wait it out (WSC_SEMANTIC_TIMEOUT), in seconds. */
const BUDGET_S = 1;

/** `wsc plan` of these files by the built launcher against emu: its result, and how long it took. */
async function timedPlan(emu: Emulator, files: Record<string, string>, env: Record<string, string> = {}) {
  const started = Date.now();
  const r = await runCli(['plan', '--dir', writeFiles(files), ...target(emu)], {
    env: { ...emulatorEnv, ...env },
    spawn: true,
  });
  return { r, ms: Date.now() - started };
}

describe('a crafted or huge /v1/meta does not hang plan', () => {
  const timed = async (meta: string) => {
    return await withCoreDataApi({ meta, members: [] }, async (emu) => {
      return timedPlan(emu, { 'reports/b.yaml': TYPO });
    });
  };

  test('900 members of 30,000 characters (27 MB): plan ends in seconds, Cube decides', async () => {
    const long = (i: number) => `orders.${String(i).padStart(6, '0')}${'x'.repeat(30_000)}`;
    const meta: MetaAnswer = {
      cubes: [{ name: 'orders', measures: Array.from({ length: 900 }, (_, i) => ({ name: long(i), type: 'number' })) }],
    };
    const { r, ms } = await timed(JSON.stringify(meta));
    // The planner knows none of the names: Cube refuses, in its words; no suggestion out of a 30,000-char name.
    expect(r.code, r.stderr).toBe(3);
    expect(r.stdout).toContain("Cube refuses the query: Cube 'orders' not found for path 'orders.cuont'");
    expect(r.stdout).not.toContain('xxxxxxxxxx');
    expect(ms).toBeLessThan(20_000);
  });

  test('400,000 members matching nothing: plan ends in seconds', async () => {
    const meta: MetaAnswer = {
      cubes: [
        {
          name: 'orders',
          dimensions: Array.from({ length: 400_000 }, (_, i) => ({
            name: `orders.d${i.toString(36)}q`,
            type: 'string',
          })),
        },
      ],
    };
    const { r, ms } = await timed(JSON.stringify(meta));
    expect(r.code, r.stderr).toBe(3);
    expect(r.stdout).toContain("Cube refuses the query: Cube 'orders' not found for path 'orders.cuont'");
    expect(ms).toBeLessThan(20_000);
  });
});

describe('a silent Core Data API costs the run its budget, not minutes', () => {
  test('a WSC_SEMANTIC_TIMEOUT that is not a number of seconds above 0: exit 3, nothing sent', async () => {
    await withEmulator({}, async (emu) => {
      const dir = writeFiles({ 'reports/g.yaml': GOOD });
      for (const bad of ['soon', '0']) {
        const r = await runCli(['plan', '--dir', dir, ...target(emu)], {
          env: { ...emulatorEnv, WSC_SEMANTIC_TIMEOUT: bad },
        });
        expect(r.code).toBe(3);
        expect(r.stderr).toContain(`WSC_SEMANTIC_TIMEOUT must be a number of seconds above 0, got "${bad}"`);
        expect(r.stderr).toMatch(/semantic_timeout_invalid/);
      }
      expect(emu.log).toEqual([]);
    });
  });

  test('/v1/meta never answers: plan warns after the budget (WSC_SEMANTIC_TIMEOUT) and goes on (exit 0)', async () => {
    await withCoreDataApi({ meta: { cubes: [] }, silentMeta: true }, async (emu) => {
      const { r, ms } = await timedPlan(emu, { 'reports/g.yaml': GOOD }, { WSC_SEMANTIC_TIMEOUT: String(BUDGET_S) });
      expect(r.code, r.stderr).toBe(0);
      expect(r.stdout).toContain('Plan: 1 to create');
      expect(r.stderr).toContain(
        `no answer within ${BUDGET_S} s, the semantic check's time budget (WSC_SEMANTIC_TIMEOUT)`,
      );
      expect(r.stderr).toMatch(/warning the semantic check did not run/);
      // The budget was waited out, and it was the one given, not the default 10 s.
      expect(ms).toBeGreaterThanOrEqual(BUDGET_S * 1000);
      expect(ms).toBeLessThan(9_000);
    });
  });

  test('a planner that never answers: its questions end after the budget, warnings and no error (exit 0)', async () => {
    await withCoreDataApi(
      {
        meta: { cubes: [{ name: 'subscriptions', measures: [{ name: 'subscriptions.arr', type: 'number' }] }] },
        planner: 'silent',
      },
      async (emu, cube) => {
        const hidden = GOOD.replace('subscriptions.arr]', 'subscriptions.arr]\n  dimensions: [subscriptions.id]');
        const { r, ms } = await timedPlan(
          emu,
          { 'reports/g.yaml': hidden },
          { WSC_SEMANTIC_TIMEOUT: String(BUDGET_S) },
        );
        expect(r.code, r.stderr).toBe(0);
        expect(r.stdout).toContain(
          '`subscriptions.id` is not public in the data model (primary keys are private unless `public: true`); ' +
            "Cube's planner could not be asked (not asked within the time budget), so it may be a hidden member",
        );
        expect(cube.log.some((e) => e.path.endsWith('/v1/sql'))).toBe(true);
        expect(ms).toBeGreaterThanOrEqual(BUDGET_S * 1000);
        expect(ms).toBeLessThan(9_000);
      },
    );
  });

  test('a content API failing (502) ends the run at once, whatever the model read is waiting for', async () => {
    await withCoreDataApi({ meta: { cubes: [] }, silentMeta: true }, async (emu, cube) => {
      // The model's own requests pass; the live read's lists fail.
      const gw = await hostilePlatform(emu.url, {
        fail: (p) => (/\/(reports|workbooks|folders)$/.test(p) ? 502 : undefined),
      });
      try {
        const started = Date.now();
        const r = await runCli(['plan', '--dir', writeFiles({ 'reports/g.yaml': GOOD }), ...target(gw)], {
          env: emulatorEnv,
          spawn: true,
        });
        const ms = Date.now() - started;
        expect(r.code, r.stderr).not.toBe(0);
        expect(r.stderr).toContain('502');
        // The model read was under way (the Core Data API was asked) and did not hold the process.
        expect(cube.log.some((e) => e.path.endsWith('/v1/meta'))).toBe(true);
        expect(ms).toBeLessThan(8_000);
      } finally {
        await gw.close();
      }
    });
  });
});

describe('a minted token that is not one is never sent', () => {
  const withToken = async (token: string) =>
    withEmulator({}, async (emu) => {
      const gw = await hostilePlatform(emu.url, {
        answer: (p, body) => (p.endsWith('/token') ? { ...(body as object), cubeApiToken: token } : body),
      });
      try {
        const started = Date.now();
        const r = await runCli(['plan', '--dir', writeFiles({ 'reports/g.yaml': GOOD }), ...target(gw)], {
          env: emulatorEnv,
        });
        return { r, ms: Date.now() - started, core: emu.log.filter((e) => e.path.startsWith('/cubejs-api/')) };
      } finally {
        await gw.close();
      }
    });

  test('a token holding CR/LF: the check is skipped with a warning at once (not an internal error)', async () => {
    const { r, ms, core } = await withToken('eyJ.abc\r\nX-Injected: 1');
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toContain(
      'the minted token holds characters an HTTP header cannot carry (a line break or a control character); ' +
        'the token was not sent',
    );
    expect(r.stderr).not.toContain('internal error');
    expect(core).toEqual([]);
    expect(ms).toBeLessThan(10_000);
  });

  test("the platform's own token handed back as the minted one: refused, the platform token never goes to the Core Data API", async () => {
    const { r, core } = await withToken('dev-token');
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toContain(
      'the platform answered with the token wsc signs in with, not a deployment token; the token was not sent',
    );
    expect(core).toEqual([]);
  });
});

describe('a plan saved with the check off', () => {
  test('records it, and apply PLANFILE says so', async () => {
    await withEmulator({}, async (emu) => {
      const dir = writeFiles({ 'reports/g.yaml': GOOD });
      const file = join(dir, 'plan.json');
      const p = await runCli(['plan', '--skip-semantic-check', '--out', file, '--dir', dir, ...target(emu)], {
        env: emulatorEnv,
      });
      expect(p.code, p.stderr).toBe(0);
      expect(JSON.parse(readFileSync(file, 'utf8')).semanticCheck).toEqual({
        status: 'off',
        reason: '--skip-semantic-check',
      });
      const a = await runCli(['apply', file, '--dir', dir, ...target(emu)], { env: emulatorEnv });
      expect(a.code, a.stderr).toBe(0);
      expect(a.stderr).toContain(
        'warning this plan was saved with the semantic check off (--skip-semantic-check): its queries were not ' +
          'checked against the data model.',
      );
      // A plan saved with the check on says nothing of it.
      const dir2 = writeFiles({ 'reports/g.yaml': GOOD.replace('semBound0002', 'semBound0003') });
      const file2 = join(dir2, 'plan.json');
      expect((await runCli(['plan', '--out', file2, '--dir', dir2, ...target(emu)], { env: emulatorEnv })).code).toBe(
        0,
      );
      const a2 = await runCli(['apply', file2, '--dir', dir2, ...target(emu)], { env: emulatorEnv });
      expect(a2.code, a2.stderr).toBe(0);
      expect(a2.stderr).not.toContain('semantic check');
    });
  });
});
