// The token never leaves the Authorization header: not in stdout, stderr,
// the --verbose trace, a saved plan, the GitHub step summary or an exported
// bundle — across plan, apply (with retries and a failure), apply of a saved
// plan and export. Every request is traced, with the token as ***.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, test } from 'vitest';
import { writeBundle } from './helpers/bundles.js';
import { cleanupTemp, emulatorEnv, runCli, target, tempDir, withEmulator, type CliResult } from './helpers/index.js';

afterAll(cleanupTemp);

const TOKEN = emulatorEnv.WSC_TOKEN;

function filesUnder(dir: string): string[] {
  return readdirSync(dir).flatMap((n) => {
    const p = join(dir, n);
    return statSync(p).isDirectory() ? filesUnder(p) : [p];
  });
}

describe('the token stays secret', () => {
  test('plan, apply, apply PLANFILE and export with --verbose: traced requests, token nowhere', async () => {
    const dir = writeBundle({ workbook: true, dashboard: true, publish: true, reports: 2 });
    const work = tempDir();
    const planFile = join(work, 'plan.json');
    const summary = join(work, 'summary.md');
    const outDir = join(work, 'export');
    await withEmulator({}, async (emu) => {
      const outputs: CliResult[] = [];
      const run = async (args: string[], extraEnv: Record<string, string> = {}) => {
        emu.clearLog();
        const r = await runCli([...args, '--verbose'], { env: { ...emulatorEnv, ...extraEnv } });
        outputs.push(r);
        // one "→" trace line per request the server saw, each with the redacted header
        const sent = r.stderr.split('\n').filter((l) => l.startsWith('→ '));
        expect(sent).toHaveLength(emu.log.length);
        // The Core Data API (the semantic check's model) takes its own token bare, never the platform's.
        for (const l of sent)
          expect(l).toMatch(
            l.includes('(Core Data API ') ? / \(Authorization: \*\*\*\)$/ : / \(Authorization: Bearer \*\*\*\)$/,
          );
        return r;
      };

      const plan = await run(['plan', '--out', planFile, '--output', 'markdown', '--dir', dir, ...target(emu)], {
        GITHUB_STEP_SUMMARY: summary,
      });
      expect(plan.code).toBe(0);
      // Reports, workbooks and the root folder list: the bundle manages no user attribute. Beside them the
      // semantic check: environments, a deployment token, /v1/meta.
      expect(emu.log.length).toBe(6);

      // retries and a refused request show in the trace too
      emu.setFaults({ script: [{ method: 'POST', path: /\/reports$/, fault: '503', retryAfter: 0 }] });
      const applied = await run(['apply', planFile, '--auto-approve', '--dir', dir, ...target(emu)]);
      expect(applied.code).toBe(0);
      expect(applied.stderr).toMatch(/^← 503 POST \/api\/v1\/deployments\/1\/reports \d+ms/m);
      expect(applied.stderr).toMatch(/^↻ POST \/api\/v1\/deployments\/1\/reports: 503: retrying after/m);
      emu.setFaults(undefined);

      const again = await run(['apply', '--auto-approve', '--output', 'json', '--dir', dir, ...target(emu)]);
      expect(again.code).toBe(0);

      const exported = await run(['export', '--out', outDir, ...target(emu)]);
      expect(exported.code).toBe(0);

      const bad = await runCli(['plan', '--verbose', '--dir', dir, ...target(emu)], {
        env: { WSC_TOKEN: 'wrong-token-4711' },
      });
      expect(bad.code).toBe(1);
      expect(bad.stderr + bad.stdout).not.toContain('wrong-token-4711');

      const texts = [
        ...outputs.flatMap((o) => [o.stdout, o.stderr]),
        readFileSync(planFile, 'utf8'),
        readFileSync(summary, 'utf8'),
        ...filesUnder(outDir).map((f) => readFileSync(f, 'utf8')),
      ];
      expect(filesUnder(outDir).length).toBeGreaterThan(3);
      for (const t of texts) expect(t).not.toContain(TOKEN);
    });
  }, 120_000);
});
