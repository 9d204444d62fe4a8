// Chaos on folders: every emulator fault at a 20% total rate on writes while
// the built CLI applies a bundle of nested folders (a folder create is not
// idempotent: an answer lost after the create committed must not make a
// second folder). Each run exits 0, or 4 and converges on a re-run without
// faults; at the end there is one folder per path and the plan is empty.
import { afterAll, describe, it, type TestContext } from 'vitest';
import { createEmulator, FAULT_KINDS, type FaultSpec } from '../../src/emulator/index.js';
import { cleanupTemp, runCli, writeFiles } from './helpers/index.js';

afterAll(cleanupTemp);

const SEEDS = [11, 23, 37];

function bundle(): Record<string, string> {
  const files: Record<string, string> = {};
  for (let i = 0; i < 6; i++) {
    const folder = `Area ${i % 3}/Team ${i % 2}/Sub ${i}`;
    files[`workbooks/w${i}.yaml`] = `kind: Workbook\nslug: w${i}\nname: W${i}\nfolder: ${folder}\n`;
    files[`reports/r${i}.yaml`] =
      `kind: Report\npublicId: chaosfold${String(i).padStart(3, '0')}\nname: R${i}\nworkbookId: { $workbook: w${i} }\nfolder: Area ${i % 3}/Team ${i % 2}\n`;
  }
  return files;
}

/** Faults of every kind, 20% of POST, PUT and DELETE requests in total. */
function faults(seed: number): FaultSpec {
  let s = seed;
  const rnd = () => (s = (s * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
  const weights = FAULT_KINDS.map(() => 0.2 + rnd());
  const sum = weights.reduce((a, b) => a + b, 0);
  return {
    rates: Object.fromEntries(FAULT_KINDS.map((k, i) => [k, (weights[i]! / sum) * 0.2])),
    methods: ['POST', 'PUT', 'DELETE'],
    retryAfter: 0,
  };
}

describe('chaos on folders: 20% faults on writes', () => {
  it.concurrent.for(SEEDS)(
    'seed %i: one folder per path, plan empty',
    { timeout: 90_000 },
    async (seed: number, { expect }: TestContext) => {
      const emu = await createEmulator({ port: 0, randomSeed: seed, faults: faults(seed) });
      try {
        const env = { WSC_TOKEN: 'dev-token' };
        const target = ['--base-url', emu.url, '--deployment', '1'];
        const dir = writeFiles(bundle());
        const run = await runCli(['apply', '--dir', dir, ...target, '--auto-approve'], { env, timeoutMs: 80_000 });
        const injected = emu.log.filter((e) => e.fault && e.path.includes('/folders')).map((e) => e.fault!);
        expect([0, 4], `exit ${run.code}\n${run.stdout}\n${run.stderr}`).toContain(run.code);
        console.log(
          `folders chaos seed ${seed}: exit ${run.code}; faults on folder calls: ${injected.join(' ') || 'none'}`,
        );
        emu.setFaults(undefined);
        if (run.code !== 0) {
          const again = await runCli(['apply', '--dir', dir, ...target, '--auto-approve'], { env });
          expect(again.code, again.stdout + again.stderr).toBe(0);
        }
        const folders = (emu.snapshot().folders ?? []).filter((f) => f.deploymentId === 1);
        const keys = folders.map((f) => `${f.parentId ?? 'root'}/${f.name}`);
        expect(new Set(keys).size, keys.join(', ')).toBe(keys.length);
        // 3 areas, 2 teams in each used, 6 subs.
        expect(folders).toHaveLength(3 + 6 + 6);
        const plan = await runCli(['plan', '--detailed-exitcode', '--dir', dir, ...target], { env });
        expect(plan.code, plan.stdout).toBe(0);
      } finally {
        await emu.close();
      }
    },
  );
});
