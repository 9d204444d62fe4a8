// Property (issue 38): over generated bundles (reports with titles, a
// dashboard charting them), generated edits made in the UI (a report's title
// or name, a widget moved, the dashboard's title) and a policy (keep, revert
// or block, from wsc.yaml or --ui-edits), against the emulator as a server:
//   - keep: the plan's `drift` is exactly the set of managed fields (a draft:
//     per widget and member) whose live value differs from the bundle's, and
//     apply sends nothing;
//   - revert: after one apply the live managed fields equal the bundle's, and
//     `wsc drift --detailed-exitcode` exits 0;
//   - block: apply exits 5 when anything differs (0 when nothing does) and
//     sends nothing.
// `npm test` runs a few cases; WSC_PROPERTY_RUNS scales them (docs/testing.md).
import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { writes } from '../../src/emulator/index.js';
import { runs } from '../helpers/property.js';
import { api, chartedSales, pid, reportsIn, workbooksIn, type ChartedReports } from './helpers/bundles.js';
import type { Emulator } from './helpers/index.js';
import { e2eSuite, emulatorEnv, runCli, target, tempDir, withEmulator, writeFiles } from './helpers/index.js';

e2eSuite(600_000);

interface Bundle extends ChartedReports {
  board: string;
}

type Edit =
  | { kind: 'title'; i: number; v: string }
  | { kind: 'name'; i: number; v: string }
  | { kind: 'move'; i: number; x: number }
  | { kind: 'board'; v: string };

type Policy = 'keep' | 'revert' | 'block';

function files(b: Bundle, policy: Policy, inYaml: boolean): Record<string, string> {
  const extra = inYaml ? `    uiEdits: ${policy}\n` : '';
  return {
    'wsc.yaml': `bundle: prop\nenvironments:\n  test:\n    deploymentId: 1\n${extra}`,
    ...chartedSales(b, { board: b.board }),
  };
}

type Draft = { title?: string; widgets: { id: string; position: { x: number } }[] };
const draftOf = (emu: Emulator) =>
  (workbooksIn(emu).find((w) => w.slug === 'sales')!.meta as { dashboardDraft: Draft }).dashboardDraft;

async function uiEdit(emu: Emulator, e: Edit, n: number): Promise<void> {
  if (e.kind === 'title' || e.kind === 'name') {
    const r = reportsIn(emu).find((x) => x.publicId === pid(e.i % n))!;
    const res = await api(emu, 'PUT', `/api/v1/deployments/1/reports/${r.id}`, { [e.kind]: e.v });
    expect(res.status).toBe(200);
    return;
  }
  const draft = structuredClone(draftOf(emu));
  if (e.kind === 'board') draft.title = e.v;
  else draft.widgets.find((w) => w.id === `w${e.i % n}`)!.position.x = e.x;
  const wb = workbooksIn(emu).find((w) => w.slug === 'sales')!;
  const res = await api(emu, 'PUT', `/api/v1/deployments/1/workbooks/${wb.id}`, {
    meta: { ...wb.meta, dashboardDraft: draft },
  });
  expect(res.status).toBe(200);
}

/** The managed fields whose live value differs from the bundle's, as `address field`, read from the emulator. */
function differing(emu: Emulator, b: Bundle): string[] {
  const out: string[] = [];
  b.titles.forEach((t, i) => {
    const r = reportsIn(emu).find((x) => x.publicId === pid(i))!;
    if (r.name !== `r${i}`) out.push(`report/${pid(i)} name`);
    if (r.title !== t) out.push(`report/${pid(i)} title`);
  });
  const draft = draftOf(emu);
  if (draft.title !== b.board) out.push('workbook/sales meta.dashboardDraft title');
  b.xs.forEach((x, i) => {
    if (draft.widgets.find((w) => w.id === `w${i}`)!.position.x !== x)
      out.push(`workbook/sales meta.dashboardDraft widget w${i}`);
  });
  return out.sort();
}

const editArb: fc.Arbitrary<Edit> = fc.oneof(
  fc.record({ kind: fc.constant('title' as const), i: fc.nat(3), v: fc.constantFrom('A', 'UI title') }),
  fc.record({ kind: fc.constant('name' as const), i: fc.nat(3), v: fc.constantFrom('r0', 'renamed') }),
  fc.record({ kind: fc.constant('move' as const), i: fc.nat(3), x: fc.constantFrom(0, 3, 6) }),
  fc.record({ kind: fc.constant('board' as const), v: fc.constantFrom('Sales', 'From the UI') }),
);

describe('UI edits under each policy, over generated bundles and edits', () => {
  test('property: keep lists exactly the differing fields; revert makes live equal the bundle; block exits 5', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.constantFrom('A', 'B'), { minLength: 1, maxLength: 3 }),
        fc.array(fc.constantFrom(0, 6), { minLength: 3, maxLength: 3 }),
        fc.array(editArb, { minLength: 0, maxLength: 4 }),
        fc.constantFrom<Policy>('keep', 'revert', 'block'),
        fc.boolean(),
        async (titles, xs, edits, policy, inYaml) => {
          const b: Bundle = { titles, xs: xs.slice(0, titles.length), board: 'Sales' };
          const dir = tempDir();
          await withEmulator({}, async (emu) => {
            const flag = inYaml ? [] : ['--ui-edits', policy];
            const cli = (args: string[]) => runCli([...args, '--dir', dir, ...target(emu)], { env: emulatorEnv });
            writeFiles(files(b, policy, inYaml), dir);
            expect((await cli(['apply', '--auto-approve', '--ui-edits', 'keep'])).code).toBe(0);
            for (const e of edits) await uiEdit(emu, e, titles.length);
            const expected = differing(emu, b);
            const context = `edits ${JSON.stringify(edits)}, policy ${policy}`;

            const plan = await cli(['plan', '--output', 'json', ...flag]);
            expect(plan.code, `${context}\n${plan.stderr}`).toBe(0);
            const json = JSON.parse(plan.stdout) as { drift: { address: string; field: string; apply: string }[] };
            // Whatever the policy, the plan lists each differing field once, with what apply does with it.
            expect(json.drift.map((d) => `${d.address} ${d.field}`).sort(), context).toEqual(expected);
            const does = { keep: 'keep', revert: 'revert', block: 'blocked' }[policy];
            for (const d of json.drift) expect(d.apply, context).toBe(does);

            emu.clearLog();
            const applied = await cli(['apply', '--auto-approve', ...flag]);
            if (policy === 'revert') {
              expect(applied.code, `${context}\n${applied.stdout}`).toBe(0);
              expect(differing(emu, b), context).toEqual([]);
              const drift = await cli(['drift', '--detailed-exitcode']);
              expect(drift.code, `${context}\n${drift.stdout}`).toBe(0);
            } else {
              expect(applied.code, context).toBe(policy === 'block' && expected.length > 0 ? 5 : 0);
              expect(writes(emu.log), context).toEqual([]);
              expect(differing(emu, b), context).toEqual(expected);
              const drift = await cli(['drift', '--detailed-exitcode']);
              expect(drift.code, `${context}\n${drift.stdout}`).toBe(expected.length > 0 ? 2 : 0);
            }
          });
        },
      ),
      { numRuns: runs(8) },
    );
  });
});
