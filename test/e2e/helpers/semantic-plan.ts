// wsc's semantic check on Cube's query cases, through `wsc plan`: one report
// a query, planned against a deployment whose model the check reads.
import { expect } from 'vitest';
import type { CubeQueryCase } from '../../helpers/cube-queries.js';
import { emulatorEnv, runCli, target, writeFiles } from './index.js';

/**
 * The cases whose verdict differs from Cube's (`false alarm: name`: wsc refuses, Cube runs it; `miss: name`), and
 * the plan's exit code.
 */
export async function verdictsDiffering(
  queries: readonly CubeQueryCase[],
  emu: { url: string },
): Promise<{ wrong: string[]; code: number }> {
  const files: Record<string, string> = {};
  queries.forEach((c, i) => {
    const id = `cq${String(i).padStart(10, '0')}`;
    files[`reports/q${i}.yaml`] =
      `# ${c.name}\nkind: Report\npublicId: ${id}\nname: q${i}\njsonQuery: ${JSON.stringify(JSON.stringify(c.query))}\n`;
  });
  const r = await runCli(['plan', '--dir', writeFiles(files), ...target(emu), '--output', 'json'], {
    env: emulatorEnv,
  });
  const plan = JSON.parse(r.stdout) as { semanticCheck: { status: string }; semanticIssues: { address: string }[] };
  expect(plan.semanticCheck.status, r.stderr).toBe('checked');
  const refused = new Set(plan.semanticIssues.map((i) => i.address));
  const wrong = queries.flatMap((c, i) => {
    const cubeRefuses = c.expect.status !== 200 || c.failsInWarehouse === true;
    const wscRefuses = refused.has(`report/cq${String(i).padStart(10, '0')}`);
    return wscRefuses === cubeRefuses ? [] : [`${wscRefuses ? 'false alarm' : 'miss'}: ${c.name}`];
  });
  return { wrong, code: r.code };
}
